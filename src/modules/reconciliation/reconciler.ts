// Reconciliation: finds the deposits, refunds and payouts still open past an age (their webhooks may be lost, or their submission's outcome is unknown), asks the provider about each, resubmits or finds what never got a provider reference, and applies the answers through the transition functions. It runs as jobs (reconciliation-jobs.ts): the job queue's lease keeps instances from checking one row at once.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { DepositStatus, MerchantAccount, ProviderDeposit } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { DepositService } from '../deposits/deposit.service.js';
import { depositTransitions, type DepositChange } from '../deposits/deposit-transitions.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { applyPaymentRefunded } from '../refunds/refund-accounting.js';
import { Refund } from '../refunds/refund.entity.js';
import type { RefundService } from '../refunds/refund.service.js';
import { lockRefund, refundTransitions } from '../refunds/refund-transitions.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { forPayment } from '../../kernel/payment-scope.js';

/**
 * - `applied`: the provider's status differed and was applied (a missed webhook, corrected).
 * - `noop`: the deposit already has the provider's status.
 * - `anomaly`: the provider's report was refused (impossible transition, other money, another order).
 * - `provider_error`: the provider could not be asked; the deposit is checked again later.
 * - `not_found`, `not_submitted`, `account_missing`: nothing to ask the provider about.
 */
export type ReconcileOutcome = 'applied' | 'noop' | 'anomaly' | 'provider_error' | 'not_found' | 'not_submitted' | 'account_missing';

export interface ReconcileResult {
  outcome: ReconcileOutcome;
  /** Starts with a stable code, e.g. `TRANSITION_NOT_ALLOWED: …`, `PROVIDER_UNAVAILABLE: …`. */
  reason?: string;
  deposit?: Deposit;
  /** Status before and after, when `applied`. */
  from?: DepositStatus;
  to?: DepositStatus;
}

/**
 * What checking one REQUESTED refund did:
 * - `applied`: its decision was read from the payment's `refund_status` and applied (or a
 *   resubmission was refused, which rejects it).
 * - `resubmitted`: it had no provider reference and was resubmitted under its own id.
 * - `noop`: nothing to decide yet (still pending, or no refund status).
 * - `ambiguous`: the payment has several refunds, so its one `refund_status` decides none of them.
 * - `anomaly`, `provider_error`, `not_found`: as for deposits.
 */
export type RefundReconcileOutcome = 'applied' | 'resubmitted' | 'noop' | 'ambiguous' | 'anomaly' | 'provider_error' | 'not_found';

export interface RefundReconcileResult {
  outcome: RefundReconcileOutcome;
  reason?: string;
  refundId: string;
}

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

export interface ReconcilerDeps {
  accounts: MerchantAccountService;
  /** The providers' ports: deposit lookups, and the payment list where a provider offers one. */
  providers: ProviderAdapters;
  deposits: Pick<DepositService, 'resume' | 'refreshFromProvider'>;
  refunds: Pick<RefundService, 'resume'>;
  transitions: TransitionPath;
  /** Follow-up work committed with a correction (deferred refund deliveries). */
  jobs: JobQueue;
  logger: Logger;
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

/**
 * Hosted checkout deposits keep the checkout session id as their reference, and the spec has no
 * lookup by session id (GET /payments/{reference} takes a payment reference). The payment the
 * session produces carries our deposit id as its merchant reference, so it is found in the
 * newest-first GET /payments list, searched this many pages of 200 deep.
 */
const HOSTED_SEARCH_PAGES = 5;

/**
 * Clock difference allowed between our creation time and the provider's: a newest-first list is
 * known to hold nothing of ours beyond an item created this long before our oldest row.
 */
const LIST_SKEW_MS = 10 * 60_000;

/** A deposit the reconciler checks on its own while it is in one of these. */
const OPEN_DEPOSIT_STATUSES: ReadonlySet<DepositStatus> = new Set(['PENDING', 'AUTHORIZED']);

export class Reconciler {
  private readonly options: ReconcilerOptions;

  constructor(private readonly deps: ReconcilerDeps) {
    this.options = deps.settings ?? DEFAULT_RECONCILER_OPTIONS;
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
    const result = await forPayment('deposit', depositId, () => this.check(em, depositId));
    this.deps.onResult?.({ subject: 'deposit', depositId, result });
    const log = this.deps.logger;
    if (result.outcome === 'applied') log.info({ depositId, from: result.from, to: result.to }, 'reconciler corrected a deposit (a webhook was missed)');
    else if (result.outcome === 'anomaly') log.warn({ depositId, anomaly: result.reason }, 'reconciler refused the provider\'s report');
    else if (result.outcome === 'provider_error') log.warn({ depositId, reason: result.reason }, 'reconciler could not ask the provider');
    return result;
  }

  private async check(em: SqlEntityManager, depositId: string): Promise<ReconcileResult> {
    let deposit = await em.findOne(Deposit, { id: depositId });
    if (!deposit) return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no deposit ${depositId}` };
    const account = this.deps.accounts.get(deposit.merchantAccount);
    if (!account || account.provider !== deposit.provider) {
      return { outcome: 'account_missing', reason: `ACCOUNT_NOT_CONFIGURED: ${deposit.merchantAccount}`, deposit };
    }
    if (!deposit.providerReference && deposit.status === 'PENDING' && deposit.rail !== 'HOSTED_CHECKOUT') {
      // The outcome of its submission is unknown (a time-out, or a crash before the call): resubmit
      // under its own id, which returns the original payment if the provider got the first call.
      const resumed = await this.deps.deposits.resume(em, depositId);
      const reason = resumed.reason !== undefined ? { reason: resumed.reason } : {};
      if (resumed.outcome === 'not_found') return { outcome: 'not_found', ...reason };
      deposit = await em.refreshOrFail(deposit);
      if (resumed.outcome === 'refused') {
        await this.release(em, depositId);
        return { outcome: 'applied', deposit, from: 'PENDING', to: deposit.status, ...reason };
      }
      if (resumed.outcome === 'unknown') {
        await this.release(em, depositId);
        return { outcome: 'provider_error', deposit, ...reason };
      }
      this.deps.logger.info({ depositId, outcome: resumed.outcome }, 'reconciler resubmitted a deposit whose outcome was unknown');
    }
    let reference = deposit.providerPaymentReference();
    if (!reference && deposit.rail === 'HOSTED_CHECKOUT') {
      const payment = await this.findHostedPayment(account, deposit);
      if (!payment.ok) {
        await this.release(em, depositId);
        return { outcome: 'provider_error', reason: payment.reason, deposit };
      }
      // No payment yet: the player has not paid on the hosted page, or never will (A24).
      if (!payment.reference) return this.expireIfAbandoned(em, deposit, account, payment.conclusive);
      reference = payment.reference;
    }
    if (!reference) {
      await this.release(em, depositId);
      return { outcome: 'not_submitted', reason: 'DEPOSIT_NOT_SUBMITTED: the deposit has no provider reference yet', deposit };
    }

    // Outside any transaction: no row lock is held while the provider answers.
    const answer = await this.deps.providers.deposits(deposit.provider).getDeposit(account, reference);
    if (!answer.ok) {
      await this.release(em, depositId);
      return { outcome: 'provider_error', reason: `${answer.error.code}: ${answer.error.message}`, deposit };
    }
    const truth = answer.value;
    if (truth.merchantReference && truth.merchantReference !== deposit.id) {
      await this.release(em, depositId);
      return { outcome: 'anomaly', reason: `MERCHANT_REFERENCE_MISMATCH: ${reference} echoes ${truth.merchantReference}`, deposit };
    }

    const from = deposit.status;
    const source = `reconciler:${account.provider}/${account.code}`;
    if (truth.status === 'REFUNDED') {
      // Only refund rows decide REFUNDED and the refunded amount: never a bare status change.
      return this.reconcileRefunded(em, deposit, truth, source);
    }
    const applied = await em.transactional(async (tx) => {
      const outcome = await this.deps.transitions.apply(tx, depositTransitions, { id: depositId, change: changeOf(truth), source });
      await this.release(tx, depositId);
      return outcome;
    });
    const current = applied.row ? await em.refreshOrFail(deposit) : deposit;
    switch (applied.outcome) {
      case 'applied':
        return { outcome: 'applied', deposit: current, from, to: current.status };
      case 'noop':
      case 'stale':
        if (detailsMissing(current, truth)) {
          // The status was right but the details were never read (e.g. the refresh after its webhook failed).
          await this.deps.deposits.refreshFromProvider(em, depositId, truth.reference);
          return { outcome: 'noop', deposit: await em.refreshOrFail(current) };
        }
        return { outcome: 'noop', deposit: current };
      case 'anomaly':
        return { outcome: 'anomaly', deposit: current, ...(applied.reason !== undefined ? { reason: applied.reason } : {}) };
      case 'not_found':
        return { outcome: 'not_found', ...(applied.reason !== undefined ? { reason: applied.reason } : {}) };
    }
  }

  /** A provider's `refunded` about a deposit: reconciled with its refund rows (refund-accounting.ts). */
  private async reconcileRefunded(em: SqlEntityManager, deposit: Deposit, truth: ProviderDeposit, source: string): Promise<ReconcileResult> {
    const from = deposit.status;
    const result = await em.transactional(async (tx) => {
      const outcome = await applyPaymentRefunded(
        tx,
        {
          depositId: deposit.id,
          ...(truth.amount ? { amount: truth.amount } : {}),
          reversedInFull: truth.refundStatus?.reversedInFull ?? false,
          providerStatus: truth.providerStatus,
          source,
        },
        this.deps.transitions,
      );
      await this.release(tx, deposit.id);
      return outcome;
    });
    const current = await em.refreshOrFail(deposit);
    const reason = result.reason !== undefined ? { reason: result.reason } : {};
    switch (result.outcome) {
      case 'applied':
        return { outcome: 'applied', deposit: current, from, to: current.status, ...reason };
      case 'noop':
      case 'in_progress':
        return { outcome: 'noop', deposit: current, ...reason };
      case 'anomaly':
        return { outcome: 'anomaly', deposit: current, ...reason };
      case 'not_found':
        return { outcome: 'not_found', ...reason };
    }
  }

  /**
   * A hosted checkout deposit whose payment the provider's list does not show: EXPIRED once its
   * session can no longer be paid (the adapter's deadline, A24) and the search was conclusive, else
   * left for a later pass.
   */
  private async expireIfAbandoned(em: SqlEntityManager, deposit: Deposit, account: MerchantAccount, conclusive: boolean): Promise<ReconcileResult> {
    const listing = this.deps.providers.adapterFor(account, 'depositListing');
    const details = deposit.request.details;
    const lifetime = details.rail === 'HOSTED_CHECKOUT' ? details.expiresInSeconds : undefined;
    const deadline = listing.ok ? listing.port.checkoutSessionDeadline(deposit.createdAt, lifetime) : undefined;
    if (!conclusive || !deadline || Date.now() < deadline.getTime() || deposit.status !== 'PENDING') {
      await this.release(em, deposit.id);
      return { outcome: 'noop', deposit };
    }
    const applied = await em.transactional(async (tx) => {
      // No payment exists: there are no details to fetch. Refund deliveries that waited for this
      // payment are decided against its final status (a reaction of the change).
      const outcome = await this.deps.transitions.apply(tx, depositTransitions, {
        id: deposit.id,
        change: { status: 'EXPIRED', providerStatus: 'session_expired', detailsIncluded: true },
        source: `reconciler:${account.provider}/${account.code}`,
      });
      await this.release(tx, deposit.id);
      return outcome;
    });
    const current = await em.refreshOrFail(deposit);
    if (applied.outcome === 'applied') return { outcome: 'applied', deposit: current, from: 'PENDING', to: current.status, reason: 'SESSION_EXPIRED: no payment was made before the checkout session expired' };
    return { outcome: applied.outcome === 'anomaly' ? 'anomaly' : 'noop', deposit: current, ...(applied.reason !== undefined ? { reason: applied.reason } : {}) };
  }

  /**
   * The payment a hosted checkout session produced, found by our deposit id as its merchant
   * reference in the newest-first list. `conclusive` when the search reached the end of the list or
   * items created before the deposit (so an absent payment does not exist).
   */
  private async findHostedPayment(account: MerchantAccount, deposit: Deposit): Promise<{ ok: true; reference?: string; conclusive: boolean } | { ok: false; reason: string }> {
    // A provider with no payment list cannot be searched: the deposit waits for its webhook.
    const listing = this.deps.providers.adapterFor(account, 'depositListing');
    if (!listing.ok) return { ok: true, conclusive: false };
    const provider = listing.port;
    const floor = deposit.createdAt.getTime() - LIST_SKEW_MS;
    let before: string | undefined;
    for (let page = 0; page < HOSTED_SEARCH_PAGES; page++) {
      const result = await provider.listDeposits(account, { limit: 200, ...(before ? { before } : {}) });
      if (!result.ok) return { ok: false, reason: `${result.error.code}: ${result.error.message}` };
      const match = result.value.items.find((item) => item.merchantReference === deposit.id);
      if (match) return { ok: true, reference: match.reference, conclusive: true };
      if (!result.value.nextBefore) return { ok: true, conclusive: true };
      if (result.value.items.some((item) => item.createdAt && item.createdAt.getTime() < floor)) return { ok: true, conclusive: true };
      before = result.value.nextBefore;
    }
    return { ok: true, conclusive: false };
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
    const result = await forPayment('refund', refundId, () => this.checkRefund(em, refundId));
    this.deps.onResult?.({ subject: 'refund', result });
    const log = this.deps.logger;
    if (result.outcome === 'applied' || result.outcome === 'resubmitted') log.info({ refundId, outcome: result.outcome, reason: result.reason }, 'reconciler settled a refund (a webhook or an answer was missed)');
    else if (result.outcome === 'ambiguous' || result.outcome === 'anomaly') log.warn({ refundId, reason: result.reason }, 'reconciler could not decide a refund from the provider\'s refund status');
    else if (result.outcome === 'provider_error') log.warn({ refundId, reason: result.reason }, 'reconciler could not ask the provider about a refund');
    return result;
  }

  private async checkRefund(em: SqlEntityManager, refundId: string): Promise<RefundReconcileResult> {
    const refund = await em.findOne(Refund, { id: refundId }, { refresh: true });
    if (!refund) return { outcome: 'not_found', refundId, reason: `REFUND_NOT_FOUND: no refund ${refundId}` };
    const done = async (result: Omit<RefundReconcileResult, 'refundId'>): Promise<RefundReconcileResult> => {
      await this.releaseRefund(em, refundId);
      return { refundId, ...result };
    };
    if (refund.status !== 'REQUESTED') return done({ outcome: 'noop' });
    if (!refund.providerReference) {
      const resumed = await this.deps.refunds.resume(em, refundId);
      const reason = resumed.reason !== undefined ? { reason: resumed.reason } : {};
      switch (resumed.outcome) {
        case 'submitted':
          return done({ outcome: 'resubmitted', ...reason });
        case 'refused':
          return done({ outcome: 'applied', ...reason });
        case 'unknown':
          return done({ outcome: 'provider_error', ...reason });
        case 'not_needed':
          return done({ outcome: 'noop' });
        case 'not_found':
          return { outcome: 'not_found', refundId, ...reason };
      }
    }
    const deposit = await em.findOneOrFail(Deposit, { id: refund.depositId });
    const account = this.deps.accounts.get(deposit.merchantAccount);
    const reference = deposit.providerPaymentReference();
    if (!account || account.provider !== deposit.provider || !reference) return done({ outcome: 'noop', reason: 'PAYMENT_NOT_LOOKED_UP: no account or payment reference to ask about' });
    const answer = await this.deps.providers.deposits(deposit.provider).getDeposit(account, reference);
    if (!answer.ok) return done({ outcome: 'provider_error', reason: `${answer.error.code}: ${answer.error.message}` });
    const word = answer.value.refundStatus;
    if (!word || word.status === 'REQUESTED') return done({ outcome: 'noop' });

    const decided = await em.transactional(async (tx): Promise<Omit<RefundReconcileResult, 'refundId'>> => {
      const locked = await lockRefund(tx, refundId);
      if (!locked || locked.refund.status !== 'REQUESTED') return { outcome: 'noop' };
      const known = (await tx.find(Refund, { depositId: locked.deposit.id })).filter((other) => other.providerReference || other.status === 'REQUESTED');
      if (known.length !== 1) {
        return { outcome: 'ambiguous', reason: `REFUND_STATUS_AMBIGUOUS: payment ${reference} has ${known.length} refunds; its refund_status ${word.providerStatus} decides none of them` };
      }
      if (word.reversedInFull && !locked.refund.amountMoney().equals(locked.deposit.amountMoney().subtract(locked.deposit.refundedMoney()))) {
        return { outcome: 'ambiguous', reason: `REFUND_STATUS_AMBIGUOUS: payment ${reference} is reversed in full, but this refund is ${locked.refund.amountMoney().toString()}` };
      }
      const applied = await this.deps.transitions.apply(tx, refundTransitions, {
        id: refundId,
        change: { status: word.status, providerStatus: word.providerStatus },
        source: `reconciler:${account.provider}/${account.code}`,
      });
      const reason = applied.reason !== undefined ? { reason: applied.reason } : {};
      if (applied.outcome === 'applied') return { outcome: 'applied', reason: `REFUND_STATUS: ${word.providerStatus}` };
      return { outcome: applied.outcome === 'anomaly' ? 'anomaly' : 'noop', ...reason };
    });
    return done(decided);
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

  /** After a check: when it ended, which orders the rotation of due deposits. */
  private async release(em: SqlEntityManager, depositId: string): Promise<void> {
    await em.execute('update deposit set reconcile_checked_at = now() where id = ?', [depositId]);
  }

  private async releaseRefund(em: SqlEntityManager, refundId: string): Promise<void> {
    await em.execute('update refund set reconcile_checked_at = now() where id = ?', [refundId]);
  }
}

/** The provider's record as a deposit change: status and the details beside it. */
function changeOf(truth: ProviderDeposit): DepositChange {
  return {
    status: truth.status,
    providerStatus: truth.providerStatus,
    providerReference: truth.reference,
    // A status lookup answers with the provider's whole record: fee, net and decline reason are here.
    detailsIncluded: true,
    ...(truth.declineReason !== undefined ? { declineReason: truth.declineReason } : {}),
    ...(truth.statusReason !== undefined ? { statusReason: truth.statusReason } : {}),
    ...(truth.amount !== undefined ? { amount: truth.amount } : {}),
    ...(truth.fee !== undefined ? { fee: truth.fee } : {}),
    ...(truth.net !== undefined ? { net: truth.net } : {}),
    ...(truth.approvedAt !== undefined ? { approvedAt: truth.approvedAt } : {}),
  };
}

function detailsMissing(deposit: Deposit, truth: ProviderDeposit): boolean {
  return (Boolean(truth.fee) && deposit.fee == null) || (Boolean(truth.net) && deposit.net == null) || (Boolean(truth.declineReason) && deposit.declineReason == null);
}
