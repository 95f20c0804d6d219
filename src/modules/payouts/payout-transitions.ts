// The one place a payout's status changes: submission refusals, webhooks and the reconciler all apply provider reports through here.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Money } from '../../lib/money.js';
import type { PayoutStatus } from '../../providers/provider.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import { Payout } from './payout.entity.js';
import { decidePayoutTransition } from './payout-status.js';
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

export interface ApplyPayoutChangeInput {
  payoutId: string;
  change: PayoutChange;
  /** Who reports the change, for the record (e.g. `webhook:deposit-gateway/dg-test`, `reconciler`). */
  source: string;
}

/**
 * - `applied`: the status changed; one event row was appended (and its NOTIFY queued).
 * - `noop`: the payout already has that status; nothing changed.
 * - `anomaly`: refused with `reason` (an impossible transition, a mismatched amount); nothing changed.
 * - `not_found`: no payout with that id.
 */
export interface ApplyPayoutChangeResult {
  outcome: 'applied' | 'noop' | 'anomaly' | 'not_found';
  reason?: string;
  payout?: Payout;
}

export const PAYOUT_CREATED = 'payout.created';
export const PAYOUT_STATUS_CHANGED = 'payout.status_changed';

/**
 * Applies a reported status to a payout inside the caller's transaction, which commits the change,
 * its event row and the caller's own records together. The payout row is locked first, so
 * concurrent reports (a webhook and the reconciler on two instances) serialize and each sees the
 * status the previous one committed.
 */
export async function applyPayoutChange(em: SqlEntityManager, input: ApplyPayoutChangeInput, events: EventLog): Promise<ApplyPayoutChangeResult> {
  if (!em.isInTransaction()) throw new Error('applyPayoutChange must run inside a transaction: its row lock lasts until commit');
  const { change } = input;
  // refresh: the caller may have loaded this payout before the lock; only the locked read counts.
  const payout = await em.findOne(Payout, { id: input.payoutId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payout) return { outcome: 'not_found', reason: `PAYOUT_NOT_FOUND: no payout ${input.payoutId}` };

  // The provider's record of the money wins over ours only by being flagged: a report for another
  // amount or currency never marks a payout PAID.
  const expected = payout.amountMoney();
  if (change.amount && !change.amount.equals(expected)) {
    return { outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${change.amount.toString()}, payout is ${expected.toString()}`, payout };
  }

  const from = payout.status;
  const decision = decidePayoutTransition(from, change.status);
  if (decision.kind === 'noop') return { outcome: 'noop', payout };
  if (decision.kind === 'anomaly') return { outcome: 'anomaly', reason: `TRANSITION_NOT_ALLOWED: ${decision.reason}`, payout };

  if (change.providerReference && !payout.providerReference) {
    // (provider, provider_reference) is unique: a violation at flush would abort the transaction
    // and turn a verified webhook into an endless 5xx retry, so a clash is refused as data.
    const taken = await em.count(Payout, { provider: payout.provider, providerReference: change.providerReference, id: { $ne: payout.id } });
    if (taken > 0) {
      return { outcome: 'anomaly', reason: `PROVIDER_REFERENCE_CONFLICT: ${change.providerReference} belongs to another payout`, payout };
    }
    payout.providerReference = change.providerReference;
  }

  payout.status = change.status;
  payout.providerStatus = change.providerStatus;
  if (change.statusReason !== undefined) payout.statusReason = change.statusReason.slice(0, 255);
  await em.flush();

  await events.append(em, {
    subjectType: 'payout',
    subjectId: payout.id,
    clientId: payout.clientId,
    type: PAYOUT_STATUS_CHANGED,
    fromStatus: from,
    toStatus: payout.status,
    merchantAccount: payout.merchantAccount,
    snapshot: toPayoutSnapshot(payout),
  });
  return { outcome: 'applied', payout };
}
