// Turns a Withdrawal entity into the JSON snapshot that event rows and notifications carry.

import type { WithdrawalSnapshot } from '../events/payment-event.types.js';
import type { Withdrawal } from './withdrawal.entity.js';

export function toWithdrawalSnapshot(withdrawal: Withdrawal): WithdrawalSnapshot {
  return {
    id: withdrawal.id,
    provider: withdrawal.provider,
    merchantAccount: withdrawal.merchantAccount,
    livemode: withdrawal.livemode,
    providerReference: withdrawal.providerReference,
    status: withdrawal.status,
    providerStatus: withdrawal.providerStatus,
    amount: withdrawal.amountMoney()?.toDecimal() ?? null,
    currency: withdrawal.currency ?? null,
    createdAt: withdrawal.createdAt.toISOString(),
    updatedAt: withdrawal.updatedAt.toISOString(),
  };
}
