// Operations the refund tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const RefundFields = graphql(`
  fragment RefundFields on Refund {
    id
    status
    origin
    providerStatus
    amount { amount currency }
    reason
    createdAt
    updatedAt
  }
`);

export const RequestRefundMutation = graphql(`
  mutation RequestRefund($input: RequestRefundInput!) {
    requestRefund(input: $input) {
      refund { ...RefundFields }
      userErrors { field code message }
    }
  }
`);

export const RefundQuery = graphql(`
  query Refund($id: ID!) {
    refund(id: $id) {
      ...RefundFields
      deposit { id status }
    }
  }
`);

export const DepositRefundsQuery = graphql(`
  query DepositRefunds($id: ID!) {
    deposit(id: $id) {
      id
      status
      amount { amount currency }
      refundedAmount { amount currency }
      refundStatus
      disputed
      refunds { ...RefundFields }
      events { type fromStatus toStatus }
    }
  }
`);

export const DepositsRefundsQuery = graphql(`
  query DepositsRefunds($first: Int) {
    deposits(first: $first) {
      edges { node { id refunds { id status deposit { id } } } }
    }
  }
`);

export const DepositsTimesQuery = graphql(`
  query DepositsTimes($first: Int) {
    deposits(first: $first) {
      edges { node { id createdAt updatedAt approvedAt refunds { id createdAt updatedAt } events { id createdAt } } }
    }
  }
`);

export const RefundUpdatedSubscription = graphql(`
  subscription RefundUpdated($id: ID) {
    refundUpdated(id: $id) { ...RefundFields }
  }
`);

export const DepositRefundUpdatedSubscription = graphql(`
  subscription DepositRefundUpdated($id: ID) {
    depositUpdated(id: $id) { id status refundedAmount { amount currency } refundStatus disputed }
  }
`);

export const DepositUpdatedNestedSubscription = graphql(`
  subscription DepositUpdatedNested($id: ID!) {
    depositUpdated(id: $id) {
      id
      status
      refundStatus
      refundedAmount { amount }
      events { id type }
      refunds { id status }
    }
  }
`);
