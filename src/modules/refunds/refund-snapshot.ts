// Turns a Refund entity, or the same columns read without one, into the JSON snapshot that event
// rows, live notifications and the API's Refund objects are made from.

import type { SubjectVisibility } from '../../kernel/visibility.js';
import type { RefundStatus } from '../../providers/provider.js';
import { isoText, type WithIsoDates } from '../../lib/iso-time.js';
import { redactionPolicy } from '../../kernel/redaction.js';
import { canonicalDecimal } from '../../lib/money.js';
import type { Refund } from './refund.entity.js';

/**
 * A refund as it stood right after a change, in JSON form (amount as a decimal string in the
 * deposit's currency, dates as ISO strings).
 */
export interface RefundSnapshot {
  id: string;
  depositId: string;
  /** The client that requested the refund; null for a refund made outside the gateway. */
  clientId: string | null;
  /** Absent in snapshots written before refunds could come from the provider: read it as GATEWAY. */
  origin?: 'GATEWAY' | 'PROVIDER';
  status: RefundStatus;
  providerStatus: string | null;
  amount: string;
  currency: string;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Nothing of a refund is for admins alone: whoever may see it reads all of it. */
export const REFUND_REDACTION = redactionPolicy<RefundSnapshot>('refund', { adminOnly: [] });

/**
 * Who sees refunds besides admins: whoever sees their deposit's refunds. A refund's owner is its
 * deposit's creator (not the refunds back office that asked for it): a cashier sees the refunds
 * of its own deposits; a refunds back office every one of its merchant accounts.
 */
export const REFUND_VISIBILITY: SubjectVisibility = { subjectType: 'refund', owned: ['CASHIER'], inAccounts: ['REFUNDS'] };

/** The properties a snapshot is made of: what a read that skips the entity selects. */
export const REFUND_SNAPSHOT_PROPERTIES = [
  'id', 'depositId', 'clientId', 'origin', 'status', 'providerStatus', 'amount', 'currency', 'reason', 'createdAt', 'updatedAt',
] as const satisfies ReadonlyArray<keyof Refund>;

/** The names of `REFUND_SNAPSHOT_PROPERTIES`. */
export type RefundSnapshotProperty = (typeof REFUND_SNAPSHOT_PROPERTIES)[number];

/** A Refund entity, or a plain row of `REFUND_SNAPSHOT_PROPERTIES` (its dates as Dates or as ISO text). */
export type RefundFacts = WithIsoDates<Pick<Refund, RefundSnapshotProperty>>;

/** A plain row of some of `REFUND_SNAPSHOT_PROPERTIES`, always with its id and its deposit's (a list reading what its query asks). */
export type RefundFactsRead = Pick<RefundFacts, 'id' | 'depositId'> & Partial<RefundFacts>;

/** The refund as it stands now: amount as a canonical decimal string in its currency, dates as ISO strings. */
export function toRefundSnapshot(refund: RefundFacts): RefundSnapshot {
  return {
    id: refund.id,
    depositId: refund.depositId,
    clientId: refund.clientId ?? null,
    origin: refund.origin,
    status: refund.status,
    providerStatus: refund.providerStatus ?? null,
    amount: canonicalDecimal(refund.amount, refund.currency),
    currency: refund.currency,
    reason: refund.reason ?? null,
    createdAt: isoText(refund.createdAt),
    updatedAt: isoText(refund.updatedAt),
  };
}
