// The refund subject kind: how a refund's status changes through the kernel's one transition path,
// together with the deposit's refund position; and the refund's record once the provider knows it.

import { LockMode } from '@mikro-orm/core';
import { newId } from '../../lib/ids.js';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Money } from '../../lib/money.js';
import type { RefundStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { depositTransitions } from '../deposits/deposit-transitions.js';
import type { SubjectKind, TransitionPath } from '../../kernel/transitions.js';
import { Refund } from './refund.entity.js';
import { depositRefundStatus, refundStateMachine } from './refund-status.js';
import { toDepositSnapshot } from '../deposits/deposit-snapshot.js';
import { toRefundSnapshot } from './refund-snapshot.js';

/** What a provider reported about a refund, in domain terms. */
export interface RefundChange {
  status: RefundStatus;
  /** The provider's raw status word. */
  providerStatus: string;
  /** The amount the provider says; checked against the refund, never written over it. */
  amount?: Money;
}

export const REFUND_CREATED = 'refund.created';
export const REFUND_STATUS_CHANGED = 'refund.status_changed';
export const DEPOSIT_REFUND_UPDATED = 'deposit.refund_updated';

/**
 * Locks a refund's deposit, then the refund, in the caller's transaction. Always in this order
 * (the refund request takes the deposit lock too), so refund work on one deposit serializes and
 * never deadlocks.
 */
export async function lockRefund(em: SqlEntityManager, refundId: string): Promise<{ refund: Refund; deposit: Deposit } | undefined> {
  if (!em.isInTransaction()) throw new Error('lockRefund must run inside a transaction: its row locks last until commit');
  const rows = await em.execute<Array<{ deposit_id: string }>>('select deposit_id from refund where id = ?', [refundId]);
  const depositId = rows[0]?.deposit_id;
  if (!depositId) return undefined;
  const deposit = await em.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const refund = await em.findOneOrFail(Refund, { id: refundId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  return { refund, deposit };
}

/** A refund as the transition path holds it: both rows read with their locks (`lockRefund`). */
export interface LockedRefund {
  refund: Refund;
  deposit: Deposit;
}

/**
 * The refund subject kind (src/kernel/transitions.ts): webhooks, the reconciler and refusals at
 * submission change a refund's status through it. An APPROVED refund adds to its deposit's
 * refunded amount, and the deposit's refund position (and, once refunded in full, its move to
 * REFUNDED) commits with it.
 */
export const refundTransitions: SubjectKind<LockedRefund, RefundStatus, RefundChange> = {
  type: 'refund',
  table: 'refund',
  machine: refundStateMachine,
  changedEvent: REFUND_STATUS_CHANGED,
  lock: lockRefund,
  statusOf: ({ refund }) => refund.status,
  idOf: ({ refund }) => refund.id,
  // A refund is seen as part of its deposit: its owner and account are the deposit's.
  owner: ({ deposit }) => ({ clientId: deposit.clientId, merchantAccount: deposit.merchantAccount }),
  snapshot: ({ refund }) => toRefundSnapshot(refund),

  check: ({ row: { refund }, change }) => {
    const expected = refund.amountMoney();
    return change.amount && !change.amount.equals(expected) ? `AMOUNT_MISMATCH: reported ${change.amount.toString()}, refund is ${expected.toString()}` : undefined;
  },

  checkMove: ({ row: { refund, deposit }, change }, phase) => {
    if (phase !== 'afterMachine' || change.status !== 'APPROVED') return undefined;
    // The request-time check makes this impossible unless the provider executed money we never
    // asked for; the column's check constraint would abort the webhook's transaction instead.
    const refunded = deposit.refundedMoney().add(refund.amountMoney());
    return refunded.compare(deposit.amountMoney()) > 0 ? `REFUND_EXCEEDS_DEPOSIT: ${refunded.toString()} refunded of ${deposit.amountMoney().toString()}` : undefined;
  },

  // One statement writes the refund's status with its event; the managed refund is then taken
  // from the row it returns (`tx.map`), so no dirty state is left for a later flush.
  write: ({ tx, row, change }) => {
    const next = { status: change.status, providerStatus: change.providerStatus, updatedAt: new Date() };
    return {
      next: { refund: Object.assign(row.refund, next), deposit: row.deposit },
      update: { set: { status: next.status, provider_status: next.providerStatus, updated_at: next.updatedAt }, returning: '*' },
      merge: (returned) => ({ refund: tx.map(Refund, returned), deposit: row.deposit }),
    };
  },

  entails: async ({ tx, next: { refund, deposit }, change, source }, path) => {
    const refunded = change.status === 'APPROVED' ? deposit.refundedMoney().add(refund.amountMoney()) : undefined;
    await updateDepositRefundPosition(tx, deposit, path, source, refunded);
  },
};

/**
 * A refund made outside the gateway (the provider's dashboard, or a reversal of the whole payment),
 * recorded with the provider's reference and announced, so the deposit's refunded amount stays true
 * and no request through the gateway can refund the same money again. The caller holds the deposit
 * lock and then applies the reported status through `refundTransitions`.
 */
export async function recordProviderRefund(
  em: SqlEntityManager,
  deposit: Deposit,
  provided: { amount: Money; reference: string; providerStatus: string },
  path: TransitionPath,
): Promise<Refund> {
  const refund = em.create(Refund, {
    id: newId('rfd'),
    depositId: deposit.id,
    clientId: null,
    origin: 'PROVIDER',
    amount: provided.amount.toDecimal(),
    currency: provided.amount.currency,
    reason: null,
    status: 'REQUESTED',
    providerReference: null,
    providerStatus: null,
    submissionError: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await em.flush();
  await attachProviderReference(em, { refund, deposit }, { reference: provided.reference, providerStatus: provided.providerStatus }, path);
  return refund;
}

/**
 * Records the provider's id for a refund (from its answer, or from a webhook that overtook the
 * answer) and announces the refund: from here on the provider knows it. Both rows must be locked
 * by the caller ({@link lockRefund}).
 */
export async function attachProviderReference(
  em: SqlEntityManager,
  locked: { refund: Refund; deposit: Deposit },
  provided: { reference: string; providerStatus: string },
  path: TransitionPath,
): Promise<void> {
  const { refund, deposit } = locked;
  refund.providerReference = provided.reference;
  refund.providerStatus ??= provided.providerStatus;
  refund.submissionError = null;
  await em.flush();
  await path.events.append(em, {
    subjectType: 'refund',
    subjectId: refund.id,
    clientId: deposit.clientId,
    merchantAccount: deposit.merchantAccount,
    type: REFUND_CREATED,
    fromStatus: null,
    toStatus: refund.status,
    snapshot: toRefundSnapshot(refund),
  });
  await updateDepositRefundPosition(em, deposit, path, 'refund');
}

/**
 * Brings the deposit's `refundStatus` (and, with `refunded`, its refunded amount) in line with its
 * refunds and tells subscribers; a deposit refunded in full moves to REFUNDED through the deposit
 * transition function.
 */
async function updateDepositRefundPosition(em: SqlEntityManager, deposit: Deposit, path: TransitionPath, source: string, refunded?: Money): Promise<void> {
  const refunds = await em.find(Refund, { depositId: deposit.id });
  const refundStatus = depositRefundStatus(refunds);
  const refundedAmount = refunded ? refunded.toDecimal() : deposit.refundedMoney().toDecimal();
  if (refundStatus === (deposit.refundStatus ?? null) && refundedAmount === deposit.refundedMoney().toDecimal()) return;
  deposit.refundStatus = refundStatus;
  deposit.refundedAmount = refundedAmount;
  await em.flush();

  if (deposit.status === 'SUCCEEDED' && deposit.refundedMoney().equals(deposit.amountMoney())) {
    // Decided by our refund rows, not by a provider's report: there are no details to fetch.
    const moved = await path.apply(em, depositTransitions, { id: deposit.id, change: { status: 'REFUNDED', providerStatus: 'refunded', detailsIncluded: true }, source });
    if (moved.outcome === 'applied') return;
  }
  await path.events.append(em, {
    subjectType: 'deposit',
    subjectId: deposit.id,
    clientId: deposit.clientId,
    type: DEPOSIT_REFUND_UPDATED,
    fromStatus: deposit.status,
    toStatus: deposit.status,
    merchantAccount: deposit.merchantAccount,
    snapshot: toDepositSnapshot(deposit),
  });
}
