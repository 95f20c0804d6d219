// The one place a refund's status changes (webhooks, a refusal at submission), together with the deposit's refund position.

import { LockMode } from '@mikro-orm/core';
import { newId } from '../../lib/ids.js';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Money } from '../../lib/money.js';
import type { RefundStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { applyDepositChange } from '../deposits/deposit-transitions.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import { Refund } from './refund.entity.js';
import { decideRefundTransition, depositRefundStatus } from './refund-status.js';
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

export interface ApplyRefundChangeInput {
  refundId: string;
  change: RefundChange;
  /** Who reports the change, for the record (e.g. `webhook:deposit-gateway/dg-test`, `submission`). */
  source: string;
}

/** Same outcomes as a deposit change: `applied`, `noop`, `anomaly` (with `reason`), `not_found`. */
export interface ApplyRefundChangeResult {
  outcome: 'applied' | 'noop' | 'anomaly' | 'not_found';
  reason?: string;
  refund?: Refund;
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

/**
 * Applies a reported refund status inside the caller's transaction: the refund's event, and on
 * APPROVED the deposit's refunded amount, its `refundStatus` and (once refunded in full) its move
 * to REFUNDED, with their events, all commit together.
 */
export async function applyRefundChange(em: SqlEntityManager, input: ApplyRefundChangeInput, events: EventLog): Promise<ApplyRefundChangeResult> {
  const locked = await lockRefund(em, input.refundId);
  if (!locked) return { outcome: 'not_found', reason: `REFUND_NOT_FOUND: no refund ${input.refundId}` };
  const { refund, deposit } = locked;
  const { change } = input;

  const expected = refund.amountMoney();
  if (change.amount && !change.amount.equals(expected)) {
    return { outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${change.amount.toString()}, refund is ${expected.toString()}`, refund };
  }
  const from = refund.status;
  const decision = decideRefundTransition(from, change.status);
  if (decision.kind === 'noop') return { outcome: 'noop', refund };
  if (decision.kind === 'anomaly') return { outcome: 'anomaly', reason: `TRANSITION_NOT_ALLOWED: ${decision.reason}`, refund };

  let refunded: Money | undefined;
  if (change.status === 'APPROVED') {
    refunded = deposit.refundedMoney().add(expected);
    // The request-time check makes this impossible unless the provider executed money we never
    // asked for; the column's check constraint would abort the webhook's transaction instead.
    if (refunded.compare(deposit.amountMoney()) > 0) {
      return { outcome: 'anomaly', reason: `REFUND_EXCEEDS_DEPOSIT: ${refunded.toString()} refunded of ${deposit.amountMoney().toString()}`, refund };
    }
  }

  refund.status = change.status;
  refund.providerStatus = change.providerStatus;
  await em.flush();
  await events.append(em, {
    subjectType: 'refund',
    subjectId: refund.id,
    clientId: deposit.clientId,
    merchantAccount: deposit.merchantAccount,
    type: REFUND_STATUS_CHANGED,
    fromStatus: from,
    toStatus: refund.status,
    snapshot: toRefundSnapshot(refund),
  });
  await updateDepositRefundPosition(em, deposit, events, input.source, refunded);
  return { outcome: 'applied', refund };
}

/**
 * A refund made outside the gateway (the provider's dashboard, or a reversal of the whole payment),
 * recorded with the provider's reference and announced, so the deposit's refunded amount stays true
 * and no request through the gateway can refund the same money again. The caller holds the deposit
 * lock and then applies the reported status through {@link applyRefundChange}.
 */
export async function recordProviderRefund(
  em: SqlEntityManager,
  deposit: Deposit,
  provided: { amount: Money; reference: string; providerStatus: string },
  events: EventLog,
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
    idempotencyKey: null,
    idempotencyFingerprint: null,
    submissionError: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await em.flush();
  await attachProviderReference(em, { refund, deposit }, { reference: provided.reference, providerStatus: provided.providerStatus }, events);
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
  events: EventLog,
): Promise<void> {
  const { refund, deposit } = locked;
  refund.providerReference = provided.reference;
  refund.providerStatus ??= provided.providerStatus;
  refund.submissionError = null;
  await em.flush();
  await events.append(em, {
    subjectType: 'refund',
    subjectId: refund.id,
    clientId: deposit.clientId,
    merchantAccount: deposit.merchantAccount,
    type: REFUND_CREATED,
    fromStatus: null,
    toStatus: refund.status,
    snapshot: toRefundSnapshot(refund),
  });
  await updateDepositRefundPosition(em, deposit, events, 'refund');
}

/**
 * Brings the deposit's `refundStatus` (and, with `refunded`, its refunded amount) in line with its
 * refunds and tells subscribers; a deposit refunded in full moves to REFUNDED through the deposit
 * transition function.
 */
async function updateDepositRefundPosition(em: SqlEntityManager, deposit: Deposit, events: EventLog, source: string, refunded?: Money): Promise<void> {
  const refunds = await em.find(Refund, { depositId: deposit.id });
  const refundStatus = depositRefundStatus(refunds);
  const refundedAmount = refunded ? refunded.toDecimal() : deposit.refundedMoney().toDecimal();
  if (refundStatus === (deposit.refundStatus ?? null) && refundedAmount === deposit.refundedMoney().toDecimal()) return;
  deposit.refundStatus = refundStatus;
  deposit.refundedAmount = refundedAmount;
  await em.flush();

  if (deposit.status === 'SUCCEEDED' && deposit.refundedMoney().equals(deposit.amountMoney())) {
    const moved = await applyDepositChange(em, { depositId: deposit.id, change: { status: 'REFUNDED', providerStatus: 'refunded' }, source }, events);
    if (moved.outcome === 'applied') return;
  }
  await events.append(em, {
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
