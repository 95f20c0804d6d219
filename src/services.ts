// The gateway's domain services and kernel parts, built once per gateway (and by the CLI, for its
// own database) in one pass, in dependency order, each with what it needs: nothing is changed on a
// part once it is built. They hold no request state; each call receives its own EntityManager fork.
// The one registry filled after its owner is built is the job queue's handlers (`JobHandlers`):
// the parts whose jobs the queue runs enqueue through it.

import { outboundPolicy, type GatewayConfig } from './config.js';
import type { Database } from './db/database.js';
import { systemClock, type Clock } from './lib/clock.js';
import { Retention, registerRetentionJobs, type RetentionResult, type RetentionSchedule } from './kernel/retention.js';
import { createLogger, type Logger } from './lib/logger.js';
import { SummarisedLog } from './lib/summarised-log.js';
import { JobHandlers, JobQueue, type JobResultEvent } from './kernel/jobs.js';
import { createProviderTransport, type ProviderCallReport } from './kernel/provider-transport.js';
import { LocalPubSub } from './lib/pubsub.js';
import { providerRegistry } from './providers/index.js';
import type { ProviderAdapters } from './providers/ports.js';
import type { ProviderRegistry } from './providers/registry.js';
import { ApiClientService } from './modules/clients/api-client.service.js';
import { EventLog, type ResumeObserver } from './kernel/events/event-log.js';
import { MerchantAccountService } from './modules/merchant-accounts/merchant-account.service.js';
import { WebhookInbox } from './kernel/inbox/inbox.js';
import { DepositService } from './modules/deposits/deposit.service.js';
import { DetailsHandOff } from './modules/deposits/written-deposits.js';
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
import { registerReconciliationJobs, type ReconciliationSchedule } from './modules/reconciliation/reconciliation-jobs.js';
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
import { declareTracedPayment } from './kernel/payment-scope.js';
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
import { ENDPOINT_SECRET_COLUMNS, NOTIFICATION_ENDPOINT_REDACTION, NOTIFICATION_ENDPOINT_VISIBILITY, NotificationEndpoints, notificationEndpointRows } from './modules/notifications/notification-endpoints.js';
import { NO_SECRETS_KEY, type SecretSealer } from './lib/sealed-secrets.js';
import type { SealedColumns } from './db/sealed-columns.js';
import { Notifier, registerNotificationJobs } from './modules/notifications/notifier.js';
import type { DeliveryOutcome } from './modules/notifications/notification-delivery-reads.js';
import { notificationFanoutHook } from './modules/notifications/notification-fanout.js';
import type { NotificationSettings } from './modules/notifications/notification-settings.js';

import type { Services } from './graphql/services.js';

export type { Services };

/** Every column of sealed secrets, as the modules that own them declare them: what `secrets reseal` and the start's checks go through. */
export const SEALED_COLUMNS: readonly SealedColumns[] = [ENDPOINT_SECRET_COLUMNS];

/** What a resolver may call (`Services`), and the kernel parts the gateway runs and its tests drive. */
export interface GatewayServices extends Services {
  /** The webhook inbox: stores, dedupes and dispatches verified provider events to their subject kinds' handlers. */
  webhooks: WebhookInbox;
  /** The one path by which any subject's status changes (src/kernel/transitions.ts), with every subject kind. */
  transitions: TransitionPath;
  /** What of each subject kind only admins may read (src/kernel/redaction.ts), with every subject kind. */
  redactions: Redactions;
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
  /**
   * The provider call attempts made for one payment and the reconciliation checks of one, written
   * after the fact by group commit for the payment's timeline (flushed at close).
   */
  callRecords: CallRecords;
  /** What each provider declared: rails, key rules, settings. */
  registry: ProviderRegistry;
}

/** Who is told what the parts do, besides the parts themselves (the gateway's metrics). */
export interface ServiceObservers {
  providerCall: (report: ProviderCallReport) => void;
  reconciliation: ReconcileListener;
  job: (event: JobResultEvent) => void;
  retention: (result: RetentionResult) => void;
  notificationAttempt: (outcome: DeliveryOutcome) => void;
  subscriptionResumes: ResumeObserver;
}

export interface CreateServicesOptions {
  /** The merchant accounts, providers' settings, job worker, reconciliation, retention, notifications and client limits. */
  config: GatewayConfig;
  /** Where the job worker and the call records take their EntityManagers from. */
  db: Database;
  /** The providers the gateway knows; default: the built-in ones. */
  registry?: ProviderRegistry;
  logger?: Logger;
  /** Measures retention ages (idempotency keys, webhook bodies, payments' personal data) and notification retries; default: the system clock. */
  clock?: Clock;
  /** Seals and opens the secrets the database holds (src/db/secrets-key.ts resolves it); default: none, which seals nothing (a CLI that holds no secret). */
  secrets?: SecretSealer;
  /** Where shoppers reach this gateway, for the card form's return (`CardFormService`); none in the CLI. */
  returnBaseUrl?: () => string | undefined;
  observers?: ServiceObservers;
}

/** The parts, and the handles of the two recurring sweeps the gateway exposes. */
export interface ComposedServices {
  services: GatewayServices;
  /** Reconciliation's sweep on demand; undefined when RECONCILER_ENABLED=false. */
  reconciliation: ReconciliationSchedule | undefined;
  /** The retention sweep on demand. */
  retentionSweep: RetentionSchedule;
}

/** The kernel parts every module's service is built with. */
type Kernel = ReturnType<typeof kernelParts>;

export function createServices(options: CreateServicesOptions): ComposedServices {
  const kernel = kernelParts(options);
  const services: GatewayServices = { ...kernel.parts, ...moduleServices(options, kernel) };
  // Last: every part whose jobs the queue runs now exists (the queue was built before them).
  const { jobHandlers } = kernel;
  registerDepositJobs(jobHandlers, services.deposits);
  registerInboxJobs(jobHandlers, services.webhooks);
  registerNotificationJobs(jobHandlers, services.notifier, { sweepIntervalMs: kernel.notificationSettings.sweepIntervalMs });
  const { config, db } = options;
  const reconciliation = registerReconciliationJobs(jobHandlers, services.jobs, services.reconciler, {
    enabled: config.reconciler.enabled,
    intervalMs: config.reconciler.intervalMs,
    batchSize: config.reconciler.batchSize,
    fork: () => db.fork(),
    logger: kernel.logger.child({ component: 'reconciler' }),
  });
  // Retention runs as a recurring job too (docs/operations.md "Retention").
  const retentionSweep = registerRetentionJobs(jobHandlers, services.jobs, services.retention, { settings: config.retention, fork: () => db.fork(), logger: kernel.logger.child({ component: 'retention' }) });
  return { services, reconciliation, retentionSweep };
}

/** The kernel's parts, each built with the ones before it. */
function kernelParts(options: CreateServicesOptions) {
  const { config, db, observers } = options;
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const clock = options.clock ?? systemClock;
  const registry = options.registry ?? providerRegistry();
  const retentionConfig = config.retention;
  // Every attempt made for one payment goes on its timeline, written after the call, never in its way.
  const callRecords = new CallRecords({ logger: logger.child({ component: 'call-records' }), fork: () => db.fork() });
  // One transport sends every provider's calls: time-outs, retries, call logs and metrics.
  const providerTransport = createProviderTransport({
    timeoutMs: config.providers.timeoutMs,
    maxRetries: config.providers.maxRetries,
    logger: logger.child({ component: 'provider-transport' }),
    onCall: [(report) => callRecords.recordCall(report), ...(observers ? [observers.providerCall] : [])],
  });
  // The slowest provider answer: every attempt timing out, plus the back-off between them.
  const slowestAnswerMs = providerTransport.longestCallMs() + 5_000;
  // Each provider's ports; every service asks them for the port of an account's own provider.
  const providers = registry.createAdapters(config.providers, logger, providerTransport);
  // A key's holder may spend every provider attempt, and the back-off between them, before it
  // answers; a crashed holder's key is taken over after that.
  const idempotency = new IdempotencyLayer({
    leaseMs: slowestAnswerMs,
    logger: logger.child({ component: 'idempotency' }),
    windowMs: retentionConfig.idempotencyKeyWindowMs,
    inDoubtWindowMs: retentionConfig.idempotencyInDoubtWindowMs,
    clock,
  });
  const jobHandlers = new JobHandlers();
  const jobs = new JobQueue({
    logger: logger.child({ component: 'jobs' }),
    db,
    handlers: jobHandlers,
    // A lease outlasts the slowest provider answer, so no other instance takes a job (a
    // reconciliation check, say) while this one still waits on the provider for it.
    settings: { ...config.jobs, leaseMs: Math.max(60_000, slowestAnswerMs) },
    onResult: observers?.job,
  });
  // Every append schedules the notifications' fan-out in its own statement, while an enabled endpoint exists.
  const events = new EventLog(clock, retentionConfig.subscriptionResumeMs, { append: [notificationFanoutHook(jobs)], resumes: observers?.subscriptionResumes });
  // Every subject kind's status changes through one path; each kind's state machine is checked as it is given.
  // A notification endpoint has events but no status a provider reports: the path writes its events too.
  const transitions = new TransitionPath(events, jobs, [depositTransitions, refundTransitions, payoutTransitions, withdrawalTransitions], [notificationEndpointRows]);
  // Who sees each subject kind (the kernel names none), and which keep their creating request's trace.
  for (const kind of [DEPOSIT_VISIBILITY, REFUND_VISIBILITY, PAYOUT_VISIBILITY, WITHDRAWAL_VISIBILITY, NOTIFICATION_ENDPOINT_VISIBILITY]) declareVisibility(kind);
  for (const kind of [depositTransitions, refundTransitions, payoutTransitions]) declareTracedPayment(kind.type);
  // What of each subject kind only admins may read, asked by every path that shows a snapshot.
  const redactions = new Redactions([DEPOSIT_REDACTION, REFUND_REDACTION, PAYOUT_REDACTION, WITHDRAWAL_REDACTION, NOTIFICATION_ENDPOINT_REDACTION]);
  redactions.assertComplete();
  const notificationSettings: NotificationSettings = { ...config.notifications, policy: outboundPolicy(config) };
  return {
    logger,
    clock,
    slowestAnswerMs,
    notificationSettings,
    jobHandlers,
    accounts: new MerchantAccountService(config.merchantAccounts, providers),
    operations: new OperationRunner({ idempotency, logger: logger.child({ component: 'operations' }) }),
    parts: { callRecords, providers, registry, idempotency, jobs, events, transitions, redactions, pubsub: new LocalPubSub() },
  };
}

/** Each module's services, built on the kernel's parts. */
function moduleServices(options: CreateServicesOptions, kernel: Kernel) {
  const { config } = options;
  const { logger, clock, accounts, operations } = kernel;
  const { providers, registry, events, transitions, jobs, redactions, idempotency } = kernel.parts;
  // A webhook's changed deposit row, handed to the detail fetch it schedules when this instance runs it.
  const detailsHandOff = new DetailsHandOff();
  const deposits = new DepositService({ accounts, providers, registry, transitions, operations, logger: logger.child({ component: 'deposits' }), written: detailsHandOff });
  const webhooks = new WebhookInbox({ account: (code: string) => accounts.get(code), provider: (name: string) => providers.findDeposits(name) }, clock, {
    deposit: depositWebhookHandler({ transitions, paymentRefunded: (tx, report) => applyPaymentRefunded(tx, report, transitions), written: detailsHandOff }),
    refund: refundWebhookHandler(transitions),
    chargeback: chargebackWebhookHandler(transitions),
    payout: createPayoutWebhookHandler(transitions),
    withdrawal: withdrawalWebhookHandler(transitions),
  });
  const payouts = new PayoutService({ accounts, providers, events, transitions, operations, logger: logger.child({ component: 'payouts' }) });
  const refunds = new RefundService({ accounts, providers, transitions, operations, logger: logger.child({ component: 'refunds' }) });
  const notificationSettings = () => kernel.notificationSettings;
  const secrets = options.secrets ?? NO_SECRETS_KEY;
  const observers = options.observers;
  const notificationEndpoints = new NotificationEndpoints({ clock, settings: notificationSettings, secrets });
  return {
    accounts,
    deposits,
    webhooks,
    payouts,
    refunds,
    notificationEndpoints,
    reconciler: reconciler(options, kernel, { deposits, refunds, payouts }),
    notifier: new Notifier({
      jobs,
      events,
      transitions,
      redactions,
      clock,
      logger: logger.child({ component: 'notifications' }),
      settings: notificationSettings,
      secrets,
      onAttempt: observers?.notificationAttempt,
    }),
    // The personal data each module keeps on its payments, erased by the retention sweep (docs/operations.md "Retention").
    retention: new Retention({
      idempotency,
      clock,
      logger: logger.child({ component: 'retention' }),
      settings: config.retention,
      erasers: [depositPersonalData, payoutPersonalData],
      onResult: observers?.retention,
    }),
    // A revoked client's endpoints are disabled with it: nothing would be sent to them.
    clients: new ApiClientService(() => accounts.codes(), new SummarisedLog(logger.child({ component: 'authentication' }), 'authentication failed'), config.graphql.clientLimits, [
      (tx, clientId) => notificationEndpoints.disableForRevokedClient(tx, clientId),
    ]),
    withdrawals: new WithdrawalService(),
    qrCodes: new QrCodeService({ accounts, providers, deposits, logger: logger.child({ component: 'qr-codes' }) }),
    cardForm: new CardFormService({ accounts, providers, deposits, transitions, logger: logger.child({ component: 'card-form' }), returnBaseUrl: options.returnBaseUrl ?? (() => undefined) }),
    webhookAdmin: new WebhookAdminService({ webhooks }),
    adminActions: new AdminActionService(),
  };
}

/** The reconciler, each of its checks of one payment recorded for the payment's timeline. */
function reconciler(options: CreateServicesOptions, kernel: Kernel, services: { deposits: DepositService; refunds: RefundService; payouts: PayoutService }): Reconciler {
  const { config, observers } = options;
  const { accounts } = kernel;
  const { providers, transitions, jobs, callRecords } = kernel.parts;
  const logger = kernel.logger.child({ component: 'reconciler' });
  const recordCheck: ReconcileListener = (event) => {
    if (event.subject === 'deposit') callRecords.recordCheck({ subjectType: 'deposit', subjectId: event.depositId, outcome: event.result.outcome, reason: event.result.reason ?? null, at: new Date() });
    else if (event.subject === 'refund') callRecords.recordCheck({ subjectType: 'refund', subjectId: event.result.refundId, outcome: event.result.outcome, reason: event.result.reason ?? null, at: new Date() });
    observers?.reconciliation(event);
  };
  return new Reconciler({
    accounts,
    providers,
    deposits: services.deposits,
    refunds: services.refunds,
    transitions,
    jobs,
    logger,
    settings: {
      afterMs: config.reconciler.afterMs,
      // A row without a provider reference or a recorded failure may still have its first call in flight.
      submitGraceMs: kernel.slowestAnswerMs,
      payoutMissingAfterChecks: config.reconciler.payoutMissingAfterChecks,
      payoutRevertWindowMs: config.reconciler.payoutRevertWindowMs,
    },
    onResult: recordCheck,
    payouts: {
      accountsDue: (em, due) => accountsWithPayoutsDue(em, due),
      reconcile: async (em, account, pass) => {
        const port = providers.adapterFor(account, 'payouts');
        if (!port.ok) throw new Error(port.error.message);
        const result = await reconcilePendingPayouts(
          em,
          account,
          {
            provider: port.port,
            transitions,
            resume: (fork, id) => services.payouts.resume(fork, id),
            // Each payout's check goes on its timeline.
            onChecked: (payoutId, outcome, reason) => callRecords.recordCheck({ subjectType: 'payout', subjectId: payoutId, outcome, reason, at: new Date() }),
          },
          { ...pass, logger },
        );
        return { checked: result.checked, applied: result.applied, resubmitted: result.resubmitted, missing: result.missing.length };
      },
    },
  });
}
