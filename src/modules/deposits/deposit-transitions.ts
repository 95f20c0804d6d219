// The one place a deposit's status changes: webhooks, reconciliation and card settle all apply provider reports through here.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { Money } from '../../lib/money.js';
import type { DepositStatus } from '../../providers/provider.js';
import type { AppendAlongside, EventLog } from '../../kernel/events/event-log.js';
import { Deposit } from './deposit.entity.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, type DepositFacts, toDepositSnapshot } from './deposit-snapshot.js';
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
   * in one statement): it is not read again. A managed entity is kept current; a plain row
   * (`plainRow`, src/db/plain-rows.ts) is changed by statements alone, with no entity hydrated or flushed.
   */
  locked?: Deposit | LockedDeposit;
  change: DepositChange;
  /** Who reports the change, for the record (e.g. `webhook:deposit-gateway/dg-test`, `reconciler`). */
  source: string;
  /**
   * What the status change's own statement also writes and reads, only when the status changes
   * (the webhook inbox: the detail fetch job, the delivery's outcome, a count of the deliveries
   * waiting for this deposit). The extra columns come back in `row`.
   */
  alongside?: () => AppendAlongside;
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
  /** `applied`: the row the change returned, with the columns `alongside` selected. */
  row?: Record<string, unknown>;
}

export const DEPOSIT_STATUS_CHANGED = 'deposit.status_changed';

/**
 * Applies a reported status to a deposit, inside the caller's transaction (which commits the
 * change, its event row and the caller's own records together: DESIGN.md "Durable before
 * acknowledged"). The deposit row is locked first, so concurrent reports about one deposit
 * serialize and each sees the status the previous one committed.
 */
export async function applyDepositChange(em: SqlEntityManager, input: ApplyDepositChangeInput, events: EventLog): Promise<ApplyDepositChangeResult> {
  if (!em.isInTransaction()) throw new Error('applyDepositChange must run inside a transaction: its row lock lasts until commit');
  const { change } = input;
  // refresh: the caller may have loaded this deposit before the lock; only the locked read counts.
  const deposit = input.locked ?? (await em.findOne(Deposit, { id: input.depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }));
  if (!deposit) return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no deposit ${input.depositId}` };
  const managed = deposit instanceof Deposit ? deposit : undefined;

  const reported = change.providerReference;
  // A detail, not a change: recorded whatever the status decision, so a report that arrives after
  // its status was applied (a webhook after the reconciler) still names the payment for refunds.
  // Written with the status when that changes, else on its own.
  const paymentReference =
    reported && !deposit.paymentReference && !(deposit.rail === 'HOSTED_CHECKOUT' && reported === deposit.providerReference) ? reported : undefined;
  const unchanged = async (result: ApplyDepositChangeResult): Promise<ApplyDepositChangeResult> => {
    if (paymentReference !== undefined) {
      if (managed) {
        managed.paymentReference = paymentReference;
        await em.flush();
      } else {
        await em.execute('update deposit set payment_reference = ?, updated_at = ? where id = ?', [paymentReference, new Date(), deposit.id]);
      }
    }
    return result;
  };

  // DESIGN.md "Amount and currency come from the provider's record": a report for other money is
  // flagged whatever its status, so it can never make a deposit SUCCEEDED.
  const expected = Money.fromDecimal(deposit.amount, deposit.currency);
  const refunded = Money.fromDecimal(deposit.refundedAmount ?? '0', deposit.currency);
  if (change.amount && !change.amount.equals(expected)) {
    return unchanged({ outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${change.amount.toString()}, deposit is ${expected.toString()}`, deposit: managed });
  }
  for (const [name, value] of [['fee', change.fee], ['net', change.net]] as const) {
    if (value && value.currency !== deposit.currency) {
      return unchanged({ outcome: 'anomaly', reason: `AMOUNT_MISMATCH: ${name} reported in ${value.currency}, deposit is in ${deposit.currency}`, deposit: managed });
    }
  }

  const from = deposit.status;
  const decision = decideDepositTransition(from, change.status);
  if (decision.kind === 'noop') return unchanged({ outcome: 'noop', deposit: managed });
  if (change.status === 'REFUNDED' && !refunded.equals(expected)) {
    // Only refund rows decide REFUNDED (refund-accounting.ts): the refund code moves a deposit here
    // once its executed refunds cover it; any other report of the word is reconciled there first.
    return unchanged({ outcome: 'anomaly', reason: `REFUND_NOT_RECORDED: ${refunded.toString()} of ${expected.toString()} is refunded by refund rows`, deposit: managed });
  }
  if (decision.kind === 'anomaly') return unchanged({ outcome: 'anomaly', reason: `TRANSITION_NOT_ALLOWED: ${decision.reason}`, deposit: managed });

  let providerReference = deposit.providerReference ?? null;
  if (change.providerReference && !deposit.providerReference) {
    // (provider, provider_reference) is unique: a violation at flush would abort the transaction
    // and turn a verified webhook into an endless 5xx retry, so a clash is refused as data.
    const taken = await em.count(Deposit, { provider: deposit.provider, providerReference: change.providerReference, id: { $ne: deposit.id } });
    if (taken > 0) {
      return unchanged({ outcome: 'anomaly', reason: `PROVIDER_REFERENCE_CONFLICT: ${change.providerReference} belongs to another deposit`, deposit: managed });
    }
    providerReference = change.providerReference;
  }

  // The deposit as it will stand, for the event's snapshot: the row and its event are written by
  // one statement, and a managed entity is then refreshed from what it returns (a plain row needs
  // nothing back but its id).
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
  const alongside = input.alongside?.();
  const rows = await events.appendWith<Record<string, unknown>>(
    em,
    {
      sql: `update deposit set status = ?, provider_status = ?, decline_reason = ?, status_reason = ?, fee = ?, net = ?, approved_at = ?,
              provider_reference = ?, payment_reference = ?, updated_at = ?
            where id = ? returning ${managed ? '*' : 'id'}`,
      params: [next.status, next.providerStatus, next.declineReason, next.statusReason, next.fee, next.net, next.approvedAt, next.providerReference, next.paymentReference, next.updatedAt, deposit.id],
    },
    {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      type: DEPOSIT_STATUS_CHANGED,
      fromStatus: from,
      toStatus: next.status,
      merchantAccount: deposit.merchantAccount,
      // The managed entity as it will stand: em.map below takes its state from the row again.
      snapshot: toDepositSnapshot(Object.assign(deposit, next)),
    },
    alongside,
  );
  const row = rows[0];
  if (!row) throw new Error(`deposit ${deposit.id} vanished under its row lock`);
  if (!managed) return { outcome: 'applied', row };
  const columns = { ...row };
  for (const extra of alongside?.select?.columns ?? []) delete columns[extra];
  // Merged into the managed entity: no dirty state is left for a later flush.
  return { outcome: 'applied', deposit: em.map(Deposit, columns), row };
}

/** A deposit read with its row lock without an entity: its snapshot's columns and its references. */
export type LockedDeposit = DepositFacts & Pick<Deposit, 'providerReference' | 'paymentReference'>;

/** The properties of `LockedDeposit`: the select list of a locked read (`columnList`, src/db/plain-rows.ts). */
export const LOCKED_DEPOSIT_PROPERTIES = [...DEPOSIT_SNAPSHOT_PROPERTIES, 'providerReference', 'paymentReference'] as const satisfies ReadonlyArray<keyof Deposit>;
