// Operations the QR tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const CreateQrCodeMutation = graphql(`
  mutation CreateQrCode($input: CreateQrCodeInput!) {
    createQrCode(input: $input) {
      deposit { id status rail provider amount { amount currency } qrCode { payload svg expiresAt } }
      userErrors { field code message }
    }
  }
`);

export const SimulateQrPaymentMutation = graphql(`
  mutation SimulateQrPayment($input: SimulateQrPaymentInput!) {
    simulateQrPayment(input: $input) {
      deposit { id status }
      userErrors { field code message }
    }
  }
`);

export const RegisterQrWebhookMutation = graphql(`
  mutation RegisterQrWebhook($input: RegisterQrWebhookInput!) {
    registerQrWebhook(input: $input) {
      registration { id providerWebhookId url events status }
      userErrors { field code message }
    }
  }
`);

export const QrWebhookRegistrationsQuery = graphql(`
  query QrWebhookRegistrations {
    qrWebhookRegistrations { providerWebhookId url events status }
  }
`);

export const WithdrawalsQuery = graphql(`
  query Withdrawals($filter: WithdrawalFilter) {
    withdrawals(first: 50, filter: $filter) {
      edges { node { id status providerStatus providerReference merchantAccount provider livemode amount { amount currency } events { type fromStatus toStatus } } }
    }
  }
`);

export const WithdrawalEventsQuery = graphql(`
  query WithdrawalEvents($after: String) {
    events(first: 50, after: $after) {
      edges { cursor node { type subjectType subjectId fromStatus toStatus withdrawal { id status providerReference } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
