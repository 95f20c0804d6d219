// A payout to a player's bank account: what the client asked for, what the provider said, and where it stands.

import { defineEntity, p } from '@mikro-orm/core';
import { Money } from '../../lib/money.js';
import type { PayoutStatus, ProviderName } from '../../providers/provider.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';

/**
 * The beneficiary as kept for showing and reconciling a payout: identifiers masked to their last
 * four characters (`****1234`). This column travels into event rows, notifications and every
 * response, so it never holds a full account, CCI or document number. `name` becomes null, here
 * and in the payout's events, once retention erases the payout's personal data.
 */
export interface StoredBeneficiary {
  name: string | null;
  documentType: string | null;
  documentNumber: string | null;
  accountNumber: string | null;
  bankCode: string | null;
  accountType: string | null;
  cci: string | null;
}

export const PayoutSchema = defineEntity({
  name: 'Payout',
  tableName: 'payout',
  properties: {
    id: p.string().primary().length(30),
    /** The ApiClient that created it. */
    clientId: p.string().length(30),
    /** Our merchant account code (`MerchantAccount.code`). */
    merchantAccount: p.string().length(64),
    provider: p.string().$type<ProviderName>().length(32),
    livemode: p.boolean(),
    /** ECUADOR, CHILE, PERU, MEXICO or COLOMBIA. */
    country: p.string().length(16),
    status: p.string().$type<PayoutStatus>().length(16),
    /** The provider's raw status word. */
    providerStatus: p.string().length(64).nullable(),
    /** The provider's own message on a refusal: admin clients only. */
    statusReason: p.string().length(255).nullable(),
    /** Exact decimal string in `currency` (numeric, as `Money.toDecimal()` wrote it); read it through `amountMoney()`. */
    amount: p.decimal('string').columnType('numeric'),
    currency: p.string().length(3),
    beneficiary: p.json<StoredBeneficiary>(),
    /**
     * The full destination account and CCI, for admin clients only (DESIGN.md: "full beneficiary
     * account numbers are for admin clients only"). Separate columns so that no snapshot, event
     * row or notification ever carries them; never logged.
     */
    beneficiaryAccountNumber: p.string().length(64).nullable(),
    beneficiaryCci: p.string().length(64).nullable(),
    /** The full ID document number, kept like the account number (admins only, never logged) so a payout can be resubmitted as first sent. */
    beneficiaryDocumentNumber: p.string().length(64).nullable(),
    /** The provider's payout reference; unique per provider. */
    providerReference: p.string().length(255).nullable(),
    /** The client's own reference (our payout id is the provider's merchant reference). */
    merchantReference: p.string().length(128).nullable(),
    /**
     * Stable code of the last failed submission to the provider. With no provider reference and a
     * PENDING status it marks a payout whose outcome at the provider is unknown: safe to resubmit
     * under the same id, which is the provider's idempotency key.
     */
    submissionError: p.string().length(64).nullable(),
    /**
     * When retention erased the beneficiary's name and full numbers (PERSONAL_DATA_RETENTION_MS
     * after the final payout's last change); null while they are kept.
     */
    personalDataErasedAt: p.datetime().nullable(),
    /** The `traceparent` of the request that created this payout, when tracing was on: later spans link to its trace (docs/tracing.md). */
    traceContext: p.string().length(55).nullable().onCreate(() => (currentTraceparent() ?? null) as string),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  // Declared to match the migration (the SQL there is the source of truth).
  uniques: [
    { name: 'payout_provider_reference_unique', properties: ['provider', 'providerReference'] },
  ],
  indexes: [
    {
      name: 'payout_account_mode_created_idx',
      columns: [{ name: 'merchant_account' }, { name: 'livemode' }, { name: 'created_at', sort: 'DESC' }, { name: 'id', sort: 'DESC' }],
    },
    // An admin's list of one mode, which names no account (Migration20261128120000_admin_list_indexes).
    {
      name: 'payout_mode_created_idx',
      columns: [{ name: 'livemode' }, { name: 'created_at', sort: 'DESC' }, { name: 'id', sort: 'DESC' }],
    },
    { name: 'payout_status_created_idx', properties: ['status', 'createdAt'] },
  ],
});

export class Payout extends PayoutSchema.class {
  amountMoney(): Money {
    return Money.fromDecimal(this.amount, this.currency);
  }
}

PayoutSchema.setClass(Payout);
