// Reconciliation as jobs of the kernel's queue: a recurring sweep, one at a time across all instances, enqueues one check per due deposit and refund and one per merchant account with payouts due; the queue's lease keeps two instances off one check, and its table and metrics show every one.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { JobHandlers, JobQueue } from '../../kernel/jobs.js';
import type { Logger } from '../../lib/logger.js';
import type { Reconciler } from './reconciler.js';

/** Recurring, every `RECONCILE_INTERVAL_MS`: finds what is due and enqueues its checks. */
export const RECONCILE_SWEEP = 'reconcile.sweep';
/** Asks the provider about one open deposit (dedupe key: the deposit id). */
export const RECONCILE_DEPOSIT = 'reconcile.deposit';
/** Asks the provider about one REQUESTED refund (dedupe key: the refund id). */
export const RECONCILE_REFUND = 'reconcile.refund';
/**
 * Checks the due payouts of one merchant account against the provider's list (dedupe key: the
 * account code): GET /payouts lists a whole account, so one read serves all of its payouts.
 */
export const RECONCILE_PAYOUTS = 'reconcile.payouts';

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [RECONCILE_SWEEP]: Record<string, never>;
    [RECONCILE_DEPOSIT]: { depositId: string };
    [RECONCILE_REFUND]: { refundId: string };
    [RECONCILE_PAYOUTS]: { merchantAccount: string };
  }
}

/** Every kind reconciliation runs as, for waiting on all of them at once. */
export const RECONCILE_KINDS = [RECONCILE_SWEEP, RECONCILE_DEPOSIT, RECONCILE_REFUND, RECONCILE_PAYOUTS] as const;

export interface ReconciliationJobsOptions {
  /** RECONCILER_ENABLED: this instance keeps the sweep scheduled; off, a sweep it takes ends the schedule. */
  enabled: boolean;
  /** RECONCILE_INTERVAL_MS: one sweep per interval, so a row still open is checked once per interval. */
  intervalMs: number;
  /** RECONCILE_BATCH_SIZE: deposit (and refund) checks a sweep keeps in the queue at most, counting those still there. */
  batchSize: number;
  /** A fresh EntityManager (the database's fork), for sweeps on demand. */
  fork: () => SqlEntityManager;
  logger: Logger;
}

/**
 * A check finds its row as it is when the job runs: one that a webhook settled since the sweep
 * found it due is left alone. A check's outcome is a result, not a failure: a provider that cannot be asked (`provider_error`)
 * is asked again by the next sweep, one interval later, as it always was, rather than retried with
 * back-off and kept as `failed` once the attempts run out. A check that throws (a database
 * failure, a bug) is retried by the queue like any job, and kept as `failed` for an admin.
 *
 * @returns the schedule's handle for `Gateway.reconciler`, or undefined when it is disabled here.
 */
export function registerReconciliationJobs(handlers: JobHandlers, jobs: JobQueue, reconciler: Reconciler, options: ReconciliationJobsOptions): ReconciliationSchedule | undefined {
  handlers.register(RECONCILE_DEPOSIT, async (em, { depositId }) => void (await reconciler.reconcileDueDeposit(em, depositId)));
  handlers.register(RECONCILE_REFUND, async (em, { refundId }) => void (await reconciler.reconcileDueRefund(em, refundId)));
  handlers.register(RECONCILE_PAYOUTS, async (em, { merchantAccount }) => void (await reconciler.reconcilePayoutsOf(em, merchantAccount)));
  const schedule = new ReconciliationSchedule(jobs, reconciler, options);
  if (options.enabled) {
    handlers.recurring(RECONCILE_SWEEP, { everyMs: options.intervalMs, payload: {} }, async (em) => void (await schedule.sweep(em)));
    return schedule;
  }
  // Disabled here: a sweep this instance takes (one scheduled while reconciliation was on) ends
  // the schedule; an instance with RECONCILER_ENABLED=true starts it again within its interval.
  handlers.register(RECONCILE_SWEEP, async () => {
    options.logger.info('reconciliation is disabled on this instance (RECONCILER_ENABLED=false): the sweep ends here and schedules no next one');
  });
  return undefined;
}

/** The reconciliation sweep: what it enqueues, and a sweep on demand for tests and admin tooling. */
export class ReconciliationSchedule {
  constructor(
    private readonly jobs: JobQueue,
    private readonly reconciler: Reconciler,
    private readonly options: ReconciliationJobsOptions,
  ) {}

  /**
   * Enqueues, in one transaction, a check per deposit and refund due (oldest check first, at most
   * `batchSize` of each in the queue, counting those already there) and per account with payouts
   * due. A row whose check already waits or runs gets no second one beside it (the queue's lease
   * keeps other instances off the running one), and a row still open is checked once per sweep.
   */
  async sweep(em: SqlEntityManager): Promise<{ deposits: number; refunds: number; accounts: number }> {
    const { batchSize } = this.options;
    const queuedDeposits = await this.jobs.queuedKeys(em, RECONCILE_DEPOSIT);
    const deposits = await this.reconciler.dueDeposits(em, queuedDeposits, batchSize - queuedDeposits.size);
    const queuedRefunds = await this.jobs.queuedKeys(em, RECONCILE_REFUND);
    const refunds = await this.reconciler.dueRefunds(em, queuedRefunds, batchSize - queuedRefunds.size);
    const queuedAccounts = await this.jobs.queuedKeys(em, RECONCILE_PAYOUTS);
    const accounts = (await this.reconciler.payoutAccountsDue(em)).filter((code) => !queuedAccounts.has(code));
    if (deposits.length + refunds.length + accounts.length > 0) {
      await em.transactional(async (tx) => {
        await this.jobs.enqueueMany(tx, RECONCILE_DEPOSIT, deposits.map((depositId) => ({ payload: { depositId }, dedupeKey: depositId, subject: { type: 'deposit', id: depositId } })));
        await this.jobs.enqueueMany(tx, RECONCILE_REFUND, refunds.map((refundId) => ({ payload: { refundId }, dedupeKey: refundId, subject: { type: 'refund', id: refundId } })));
        await this.jobs.enqueueMany(tx, RECONCILE_PAYOUTS, accounts.map((merchantAccount) => ({ payload: { merchantAccount }, dedupeKey: merchantAccount })));
      });
      if (this.options.logger.isLevelEnabled('debug')) this.options.logger.debug({ deposits: deposits.length, refunds: refunds.length, accounts: accounts.length }, 'reconciliation sweep enqueued checks');
    }
    return { deposits: deposits.length, refunds: refunds.length, accounts: accounts.length };
  }

  /**
   * One sweep now, outside the schedule, then runs due jobs here until no reconciliation job is
   * due or running on any instance: every check in flight when it was called, and every check the
   * sweep enqueued, is over when it resolves. For tests and admin tooling.
   */
  async runOnce(): Promise<void> {
    await this.sweep(this.options.fork());
    await this.jobs.runUntilIdle(RECONCILE_KINDS);
  }
}
