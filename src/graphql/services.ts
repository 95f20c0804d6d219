// What a resolver may call: the domain services the API's resolvers and field loaders use, as the
// composition point (src/services.ts) builds them once per gateway. The kernel's parts (job queue,
// inbox, transition path, provider transport...) are not here: no resolver reaches them.

import type { LocalPubSub } from '../lib/pubsub.js';
import type { ApiClientService } from '../modules/clients/api-client.service.js';
import type { EventLog } from '../kernel/events/event-log.js';
import type { MerchantAccountService } from '../modules/merchant-accounts/merchant-account.service.js';
import type { DepositService } from '../modules/deposits/deposit.service.js';
import type { RefundService } from '../modules/refunds/refund.service.js';
import type { PayoutService } from '../modules/payouts/payout.service.js';
import type { WithdrawalService } from '../modules/withdrawals/withdrawal.service.js';
import type { QrCodeService } from '../modules/qr-codes/qr-code.service.js';
import type { CardFormService } from '../modules/deposits/card-form.service.js';
import type { Reconciler } from '../modules/reconciliation/reconciler.js';
import type { WebhookAdminService } from '../modules/webhooks/webhook-admin.service.js';
import type { AdminActionService } from '../modules/audit/admin-action.service.js';
import type { NotificationEndpoints } from '../modules/notifications/notification-endpoints.js';
import type { Notifier } from '../modules/notifications/notifier.js';

export interface Services {
  clients: ApiClientService;
  accounts: MerchantAccountService;
  /** The payment event log: `events(after:)`, subscriptions' replays, loaders of a payment's events. */
  events: EventLog;
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
}
