// The domain services, created once per gateway and shared by every request (they hold no
// request state; each call receives its own EntityManager fork), and the job kinds they handle.

import { DEFAULT_CLIENT_LIMITS, DEFAULT_RETENTION, type ClientLimits, type GatewayConfig } from './config.js';
import { systemClock, type Clock } from './lib/clock.js';
import { Retention } from './kernel/retention.js';
import { createLogger, type Logger } from './lib/logger.js';
import { SummarisedLog } from './lib/summarised-log.js';
import { JobQueue } from './kernel/jobs.js';
import { createProviderTransport } from './kernel/provider-transport.js';
import { LocalPubSub } from './lib/pubsub.js';
import type { MerchantAccount } from './providers/provider.js';
import { providerRegistry } from './providers/index.js';
import type { ProviderRegistry } from './providers/registry.js';
import { ApiClientService } from './modules/clients/api-client.service.js';
import { EventLog } from './kernel/events/event-log.js';
import { MerchantAccountService } from './modules/merchant-accounts/merchant-account.service.js';
import { WebhookInbox } from './kernel/inbox/inbox.js';
import { DepositService } from './modules/deposits/deposit.service.js';
import { WrittenDeposits } from './modules/deposits/written-deposits.js';
import { RefundService } from './modules/refunds/refund.service.js';
import { refundWebhookHandler } from './modules/refunds/refund-webhooks.js';
import { chargebackWebhookHandler } from './modules/disputes/chargeback-webhooks.js';
import { PayoutService } from './modules/payouts/payout.service.js';
import { createPayoutWebhookHandler } from './modules/payouts/payout-webhooks.js';
import { withdrawalWebhookHandler } from './modules/withdrawals/withdrawal-webhooks.js';
import { WithdrawalService } from './modules/withdrawals/withdrawal.service.js';
import { QrCodeService } from './modules/qr-codes/qr-code.service.js';
import { CardFormService } from './modules/deposits/card-form.service.js';
import { Reconciler, type ReconcileListener } from './modules/reconciliation/reconciler.js';
import { CallRecords } from './kernel/call-records.js';
import { accountsWithPayoutsDue, reconcilePendingPayouts } from './modules/payouts/payout-reconciliation.js';
import { WebhookAdminService } from './modules/webhooks/webhook-admin.service.js';
import { AdminActionService } from './modules/audit/admin-action.service.js';
import { IdempotencyLayer } from './kernel/idempotency.js';
import { OperationRunner } from './kernel/operation.js';
import { registerDepositJobs } from './modules/deposits/deposit-jobs.js';
import { registerInboxJobs } from './kernel/inbox/deferred.js';
import { TransitionPath } from './kernel/transitions.js';
import { Redactions } from './kernel/redaction.js';
import { declareVisibility } from './kernel/visibility.js';
import { DEPOSIT_REDACTION, DEPOSIT_VISIBILITY } from './modules/deposits/deposit-snapshot.js';
import { REFUND_REDACTION, REFUND_VISIBILITY } from './modules/refunds/refund-snapshot.js';
import { PAYOUT_REDACTION, PAYOUT_VISIBILITY } from './modules/payouts/payout-snapshot.js';
import { WITHDRAWAL_REDACTION, WITHDRAWAL_VISIBILITY } from './modules/withdrawals/withdrawal-snapshot.js';
import { depositWebhookHandler } from './modules/deposits/deposit-webhooks.js';
import { depositTransitions } from './modules/deposits/deposit-transitions.js';
import { depositPersonalData } from './modules/deposits/deposit-personal-data.js';
import { payoutPersonalData } from './modules/payouts/payout-personal-data.js';
import { refundTransitions } from './modules/refunds/refund-transitions.js';
import { applyPaymentRefunded } from './modules/refunds/refund-accounting.js';
import { payoutTransitions } from './modules/payouts/payout-transitions.js';
import { withdrawalTransitions } from './modules/withdrawals/withdrawal-webhooks.js';
import { ENDPOINT_SECRET_COLUMNS, NOTIFICATION_ENDPOINT_REDACTION, NOTIFICATION_ENDPOINT_VISIBILITY, NotificationEndpoints } from './modules/notifications/notification-endpoints.js';
import { NO_SECRETS_KEY, type SecretSealer } from './lib/sealed-secrets.js';
import type { SealedColumns } from './db/sealed-columns.js';
import { Notifier } from './modules/notifications/notifier.js';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './modules/notifications/notification-settings.js';

import type { Services } from './graphql/services.js';

export type { Services };

/** Every column of sealed secrets, as the modules that own them declare them: what `secrets reseal` and the start's checks go through. */
export const SEALED_COLUMNS: readonly SealedColumns[] = [ENDPOINT_SECRET_COLUMNS];

export interface CreateServicesOptions {
  merchantAccounts: MerchantAccount[];
  providers: GatewayConfig['providers'];
  /** The providers the gateway knows; default: the built-in ones. */
  registry?: ProviderRegistry;
  logger?: Logger;
  /** Retention windows and sweep; default: `DEFAULT_RETENTION`. */
  retention?: GatewayConfig['retention'];
  /** Measures retention ages (idempotency keys, webhook bodies, payments' personal data) and notification retries; default: the system clock. */
  clock?: Clock;
  /** Back-office notifications' time-out, retries and destinations; default: `DEFAULT_NOTIFICATION_SETTINGS`. */
  notifications?: NotificationSettings;
  /** Seals and opens the secrets the database holds (src/db/secrets-key.ts resolves it); default: none, which seals nothing (a CLI that holds no secret). */
  secrets?: SecretSealer;
  /** The limits of a client that has none of its own; default: `DEFAULT_CLIENT_LIMITS`. */
  clientLimits?: ClientLimits;
}

export function createServices(options: CreateServicesOptions): Services {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const { timeoutMs, maxRetries } = options.providers;
  const clock = options.clock ?? systemClock;
  const retentionConfig = options.retention ?? DEFAULT_RETENTION;
  const events = new EventLog(clock, retentionConfig.subscriptionResumeMs);
  const registry = options.registry ?? providerRegistry();
  // One transport sends every provider's calls: time-outs, retries, call logs and metrics.
  const providerTransport = createProviderTransport({ timeoutMs, maxRetries, logger: logger.child({ component: 'provider-transport' }) });
  // Each provider's ports; every service asks them for the port of an account's own provider.
  const providers = registry.createAdapters(options.providers, logger, providerTransport);
  // Every attempt made for one payment goes on its timeline, written after the call, never in its way.
  const callRecords = new CallRecords({ logger: logger.child({ component: 'call-records' }) });
  providerTransport.onCall((report) => callRecords.recordCall(report));
  const accounts = new MerchantAccountService(options.merchantAccounts, providers);
  // A key's holder may spend every provider attempt, and the back-off between them, before it
  // answers; a crashed holder's key is taken over after that.
  const idempotency = new IdempotencyLayer({
    leaseMs: providerTransport.longestCallMs() + 5_000,
    logger: logger.child({ component: 'idempotency' }),
    windowMs: retentionConfig.idempotencyKeyWindowMs,
    inDoubtWindowMs: retentionConfig.idempotencyInDoubtWindowMs,
    clock,
  });
  const operations = new OperationRunner({ idempotency, logger: logger.child({ component: 'operations' }) });
  const jobs = new JobQueue(logger.child({ component: 'jobs' }));
  // Every subject kind's status changes through one path: registered here, once.
  const transitions = new TransitionPath(events, jobs);
  transitions.register(depositTransitions);
  transitions.register(refundTransitions);
  transitions.register(payoutTransitions);
  transitions.register(withdrawalTransitions);
  // Who sees each subject kind, and what of it only admins may read (asked by every path that shows a snapshot).
  for (const kind of [DEPOSIT_VISIBILITY, REFUND_VISIBILITY, PAYOUT_VISIBILITY, WITHDRAWAL_VISIBILITY, NOTIFICATION_ENDPOINT_VISIBILITY]) declareVisibility(kind);
  const redactions = new Redactions();
  redactions.register(DEPOSIT_REDACTION);
  redactions.register(REFUND_REDACTION);
  redactions.register(PAYOUT_REDACTION);
  redactions.register(WITHDRAWAL_REDACTION);
  redactions.register(NOTIFICATION_ENDPOINT_REDACTION);
  redactions.assertComplete();
  // A webhook's changed deposit row, handed to the detail fetch it schedules when this instance runs it.
  const writtenDeposits = new WrittenDeposits();
  const deposits = new DepositService({ accounts, providers, registry, events, transitions, operations, logger: logger.child({ component: 'deposits' }), written: writtenDeposits });
  const webhooks = new WebhookInbox({ account: (code: string) => accounts.get(code), provider: (name: string) => providers.findDeposits(name) }, clock);
  webhooks.register('deposit', depositWebhookHandler({ transitions, paymentRefunded: (tx, report) => applyPaymentRefunded(tx, report, transitions), written: writtenDeposits }));
  webhooks.register('refund', refundWebhookHandler(transitions));
  webhooks.register('chargeback', chargebackWebhookHandler(events));
  webhooks.register('payout', createPayoutWebhookHandler(transitions));
  webhooks.register('withdrawal', withdrawalWebhookHandler(transitions));
  registerDepositJobs(jobs, deposits);
  registerInboxJobs(jobs, webhooks);
  const payouts = new PayoutService({ accounts, providers, events, transitions, operations, logger: logger.child({ component: 'payouts' }) });
  const refunds = new RefundService({ accounts, providers, transitions, operations, logger: logger.child({ component: 'refunds' }) });
  const reconcilerLogger = logger.child({ component: 'reconciler' });
  const recordCheck = (event: Parameters<ReconcileListener>[0]): void => {
    if (event.subject === 'deposit') callRecords.recordCheck({ subjectType: 'deposit', subjectId: event.depositId, outcome: event.result.outcome, reason: event.result.reason ?? null, at: new Date() });
    else if (event.subject === 'refund') callRecords.recordCheck({ subjectType: 'refund', subjectId: event.result.refundId, outcome: event.result.outcome, reason: event.result.reason ?? null, at: new Date() });
  };
  const notificationSettings = options.notifications ?? DEFAULT_NOTIFICATION_SETTINGS;
  const secrets = options.secrets ?? NO_SECRETS_KEY;
  const notifier = new Notifier({ jobs, events, redactions, clock, logger: logger.child({ component: 'notifications' }), settings: () => notificationSettings, secrets });
  // Every append schedules the fan-out in its own statement, while an enabled endpoint exists.
  events.onAppend(notifier.appendHook());
  // The personal data each module keeps on its payments, erased by the retention sweep (docs/operations.md "Retention").
  const retention = new Retention({ idempotency, clock, logger: logger.child({ component: 'retention' }), settings: retentionConfig });
  retention.register(depositPersonalData);
  retention.register(payoutPersonalData);
  const notificationEndpoints = new NotificationEndpoints({ clock, settings: () => notificationSettings, secrets });
  const clients = new ApiClientService(() => accounts.codes(), new SummarisedLog(logger.child({ component: 'authentication' }), 'authentication failed'), options.clientLimits ?? DEFAULT_CLIENT_LIMITS);
  // A revoked client's endpoints are disabled with it: nothing would be sent to them.
  clients.onRevoke((tx, clientId) => notificationEndpoints.disableForRevokedClient(tx, clientId));
  return {
    accounts,
    clients,
    events,
    webhooks,
    transitions,
    redactions,
    deposits,
    payouts,
    withdrawals: new WithdrawalService(),
    qrCodes: new QrCodeService({ accounts, providers, deposits, logger: logger.child({ component: 'qr-codes' }) }),
    refunds,
    cardForm: new CardFormService({ accounts, providers, deposits, transitions, logger: logger.child({ component: 'card-form' }) }),
    reconciler: withListener(new Reconciler({
      accounts,
      providers,
      deposits,
      refunds,
      transitions,
      jobs,
      logger: reconcilerLogger,
      payouts: {
        accountsDue: (em, options) => accountsWithPayoutsDue(em, options),
        reconcile: async (em, account, options) => {
          const port = providers.adapterFor(account, 'payouts');
          if (!port.ok) throw new Error(port.error.message);
          const result = await reconcilePendingPayouts(
            em,
            account,
            {
              provider: port.port,
              events,
              transitions,
              resume: (fork, id) => payouts.resume(fork, id),
              // Each payout's check goes on its timeline.
              onChecked: (payoutId, outcome, reason) => callRecords.recordCheck({ subjectType: 'payout', subjectId: payoutId, outcome, reason, at: new Date() }),
            },
            { ...options, logger: reconcilerLogger },
          );
          return { checked: result.checked, applied: result.applied, resubmitted: result.resubmitted, missing: result.missing.length };
        },
      },
    }), recordCheck),
    webhookAdmin: new WebhookAdminService({ webhooks }),
    adminActions: new AdminActionService(),
    notificationEndpoints,
    notifier,
    pubsub: new LocalPubSub(),
    idempotency,
    retention,
    jobs,
    providers,
    providerTransport,
    callRecords,
    registry,
  };
}

/** The reconciler, each of its checks of one payment recorded for the payment's timeline. */
function withListener(reconciler: Reconciler, listener: ReconcileListener): Reconciler {
  reconciler.onResult(listener);
  return reconciler;
}
