// Operations the payout tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const PayoutFields = graphql(`
  fragment PayoutFields on Payout {
    id
    status
    providerStatus
    statusReason
    amount { amount currency }
    country
    beneficiary { name documentType documentNumber accountNumber bankCode accountType cci }
    provider
    merchantAccount
    merchantReference
    failureCode
    livemode
    createdAt
    updatedAt
  }
`);

export const CreatePayoutMutation = graphql(`
  mutation CreatePayout($input: CreatePayoutInput!) {
    createPayout(input: $input) {
      payout { ...PayoutFields }
      userErrors { field code message }
    }
  }
`);

export const PayoutQuery = graphql(`
  query Payout($id: ID!) {
    payout(id: $id) {
      ...PayoutFields
      events { id type fromStatus toStatus }
    }
  }
`);

export const PayoutsQuery = graphql(`
  query Payouts($first: Int, $after: String, $filter: PayoutFilter) {
    payouts(first: $first, after: $after, filter: $filter) {
      edges { cursor node { ...PayoutFields } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const PayoutUpdatedSubscription = graphql(`
  subscription PayoutUpdated($id: ID) {
    payoutUpdated(id: $id) { id status providerStatus livemode amount { amount currency } beneficiary { accountNumber cci } }
  }
`);
