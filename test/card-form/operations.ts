// Operations the card form tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const CardSessionQuery = graphql(`
  query CardSession($depositId: ID!) {
    cardSession(depositId: $depositId) {
      depositId
      settled
      status
      amount { amount currency }
      scriptUrl
      brands
      formAction
    }
  }
`);

export const SettleCardDepositMutation = graphql(`
  mutation SettleCardDeposit($input: SettleCardDepositInput!) {
    settleCardDeposit(input: $input) {
      deposit { id status declineReason providerStatus events { id type fromStatus toStatus } }
      alreadyProcessed
      userErrors { field code message }
    }
  }
`);
