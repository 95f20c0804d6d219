// Reconciliation: finds the deposits, refunds and payouts still open past an age (their webhooks may be lost, or their submission's outcome is unknown), asks the provider about each, resubmits or finds what never got a provider reference, and applies the answers through the transition functions. It runs as jobs (reconciliation-jobs.ts): the job queue's lease keeps instances from checking one row at once.
// This file finds what is due and reports each check's result; one deposit's check is deposit-check.ts's, one refund's refund-check.ts's.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { DepositStatus, MerchantAccount } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { Refund } from '../refunds/refund.entity.js';
import { forPayment } from '../../kernel/payment-scope.js';
import { DepositCheck, type DepositCheckDeps } from './deposit-check.js';
import type { ReconcileResult, RefundReconcileResult } from './reconcile-results.js';
import { RefundCheck, type RefundCheckDeps } from './refund-check.js';

/** Result of one pass over the payouts of one account, as the payouts module reports it. */
export interface PayoutPassResult {
  checked: number;
  applied: number;
  /** Payouts whose unknown-outcome submission was resubmitted. */
  resubmitted?: number;
  /** Payouts newly reported missing at the provider (each once). */
  missing?: number;
}

/** What the reconciler asks of one payout pass, and of the search for accounts with payouts due. */
export interface PayoutPassOptions {
  /** Only pending payouts created at or before this moment (the age threshold). */
  createdBefore: Date;
  submitGraceMs: number;
  missingAfterChecks: number;
  revertWindowMs: number;
}

/**
 * What the payouts module lends the reconciler (it never reads the payout table itself):
 * `accountsDue` the merchant accounts with payouts due for a check, and `reconcile` checks the due
 * payouts of one account whose provider offers payouts (the payouts module's `reconcilePendingPayouts`).
 */
export interface PayoutReconciliation {
  accountsDue(em: SqlEntityManager, options: PayoutPassOptions): Promise<string[]>;
  reconcile(em: SqlEntityManager, account: MerchantAccount, options: PayoutPassOptions): Promise<PayoutPassResult>;
}

export interface ReconcilerOptions {
  /** A deposit is checked once it has been open this long. */
  afterMs: number;
  /**
   * A row with no provider reference and no recorded submission failure may still have its first
   * provider call in flight: it is left alone this long after creation (the slowest provider answer).
   */
  submitGraceMs: number;
  /** A payout the provider's list has not shown in this many conclusive checks is reported missing. */
  payoutMissingAfterChecks: number;
  /** A PAID payout is checked again for a reversal for this long. */
  payoutRevertWindowMs: number;
}

/** What the reconciler is given: what its checks need (deposit-check.ts, refund-check.ts), the job queue, and the payouts module's part. */
export interface ReconcilerDeps extends DepositCheckDeps, RefundCheckDeps {
  /** Follow-up work committed with a correction (deferred refund deliveries). */
  jobs: JobQueue;
  /** Absent until the payouts module provides it; deposits are reconciled either way. */
  payouts?: PayoutReconciliation;
  /** The thresholds, from configuration; default `DEFAULT_RECONCILER_OPTIONS`. */
  settings?: ReconcilerOptions;
  /** Told every check's result (the payment's timeline, metrics). */
  onResult?: ReconcileListener;
}

export const DEFAULT_RECONCILER_OPTIONS: ReconcilerOptions = {
  afterMs: 300_000,
  submitGraceMs: 35_000,
  payoutMissingAfterChecks: 5,
  payoutRevertWindowMs: 7 * 86_400_000,
};

export type ReconcileListener = (
  event: { subject: 'deposit'; depositId: string; result: ReconcileResult } | { subject: 'refund'; result: RefundReconcileResult } | { subject: 'payout'; result: PayoutPassResult },
) => void;

/** A deposit the reconciler checks on its own while it is in one of these. */
const OPEN_DEPOSIT_STATUSES: ReadonlySet<DepositStatus> = new Set(['PENDING', 'AUTHORIZED']);

export class Reconciler {
  private readonly options: ReconcilerOptions;
  private readonly depositCheck: DepositCheck;
  private readonly refundCheck: RefundCheck;

  constructor(private readonly deps: ReconcilerDeps) {
    this.options = deps.settings ?? DEFAULT_RECONCILER_OPTIONS;
    this.depositCheck = new DepositCheck(deps);
    this.refundCheck = new RefundCheck(deps);
  }

  /**
   * The open deposits due for a check: older than `afterMs`, past the grace of a first provider
   * call still in flight, none of `queued` (their check already waits or runs), least recently
   * checked first, at most `limit`.
   */
  dueDeposits(em: SqlEntityManager, queued: ReadonlySet<string>, limit: number): Promise<string[]> {
    return this.dueRows(em, 'deposit', "status in ('PENDING', 'AUTHORIZED')", queued, limit);
  }

  /** The REQUESTED refunds due for a check, as `dueDeposits`. */
  dueRefunds(em: SqlEntityManager, queued: ReadonlySet<string>, limit: number): Promise<string[]> {
    return this.dueRows(em, 'refund', "status = 'REQUESTED'", queued, limit);
  }

  /** The accounts configured here, at providers that offer payouts, with payouts due for a check. */
  async payoutAccountsDue(em: SqlEntityManager): Promise<string[]> {
    const payouts = this.deps.payouts;
    if (!payouts) return [];
    const codes = await payouts.accountsDue(em, this.payoutOptions());
    return codes.filter((code) => this.paysOut(code) !== undefined);
  }

  /**
   * Checks the due payouts of one account against its provider's list (a payout list covers a whole
   * account: one check per account, not per payout). Undefined when the account is not configured
   * here, its provider offers no payouts, or no payouts module is plugged in.
   */
  async reconcilePayoutsOf(em: SqlEntityManager, code: string): Promise<PayoutPassResult | undefined> {
    const payouts = this.deps.payouts;
    const account = this.paysOut(code);
    if (!payouts || !account) return undefined;
    const result = await payouts.reconcile(em, account, this.payoutOptions());
    this.deps.onResult?.({ subject: 'payout', result });
    return result;
  }

  /** The configured account, when its provider offers payouts. */
  private paysOut(code: string): MerchantAccount | undefined {
    const account = this.deps.accounts.get(code);
    return account && this.deps.providers.offers(account.provider, 'payouts') ? account : undefined;
  }

  private payoutOptions(): PayoutPassOptions {
    const { afterMs, submitGraceMs, payoutMissingAfterChecks, payoutRevertWindowMs } = this.options;
    return {
      createdBefore: new Date(Date.now() - afterMs),
      submitGraceMs,
      missingAfterChecks: payoutMissingAfterChecks,
      revertWindowMs: payoutRevertWindowMs,
    };
  }

  /**
   * A sweep's check of one deposit (`reconcileDeposit`), unless the deposit is no longer open: it
   * was due when the sweep found it, and a webhook may have settled it since. Undefined when skipped.
   */
  async reconcileDueDeposit(em: SqlEntityManager, depositId: string): Promise<ReconcileResult | undefined> {
    const deposit = await em.findOne(Deposit, { id: depositId });
    if (!deposit || !OPEN_DEPOSIT_STATUSES.has(deposit.status)) return undefined;
    return this.reconcileDeposit(em, depositId);
  }

  /** A sweep's check of one refund (`reconcileRefund`), unless it is no longer REQUESTED. Undefined when skipped. */
  async reconcileDueRefund(em: SqlEntityManager, refundId: string): Promise<RefundReconcileResult | undefined> {
    const refund = await em.findOne(Refund, { id: refundId });
    if (!refund || refund.status !== 'REQUESTED') return undefined;
    return this.reconcileRefund(em, refundId);
  }

  /**
   * Asks the provider about one deposit and applies its answer (status and details) through
   * the kernel's transition path, as a webhook does: one event and one notification per change.
   */
  async reconcileDeposit(em: SqlEntityManager, depositId: string): Promise<ReconcileResult> {
    // Every provider call of the check is the deposit's (its timeline shows them).
    const result = await forPayment('deposit', depositId, () => this.depositCheck.check(em, depositId));
    this.deps.onResult?.({ subject: 'deposit', depositId, result });
    const log = this.deps.logger;
    if (result.outcome === 'applied') log.info({ depositId, from: result.from, to: result.to }, 'reconciler corrected a deposit (a webhook was missed)');
    else if (result.outcome === 'anomaly') log.warn({ depositId, anomaly: result.reason }, 'reconciler refused the provider\'s report');
    else if (result.outcome === 'provider_error') log.warn({ depositId, reason: result.reason }, 'reconciler could not ask the provider');
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // Refunds

  /**
   * Checks one REQUESTED refund: one with no provider reference is resubmitted under its own id
   * (`RefundService.resume`); one the provider knows is decided from the payment's `refund_status`
   * (GET /payments/{payment reference}) through the refund transitions, so its events and the deposit's
   * refunded amount follow as after its webhook. The payment has one `refund_status` for all its
   * refunds (A25), so it decides a refund only when that refund is the only one the provider knows
   * for the payment; otherwise the refund is left to its webhook and logged.
   */
  async reconcileRefund(em: SqlEntityManager, refundId: string): Promise<RefundReconcileResult> {
    const result = await forPayment('refund', refundId, () => this.refundCheck.check(em, refundId));
    this.deps.onResult?.({ subject: 'refund', result });
    const log = this.deps.logger;
    if (result.outcome === 'applied' || result.outcome === 'resubmitted') log.info({ refundId, outcome: result.outcome, reason: result.reason }, 'reconciler settled a refund (a webhook or an answer was missed)');
    else if (result.outcome === 'ambiguous' || result.outcome === 'anomaly') log.warn({ refundId, reason: result.reason }, 'reconciler could not decide a refund from the provider\'s refund status');
    else if (result.outcome === 'provider_error') log.warn({ refundId, reason: result.reason }, 'reconciler could not ask the provider about a refund');
    return result;
  }

  /**
   * Rows of `table` due for a check, in one short read: open (`open`), older than `afterMs`, and
   * either known to the provider, marked with a failed submission (an unknown outcome), or older
   * than the slowest provider answer (a crash before the provider call), so a first call still in
   * flight is never checked. Least recently checked first, so every row gets its turn however many
   * are due. Rows whose check already waits or runs in the job queue (`queued`) are left out.
   *
   * @param open a fixed SQL condition naming the table's open statuses (never input).
   */
  private async dueRows(em: SqlEntityManager, table: 'deposit' | 'refund', open: string, queued: ReadonlySet<string>, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const { afterMs, submitGraceMs } = this.options;
    const skipped = [...queued];
    const rows = await em.execute<Array<{ id: string }>>(
      `select id from ${table}
       where ${open}
         and created_at <= now() - make_interval(secs => ?)
         and (provider_reference is not null or submission_error is not null or created_at <= now() - make_interval(secs => ?))
         ${skipped.length > 0 ? `and id not in (${skipped.map(() => '?').join(', ')})` : ''}
       order by reconcile_checked_at asc nulls first, created_at asc
       limit ?`,
      [afterMs / 1000, submitGraceMs / 1000, ...skipped, limit],
    );
    return rows.map((row) => row.id);
  }
}
