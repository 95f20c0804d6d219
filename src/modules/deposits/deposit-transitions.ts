// The deposit subject kind: how a deposit's status changes, through the kernel's one transition path.

import { LockMode } from '@mikro-orm/core';
import { deferredDeliveriesRelease } from '../../kernel/inbox/deferred.js';
import type { Reaction, SubjectKind } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus, ProviderName } from '../../providers/provider.js';
import { Deposit } from './deposit.entity.js';
import { snapshotColumns } from './written-deposits.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, toDepositSnapshot } from './deposit-snapshot.js';
import { depositStateMachine } from './deposit-status.js';

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
   * Nothing is left to read from the provider after this change: the report is its whole record of
   * the payment (a status lookup), or the change is ours (a refusal at submission, an expired
   * session, a refund in full). Otherwise a detail fetch follows the change.
   */
  detailsIncluded?: boolean;
  /**
   * The provider's reference of the payment the report is about. Kept as the deposit's provider
   * reference when it has none yet, and as its payment reference (which, for hosted checkout,
   * differs from the session id the deposit was created with).
   */
  providerReference?: string;
}

export const DEPOSIT_STATUS_CHANGED = 'deposit.status_changed';

/** Webhooks and the card settle answer carry the status, not the details (spec: Webhook event envelope). */
export const FETCH_DEPOSIT_DETAILS = 'deposit.fetch_details';

export interface FetchDepositDetailsJob {
  depositId: string;
  /** The provider's payment reference (for hosted checkout, not the session id the deposit began with). */
  reference: string;
  /** Where the deposit is held, so the job does not read it before asking the provider (absent in older jobs). */
  provider?: ProviderName;
  merchantAccount?: string;
}

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [FETCH_DEPOSIT_DETAILS]: FetchDepositDetailsJob;
  }
}

/**
 * The deposit subject kind (src/kernel/transitions.ts): webhooks, reconciliation, the card settle
 * call and refusals at submission all change a deposit's status through it. A change is written
 * by one statement with its event and its follow-up jobs: the detail fetch (fee, net and decline
 * reason, which status reports do not carry) and, when refund deliveries wait for this payment,
 * their release.
 *
 * Its row is the entity, or the entity's `TRANSITION_PROPERTIES` read without one under the row
 * lock (the webhook inbox's lookup: mapping that row to the entity slowed webhooks measurably), a
 * Pick of the entity either way, not a deposit shape of its own.
 */
export const depositTransitions: SubjectKind<Pick<Deposit, TransitionProperty>, DepositStatus, DepositChange> = {
  type: 'deposit',
  table: 'deposit',
  machine: depositStateMachine,
  changedEvent: DEPOSIT_STATUS_CHANGED,
  // refresh: the caller may have loaded this deposit before the lock; only the locked read counts.
  lock: async (tx, id) => (await tx.findOne(Deposit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })) ?? undefined,
  statusOf: (deposit) => deposit.status,
  idOf: (deposit) => deposit.id,
  owner: (deposit) => ({ clientId: deposit.clientId, merchantAccount: deposit.merchantAccount }),
  snapshot: toDepositSnapshot,

  // DESIGN.md "Amount and currency come from the provider's record": a report for other money is
  // flagged whatever its status, so it can never make a deposit SUCCEEDED.
  check: ({ row: deposit, change }) => {
    const expected = Money.fromDecimal(deposit.amount, deposit.currency);
    if (change.amount && !change.amount.equals(expected)) return `AMOUNT_MISMATCH: reported ${change.amount.toString()}, deposit is ${expected.toString()}`;
    for (const [name, value] of [['fee', change.fee], ['net', change.net]] as const) {
      if (value && value.currency !== deposit.currency) return `AMOUNT_MISMATCH: ${name} reported in ${value.currency}, deposit is in ${deposit.currency}`;
    }
    return undefined;
  },

  checkMove: async ({ tx, row: deposit, change }, phase) => {
    if (phase === 'beforeMachine') {
      // Only refund rows decide REFUNDED (refund-accounting.ts): the refund code moves a deposit
      // here once its executed refunds cover it; any other report of the word is reconciled there first.
      const expected = Money.fromDecimal(deposit.amount, deposit.currency);
      const refunded = Money.fromDecimal(deposit.refundedAmount ?? '0', deposit.currency);
      if (change.status === 'REFUNDED' && !refunded.equals(expected)) return `REFUND_NOT_RECORDED: ${refunded.toString()} of ${expected.toString()} is refunded by refund rows`;
      return undefined;
    }
    if (!change.providerReference || deposit.providerReference) return undefined;
    // (provider, provider_reference) is unique: a violation at write would abort the transaction
    // and turn a verified webhook into an endless 5xx retry, so a clash is refused as data.
    const taken = await tx.count(Deposit, { provider: deposit.provider, providerReference: change.providerReference, id: { $ne: deposit.id } });
    return taken > 0 ? `PROVIDER_REFERENCE_CONFLICT: ${change.providerReference} belongs to another deposit` : undefined;
  },

  // A detail, not a change: recorded whatever the status decision, so a report that arrives after
  // its status was applied (a webhook after the reconciler) still names the payment for refunds.
  recordUnchanged: async ({ tx, row: deposit, change }) => {
    const paymentReference = newPaymentReference(deposit, change);
    if (paymentReference === undefined) return;
    if (deposit instanceof Deposit) {
      deposit.paymentReference = paymentReference;
      await tx.flush();
    } else {
      await tx.execute('update deposit set payment_reference = ?, updated_at = ? where id = ?', [paymentReference, new Date(), deposit.id]);
    }
  },

  write: ({ tx, row: deposit, change }) => {
    const managed = deposit instanceof Deposit;
    // The deposit as it will stand, for the event's snapshot: the row and its event are written by
    // one statement, and a managed entity is then refreshed from what it returns. A plain row comes
    // back as the snapshot's columns with its version (`versionedDeposit`): a webhook hands it to the
    // detail fetch that follows (written-deposits.ts).
    const next = {
      status: change.status,
      providerStatus: change.providerStatus,
      declineReason: change.declineReason !== undefined ? change.declineReason : (deposit.declineReason ?? null),
      statusReason: change.statusReason !== undefined ? change.statusReason : (deposit.statusReason ?? null),
      fee: change.fee ? change.fee.toDecimal() : (deposit.fee ?? null),
      net: change.net ? change.net.toDecimal() : (deposit.net ?? null),
      approvedAt: change.status === 'SUCCEEDED' ? (change.approvedAt ?? new Date()) : (deposit.approvedAt ?? null),
      providerReference: deposit.providerReference ?? change.providerReference ?? null,
      paymentReference: newPaymentReference(deposit, change) ?? deposit.paymentReference ?? null,
      updatedAt: new Date(),
    };
    return {
      // The managed entity as it will stand: `merge` takes its state from the returned row again,
      // so no dirty state is left for a later flush.
      next: Object.assign(deposit, next),
      update: {
        set: {
          status: next.status,
          provider_status: next.providerStatus,
          decline_reason: next.declineReason,
          status_reason: next.statusReason,
          fee: next.fee,
          net: next.net,
          approved_at: next.approvedAt,
          provider_reference: next.providerReference,
          payment_reference: next.paymentReference,
          updated_at: next.updatedAt,
        },
        returning: managed ? '*' : { columns: snapshotColumns(tx), version: true },
      },
      ...(managed ? { merge: (returned: Record<string, unknown>) => tx.map(Deposit, returned) } : {}),
    };
  },

  reactions: ({ row: deposit, next, change }) => {
    // Status reports carry the status, not the details (spec "Webhook event envelope"): a job reads
    // fee, net and decline reason from the provider's record once the change commits, by the
    // payment's reference (a change that names none has no record to read).
    const reference = change.detailsIncluded ? undefined : (change.providerReference ?? next.paymentReference ?? next.providerReference ?? undefined);
    const details: Reaction<typeof FETCH_DEPOSIT_DETAILS>[] = reference
      ? [{ kind: FETCH_DEPOSIT_DETAILS, payload: { depositId: deposit.id, reference, provider: deposit.provider, merchantAccount: deposit.merchantAccount }, dedupeKey: deposit.id }]
      : [];
    return [
      ...details,
      // Refund deliveries that overtook this payment are decided again now that its status changed
      // (read by the change's own statement, after the row lock: none deferred before it is missed).
      deferredDeliveriesRelease('deposit', deposit.id),
    ];
  },
};

/** The payment reference a report names, when the deposit has none yet (a hosted checkout's session id is not one). */
function newPaymentReference(deposit: Pick<Deposit, TransitionProperty>, change: DepositChange): string | undefined {
  const reported = change.providerReference;
  return reported && !deposit.paymentReference && !(deposit.rail === 'HOSTED_CHECKOUT' && reported === deposit.providerReference) ? reported : undefined;
}

/**
 * What a change reads of a deposit: its snapshot's properties and its references, the select list
 * of the webhook inbox's locked read (`columnList`, src/db/plain-rows.ts).
 */
export const TRANSITION_PROPERTIES = [...DEPOSIT_SNAPSHOT_PROPERTIES, 'providerReference', 'paymentReference'] as const satisfies ReadonlyArray<keyof Deposit>;

/** The names of `TRANSITION_PROPERTIES`: a deposit on the transition path is a `Pick<Deposit, TransitionProperty>`. */
export type TransitionProperty = (typeof TRANSITION_PROPERTIES)[number];
