// Reconciliation: asks the provider about deposits still open past an age (their webhooks may be lost) and applies its answer through the one transition function, claiming work with row leases so instances never check the same deposit at once.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { DepositProvider, DepositStatus, MerchantAccount, MoneyMovementProvider, ProviderDeposit, ProviderName } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { DepositService } from '../deposits/deposit.service.js';
import { applyDepositChange, type DepositChange } from '../deposits/deposit-transitions.js';
import type { EventService } from '../events/event.service.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { RELEASE_DEFERRED_DELIVERIES } from '../webhooks/webhook-jobs.js';

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

/** Result of one pass over the payouts of one account, as the payouts module reports it. */
export interface PayoutPassResult {
  checked: number;
  applied: number;
}

/**
 * Reconciles the pending payouts of one deposit-gateway account (the payouts module's
 * `reconcilePendingPayouts`). `createdBefore` carries the reconciler's age threshold.
 */
export type PayoutReconcileHook = (em: SqlEntityManager, account: MerchantAccount, createdBefore: Date) => Promise<PayoutPassResult>;

export interface ReconcilerOptions {
  /** A deposit is checked once it has been open this long. */
  afterMs: number;
  /** Deposits claimed per pass. */
  batchSize: number;
  /** How long a claim keeps other instances off a deposit while it is being checked. */
  claimMs: number;
  /** How long after a check a still-open deposit is checked again (also the payout pass cadence). */
  recheckMs: number;
}

export interface ReconcilerDeps {
  accounts: MerchantAccountService;
  providers: Record<ProviderName, DepositProvider>;
  deposits: DepositService;
  events: EventService;
  /** Follow-up work committed with a correction (deferred refund deliveries). */
  jobs: JobQueue;
  logger: Logger;
  /** Absent until the payouts module provides one; deposits are reconciled either way. */
  reconcilePayouts?: PayoutReconcileHook;
}

export type ReconcileListener = (event: { subject: 'deposit'; result: ReconcileResult } | { subject: 'payout'; result: PayoutPassResult }) => void;

export interface PassResult {
  checked: number;
  corrected: number;
  payouts?: PayoutPassResult;
}

/**
 * Hosted checkout deposits keep the checkout session id as their reference, and the spec has no
 * lookup by session id (GET /payments/{reference} takes a payment reference). The payment the
 * session produces carries our deposit id as its merchant reference, so it is found in the
 * newest-first GET /payments list, searched this many pages of 200 deep.
 */
const HOSTED_SEARCH_PAGES = 5;

export class Reconciler {
  private readonly listeners: ReconcileListener[] = [];
  private options: ReconcilerOptions = { afterMs: 300_000, batchSize: 50, claimMs: 60_000, recheckMs: 60_000 };

  constructor(private readonly deps: ReconcilerDeps) {}

  /** Sets the thresholds (from configuration, at start-up). */
  configure(options: ReconcilerOptions): void {
    this.options = options;
  }

  /** Called with every check's result (metrics). */
  onResult(listener: ReconcileListener): void {
    this.listeners.push(listener);
  }

  /**
   * One pass: claims up to `batchSize` open deposits older than `afterMs` that no other instance
   * holds, checks each with the provider outside any transaction, then reconciles payouts per
   * deposit-gateway account (one instance per interval, by a named lease).
   *
   * @param fork a fresh EntityManager per unit of work.
   */
  async runOnce(fork: () => SqlEntityManager): Promise<PassResult> {
    const claimed = await this.claim(fork());
    let corrected = 0;
    for (const id of claimed) {
      const result = await this.reconcileDeposit(fork(), id);
      if (result.outcome === 'applied') corrected += 1;
    }
    const payouts = await this.reconcilePayouts(fork);
    return { checked: claimed.length, corrected, ...(payouts ? { payouts } : {}) };
  }

  /**
   * Asks the provider about one deposit and applies its answer (status and details) through
   * `applyDepositChange`, as a webhook would: one event and one notification per change.
   */
  async reconcileDeposit(em: SqlEntityManager, depositId: string): Promise<ReconcileResult> {
    const result = await this.check(em, depositId);
    for (const listener of this.listeners) listener({ subject: 'deposit', result });
    const log = this.deps.logger;
    if (result.outcome === 'applied') log.info({ depositId, from: result.from, to: result.to }, 'reconciler corrected a deposit (a webhook was missed)');
    else if (result.outcome === 'anomaly') log.warn({ depositId, anomaly: result.reason }, 'reconciler refused the provider\'s report');
    else if (result.outcome === 'provider_error') log.warn({ depositId, reason: result.reason }, 'reconciler could not ask the provider');
    return result;
  }

  private async check(em: SqlEntityManager, depositId: string): Promise<ReconcileResult> {
    const deposit = await em.findOne(Deposit, { id: depositId });
    if (!deposit) return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no deposit ${depositId}` };
    let reference = deposit.providerReference;
    if (!reference) return { outcome: 'not_submitted', reason: 'DEPOSIT_NOT_SUBMITTED: the deposit has no provider reference yet', deposit };
    const account = this.deps.accounts.get(deposit.merchantAccount);
    if (!account || account.provider !== deposit.provider) {
      return { outcome: 'account_missing', reason: `ACCOUNT_NOT_CONFIGURED: ${deposit.merchantAccount}`, deposit };
    }
    if (deposit.rail === 'HOSTED_CHECKOUT') {
      const payment = await this.findHostedPayment(account, deposit);
      if (!payment.ok || !payment.reference) {
        await this.release(em, depositId);
        // No payment yet: the player has not paid on the hosted page (or it is older than the search).
        return payment.ok ? { outcome: 'noop', deposit } : { outcome: 'provider_error', reason: payment.reason, deposit };
      }
      reference = payment.reference;
    }

    // Outside any transaction: no row lock is held while the provider answers.
    const answer = await this.deps.providers[deposit.provider].getDeposit(account, reference);
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
    const applied = await em.transactional(async (tx) => {
      const outcome = await applyDepositChange(tx, { depositId, change: changeOf(truth), source: `reconciler:${account.provider}/${account.code}` }, this.deps.events);
      if (outcome.outcome === 'applied') await this.deps.jobs.enqueue(tx, RELEASE_DEFERRED_DELIVERIES, { depositId }, { dedupeKey: depositId });
      await this.release(tx, depositId);
      return outcome;
    });
    const current = applied.deposit ? await em.refreshOrFail(deposit) : deposit;
    switch (applied.outcome) {
      case 'applied':
        return { outcome: 'applied', deposit: current, from, to: current.status };
      case 'noop':
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

  /** The payment a hosted checkout session produced, found by our deposit id as its merchant reference. */
  private async findHostedPayment(account: MerchantAccount, deposit: Deposit): Promise<{ ok: true; reference?: string } | { ok: false; reason: string }> {
    const provider = this.deps.providers[deposit.provider];
    if (!isListing(provider)) return { ok: true };
    let before: string | undefined;
    for (let page = 0; page < HOSTED_SEARCH_PAGES; page++) {
      const result = await provider.listDeposits(account, { limit: 200, ...(before ? { before } : {}) });
      if (!result.ok) return { ok: false, reason: `${result.error.code}: ${result.error.message}` };
      const match = result.value.items.find((item) => item.merchantReference === deposit.id);
      if (match) return { ok: true, reference: match.reference };
      if (!result.value.nextBefore) return { ok: true };
      before = result.value.nextBefore;
    }
    return { ok: true };
  }

  /**
   * Claims a batch in one short statement: rows locked by another instance's claim are skipped
   * (SKIP LOCKED), and a claimed row's lease keeps it off every other instance until it expires.
   */
  private async claim(em: SqlEntityManager): Promise<string[]> {
    const { afterMs, batchSize, claimMs } = this.options;
    const rows = await em.execute<Array<{ id: string }>>(
      `update deposit set reconcile_lease_until = now() + make_interval(secs => ?)
       where id in (
         select id from deposit
         where status in ('PENDING', 'AUTHORIZED')
           and provider_reference is not null
           and created_at <= now() - make_interval(secs => ?)
           and (reconcile_lease_until is null or reconcile_lease_until <= now())
         order by reconcile_lease_until asc nulls first, created_at asc
         limit ?
         for update skip locked
       )
       returning id`,
      [claimMs / 1000, afterMs / 1000, batchSize],
    );
    return rows.map((row) => row.id);
  }

  /** After a check: the deposit is not looked at again before `recheckMs`. */
  private async release(em: SqlEntityManager, depositId: string): Promise<void> {
    await em.execute('update deposit set reconcile_lease_until = now() + make_interval(secs => ?) where id = ?', [this.options.recheckMs / 1000, depositId]);
  }

  private async reconcilePayouts(fork: () => SqlEntityManager): Promise<PayoutPassResult | undefined> {
    const hook = this.deps.reconcilePayouts;
    if (!hook) return undefined;
    // GET /payouts lists a whole account: one instance per interval does it, by a named lease.
    if (!(await this.takeLease(fork(), 'payouts', this.options.recheckMs))) return undefined;
    const total: PayoutPassResult = { checked: 0, applied: 0 };
    const createdBefore = new Date(Date.now() - this.options.afterMs);
    const accounts = this.deps.accounts.codes().map((code) => this.deps.accounts.get(code)!);
    for (const account of accounts.filter((candidate) => candidate.provider === 'deposit-gateway')) {
      try {
        const result = await hook(fork(), account, createdBefore);
        total.checked += result.checked;
        total.applied += result.applied;
      } catch (error) {
        this.deps.logger.error({ err: error, account: account.code }, 'payout reconciliation failed');
      }
    }
    for (const listener of this.listeners) listener({ subject: 'payout', result: total });
    return total;
  }

  /** True when this instance took the named lease (free or expired) for `ms`. */
  private async takeLease(em: SqlEntityManager, name: string, ms: number): Promise<boolean> {
    const rows = await em.execute<Array<{ name: string }>>(
      `insert into reconciler_lease (name, lease_until) values (?, now() + make_interval(secs => ?))
       on conflict (name) do update set lease_until = excluded.lease_until where reconciler_lease.lease_until <= now()
       returning name`,
      [name, ms / 1000],
    );
    return rows.length > 0;
  }
}

/** The provider's record as a change for `applyDepositChange`: status and the details beside it. */
function changeOf(truth: ProviderDeposit): DepositChange {
  return {
    status: truth.status,
    providerStatus: truth.providerStatus,
    providerReference: truth.reference,
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

function isListing(provider: DepositProvider): provider is DepositProvider & Pick<MoneyMovementProvider, 'listDeposits'> {
  return typeof (provider as Partial<MoneyMovementProvider>).listDeposits === 'function';
}
