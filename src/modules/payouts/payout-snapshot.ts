// Turns a Payout entity into the JSON snapshot that event rows and live notifications carry.

import type { PayoutSnapshot } from '../events/payment-event.types.js';
import type { Payout } from './payout.entity.js';

/**
 * The payout as it stands now: amount as a canonical decimal string, dates as ISO strings, the
 * beneficiary as stored (already masked). Admin-only `statusReason` is included; the API layer
 * filters it per caller.
 */
export function toPayoutSnapshot(payout: Payout): PayoutSnapshot {
  const b = payout.beneficiary;
  return {
    id: payout.id,
    clientId: payout.clientId,
    merchantAccount: payout.merchantAccount,
    provider: payout.provider,
    livemode: payout.livemode,
    country: payout.country,
    status: payout.status,
    providerStatus: payout.providerStatus ?? null,
    statusReason: payout.statusReason ?? null,
    amount: payout.amountMoney().toDecimal(),
    currency: payout.currency,
    beneficiary: {
      name: b.name ?? null,
      documentType: b.documentType ?? null,
      documentNumber: b.documentNumber ?? null,
      accountNumber: b.accountNumber ?? null,
      bankCode: b.bankCode ?? null,
      accountType: b.accountType ?? null,
      cci: b.cci ?? null,
    },
    merchantReference: payout.merchantReference ?? null,
    failureCode: payout.submissionError ?? null,
    createdAt: payout.createdAt.toISOString(),
    updatedAt: payout.updatedAt.toISOString(),
  };
}
