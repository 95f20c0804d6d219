// Turns a Withdrawal entity into the JSON snapshot that event rows and notifications carry.

import type { SubjectVisibility } from '../../kernel/visibility.js';
import type { ProviderName, WithdrawalStatus } from '../../providers/provider.js';
import type { Withdrawal } from './withdrawal.entity.js';
import { redactionPolicy } from '../../kernel/redaction.js';

/** A withdrawal as it stood right after a change, in JSON form. Admins only. */
export interface WithdrawalSnapshot {
  id: string;
  provider: ProviderName;
  merchantAccount: string;
  livemode: boolean;
  providerReference: string;
  status: WithdrawalStatus;
  providerStatus: string;
  amount: string | null;
  currency: string | null;
  createdAt: string;
  updatedAt: string;
}

/** No field apart: only admins see withdrawals at all (the visibility policy). */
export const WITHDRAWAL_REDACTION = redactionPolicy<WithdrawalSnapshot>('withdrawal', { adminOnly: [] });

/** Withdrawals (from the merchant's balance) belong to no client: admins alone see them. */
export const WITHDRAWAL_VISIBILITY: SubjectVisibility = { subjectType: 'withdrawal' };

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
