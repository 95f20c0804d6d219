// Operations the deposit tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const DepositFields = graphql(`
  fragment DepositFields on Deposit {
    id
    status
    providerStatus
    statusReason
    amount { amount currency }
    fee { amount currency }
    net { amount currency }
    rail
    provider
    merchantAccount
    redirectUrl
    merchantReference
    declineReason
    livemode
    crypto { quoteTtlMinutes underpayTolerancePct }
    createdAt
    updatedAt
    approvedAt
  }
`);

export const CreateDepositMutation = graphql(`
  mutation CreateDeposit($input: CreateDepositInput!) {
    createDeposit(input: $input) {
      deposit { ...DepositFields }
      userErrors { field code message }
    }
  }
`);

export const DepositQuery = graphql(`
  query Deposit($id: ID!) {
    deposit(id: $id) {
      ...DepositFields
      events { id type fromStatus toStatus }
    }
  }
`);

export const DepositsQuery = graphql(`
  query Deposits($first: Int, $after: String, $filter: DepositFilter) {
    deposits(first: $first, after: $after, filter: $filter) {
      edges { cursor node { ...DepositFields events { id type toStatus } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const EventsQuery = graphql(`
  query Events($first: Int, $after: String) {
    events(first: $first, after: $after) {
      edges { cursor node { id type subjectId fromStatus toStatus deposit { id status } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const DepositUpdatedSubscription = graphql(`
  subscription DepositUpdated($id: ID) {
    depositUpdated(id: $id) { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }
  }
`);

export const ClaimDepositCreditMutation = graphql(`
  mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {
    claimDepositCredit(input: $input) {
      claim { claimedAt firstClaim }
      deposit { id status creditClaimedAt }
      userErrors { field code message }
    }
  }
`);

export const CreditEventsQuery = graphql(`
  query CreditEvents($first: Int, $after: String) {
    events(first: $first, after: $after) {
      edges { node { id type subjectId fromStatus toStatus deposit { id status disputed creditClaimedAt } } }
    }
  }
`);

export const DepositCreditSubscription = graphql(`
  subscription DepositCredit($id: ID) {
    depositUpdated(id: $id) { id status creditClaimedAt }
  }
`);

export const DepositMetadataQuery = graphql(`
  query DepositMetadata($id: ID!) {
    deposit(id: $id) {
      id
      status
      metadata { key value }
    }
  }
`);
