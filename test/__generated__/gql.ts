/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query CardSession($depositId: ID!) {\n    cardSession(depositId: $depositId) {\n      depositId\n      settled\n      status\n      amount { amount currency }\n      scriptUrl\n      brands\n      formAction\n    }\n  }\n": typeof types.CardSessionDocument,
    "\n  mutation SettleCardDeposit($input: SettleCardDepositInput!) {\n    settleCardDeposit(input: $input) {\n      deposit { id status declineReason providerStatus events { id type fromStatus toStatus } }\n      alreadyProcessed\n      userErrors { field code message }\n    }\n  }\n": typeof types.SettleCardDepositDocument,
    "\n  fragment DepositFields on Deposit {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    fee { amount currency }\n    net { amount currency }\n    rail\n    provider\n    merchantAccount\n    redirectUrl\n    merchantReference\n    declineReason\n    livemode\n    crypto { quoteTtlMinutes underpayTolerancePct }\n    createdAt\n    updatedAt\n    approvedAt\n  }\n": typeof types.DepositFieldsFragmentDoc,
    "\n  mutation CreateDeposit($input: CreateDepositInput!) {\n    createDeposit(input: $input) {\n      deposit { ...DepositFields }\n      userErrors { field code message }\n    }\n  }\n": typeof types.CreateDepositDocument,
    "\n  query Deposit($id: ID!) {\n    deposit(id: $id) {\n      ...DepositFields\n      events { id type fromStatus toStatus }\n    }\n  }\n": typeof types.DepositDocument,
    "\n  query Deposits($first: Int, $after: String, $filter: DepositFilter) {\n    deposits(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...DepositFields events { id type toStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DepositsDocument,
    "\n  query Events($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { cursor node { id type subjectId fromStatus toStatus deposit { id status } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.EventsDocument,
    "\n  subscription DepositUpdated($id: ID) {\n    depositUpdated(id: $id) { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }\n  }\n": typeof types.DepositUpdatedDocument,
    "\n  mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) {\n      claim { claimedAt firstClaim }\n      deposit { id status creditClaimedAt }\n      userErrors { field code message }\n    }\n  }\n": typeof types.ClaimDepositCreditDocument,
    "\n  query CreditEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { id type subjectId fromStatus toStatus deposit { id status disputed creditClaimedAt } } }\n    }\n  }\n": typeof types.CreditEventsDocument,
    "\n  subscription DepositCredit($id: ID) {\n    depositUpdated(id: $id) { id status creditClaimedAt }\n  }\n": typeof types.DepositCreditDocument,
    "\n  query DepositMetadata($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      metadata { key value }\n    }\n  }\n": typeof types.DepositMetadataDocument,
    "\n  subscription ResumeDeposits($id: ID, $after: String) {\n    depositUpdated(id: $id, after: $after) { id status }\n  }\n": typeof types.ResumeDepositsDocument,
    "\n  subscription ResumeRefunds($after: String) {\n    refundUpdated(after: $after) { id status }\n  }\n": typeof types.ResumeRefundsDocument,
    "\n  subscription ResumePayouts($after: String) {\n    payoutUpdated(after: $after) { id status }\n  }\n": typeof types.ResumePayoutsDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      name\n      roles\n      keyPrefix\n      revokedAt\n    }\n  }\n": typeof types.ViewerDocument,
    "\n  query ApiClients($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          name\n          roles\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ApiClientsDocument,
    "\n  query MerchantAccounts {\n    merchantAccounts {\n      code\n      provider\n      livemode\n      rails\n      capabilities\n    }\n  }\n": typeof types.MerchantAccountsDocument,
    "\n  mutation CreateApiClient($input: CreateApiClientInput!) {\n    createApiClient(input: $input) {\n      client {\n        id\n        name\n        roles\n        merchantAccounts\n      }\n      key\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n": typeof types.CreateApiClientDocument,
    "\n  mutation RevokeApiClient($input: RevokeApiClientInput!) {\n    revokeApiClient(input: $input) {\n      client {\n        id\n        revokedAt\n      }\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n": typeof types.RevokeApiClientDocument,
    "\n  subscription Heartbeat($intervalSeconds: Int!) {\n    heartbeat(intervalSeconds: $intervalSeconds) {\n      at\n      sequence\n    }\n  }\n": typeof types.HeartbeatDocument,
    "\n  query AdminActions($first: Int, $after: String, $filter: AdminActionFilter) {\n    adminActions(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id action clientId clientName requestId objects { kind id } outcome startedAt finishedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.AdminActionsDocument,
    "\n  mutation SetApiClientTrustedDocuments($input: SetApiClientTrustedDocumentsInput!) {\n    setApiClientTrustedDocuments(input: $input) {\n      client { id name trustedDocumentsOnly }\n      userErrors { field code message }\n    }\n  }\n": typeof types.SetApiClientTrustedDocumentsDocument,
    "\n  query ApiClientRules($first: Int) {\n    apiClients(first: $first) {\n      edges { node { id name trustedDocumentsOnly } }\n    }\n  }\n": typeof types.ApiClientRulesDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      apiKey { id clientId prefix createdAt expiresAt lastUsedAt revokedAt }\n      key\n      userErrors { field code message }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($input: RevokeApiKeyInput!) {\n    revokeApiKey(input: $input) {\n      apiKey { id clientId prefix revokedAt }\n      userErrors { field code message }\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  query ApiClientKeys($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges { node { id name lastUsedAt revokedAt keys { id prefix createdAt expiresAt lastUsedAt revokedAt } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.ApiClientKeysDocument,
    "\n  query ViewerKeys {\n    viewer { id keys { id prefix expiresAt revokedAt } }\n  }\n": typeof types.ViewerKeysDocument,
    "\n  query RetainedDeliveries($filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: 50, filter: $filter) {\n      edges {\n        node { id eventId eventName outcome reason subjectType subjectId bodySha256 bodyErasedAt receivedAt }\n      }\n    }\n  }\n": typeof types.RetainedDeliveriesDocument,
    "\n  mutation RetainedReplay($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome bodyErasedAt }\n      outcome\n      userErrors { field code message }\n    }\n  }\n": typeof types.RetainedReplayDocument,
    "\n  query NotificationEvents($after: String) {\n    events(first: 100, after: $after) { edges { cursor node { id type subjectId } } }\n  }\n": typeof types.NotificationEventsDocument,
    "\n  mutation ReplayNotificationEndpoint($endpointId: ID!, $after: String!) {\n    replayNotificationEndpoint(endpointId: $endpointId, after: $after) {\n      endpoint { id cursor }\n      userErrors { field code message }\n    }\n  }\n": typeof types.ReplayNotificationEndpointDocument,
    "query FailingEndpoints { notificationEndpoints { id state } }": typeof types.FailingEndpointsDocument,
    "query HealedEndpoints { notificationEndpoints { id state } }": typeof types.HealedEndpointsDocument,
    "\n  mutation UpdateNotificationEndpoint($input: UpdateNotificationEndpointInput!) {\n    updateNotificationEndpoint(input: $input) { endpoint { id url eventTypes enabled disabledReason } userErrors { field code message } }\n  }\n": typeof types.UpdateNotificationEndpointDocument,
    "\n  mutation DeleteNotificationEndpoint($id: ID!) {\n    deleteNotificationEndpoint(id: $id) { endpoint { id } userErrors { field code message } }\n  }\n": typeof types.DeleteNotificationEndpointDocument,
    "\n  query NotificationTrail($objectId: ID) {\n    adminActions(first: 20, filter: { objectId: $objectId }) { edges { node { action outcome } } }\n  }\n": typeof types.NotificationTrailDocument,
    "\n  query OutageEvents {\n    events(first: 100) { edges { node { id type subjectId } } }\n  }\n": typeof types.OutageEventsDocument,
    "\n  mutation CreateNotificationEndpoint($input: CreateNotificationEndpointInput!) {\n    createNotificationEndpoint(input: $input) {\n      endpoint { id clientId url eventTypes enabled state cursor }\n      secret\n      userErrors { field code message }\n    }\n  }\n": typeof types.CreateNotificationEndpointDocument,
    "\n  query NotificationEndpoints($clientId: ID) {\n    notificationEndpoints(clientId: $clientId) { id clientId url eventTypes enabled disabledReason state failedSince nextProbeAt cursor previousSecretExpiresAt }\n  }\n": typeof types.NotificationEndpointsDocument,
    "\n  query NotificationDeliveries($endpointId: ID!, $filter: NotificationDeliveryFilter, $first: Int) {\n    notificationDeliveries(endpointId: $endpointId, filter: $filter, first: $first) {\n      edges {\n        node {\n          id eventId eventType eventCursor subjectType subjectId state attemptCount nextAttemptAt deliveredAt\n          attempts { attemptedAt httpStatus errorCode durationMs responseExcerpt }\n        }\n      }\n    }\n  }\n": typeof types.NotificationDeliveriesDocument,
    "\n  mutation RotateNotificationSecret($id: ID!) {\n    rotateNotificationSecret(id: $id) { endpoint { id previousSecretExpiresAt } secret userErrors { field code message } }\n  }\n": typeof types.RotateNotificationSecretDocument,
    "\n  mutation RedeliverNotification($deliveryId: ID, $eventId: ID, $endpointId: ID) {\n    redeliverNotification(deliveryId: $deliveryId, eventId: $eventId, endpointId: $endpointId) {\n      delivery { id state eventId }\n      userErrors { field code message }\n    }\n  }\n": typeof types.RedeliverNotificationDocument,
    "\n  fragment PayoutFields on Payout {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    country\n    beneficiary { name documentType documentNumber accountNumber bankCode accountType cci }\n    provider\n    merchantAccount\n    merchantReference\n    failureCode\n    livemode\n    createdAt\n    updatedAt\n  }\n": typeof types.PayoutFieldsFragmentDoc,
    "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      payout { ...PayoutFields }\n      userErrors { field code message }\n    }\n  }\n": typeof types.CreatePayoutDocument,
    "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      events { id type fromStatus toStatus }\n    }\n  }\n": typeof types.PayoutDocument,
    "\n  query Payouts($first: Int, $after: String, $filter: PayoutFilter) {\n    payouts(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...PayoutFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.PayoutsDocument,
    "\n  subscription PayoutUpdated($id: ID) {\n    payoutUpdated(id: $id) { id status providerStatus livemode amount { amount currency } beneficiary { accountNumber cci } }\n  }\n": typeof types.PayoutUpdatedDocument,
    "\n  query DepositsWithRefundsAndEvents($first: Int) {\n    deposits(first: $first) {\n      edges {\n        node {\n          id\n          status\n          amount { amount currency }\n          refundedAmount { amount currency }\n          refunds { id status amount { amount currency } deposit { id } }\n          events { id type fromStatus toStatus deposit { id status } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DepositsWithRefundsAndEventsDocument,
    "\n  mutation CreateQrCode($input: CreateQrCodeInput!) {\n    createQrCode(input: $input) {\n      deposit { id status rail provider amount { amount currency } qrCode { payload svg expiresAt } }\n      userErrors { field code message }\n    }\n  }\n": typeof types.CreateQrCodeDocument,
    "\n  mutation SimulateQrPayment($input: SimulateQrPaymentInput!) {\n    simulateQrPayment(input: $input) {\n      deposit { id status }\n      userErrors { field code message }\n    }\n  }\n": typeof types.SimulateQrPaymentDocument,
    "\n  mutation RegisterQrWebhook($input: RegisterQrWebhookInput!) {\n    registerQrWebhook(input: $input) {\n      registration { id providerWebhookId url events status }\n      userErrors { field code message }\n    }\n  }\n": typeof types.RegisterQrWebhookDocument,
    "\n  query QrWebhookRegistrations {\n    qrWebhookRegistrations { providerWebhookId url events status }\n  }\n": typeof types.QrWebhookRegistrationsDocument,
    "\n  query Withdrawals($filter: WithdrawalFilter) {\n    withdrawals(first: 50, filter: $filter) {\n      edges { node { id status providerStatus providerReference merchantAccount provider livemode amount { amount currency } events { type fromStatus toStatus } } }\n    }\n  }\n": typeof types.WithdrawalsDocument,
    "\n  query WithdrawalEvents($after: String) {\n    events(first: 50, after: $after) {\n      edges { cursor node { type subjectType subjectId fromStatus toStatus withdrawal { id status providerReference } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.WithdrawalEventsDocument,
    "\n  mutation ReconcileDeposit($id: ID!) {\n    reconcileDeposit(id: $id) {\n      deposit { id status fee { amount currency } events { id type fromStatus toStatus } }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n": typeof types.ReconcileDepositDocument,
    "\n  query WebhookDeliveries($first: Int, $after: String, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id provider merchantAccount eventId eventName outcome reason subjectType subjectId bodySha256 receivedAt replayedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.WebhookDeliveriesDocument,
    "\n  mutation ReplayWebhookDelivery($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome reason subjectId replayedAt }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n": typeof types.ReplayWebhookDeliveryDocument,
    "\n  fragment RefundFields on Refund {\n    id\n    status\n    origin\n    providerStatus\n    amount { amount currency }\n    reason\n    createdAt\n    updatedAt\n  }\n": typeof types.RefundFieldsFragmentDoc,
    "\n  mutation RequestRefund($input: RequestRefundInput!) {\n    requestRefund(input: $input) {\n      refund { ...RefundFields }\n      userErrors { field code message }\n    }\n  }\n": typeof types.RequestRefundDocument,
    "\n  query Refund($id: ID!) {\n    refund(id: $id) {\n      ...RefundFields\n      deposit { id status }\n    }\n  }\n": typeof types.RefundDocument,
    "\n  query DepositRefunds($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      amount { amount currency }\n      refundedAmount { amount currency }\n      refundStatus\n      disputed\n      refunds { ...RefundFields }\n      events { type fromStatus toStatus }\n    }\n  }\n": typeof types.DepositRefundsDocument,
    "\n  query DepositsRefunds($first: Int) {\n    deposits(first: $first) {\n      edges { node { id refunds { id status deposit { id } } } }\n    }\n  }\n": typeof types.DepositsRefundsDocument,
    "\n  query DepositsTimes($first: Int) {\n    deposits(first: $first) {\n      edges { node { id createdAt updatedAt approvedAt refunds { id createdAt updatedAt } events { id createdAt } } }\n    }\n  }\n": typeof types.DepositsTimesDocument,
    "\n  subscription RefundUpdated($id: ID) {\n    refundUpdated(id: $id) { ...RefundFields }\n  }\n": typeof types.RefundUpdatedDocument,
    "\n  subscription DepositRefundUpdated($id: ID) {\n    depositUpdated(id: $id) { id status refundedAmount { amount currency } refundStatus disputed }\n  }\n": typeof types.DepositRefundUpdatedDocument,
    "\n  subscription DepositUpdatedNested($id: ID!) {\n    depositUpdated(id: $id) {\n      id\n      status\n      refundStatus\n      refundedAmount { amount }\n      events { id type }\n      refunds { id status }\n    }\n  }\n": typeof types.DepositUpdatedNestedDocument,
    "\n  query Timeline($id: ID!, $first: Int, $after: String) {\n    deposit(id: $id) {\n      id\n      timeline(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            __typename kind at traceId\n            ... on EventEntry { eventId type fromStatus toStatus }\n            ... on CreditClaimEntry { claimedBy }\n            ... on ProviderCallEntry { id provider merchantAccount operation attempt callOutcome httpStatus error durationMs requestSummary responseSummary }\n            ... on WebhookDeliveryEntry { id provider eventName providerEventId deliveryOutcome reason }\n            ... on JobEntry { id jobKind status attempts maxAttempts lastError finishedAt }\n            ... on ReconciliationCheckEntry { id checkOutcome reason }\n            ... on NotificationAttemptEntry { id eventId endpointId endpointUrl httpStatus errorCode durationMs }\n          }\n        }\n        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      }\n    }\n  }\n": typeof types.TimelineDocument,
    "\n  query RefundTimeline($id: ID!, $first: Int) {\n    refund(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n": typeof types.RefundTimelineDocument,
    "\n  query PayoutTimeline($id: ID!, $first: Int) {\n    payout(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome requestSummary } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n": typeof types.PayoutTimelineDocument,
    "\n  mutation TimelineClaim($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) { claim { claimedAt firstClaim } userErrors { code message } }\n  }\n": typeof types.TimelineClaimDocument,
    "\n  mutation TimelineReconcile($id: ID!) {\n    reconcileDeposit(id: $id) { outcome reason deposit { id status } }\n  }\n": typeof types.TimelineReconcileDocument,
    "\n  query TimelineDepositState($id: ID!) {\n    deposit(id: $id) { id status fee { amount } }\n  }\n": typeof types.TimelineDepositStateDocument,
    "\n  query VisibleEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { subjectType subjectId } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.VisibleEventsDocument,
    "\n  query VisibleDeposits($first: Int) {\n    deposits(first: $first) {\n      edges { node { id merchantAccount refunds { id } } }\n    }\n  }\n": typeof types.VisibleDepositsDocument,
    "\n  query VisiblePayouts($first: Int) {\n    payouts(first: $first) {\n      edges { node { id merchantAccount } }\n    }\n  }\n": typeof types.VisiblePayoutsDocument,
    "\n  subscription DepositStream {\n    depositUpdated { id status }\n  }\n": typeof types.DepositStreamDocument,
    "\n  subscription RefundStream {\n    refundUpdated { id status }\n  }\n": typeof types.RefundStreamDocument,
    "\n  subscription PayoutStream {\n    payoutUpdated { id status }\n  }\n": typeof types.PayoutStreamDocument,
};
const documents: Documents = {
    "\n  query CardSession($depositId: ID!) {\n    cardSession(depositId: $depositId) {\n      depositId\n      settled\n      status\n      amount { amount currency }\n      scriptUrl\n      brands\n      formAction\n    }\n  }\n": types.CardSessionDocument,
    "\n  mutation SettleCardDeposit($input: SettleCardDepositInput!) {\n    settleCardDeposit(input: $input) {\n      deposit { id status declineReason providerStatus events { id type fromStatus toStatus } }\n      alreadyProcessed\n      userErrors { field code message }\n    }\n  }\n": types.SettleCardDepositDocument,
    "\n  fragment DepositFields on Deposit {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    fee { amount currency }\n    net { amount currency }\n    rail\n    provider\n    merchantAccount\n    redirectUrl\n    merchantReference\n    declineReason\n    livemode\n    crypto { quoteTtlMinutes underpayTolerancePct }\n    createdAt\n    updatedAt\n    approvedAt\n  }\n": types.DepositFieldsFragmentDoc,
    "\n  mutation CreateDeposit($input: CreateDepositInput!) {\n    createDeposit(input: $input) {\n      deposit { ...DepositFields }\n      userErrors { field code message }\n    }\n  }\n": types.CreateDepositDocument,
    "\n  query Deposit($id: ID!) {\n    deposit(id: $id) {\n      ...DepositFields\n      events { id type fromStatus toStatus }\n    }\n  }\n": types.DepositDocument,
    "\n  query Deposits($first: Int, $after: String, $filter: DepositFilter) {\n    deposits(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...DepositFields events { id type toStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DepositsDocument,
    "\n  query Events($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { cursor node { id type subjectId fromStatus toStatus deposit { id status } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.EventsDocument,
    "\n  subscription DepositUpdated($id: ID) {\n    depositUpdated(id: $id) { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }\n  }\n": types.DepositUpdatedDocument,
    "\n  mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) {\n      claim { claimedAt firstClaim }\n      deposit { id status creditClaimedAt }\n      userErrors { field code message }\n    }\n  }\n": types.ClaimDepositCreditDocument,
    "\n  query CreditEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { id type subjectId fromStatus toStatus deposit { id status disputed creditClaimedAt } } }\n    }\n  }\n": types.CreditEventsDocument,
    "\n  subscription DepositCredit($id: ID) {\n    depositUpdated(id: $id) { id status creditClaimedAt }\n  }\n": types.DepositCreditDocument,
    "\n  query DepositMetadata($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      metadata { key value }\n    }\n  }\n": types.DepositMetadataDocument,
    "\n  subscription ResumeDeposits($id: ID, $after: String) {\n    depositUpdated(id: $id, after: $after) { id status }\n  }\n": types.ResumeDepositsDocument,
    "\n  subscription ResumeRefunds($after: String) {\n    refundUpdated(after: $after) { id status }\n  }\n": types.ResumeRefundsDocument,
    "\n  subscription ResumePayouts($after: String) {\n    payoutUpdated(after: $after) { id status }\n  }\n": types.ResumePayoutsDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      name\n      roles\n      keyPrefix\n      revokedAt\n    }\n  }\n": types.ViewerDocument,
    "\n  query ApiClients($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          name\n          roles\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ApiClientsDocument,
    "\n  query MerchantAccounts {\n    merchantAccounts {\n      code\n      provider\n      livemode\n      rails\n      capabilities\n    }\n  }\n": types.MerchantAccountsDocument,
    "\n  mutation CreateApiClient($input: CreateApiClientInput!) {\n    createApiClient(input: $input) {\n      client {\n        id\n        name\n        roles\n        merchantAccounts\n      }\n      key\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n": types.CreateApiClientDocument,
    "\n  mutation RevokeApiClient($input: RevokeApiClientInput!) {\n    revokeApiClient(input: $input) {\n      client {\n        id\n        revokedAt\n      }\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n": types.RevokeApiClientDocument,
    "\n  subscription Heartbeat($intervalSeconds: Int!) {\n    heartbeat(intervalSeconds: $intervalSeconds) {\n      at\n      sequence\n    }\n  }\n": types.HeartbeatDocument,
    "\n  query AdminActions($first: Int, $after: String, $filter: AdminActionFilter) {\n    adminActions(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id action clientId clientName requestId objects { kind id } outcome startedAt finishedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.AdminActionsDocument,
    "\n  mutation SetApiClientTrustedDocuments($input: SetApiClientTrustedDocumentsInput!) {\n    setApiClientTrustedDocuments(input: $input) {\n      client { id name trustedDocumentsOnly }\n      userErrors { field code message }\n    }\n  }\n": types.SetApiClientTrustedDocumentsDocument,
    "\n  query ApiClientRules($first: Int) {\n    apiClients(first: $first) {\n      edges { node { id name trustedDocumentsOnly } }\n    }\n  }\n": types.ApiClientRulesDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      apiKey { id clientId prefix createdAt expiresAt lastUsedAt revokedAt }\n      key\n      userErrors { field code message }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($input: RevokeApiKeyInput!) {\n    revokeApiKey(input: $input) {\n      apiKey { id clientId prefix revokedAt }\n      userErrors { field code message }\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  query ApiClientKeys($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges { node { id name lastUsedAt revokedAt keys { id prefix createdAt expiresAt lastUsedAt revokedAt } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.ApiClientKeysDocument,
    "\n  query ViewerKeys {\n    viewer { id keys { id prefix expiresAt revokedAt } }\n  }\n": types.ViewerKeysDocument,
    "\n  query RetainedDeliveries($filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: 50, filter: $filter) {\n      edges {\n        node { id eventId eventName outcome reason subjectType subjectId bodySha256 bodyErasedAt receivedAt }\n      }\n    }\n  }\n": types.RetainedDeliveriesDocument,
    "\n  mutation RetainedReplay($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome bodyErasedAt }\n      outcome\n      userErrors { field code message }\n    }\n  }\n": types.RetainedReplayDocument,
    "\n  query NotificationEvents($after: String) {\n    events(first: 100, after: $after) { edges { cursor node { id type subjectId } } }\n  }\n": types.NotificationEventsDocument,
    "\n  mutation ReplayNotificationEndpoint($endpointId: ID!, $after: String!) {\n    replayNotificationEndpoint(endpointId: $endpointId, after: $after) {\n      endpoint { id cursor }\n      userErrors { field code message }\n    }\n  }\n": types.ReplayNotificationEndpointDocument,
    "query FailingEndpoints { notificationEndpoints { id state } }": types.FailingEndpointsDocument,
    "query HealedEndpoints { notificationEndpoints { id state } }": types.HealedEndpointsDocument,
    "\n  mutation UpdateNotificationEndpoint($input: UpdateNotificationEndpointInput!) {\n    updateNotificationEndpoint(input: $input) { endpoint { id url eventTypes enabled disabledReason } userErrors { field code message } }\n  }\n": types.UpdateNotificationEndpointDocument,
    "\n  mutation DeleteNotificationEndpoint($id: ID!) {\n    deleteNotificationEndpoint(id: $id) { endpoint { id } userErrors { field code message } }\n  }\n": types.DeleteNotificationEndpointDocument,
    "\n  query NotificationTrail($objectId: ID) {\n    adminActions(first: 20, filter: { objectId: $objectId }) { edges { node { action outcome } } }\n  }\n": types.NotificationTrailDocument,
    "\n  query OutageEvents {\n    events(first: 100) { edges { node { id type subjectId } } }\n  }\n": types.OutageEventsDocument,
    "\n  mutation CreateNotificationEndpoint($input: CreateNotificationEndpointInput!) {\n    createNotificationEndpoint(input: $input) {\n      endpoint { id clientId url eventTypes enabled state cursor }\n      secret\n      userErrors { field code message }\n    }\n  }\n": types.CreateNotificationEndpointDocument,
    "\n  query NotificationEndpoints($clientId: ID) {\n    notificationEndpoints(clientId: $clientId) { id clientId url eventTypes enabled disabledReason state failedSince nextProbeAt cursor previousSecretExpiresAt }\n  }\n": types.NotificationEndpointsDocument,
    "\n  query NotificationDeliveries($endpointId: ID!, $filter: NotificationDeliveryFilter, $first: Int) {\n    notificationDeliveries(endpointId: $endpointId, filter: $filter, first: $first) {\n      edges {\n        node {\n          id eventId eventType eventCursor subjectType subjectId state attemptCount nextAttemptAt deliveredAt\n          attempts { attemptedAt httpStatus errorCode durationMs responseExcerpt }\n        }\n      }\n    }\n  }\n": types.NotificationDeliveriesDocument,
    "\n  mutation RotateNotificationSecret($id: ID!) {\n    rotateNotificationSecret(id: $id) { endpoint { id previousSecretExpiresAt } secret userErrors { field code message } }\n  }\n": types.RotateNotificationSecretDocument,
    "\n  mutation RedeliverNotification($deliveryId: ID, $eventId: ID, $endpointId: ID) {\n    redeliverNotification(deliveryId: $deliveryId, eventId: $eventId, endpointId: $endpointId) {\n      delivery { id state eventId }\n      userErrors { field code message }\n    }\n  }\n": types.RedeliverNotificationDocument,
    "\n  fragment PayoutFields on Payout {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    country\n    beneficiary { name documentType documentNumber accountNumber bankCode accountType cci }\n    provider\n    merchantAccount\n    merchantReference\n    failureCode\n    livemode\n    createdAt\n    updatedAt\n  }\n": types.PayoutFieldsFragmentDoc,
    "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      payout { ...PayoutFields }\n      userErrors { field code message }\n    }\n  }\n": types.CreatePayoutDocument,
    "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      events { id type fromStatus toStatus }\n    }\n  }\n": types.PayoutDocument,
    "\n  query Payouts($first: Int, $after: String, $filter: PayoutFilter) {\n    payouts(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...PayoutFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.PayoutsDocument,
    "\n  subscription PayoutUpdated($id: ID) {\n    payoutUpdated(id: $id) { id status providerStatus livemode amount { amount currency } beneficiary { accountNumber cci } }\n  }\n": types.PayoutUpdatedDocument,
    "\n  query DepositsWithRefundsAndEvents($first: Int) {\n    deposits(first: $first) {\n      edges {\n        node {\n          id\n          status\n          amount { amount currency }\n          refundedAmount { amount currency }\n          refunds { id status amount { amount currency } deposit { id } }\n          events { id type fromStatus toStatus deposit { id status } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DepositsWithRefundsAndEventsDocument,
    "\n  mutation CreateQrCode($input: CreateQrCodeInput!) {\n    createQrCode(input: $input) {\n      deposit { id status rail provider amount { amount currency } qrCode { payload svg expiresAt } }\n      userErrors { field code message }\n    }\n  }\n": types.CreateQrCodeDocument,
    "\n  mutation SimulateQrPayment($input: SimulateQrPaymentInput!) {\n    simulateQrPayment(input: $input) {\n      deposit { id status }\n      userErrors { field code message }\n    }\n  }\n": types.SimulateQrPaymentDocument,
    "\n  mutation RegisterQrWebhook($input: RegisterQrWebhookInput!) {\n    registerQrWebhook(input: $input) {\n      registration { id providerWebhookId url events status }\n      userErrors { field code message }\n    }\n  }\n": types.RegisterQrWebhookDocument,
    "\n  query QrWebhookRegistrations {\n    qrWebhookRegistrations { providerWebhookId url events status }\n  }\n": types.QrWebhookRegistrationsDocument,
    "\n  query Withdrawals($filter: WithdrawalFilter) {\n    withdrawals(first: 50, filter: $filter) {\n      edges { node { id status providerStatus providerReference merchantAccount provider livemode amount { amount currency } events { type fromStatus toStatus } } }\n    }\n  }\n": types.WithdrawalsDocument,
    "\n  query WithdrawalEvents($after: String) {\n    events(first: 50, after: $after) {\n      edges { cursor node { type subjectType subjectId fromStatus toStatus withdrawal { id status providerReference } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.WithdrawalEventsDocument,
    "\n  mutation ReconcileDeposit($id: ID!) {\n    reconcileDeposit(id: $id) {\n      deposit { id status fee { amount currency } events { id type fromStatus toStatus } }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n": types.ReconcileDepositDocument,
    "\n  query WebhookDeliveries($first: Int, $after: String, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id provider merchantAccount eventId eventName outcome reason subjectType subjectId bodySha256 receivedAt replayedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.WebhookDeliveriesDocument,
    "\n  mutation ReplayWebhookDelivery($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome reason subjectId replayedAt }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n": types.ReplayWebhookDeliveryDocument,
    "\n  fragment RefundFields on Refund {\n    id\n    status\n    origin\n    providerStatus\n    amount { amount currency }\n    reason\n    createdAt\n    updatedAt\n  }\n": types.RefundFieldsFragmentDoc,
    "\n  mutation RequestRefund($input: RequestRefundInput!) {\n    requestRefund(input: $input) {\n      refund { ...RefundFields }\n      userErrors { field code message }\n    }\n  }\n": types.RequestRefundDocument,
    "\n  query Refund($id: ID!) {\n    refund(id: $id) {\n      ...RefundFields\n      deposit { id status }\n    }\n  }\n": types.RefundDocument,
    "\n  query DepositRefunds($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      amount { amount currency }\n      refundedAmount { amount currency }\n      refundStatus\n      disputed\n      refunds { ...RefundFields }\n      events { type fromStatus toStatus }\n    }\n  }\n": types.DepositRefundsDocument,
    "\n  query DepositsRefunds($first: Int) {\n    deposits(first: $first) {\n      edges { node { id refunds { id status deposit { id } } } }\n    }\n  }\n": types.DepositsRefundsDocument,
    "\n  query DepositsTimes($first: Int) {\n    deposits(first: $first) {\n      edges { node { id createdAt updatedAt approvedAt refunds { id createdAt updatedAt } events { id createdAt } } }\n    }\n  }\n": types.DepositsTimesDocument,
    "\n  subscription RefundUpdated($id: ID) {\n    refundUpdated(id: $id) { ...RefundFields }\n  }\n": types.RefundUpdatedDocument,
    "\n  subscription DepositRefundUpdated($id: ID) {\n    depositUpdated(id: $id) { id status refundedAmount { amount currency } refundStatus disputed }\n  }\n": types.DepositRefundUpdatedDocument,
    "\n  subscription DepositUpdatedNested($id: ID!) {\n    depositUpdated(id: $id) {\n      id\n      status\n      refundStatus\n      refundedAmount { amount }\n      events { id type }\n      refunds { id status }\n    }\n  }\n": types.DepositUpdatedNestedDocument,
    "\n  query Timeline($id: ID!, $first: Int, $after: String) {\n    deposit(id: $id) {\n      id\n      timeline(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            __typename kind at traceId\n            ... on EventEntry { eventId type fromStatus toStatus }\n            ... on CreditClaimEntry { claimedBy }\n            ... on ProviderCallEntry { id provider merchantAccount operation attempt callOutcome httpStatus error durationMs requestSummary responseSummary }\n            ... on WebhookDeliveryEntry { id provider eventName providerEventId deliveryOutcome reason }\n            ... on JobEntry { id jobKind status attempts maxAttempts lastError finishedAt }\n            ... on ReconciliationCheckEntry { id checkOutcome reason }\n            ... on NotificationAttemptEntry { id eventId endpointId endpointUrl httpStatus errorCode durationMs }\n          }\n        }\n        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      }\n    }\n  }\n": types.TimelineDocument,
    "\n  query RefundTimeline($id: ID!, $first: Int) {\n    refund(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n": types.RefundTimelineDocument,
    "\n  query PayoutTimeline($id: ID!, $first: Int) {\n    payout(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome requestSummary } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n": types.PayoutTimelineDocument,
    "\n  mutation TimelineClaim($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) { claim { claimedAt firstClaim } userErrors { code message } }\n  }\n": types.TimelineClaimDocument,
    "\n  mutation TimelineReconcile($id: ID!) {\n    reconcileDeposit(id: $id) { outcome reason deposit { id status } }\n  }\n": types.TimelineReconcileDocument,
    "\n  query TimelineDepositState($id: ID!) {\n    deposit(id: $id) { id status fee { amount } }\n  }\n": types.TimelineDepositStateDocument,
    "\n  query VisibleEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { subjectType subjectId } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.VisibleEventsDocument,
    "\n  query VisibleDeposits($first: Int) {\n    deposits(first: $first) {\n      edges { node { id merchantAccount refunds { id } } }\n    }\n  }\n": types.VisibleDepositsDocument,
    "\n  query VisiblePayouts($first: Int) {\n    payouts(first: $first) {\n      edges { node { id merchantAccount } }\n    }\n  }\n": types.VisiblePayoutsDocument,
    "\n  subscription DepositStream {\n    depositUpdated { id status }\n  }\n": types.DepositStreamDocument,
    "\n  subscription RefundStream {\n    refundUpdated { id status }\n  }\n": types.RefundStreamDocument,
    "\n  subscription PayoutStream {\n    payoutUpdated { id status }\n  }\n": types.PayoutStreamDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CardSession($depositId: ID!) {\n    cardSession(depositId: $depositId) {\n      depositId\n      settled\n      status\n      amount { amount currency }\n      scriptUrl\n      brands\n      formAction\n    }\n  }\n"): (typeof documents)["\n  query CardSession($depositId: ID!) {\n    cardSession(depositId: $depositId) {\n      depositId\n      settled\n      status\n      amount { amount currency }\n      scriptUrl\n      brands\n      formAction\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SettleCardDeposit($input: SettleCardDepositInput!) {\n    settleCardDeposit(input: $input) {\n      deposit { id status declineReason providerStatus events { id type fromStatus toStatus } }\n      alreadyProcessed\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SettleCardDeposit($input: SettleCardDepositInput!) {\n    settleCardDeposit(input: $input) {\n      deposit { id status declineReason providerStatus events { id type fromStatus toStatus } }\n      alreadyProcessed\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DepositFields on Deposit {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    fee { amount currency }\n    net { amount currency }\n    rail\n    provider\n    merchantAccount\n    redirectUrl\n    merchantReference\n    declineReason\n    livemode\n    crypto { quoteTtlMinutes underpayTolerancePct }\n    createdAt\n    updatedAt\n    approvedAt\n  }\n"): (typeof documents)["\n  fragment DepositFields on Deposit {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    fee { amount currency }\n    net { amount currency }\n    rail\n    provider\n    merchantAccount\n    redirectUrl\n    merchantReference\n    declineReason\n    livemode\n    crypto { quoteTtlMinutes underpayTolerancePct }\n    createdAt\n    updatedAt\n    approvedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateDeposit($input: CreateDepositInput!) {\n    createDeposit(input: $input) {\n      deposit { ...DepositFields }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateDeposit($input: CreateDepositInput!) {\n    createDeposit(input: $input) {\n      deposit { ...DepositFields }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Deposit($id: ID!) {\n    deposit(id: $id) {\n      ...DepositFields\n      events { id type fromStatus toStatus }\n    }\n  }\n"): (typeof documents)["\n  query Deposit($id: ID!) {\n    deposit(id: $id) {\n      ...DepositFields\n      events { id type fromStatus toStatus }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Deposits($first: Int, $after: String, $filter: DepositFilter) {\n    deposits(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...DepositFields events { id type toStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Deposits($first: Int, $after: String, $filter: DepositFilter) {\n    deposits(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...DepositFields events { id type toStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Events($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { cursor node { id type subjectId fromStatus toStatus deposit { id status } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Events($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { cursor node { id type subjectId fromStatus toStatus deposit { id status } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DepositUpdated($id: ID) {\n    depositUpdated(id: $id) { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }\n  }\n"): (typeof documents)["\n  subscription DepositUpdated($id: ID) {\n    depositUpdated(id: $id) { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) {\n      claim { claimedAt firstClaim }\n      deposit { id status creditClaimedAt }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ClaimDepositCredit($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) {\n      claim { claimedAt firstClaim }\n      deposit { id status creditClaimedAt }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CreditEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { id type subjectId fromStatus toStatus deposit { id status disputed creditClaimedAt } } }\n    }\n  }\n"): (typeof documents)["\n  query CreditEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { id type subjectId fromStatus toStatus deposit { id status disputed creditClaimedAt } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DepositCredit($id: ID) {\n    depositUpdated(id: $id) { id status creditClaimedAt }\n  }\n"): (typeof documents)["\n  subscription DepositCredit($id: ID) {\n    depositUpdated(id: $id) { id status creditClaimedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DepositMetadata($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      metadata { key value }\n    }\n  }\n"): (typeof documents)["\n  query DepositMetadata($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      metadata { key value }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ResumeDeposits($id: ID, $after: String) {\n    depositUpdated(id: $id, after: $after) { id status }\n  }\n"): (typeof documents)["\n  subscription ResumeDeposits($id: ID, $after: String) {\n    depositUpdated(id: $id, after: $after) { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ResumeRefunds($after: String) {\n    refundUpdated(after: $after) { id status }\n  }\n"): (typeof documents)["\n  subscription ResumeRefunds($after: String) {\n    refundUpdated(after: $after) { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ResumePayouts($after: String) {\n    payoutUpdated(after: $after) { id status }\n  }\n"): (typeof documents)["\n  subscription ResumePayouts($after: String) {\n    payoutUpdated(after: $after) { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      id\n      name\n      roles\n      keyPrefix\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer {\n      id\n      name\n      roles\n      keyPrefix\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiClients($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          name\n          roles\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ApiClients($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          name\n          roles\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MerchantAccounts {\n    merchantAccounts {\n      code\n      provider\n      livemode\n      rails\n      capabilities\n    }\n  }\n"): (typeof documents)["\n  query MerchantAccounts {\n    merchantAccounts {\n      code\n      provider\n      livemode\n      rails\n      capabilities\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiClient($input: CreateApiClientInput!) {\n    createApiClient(input: $input) {\n      client {\n        id\n        name\n        roles\n        merchantAccounts\n      }\n      key\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiClient($input: CreateApiClientInput!) {\n    createApiClient(input: $input) {\n      client {\n        id\n        name\n        roles\n        merchantAccounts\n      }\n      key\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiClient($input: RevokeApiClientInput!) {\n    revokeApiClient(input: $input) {\n      client {\n        id\n        revokedAt\n      }\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiClient($input: RevokeApiClientInput!) {\n    revokeApiClient(input: $input) {\n      client {\n        id\n        revokedAt\n      }\n      userErrors {\n        field\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Heartbeat($intervalSeconds: Int!) {\n    heartbeat(intervalSeconds: $intervalSeconds) {\n      at\n      sequence\n    }\n  }\n"): (typeof documents)["\n  subscription Heartbeat($intervalSeconds: Int!) {\n    heartbeat(intervalSeconds: $intervalSeconds) {\n      at\n      sequence\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminActions($first: Int, $after: String, $filter: AdminActionFilter) {\n    adminActions(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id action clientId clientName requestId objects { kind id } outcome startedAt finishedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query AdminActions($first: Int, $after: String, $filter: AdminActionFilter) {\n    adminActions(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id action clientId clientName requestId objects { kind id } outcome startedAt finishedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetApiClientTrustedDocuments($input: SetApiClientTrustedDocumentsInput!) {\n    setApiClientTrustedDocuments(input: $input) {\n      client { id name trustedDocumentsOnly }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SetApiClientTrustedDocuments($input: SetApiClientTrustedDocumentsInput!) {\n    setApiClientTrustedDocuments(input: $input) {\n      client { id name trustedDocumentsOnly }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiClientRules($first: Int) {\n    apiClients(first: $first) {\n      edges { node { id name trustedDocumentsOnly } }\n    }\n  }\n"): (typeof documents)["\n  query ApiClientRules($first: Int) {\n    apiClients(first: $first) {\n      edges { node { id name trustedDocumentsOnly } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      apiKey { id clientId prefix createdAt expiresAt lastUsedAt revokedAt }\n      key\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      apiKey { id clientId prefix createdAt expiresAt lastUsedAt revokedAt }\n      key\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($input: RevokeApiKeyInput!) {\n    revokeApiKey(input: $input) {\n      apiKey { id clientId prefix revokedAt }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($input: RevokeApiKeyInput!) {\n    revokeApiKey(input: $input) {\n      apiKey { id clientId prefix revokedAt }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiClientKeys($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges { node { id name lastUsedAt revokedAt keys { id prefix createdAt expiresAt lastUsedAt revokedAt } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query ApiClientKeys($first: Int, $after: String) {\n    apiClients(first: $first, after: $after) {\n      edges { node { id name lastUsedAt revokedAt keys { id prefix createdAt expiresAt lastUsedAt revokedAt } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewerKeys {\n    viewer { id keys { id prefix expiresAt revokedAt } }\n  }\n"): (typeof documents)["\n  query ViewerKeys {\n    viewer { id keys { id prefix expiresAt revokedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RetainedDeliveries($filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: 50, filter: $filter) {\n      edges {\n        node { id eventId eventName outcome reason subjectType subjectId bodySha256 bodyErasedAt receivedAt }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RetainedDeliveries($filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: 50, filter: $filter) {\n      edges {\n        node { id eventId eventName outcome reason subjectType subjectId bodySha256 bodyErasedAt receivedAt }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetainedReplay($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome bodyErasedAt }\n      outcome\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RetainedReplay($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome bodyErasedAt }\n      outcome\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationEvents($after: String) {\n    events(first: 100, after: $after) { edges { cursor node { id type subjectId } } }\n  }\n"): (typeof documents)["\n  query NotificationEvents($after: String) {\n    events(first: 100, after: $after) { edges { cursor node { id type subjectId } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReplayNotificationEndpoint($endpointId: ID!, $after: String!) {\n    replayNotificationEndpoint(endpointId: $endpointId, after: $after) {\n      endpoint { id cursor }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ReplayNotificationEndpoint($endpointId: ID!, $after: String!) {\n    replayNotificationEndpoint(endpointId: $endpointId, after: $after) {\n      endpoint { id cursor }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FailingEndpoints { notificationEndpoints { id state } }"): (typeof documents)["query FailingEndpoints { notificationEndpoints { id state } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query HealedEndpoints { notificationEndpoints { id state } }"): (typeof documents)["query HealedEndpoints { notificationEndpoints { id state } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateNotificationEndpoint($input: UpdateNotificationEndpointInput!) {\n    updateNotificationEndpoint(input: $input) { endpoint { id url eventTypes enabled disabledReason } userErrors { field code message } }\n  }\n"): (typeof documents)["\n  mutation UpdateNotificationEndpoint($input: UpdateNotificationEndpointInput!) {\n    updateNotificationEndpoint(input: $input) { endpoint { id url eventTypes enabled disabledReason } userErrors { field code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteNotificationEndpoint($id: ID!) {\n    deleteNotificationEndpoint(id: $id) { endpoint { id } userErrors { field code message } }\n  }\n"): (typeof documents)["\n  mutation DeleteNotificationEndpoint($id: ID!) {\n    deleteNotificationEndpoint(id: $id) { endpoint { id } userErrors { field code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationTrail($objectId: ID) {\n    adminActions(first: 20, filter: { objectId: $objectId }) { edges { node { action outcome } } }\n  }\n"): (typeof documents)["\n  query NotificationTrail($objectId: ID) {\n    adminActions(first: 20, filter: { objectId: $objectId }) { edges { node { action outcome } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OutageEvents {\n    events(first: 100) { edges { node { id type subjectId } } }\n  }\n"): (typeof documents)["\n  query OutageEvents {\n    events(first: 100) { edges { node { id type subjectId } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateNotificationEndpoint($input: CreateNotificationEndpointInput!) {\n    createNotificationEndpoint(input: $input) {\n      endpoint { id clientId url eventTypes enabled state cursor }\n      secret\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateNotificationEndpoint($input: CreateNotificationEndpointInput!) {\n    createNotificationEndpoint(input: $input) {\n      endpoint { id clientId url eventTypes enabled state cursor }\n      secret\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationEndpoints($clientId: ID) {\n    notificationEndpoints(clientId: $clientId) { id clientId url eventTypes enabled disabledReason state failedSince nextProbeAt cursor previousSecretExpiresAt }\n  }\n"): (typeof documents)["\n  query NotificationEndpoints($clientId: ID) {\n    notificationEndpoints(clientId: $clientId) { id clientId url eventTypes enabled disabledReason state failedSince nextProbeAt cursor previousSecretExpiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationDeliveries($endpointId: ID!, $filter: NotificationDeliveryFilter, $first: Int) {\n    notificationDeliveries(endpointId: $endpointId, filter: $filter, first: $first) {\n      edges {\n        node {\n          id eventId eventType eventCursor subjectType subjectId state attemptCount nextAttemptAt deliveredAt\n          attempts { attemptedAt httpStatus errorCode durationMs responseExcerpt }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query NotificationDeliveries($endpointId: ID!, $filter: NotificationDeliveryFilter, $first: Int) {\n    notificationDeliveries(endpointId: $endpointId, filter: $filter, first: $first) {\n      edges {\n        node {\n          id eventId eventType eventCursor subjectType subjectId state attemptCount nextAttemptAt deliveredAt\n          attempts { attemptedAt httpStatus errorCode durationMs responseExcerpt }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateNotificationSecret($id: ID!) {\n    rotateNotificationSecret(id: $id) { endpoint { id previousSecretExpiresAt } secret userErrors { field code message } }\n  }\n"): (typeof documents)["\n  mutation RotateNotificationSecret($id: ID!) {\n    rotateNotificationSecret(id: $id) { endpoint { id previousSecretExpiresAt } secret userErrors { field code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverNotification($deliveryId: ID, $eventId: ID, $endpointId: ID) {\n    redeliverNotification(deliveryId: $deliveryId, eventId: $eventId, endpointId: $endpointId) {\n      delivery { id state eventId }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverNotification($deliveryId: ID, $eventId: ID, $endpointId: ID) {\n    redeliverNotification(deliveryId: $deliveryId, eventId: $eventId, endpointId: $endpointId) {\n      delivery { id state eventId }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PayoutFields on Payout {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    country\n    beneficiary { name documentType documentNumber accountNumber bankCode accountType cci }\n    provider\n    merchantAccount\n    merchantReference\n    failureCode\n    livemode\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment PayoutFields on Payout {\n    id\n    status\n    providerStatus\n    statusReason\n    amount { amount currency }\n    country\n    beneficiary { name documentType documentNumber accountNumber bankCode accountType cci }\n    provider\n    merchantAccount\n    merchantReference\n    failureCode\n    livemode\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      payout { ...PayoutFields }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      payout { ...PayoutFields }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      events { id type fromStatus toStatus }\n    }\n  }\n"): (typeof documents)["\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      events { id type fromStatus toStatus }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payouts($first: Int, $after: String, $filter: PayoutFilter) {\n    payouts(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...PayoutFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Payouts($first: Int, $after: String, $filter: PayoutFilter) {\n    payouts(first: $first, after: $after, filter: $filter) {\n      edges { cursor node { ...PayoutFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PayoutUpdated($id: ID) {\n    payoutUpdated(id: $id) { id status providerStatus livemode amount { amount currency } beneficiary { accountNumber cci } }\n  }\n"): (typeof documents)["\n  subscription PayoutUpdated($id: ID) {\n    payoutUpdated(id: $id) { id status providerStatus livemode amount { amount currency } beneficiary { accountNumber cci } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DepositsWithRefundsAndEvents($first: Int) {\n    deposits(first: $first) {\n      edges {\n        node {\n          id\n          status\n          amount { amount currency }\n          refundedAmount { amount currency }\n          refunds { id status amount { amount currency } deposit { id } }\n          events { id type fromStatus toStatus deposit { id status } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query DepositsWithRefundsAndEvents($first: Int) {\n    deposits(first: $first) {\n      edges {\n        node {\n          id\n          status\n          amount { amount currency }\n          refundedAmount { amount currency }\n          refunds { id status amount { amount currency } deposit { id } }\n          events { id type fromStatus toStatus deposit { id status } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateQrCode($input: CreateQrCodeInput!) {\n    createQrCode(input: $input) {\n      deposit { id status rail provider amount { amount currency } qrCode { payload svg expiresAt } }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateQrCode($input: CreateQrCodeInput!) {\n    createQrCode(input: $input) {\n      deposit { id status rail provider amount { amount currency } qrCode { payload svg expiresAt } }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SimulateQrPayment($input: SimulateQrPaymentInput!) {\n    simulateQrPayment(input: $input) {\n      deposit { id status }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SimulateQrPayment($input: SimulateQrPaymentInput!) {\n    simulateQrPayment(input: $input) {\n      deposit { id status }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterQrWebhook($input: RegisterQrWebhookInput!) {\n    registerQrWebhook(input: $input) {\n      registration { id providerWebhookId url events status }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RegisterQrWebhook($input: RegisterQrWebhookInput!) {\n    registerQrWebhook(input: $input) {\n      registration { id providerWebhookId url events status }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query QrWebhookRegistrations {\n    qrWebhookRegistrations { providerWebhookId url events status }\n  }\n"): (typeof documents)["\n  query QrWebhookRegistrations {\n    qrWebhookRegistrations { providerWebhookId url events status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Withdrawals($filter: WithdrawalFilter) {\n    withdrawals(first: 50, filter: $filter) {\n      edges { node { id status providerStatus providerReference merchantAccount provider livemode amount { amount currency } events { type fromStatus toStatus } } }\n    }\n  }\n"): (typeof documents)["\n  query Withdrawals($filter: WithdrawalFilter) {\n    withdrawals(first: 50, filter: $filter) {\n      edges { node { id status providerStatus providerReference merchantAccount provider livemode amount { amount currency } events { type fromStatus toStatus } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WithdrawalEvents($after: String) {\n    events(first: 50, after: $after) {\n      edges { cursor node { type subjectType subjectId fromStatus toStatus withdrawal { id status providerReference } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query WithdrawalEvents($after: String) {\n    events(first: 50, after: $after) {\n      edges { cursor node { type subjectType subjectId fromStatus toStatus withdrawal { id status providerReference } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReconcileDeposit($id: ID!) {\n    reconcileDeposit(id: $id) {\n      deposit { id status fee { amount currency } events { id type fromStatus toStatus } }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ReconcileDeposit($id: ID!) {\n    reconcileDeposit(id: $id) {\n      deposit { id status fee { amount currency } events { id type fromStatus toStatus } }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDeliveries($first: Int, $after: String, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id provider merchantAccount eventId eventName outcome reason subjectType subjectId bodySha256 receivedAt replayedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query WebhookDeliveries($first: Int, $after: String, $filter: WebhookDeliveryFilter) {\n    webhookDeliveries(first: $first, after: $after, filter: $filter) {\n      edges {\n        cursor\n        node { id provider merchantAccount eventId eventName outcome reason subjectType subjectId bodySha256 receivedAt replayedAt }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReplayWebhookDelivery($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome reason subjectId replayedAt }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ReplayWebhookDelivery($id: ID!) {\n    replayWebhookDelivery(id: $id) {\n      delivery { id outcome reason subjectId replayedAt }\n      outcome\n      reason\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RefundFields on Refund {\n    id\n    status\n    origin\n    providerStatus\n    amount { amount currency }\n    reason\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment RefundFields on Refund {\n    id\n    status\n    origin\n    providerStatus\n    amount { amount currency }\n    reason\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestRefund($input: RequestRefundInput!) {\n    requestRefund(input: $input) {\n      refund { ...RefundFields }\n      userErrors { field code message }\n    }\n  }\n"): (typeof documents)["\n  mutation RequestRefund($input: RequestRefundInput!) {\n    requestRefund(input: $input) {\n      refund { ...RefundFields }\n      userErrors { field code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Refund($id: ID!) {\n    refund(id: $id) {\n      ...RefundFields\n      deposit { id status }\n    }\n  }\n"): (typeof documents)["\n  query Refund($id: ID!) {\n    refund(id: $id) {\n      ...RefundFields\n      deposit { id status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DepositRefunds($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      amount { amount currency }\n      refundedAmount { amount currency }\n      refundStatus\n      disputed\n      refunds { ...RefundFields }\n      events { type fromStatus toStatus }\n    }\n  }\n"): (typeof documents)["\n  query DepositRefunds($id: ID!) {\n    deposit(id: $id) {\n      id\n      status\n      amount { amount currency }\n      refundedAmount { amount currency }\n      refundStatus\n      disputed\n      refunds { ...RefundFields }\n      events { type fromStatus toStatus }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DepositsRefunds($first: Int) {\n    deposits(first: $first) {\n      edges { node { id refunds { id status deposit { id } } } }\n    }\n  }\n"): (typeof documents)["\n  query DepositsRefunds($first: Int) {\n    deposits(first: $first) {\n      edges { node { id refunds { id status deposit { id } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DepositsTimes($first: Int) {\n    deposits(first: $first) {\n      edges { node { id createdAt updatedAt approvedAt refunds { id createdAt updatedAt } events { id createdAt } } }\n    }\n  }\n"): (typeof documents)["\n  query DepositsTimes($first: Int) {\n    deposits(first: $first) {\n      edges { node { id createdAt updatedAt approvedAt refunds { id createdAt updatedAt } events { id createdAt } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RefundUpdated($id: ID) {\n    refundUpdated(id: $id) { ...RefundFields }\n  }\n"): (typeof documents)["\n  subscription RefundUpdated($id: ID) {\n    refundUpdated(id: $id) { ...RefundFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DepositRefundUpdated($id: ID) {\n    depositUpdated(id: $id) { id status refundedAmount { amount currency } refundStatus disputed }\n  }\n"): (typeof documents)["\n  subscription DepositRefundUpdated($id: ID) {\n    depositUpdated(id: $id) { id status refundedAmount { amount currency } refundStatus disputed }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DepositUpdatedNested($id: ID!) {\n    depositUpdated(id: $id) {\n      id\n      status\n      refundStatus\n      refundedAmount { amount }\n      events { id type }\n      refunds { id status }\n    }\n  }\n"): (typeof documents)["\n  subscription DepositUpdatedNested($id: ID!) {\n    depositUpdated(id: $id) {\n      id\n      status\n      refundStatus\n      refundedAmount { amount }\n      events { id type }\n      refunds { id status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Timeline($id: ID!, $first: Int, $after: String) {\n    deposit(id: $id) {\n      id\n      timeline(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            __typename kind at traceId\n            ... on EventEntry { eventId type fromStatus toStatus }\n            ... on CreditClaimEntry { claimedBy }\n            ... on ProviderCallEntry { id provider merchantAccount operation attempt callOutcome httpStatus error durationMs requestSummary responseSummary }\n            ... on WebhookDeliveryEntry { id provider eventName providerEventId deliveryOutcome reason }\n            ... on JobEntry { id jobKind status attempts maxAttempts lastError finishedAt }\n            ... on ReconciliationCheckEntry { id checkOutcome reason }\n            ... on NotificationAttemptEntry { id eventId endpointId endpointUrl httpStatus errorCode durationMs }\n          }\n        }\n        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Timeline($id: ID!, $first: Int, $after: String) {\n    deposit(id: $id) {\n      id\n      timeline(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            __typename kind at traceId\n            ... on EventEntry { eventId type fromStatus toStatus }\n            ... on CreditClaimEntry { claimedBy }\n            ... on ProviderCallEntry { id provider merchantAccount operation attempt callOutcome httpStatus error durationMs requestSummary responseSummary }\n            ... on WebhookDeliveryEntry { id provider eventName providerEventId deliveryOutcome reason }\n            ... on JobEntry { id jobKind status attempts maxAttempts lastError finishedAt }\n            ... on ReconciliationCheckEntry { id checkOutcome reason }\n            ... on NotificationAttemptEntry { id eventId endpointId endpointUrl httpStatus errorCode durationMs }\n          }\n        }\n        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RefundTimeline($id: ID!, $first: Int) {\n    refund(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RefundTimeline($id: ID!, $first: Int) {\n    refund(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayoutTimeline($id: ID!, $first: Int) {\n    payout(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome requestSummary } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query PayoutTimeline($id: ID!, $first: Int) {\n    payout(id: $id) {\n      id\n      timeline(first: $first) {\n        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome requestSummary } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TimelineClaim($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) { claim { claimedAt firstClaim } userErrors { code message } }\n  }\n"): (typeof documents)["\n  mutation TimelineClaim($input: ClaimDepositCreditInput!) {\n    claimDepositCredit(input: $input) { claim { claimedAt firstClaim } userErrors { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TimelineReconcile($id: ID!) {\n    reconcileDeposit(id: $id) { outcome reason deposit { id status } }\n  }\n"): (typeof documents)["\n  mutation TimelineReconcile($id: ID!) {\n    reconcileDeposit(id: $id) { outcome reason deposit { id status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TimelineDepositState($id: ID!) {\n    deposit(id: $id) { id status fee { amount } }\n  }\n"): (typeof documents)["\n  query TimelineDepositState($id: ID!) {\n    deposit(id: $id) { id status fee { amount } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VisibleEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { subjectType subjectId } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query VisibleEvents($first: Int, $after: String) {\n    events(first: $first, after: $after) {\n      edges { node { subjectType subjectId } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VisibleDeposits($first: Int) {\n    deposits(first: $first) {\n      edges { node { id merchantAccount refunds { id } } }\n    }\n  }\n"): (typeof documents)["\n  query VisibleDeposits($first: Int) {\n    deposits(first: $first) {\n      edges { node { id merchantAccount refunds { id } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VisiblePayouts($first: Int) {\n    payouts(first: $first) {\n      edges { node { id merchantAccount } }\n    }\n  }\n"): (typeof documents)["\n  query VisiblePayouts($first: Int) {\n    payouts(first: $first) {\n      edges { node { id merchantAccount } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DepositStream {\n    depositUpdated { id status }\n  }\n"): (typeof documents)["\n  subscription DepositStream {\n    depositUpdated { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RefundStream {\n    refundUpdated { id status }\n  }\n"): (typeof documents)["\n  subscription RefundStream {\n    refundUpdated { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PayoutStream {\n    payoutUpdated { id status }\n  }\n"): (typeof documents)["\n  subscription PayoutStream {\n    payoutUpdated { id status }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;