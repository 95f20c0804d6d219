// Turns a Payout entity into the JSON snapshot that event rows and live notifications carry.

import type { SubjectVisibility } from '../../kernel/visibility.js';
import type { PayoutStatus, ProviderName } from '../../providers/provider.js';
import { redactionPolicy } from '../../kernel/redaction.js';
import type { Payout, StoredBeneficiary } from './payout.entity.js';

/**
 * A payout as it stood right after a change, in JSON form. Beneficiary identifiers are masked to
 * their last four characters here, for every reader: full account numbers never enter the event
 * log or a notification (admins read them from the payout row).
 */
export interface PayoutSnapshot {
  id: string;
  clientId: string;
  merchantAccount: string;
  provider: ProviderName;
  livemode: boolean;
  country: string;
  status: PayoutStatus;
  providerStatus: string | null;
  /** Admin only (`PAYOUT_REDACTION`). */
  statusReason: string | null;
  amount: string;
  currency: string;
  /** As stored: identifiers masked to their last four characters. */
  beneficiary: StoredBeneficiary;
  merchantReference: string | null;
  /** Stable code of a refused or unanswered submission. */
  failureCode: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What of a payout only admins may read, on every path (queries, `events(after:)`, subscriptions,
 * notifications): the provider's own message on a refusal; and the full account and CCI numbers,
 * which no snapshot carries (masked there for every reader), shown to admins from the payout row.
 */
export const PAYOUT_REDACTION = redactionPolicy<PayoutSnapshot>('payout', {
  adminOnly: ['statusReason'],
  unmaskedForAdmins: ['beneficiary.accountNumber', 'beneficiary.cci'],
});

/** Who sees payouts besides admins: a payouts back office, every one of its merchant accounts. */
export const PAYOUT_VISIBILITY: SubjectVisibility = { subjectType: 'payout', inAccounts: ['PAYOUTS'] };

/**
 * The payout as it stands now: amount as a canonical decimal string, dates as ISO strings, the
 * beneficiary as stored (already masked). Admin-only `statusReason` is included; each path
 * withholds it per reader (`PAYOUT_REDACTION`).
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
