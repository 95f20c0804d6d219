// Turns a Refund entity, or the same columns read without one, into the JSON snapshot that event
// rows, live notifications and the API's Refund objects are made from.

import { canonicalDecimal } from '../../lib/money.js';
import type { RefundSnapshot } from '../events/payment-event.types.js';
import type { Refund } from './refund.entity.js';

/** The properties a snapshot is made of: what a read that skips the entity selects. */
export const REFUND_SNAPSHOT_PROPERTIES = [
  'id', 'depositId', 'clientId', 'origin', 'status', 'providerStatus', 'amount', 'currency', 'reason', 'createdAt', 'updatedAt',
] as const satisfies ReadonlyArray<keyof Refund>;

/** A Refund entity, or a plain row of `REFUND_SNAPSHOT_PROPERTIES`. */
export type RefundFacts = Pick<Refund, (typeof REFUND_SNAPSHOT_PROPERTIES)[number]>;

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
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}
