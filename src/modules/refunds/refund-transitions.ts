// The refund subject kind: how a refund's status changes through the kernel's one transition path,
// together with the deposit's refund position; and the refund's record once the provider knows it.

import { LockMode } from '@mikro-orm/core';
import { newId } from '../../lib/ids.js';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { Money } from '../../lib/money.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';
import type { RefundStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { depositTransitions } from '../deposits/deposit-transitions.js';
import type { SubjectKind, TransitionPath } from '../../kernel/transitions.js';
import { Refund } from './refund.entity.js';
import { depositRefundStatus, refundStateMachine } from './refund-status.js';
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
 * lock and then applies the reported status through `refundTransitions`. The row and its
 * `refund.created` are one statement; the refund returned is managed, taken from the written row.
 */
export async function recordProviderRefund(
  em: SqlEntityManager,
  deposit: Deposit,
  provided: { amount: Money; reference: string; providerStatus: string },
  path: TransitionPath,
): Promise<Refund> {
  const now = new Date();
  // The refund as created, for its event's snapshot; the kernel writes the row from the values below.
  const created = em.create(Refund, {
    id: newId('rfd'),
    depositId: deposit.id,
    clientId: null,
    origin: 'PROVIDER',
    amount: provided.amount.toDecimal(),
    currency: provided.amount.currency,
    reason: null,
    status: 'REQUESTED',
    providerReference: provided.reference,
    providerStatus: provided.providerStatus,
    submissionError: null,
    createdAt: now,
    updatedAt: now,
  }, { persist: false });
  const returned = await path.create<LockedRefund>(em, refundTransitions, {
    event: REFUND_CREATED,
    row: { refund: created, deposit },
    insert: {
      values: {
        id: created.id,
        deposit_id: created.depositId,
        client_id: created.clientId,
        origin: created.origin,
        amount: created.amount,
        currency: created.currency,
        reason: created.reason,
        status: created.status,
        provider_reference: created.providerReference,
        provider_status: created.providerStatus,
        submission_error: created.submissionError,
        created_at: created.createdAt,
        updated_at: created.updatedAt,
        // The request that made it, for the spans of what follows (docs/tracing.md).
        trace_context: currentTraceparent() ?? null,
      },
      returning: '*',
    },
  });
  const refund = em.map(Refund, returned!);
  await updateDepositRefundPosition(em, deposit, path, 'refund');
  return refund;
}

/**
 * Records the provider's id for a refund (from its answer, or from a webhook that overtook the
 * answer) and announces the refund: from here on the provider knows it. Both rows must be locked
 * by the caller ({@link lockRefund}). The reference and `refund.created` are one statement; the
 * managed refund is then taken from the row it returns, so nothing is left for a flush.
 */
export async function attachProviderReference(
  em: SqlEntityManager,
  locked: { refund: Refund; deposit: Deposit },
  provided: { reference: string; providerStatus: string },
  path: TransitionPath,
): Promise<void> {
  const { refund, deposit } = locked;
  const known = { providerReference: provided.reference, providerStatus: refund.providerStatus ?? provided.providerStatus, submissionError: null, updatedAt: new Date() };
  const { returned } = await path.record<LockedRefund>(em, refundTransitions, {
    event: REFUND_CREATED,
    creation: true,
    row: locked,
    next: { refund: Object.assign(refund, known), deposit },
    update: {
      set: { provider_reference: known.providerReference, provider_status: known.providerStatus, submission_error: known.submissionError, updated_at: known.updatedAt },
      returning: '*',
    },
  });
  if (!returned) throw new Error(`refund ${refund.id} vanished under its row lock`);
  em.map(Refund, returned);
  await updateDepositRefundPosition(em, deposit, path, 'refund');
}

/**
 * Brings the deposit's `refundStatus` (and, with `refunded`, its refunded amount) in line with its
 * refunds and tells subscribers: the position and `deposit.refund_updated` are one statement. A
 * deposit refunded in full moves to REFUNDED through the deposit transition function instead,
 * whose event tells of the position written before it.
 */
async function updateDepositRefundPosition(em: SqlEntityManager, deposit: Deposit, path: TransitionPath, source: string, refunded?: Money): Promise<void> {
  const refunds = await em.find(Refund, { depositId: deposit.id });
  const refundStatus = depositRefundStatus(refunds);
  const refundedAmount = refunded ? refunded.toDecimal() : deposit.refundedMoney().toDecimal();
  if (refundStatus === (deposit.refundStatus ?? null) && refundedAmount === deposit.refundedMoney().toDecimal()) return;
  if (deposit.status === 'SUCCEEDED' && Money.fromDecimal(refundedAmount, deposit.currency).equals(deposit.amountMoney())) {
    // Decided by our refund rows, not by a provider's report: there are no details to fetch. The
    // change reads the deposit again under its lock, so the position is flushed first.
    Object.assign(deposit, { refundStatus, refundedAmount });
    await em.flush();
    const moved = await path.apply(em, depositTransitions, { id: deposit.id, change: { status: 'REFUNDED', providerStatus: 'refunded', detailsIncluded: true }, source });
    if (moved.outcome !== 'applied') await path.note(em, depositTransitions, { event: DEPOSIT_REFUND_UPDATED, row: deposit });
    return;
  }
  const position = { refundStatus, refundedAmount, updatedAt: new Date() };
  const { returned } = await path.record(em, depositTransitions, {
    event: DEPOSIT_REFUND_UPDATED,
    row: deposit,
    next: Object.assign(deposit, position),
    update: { set: { refund_status: position.refundStatus, refunded_amount: position.refundedAmount, updated_at: position.updatedAt }, returning: '*' },
  });
  if (!returned) throw new Error(`deposit ${deposit.id} vanished under its row lock`);
  em.map(Deposit, returned);
}
