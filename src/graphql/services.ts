// What a resolver may call: the domain services, the kernel's parts and the provider adapters, as
// the composition point (src/services.ts) builds them once per gateway.

import type { JobQueue } from '../kernel/jobs.js';
import type { LocalPubSub } from '../lib/pubsub.js';
import type { ProviderAdapters } from '../providers/ports.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { ApiClientService } from '../modules/clients/api-client.service.js';
import type { EventLog } from '../kernel/events/event-log.js';
import type { MerchantAccountService } from '../modules/merchant-accounts/merchant-account.service.js';
import type { WebhookInbox } from '../kernel/inbox/inbox.js';
import type { DepositService } from '../modules/deposits/deposit.service.js';
import type { RefundService } from '../modules/refunds/refund.service.js';
import type { PayoutService } from '../modules/payouts/payout.service.js';
import type { WithdrawalService } from '../modules/withdrawals/withdrawal.service.js';
import type { QrCodeService } from '../modules/qr-codes/qr-code.service.js';
import type { CardFormService } from '../modules/deposits/card-form.service.js';
import type { Reconciler } from '../modules/reconciliation/reconciler.js';
import type { WebhookAdminService } from '../modules/webhooks/webhook-admin.service.js';
import type { AdminActionService } from '../modules/audit/admin-action.service.js';
import type { IdempotencyLayer } from '../kernel/idempotency.js';
import type { HttpProviderTransport } from '../kernel/provider-transport.js';
import type { Retention } from '../kernel/retention.js';
import type { CallRecords } from '../kernel/call-records.js';
import type { TransitionPath } from '../kernel/transitions.js';
import type { Redactions } from '../kernel/redaction.js';
import type { NotificationEndpoints } from '../modules/notifications/notification-endpoints.js';
import type { Notifier } from '../modules/notifications/notifier.js';

export interface Services {
  clients: ApiClientService;
  accounts: MerchantAccountService;
  events: EventLog;
  /** The webhook inbox: stores, dedupes and dispatches verified provider events to their subject kinds' handlers. */
  webhooks: WebhookInbox;
  /** The one path by which any subject's status changes (src/kernel/transitions.ts), with every subject kind registered. */
  transitions: TransitionPath;
  /** What of each subject kind only admins may read (src/kernel/redaction.ts), with every subject kind registered. */
  redactions: Redactions;
  deposits: DepositService;
  refunds: RefundService;
  payouts: PayoutService;
  /** Admin reads of the withdrawals providers report. */
  withdrawals: WithdrawalService;
  qrCodes: QrCodeService;
  cardForm: CardFormService;
  /** Asks providers about deposits, refunds and payouts whose webhooks may be lost; reconciliation's jobs and reconcileDeposit use it. */
  reconciler: Reconciler;
  webhookAdmin: WebhookAdminService;
  /** The admin audit trail: every action taken with an ADMIN key (src/graphql/audit.ts writes it). */
  adminActions: AdminActionService;
  /** Back-office notification endpoints (admin): create, update, rotate, delete. */
  notificationEndpoints: NotificationEndpoints;
  /** Fans events out to notification endpoints and delivers them, signed, in order per subject (jobs). */
  notifier: Notifier;
  /** This instance's live fan-out: the event bus publishes every committed payment event here (PAYMENT_EVENTS_TOPIC). */
  pubsub: LocalPubSub;
  /** Idempotency keys of every money-moving mutation: started with the gateway, to hear releases from every instance. */
  idempotency: IdempotencyLayer;
  /** Deletes expired idempotency keys, erases old webhook bodies and old payments' personal data: the `retention.sweep` job runs it. */
  retention: Retention;
  /**
   * Durable follow-up work: job rows enqueued in the transaction of the change that needs them,
   * run by every instance's worker (started and stopped with the gateway).
   */
  jobs: JobQueue;
  /** Each provider's ports; a service asks for the port of an account's own provider (`adapterFor`). */
  providers: ProviderAdapters;
  /** Sends every provider call; tells its listeners (the metrics) of each attempt. */
  providerTransport: HttpProviderTransport;
  /**
   * The provider call attempts made for one payment and the reconciliation checks of one, written
   * after the fact by group commit for the payment's timeline (attached at start, flushed at close).
   */
  callRecords: CallRecords;
  /** What each provider declared: rails, key rules, settings. */
  registry: ProviderRegistry;
}
