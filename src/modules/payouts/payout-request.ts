// A payout request as the API layer hands it to the payouts service: shared by the service that
// validates it and the operation that records and submits it.

import type { PayoutBeneficiary } from '../../providers/provider.js';

/** A payout request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface CreatePayoutInput {
  country: string;
  amount: string;
  currency?: string;
  beneficiary: PayoutBeneficiary;
  merchantReference?: string;
  idempotencyKey?: string;
  merchantAccount?: string;
}
