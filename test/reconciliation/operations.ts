// Operations the reconciliation and webhook admin tests send, typed by GraphQL Code Generator.

import { graphql } from '../__generated__/gql.js';

export const ReconcileDepositMutation = graphql(`
  mutation ReconcileDeposit($id: ID!) {
    reconcileDeposit(id: $id) {
      deposit { id status fee { amount currency } events { id type fromStatus toStatus } }
      outcome
      reason
      userErrors { field code message }
    }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query WebhookDeliveries($first: Int, $after: String, $filter: WebhookDeliveryFilter) {
    webhookDeliveries(first: $first, after: $after, filter: $filter) {
      edges {
        cursor
        node { id provider merchantAccount eventId eventName outcome reason subjectType subjectId bodySha256 receivedAt replayedAt }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const ReplayWebhookDeliveryMutation = graphql(`
  mutation ReplayWebhookDelivery($id: ID!) {
    replayWebhookDelivery(id: $id) {
      delivery { id outcome reason subjectId replayedAt }
      outcome
      reason
      userErrors { field code message }
    }
  }
`);
