// The one place a deposit's status changes: webhooks, reconciliation and card settle all apply provider reports through here.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Money } from '../../lib/money.js';
import type { DepositStatus } from '../../providers/provider.js';
import type { EventService } from '../events/event.service.js';
import { Deposit } from './deposit.entity.js';
import { decideDepositTransition } from './deposit-status.js';

/** What a provider reported about a deposit, in domain terms. */
export interface DepositChange {
  status: DepositStatus;
  /** The provider's raw status word. */
  providerStatus: string;
  declineReason?: string;
  /** Processor code (admins only). */
  statusReason?: string;
  /** The amount the provider says was paid; checked against the deposit, never written over it. */
  amount?: Money;
  fee?: Money;
  net?: Money;
  approvedAt?: Date;
  /**
   * The provider's reference of the payment the report is about. Kept as the deposit's provider
   * reference when it has none yet, and as its payment reference (which, for hosted checkout,
   * differs from the session id the deposit was created with).
   */
  providerReference?: string;
}

export interface ApplyDepositChangeInput {
  depositId: string;
  /**
   * The deposit, already read with its row lock in this transaction (a webhook finds and locks it
   * in one statement): it is not read again.
   */
  locked?: Deposit;
  change: DepositChange;
  /** Who reports the change, for the record (e.g. `webhook:deposit-gateway/dg-test`, `reconciler`). */
  source: string;
}

/**
 * - `applied`: the status changed; one event row was appended in the same statement.
 * - `noop`: the deposit already has that status; nothing changed.
 * - `anomaly`: refused with `reason` (an impossible transition, a mismatched amount); nothing changed.
 * - `not_found`: no deposit with that id.
 */
export interface ApplyDepositChangeResult {
  outcome: 'applied' | 'noop' | 'anomaly' | 'not_found';
  reason?: string;
  deposit?: Deposit;
}

export const DEPOSIT_STATUS_CHANGED = 'deposit.status_changed';

/**
 * Applies a reported status to a deposit, inside the caller's transaction (which commits the
 * change, its event row and the caller's own records together: DESIGN.md "Durable before
 * acknowledged"). The deposit row is locked first, so concurrent reports about one deposit
 * serialize and each sees the status the previous one committed.
 */
export async function applyDepositChange(em: SqlEntityManager, input: ApplyDepositChangeInput, events: EventService): Promise<ApplyDepositChangeResult> {
  if (!em.isInTransaction()) throw new Error('applyDepositChange must run inside a transaction: its row lock lasts until commit');
  const { change } = input;
  // refresh: the caller may have loaded this deposit before the lock; only the locked read counts.
  const deposit = input.locked ?? (await em.findOne(Deposit, { id: input.depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }));
  if (!deposit) return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no deposit ${input.depositId}` };

  const reported = change.providerReference;
  // A detail, not a change: recorded whatever the status decision, so a report that arrives after
  // its status was applied (a webhook after the reconciler) still names the payment for refunds.
  // Written with the status when that changes, else on its own.
  const paymentReference =
    reported && !deposit.paymentReference && !(deposit.rail === 'HOSTED_CHECKOUT' && reported === deposit.providerReference) ? reported : undefined;
  const unchanged = async (result: ApplyDepositChangeResult): Promise<ApplyDepositChangeResult> => {
    if (paymentReference !== undefined) {
      deposit.paymentReference = paymentReference;
      await em.flush();
    }
    return result;
  };

  // DESIGN.md "Amount and currency come from the provider's record": a report for other money is
  // flagged whatever its status, so it can never make a deposit SUCCEEDED.
  const expected = deposit.amountMoney();
  if (change.amount && !change.amount.equals(expected)) {
    return unchanged({ outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${change.amount.toString()}, deposit is ${expected.toString()}`, deposit });
  }
  for (const [name, value] of [['fee', change.fee], ['net', change.net]] as const) {
    if (value && value.currency !== deposit.currency) {
      return unchanged({ outcome: 'anomaly', reason: `AMOUNT_MISMATCH: ${name} reported in ${value.currency}, deposit is in ${deposit.currency}`, deposit });
    }
  }

  const from = deposit.status;
  const decision = decideDepositTransition(from, change.status);
  if (decision.kind === 'noop') return unchanged({ outcome: 'noop', deposit });
  if (change.status === 'REFUNDED' && !deposit.refundedMoney().equals(deposit.amountMoney())) {
    // Only refund rows decide REFUNDED (refund-accounting.ts): the refund code moves a deposit here
    // once its executed refunds cover it; any other report of the word is reconciled there first.
    return unchanged({ outcome: 'anomaly', reason: `REFUND_NOT_RECORDED: ${deposit.refundedMoney().toString()} of ${deposit.amountMoney().toString()} is refunded by refund rows`, deposit });
  }
  if (decision.kind === 'anomaly') return unchanged({ outcome: 'anomaly', reason: `TRANSITION_NOT_ALLOWED: ${decision.reason}`, deposit });

  let providerReference = deposit.providerReference ?? null;
  if (change.providerReference && !deposit.providerReference) {
    // (provider, provider_reference) is unique: a violation at flush would abort the transaction
    // and turn a verified webhook into an endless 5xx retry, so a clash is refused as data.
    const taken = await em.count(Deposit, { provider: deposit.provider, providerReference: change.providerReference, id: { $ne: deposit.id } });
    if (taken > 0) {
      return unchanged({ outcome: 'anomaly', reason: `PROVIDER_REFERENCE_CONFLICT: ${change.providerReference} belongs to another deposit`, deposit });
    }
    providerReference = change.providerReference;
  }

  // The deposit as it will stand, for the event's snapshot: the row and its event are written by
  // one statement, and the managed entity is then refreshed from what it returns.
  const next = {
    status: change.status,
    providerStatus: change.providerStatus,
    declineReason: change.declineReason !== undefined ? change.declineReason : (deposit.declineReason ?? null),
    statusReason: change.statusReason !== undefined ? change.statusReason : (deposit.statusReason ?? null),
    fee: change.fee ? change.fee.toDecimal() : (deposit.fee ?? null),
    net: change.net ? change.net.toDecimal() : (deposit.net ?? null),
    approvedAt: change.status === 'SUCCEEDED' ? (change.approvedAt ?? new Date()) : (deposit.approvedAt ?? null),
    providerReference,
    paymentReference: paymentReference ?? deposit.paymentReference ?? null,
    updatedAt: new Date(),
  };
  const rows = await events.appendWith<Record<string, unknown>>(
    em,
    {
      sql: `update deposit set status = ?, provider_status = ?, decline_reason = ?, status_reason = ?, fee = ?, net = ?, approved_at = ?,
              provider_reference = ?, payment_reference = ?, updated_at = ?
            where id = ? returning *`,
      params: [next.status, next.providerStatus, next.declineReason, next.statusReason, next.fee, next.net, next.approvedAt, next.providerReference, next.paymentReference, next.updatedAt, deposit.id],
    },
    {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      type: DEPOSIT_STATUS_CHANGED,
      fromStatus: from,
      toStatus: next.status,
      // The managed entity as it will stand: em.map below takes its state from the row again.
      deposit: Object.assign(deposit, next),
    },
  );
  if (!rows[0]) throw new Error(`deposit ${deposit.id} vanished under its row lock`);
  // Merged into the managed entity: no dirty state is left for a later flush.
  return { outcome: 'applied', deposit: em.map(Deposit, rows[0]) };
}
