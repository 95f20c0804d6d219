// Turns a Refund entity into the JSON snapshot that event rows and live notifications carry.

import type { RefundSnapshot } from '../events/payment-event.types.js';
import type { Refund } from './refund.entity.js';

/** The refund as it stands now: amount as a canonical decimal string in its currency, dates as ISO strings. */
export function toRefundSnapshot(refund: Refund): RefundSnapshot {
  return {
    id: refund.id,
    depositId: refund.depositId,
    clientId: refund.clientId ?? null,
    origin: refund.origin,
    status: refund.status,
    providerStatus: refund.providerStatus ?? null,
    amount: refund.amountMoney().toDecimal(),
    currency: refund.currency,
    reason: refund.reason ?? null,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}
