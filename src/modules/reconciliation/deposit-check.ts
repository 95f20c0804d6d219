// Checking one deposit against its provider, for the reconciler (reconciler.ts): resubmitting one
// whose submission's outcome is unknown, finding a hosted checkout's payment in the provider's
// list (or expiring an abandoned session), and applying the provider's answer, status and details,
// through the deposit transitions as a webhook would; a provider's `refunded` goes to the refund
// accounting instead.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { MerchantAccount, ProviderDeposit } from '../../providers/provider.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { DepositService } from '../deposits/deposit.service.js';
import { depositTransitions, type DepositChange } from '../deposits/deposit-transitions.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { applyPaymentRefunded } from '../refunds/refund-accounting.js';
import type { ReconcileResult } from './reconcile-results.js';

/** What checking a deposit needs of the reconciler's dependencies (`ReconcilerDeps`). */
export interface DepositCheckDeps {
  accounts: MerchantAccountService;
  /** The providers' ports: deposit lookups, and the payment list where a provider offers one. */
  providers: ProviderAdapters;
  deposits: Pick<DepositService, 'resume' | 'refreshFromProvider'>;
  transitions: TransitionPath;
  logger: Logger;
}

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

/** The reconciler's deposit checks; each ends by marking when it ended (`release`). */
export class DepositCheck {
  constructor(private readonly deps: DepositCheckDeps) {}

  /** Asks the provider about one deposit and applies its answer; the caller reports the result. */
  async check(em: SqlEntityManager, depositId: string): Promise<ReconcileResult> {
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

  /** After a check: when it ended, which orders the rotation of due deposits. */
  private async release(em: SqlEntityManager, depositId: string): Promise<void> {
    await em.execute('update deposit set reconcile_checked_at = now() where id = ?', [depositId]);
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
