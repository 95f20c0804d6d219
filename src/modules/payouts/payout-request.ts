// A payout request as the API layer hands it to the payouts service, and what the service needs of
// the provider: shared by the service that validates it and the operation that records and submits it.

import type { PayoutBeneficiary, MoneyMovementProvider, DepositProvider } from '../../providers/provider.js';

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

/** The provider capabilities payouts need: the deposit gateway adapter in production. */
export type PayoutProvider = Pick<MoneyMovementProvider, 'validatePayout' | 'createPayout' | 'listPayouts'> & Pick<DepositProvider, 'name' | 'defaultCurrency'>;
