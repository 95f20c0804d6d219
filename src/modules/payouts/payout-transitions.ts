// The payout subject kind: how a payout's status changes, through the kernel's one transition path.

import { LockMode } from '@mikro-orm/core';
import type { Money } from '../../lib/money.js';
import type { PayoutStatus } from '../../providers/provider.js';
import type { SubjectKind } from '../../kernel/transitions.js';
import { Payout } from './payout.entity.js';
import { payoutStateMachine } from './payout-status.js';
import { toPayoutSnapshot } from './payout-snapshot.js';

/** What a provider reported about a payout, in domain terms. */
export interface PayoutChange {
  status: PayoutStatus;
  /** The provider's raw status word. */
  providerStatus: string;
  /** The provider's own message (admins only). */
  statusReason?: string;
  /** The amount the provider says it pays; checked against the payout, never written over it. */
  amount?: Money;
  providerReference?: string;
}

export const PAYOUT_CREATED = 'payout.created';
export const PAYOUT_STATUS_CHANGED = 'payout.status_changed';

/**
 * The payout subject kind (src/kernel/transitions.ts): submission refusals, webhooks and the
 * reconciler all change a payout's status through it. A change is written by one statement with
 * its event.
 */
export const payoutTransitions: SubjectKind<Payout, PayoutStatus, PayoutChange> = {
  type: 'payout',
  table: 'payout',
  machine: payoutStateMachine,
  changedEvent: PAYOUT_STATUS_CHANGED,
  // refresh: the caller may have loaded this payout before the lock; only the locked read counts.
  lock: async (tx, id) => (await tx.findOne(Payout, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })) ?? undefined,
  statusOf: (payout) => payout.status,
  idOf: (payout) => payout.id,
  owner: (payout) => ({ clientId: payout.clientId, merchantAccount: payout.merchantAccount }),
  snapshot: toPayoutSnapshot,

  // The provider's record of the money wins over ours only by being flagged: a report for another
  // amount or currency never marks a payout PAID.
  check: ({ row: payout, change }) => {
    const expected = payout.amountMoney();
    return change.amount && !change.amount.equals(expected) ? `AMOUNT_MISMATCH: reported ${change.amount.toString()}, payout is ${expected.toString()}` : undefined;
  },

  checkMove: async ({ tx, row: payout, change }, phase) => {
    if (phase !== 'afterMachine' || !change.providerReference || payout.providerReference) return undefined;
    // (provider, provider_reference) is unique: a violation at flush would abort the transaction
    // and turn a verified webhook into an endless 5xx retry, so a clash is refused as data.
    const taken = await tx.count(Payout, { provider: payout.provider, providerReference: change.providerReference, id: { $ne: payout.id } });
    return taken > 0 ? `PROVIDER_REFERENCE_CONFLICT: ${change.providerReference} belongs to another payout` : undefined;
  },

  write: ({ tx, row: payout, change }) => {
    const next = {
      providerReference: payout.providerReference ?? change.providerReference ?? null,
      status: change.status,
      providerStatus: change.providerStatus,
      statusReason: change.statusReason !== undefined ? change.statusReason.slice(0, 255) : (payout.statusReason ?? null),
      updatedAt: new Date(),
    };
    return {
      // The managed payout as it will stand, for the event's snapshot: `merge` takes its state from
      // the returned row again, so no dirty state is left for a later flush.
      next: Object.assign(payout, next),
      update: {
        set: {
          provider_reference: next.providerReference,
          status: next.status,
          provider_status: next.providerStatus,
          status_reason: next.statusReason,
          updated_at: next.updatedAt,
        },
        returning: '*',
      },
      merge: (returned) => tx.map(Payout, returned),
    };
  },
};
