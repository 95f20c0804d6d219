// Checking one REQUESTED refund, for the reconciler (reconciler.ts): resubmitting one the provider
// never acknowledged, or deciding one the provider knows from its payment's one `refund_status`,
// through the refund transitions, when that refund is the only one the status can be about.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Refund } from '../refunds/refund.entity.js';
import type { RefundService } from '../refunds/refund.service.js';
import { lockRefund, refundTransitions } from '../refunds/refund-transitions.js';
import type { RefundReconcileResult } from './reconcile-results.js';

/** What checking a refund needs of the reconciler's dependencies (`ReconcilerDeps`). */
export interface RefundCheckDeps {
  accounts: MerchantAccountService;
  providers: ProviderAdapters;
  refunds: Pick<RefundService, 'resume'>;
  transitions: TransitionPath;
}

/** The reconciler's refund checks; each ends by marking when it ended (`release`). */
export class RefundCheck {
  constructor(private readonly deps: RefundCheckDeps) {}

  /** Checks one REQUESTED refund (see `Reconciler.reconcileRefund`); the caller reports the result. */
  async check(em: SqlEntityManager, refundId: string): Promise<RefundReconcileResult> {
    const refund = await em.findOne(Refund, { id: refundId }, { refresh: true });
    if (!refund) return { outcome: 'not_found', refundId, reason: `REFUND_NOT_FOUND: no refund ${refundId}` };
    const done = async (result: Omit<RefundReconcileResult, 'refundId'>): Promise<RefundReconcileResult> => {
      await this.release(em, refundId);
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

  /** After a check: when it ended, which orders the rotation of due refunds. */
  private async release(em: SqlEntityManager, refundId: string): Promise<void> {
    await em.execute('update refund set reconcile_checked_at = now() where id = ?', [refundId]);
  }
}
