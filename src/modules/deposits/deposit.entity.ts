// A deposit on any rail of either provider: what the client asked for, what the provider said, and
// where it stands. Amounts are exact decimal strings (numeric columns), never floating point.

import { defineEntity, p } from '@mikro-orm/core';
import { Money } from '../../lib/money.js';
import type { Customer, DepositStatus, ProviderName, Rail, RailDetails, RefundStatus } from '../../providers/provider.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';

/** A value as it comes back from a jsonb column: dates are ISO strings. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/**
 * The validated request, kept so the service can retry or recover a deposit whose provider call
 * failed or timed out without asking the client again.
 *
 * Never store card numbers, CVCs or bank account numbers here (e.g. a Thai QR payer's
 * `bankAccount` is dropped or masked before saving): this column is readable by every admin tool
 * and backup, and the provider already holds what it needs. The payer's other details are kept
 * until the deposit is final and unchanged for PERSONAL_DATA_RETENTION_MS, then erased
 * (deposit-personal-data.ts): `customer` keeps its country, document type and masked identifiers,
 * and a Thai QR block loses its `payer`.
 */
export interface DepositRequest {
  details: StoredRailDetails;
  customer: Customer;
  returnUrl?: string;
}

type ThaiQrDetails = Extract<RailDetails, { rail: 'THAI_QR' }>;

/** A rail block as kept: a Thai QR block's `payer` (a name and a bank) is gone once its personal data is erased. */
export type StoredRailDetails = Jsonified<Exclude<RailDetails, ThaiQrDetails>> | Jsonified<Omit<ThaiQrDetails, 'payer'> & Partial<Pick<ThaiQrDetails, 'payer'>>>;

/** Crypto quote terms as the provider returned them (crypto rail only). */
export interface CryptoTerms {
  quoteTtlMinutes: number;
  /** Exact decimal string, e.g. "0.5". */
  underpayTolerancePct: string;
}

export const DepositSchema = defineEntity({
  name: 'Deposit',
  tableName: 'deposit',
  properties: {
    id: p.string().primary().length(30),
    /** The ApiClient that created it: a cashier sees only its own deposits. */
    clientId: p.string().length(30),
    /** Our merchant account code (`MerchantAccount.code`). */
    merchantAccount: p.string().length(64),
    provider: p.string().$type<ProviderName>().length(32),
    rail: p.string().$type<Rail>().length(32),
    livemode: p.boolean(),
    status: p.string().$type<DepositStatus>().length(16),
    /** The provider's raw status word. */
    providerStatus: p.string().length(64).nullable(),
    /** Processor code: admin clients only, never shown to shoppers. */
    statusReason: p.string().length(255).nullable(),
    /** Exact decimal string in `currency` (numeric, as `Money.toDecimal()` wrote it); read it through `amountMoney()`. */
    amount: p.decimal('string').columnType('numeric'),
    currency: p.string().length(3),
    fee: p.decimal('string').columnType('numeric').nullable(),
    net: p.decimal('string').columnType('numeric').nullable(),
    refundedAmount: p.decimal('string').columnType('numeric').default('0'),
    refundStatus: p.string().$type<RefundStatus>().length(16).nullable(),
    disputed: p.boolean().default(false),
    /** The provider's reference (payment reference or checkout session id); unique per provider. */
    providerReference: p.string().length(255).nullable(),
    /**
     * The provider's payment reference: what refunds, fee/net lookups and reconciliation name. The
     * same as `providerReference` on every rail but hosted checkout, whose `providerReference` is the
     * checkout session id and whose payment reference is learned from its webhook or the reconciler.
     */
    paymentReference: p.string().length(255).nullable(),
    redirectUrl: p.text().nullable(),
    /** The client's own reference for the deposit. */
    merchantReference: p.string().length(128).nullable(),
    /** Neutral decline category, safe for shoppers. */
    declineReason: p.string().length(64).nullable(),
    request: p.json<DepositRequest>(),
    /**
     * Stable code of the last failed submission to the provider. With no provider reference and a
     * PENDING status it marks a deposit whose outcome at the provider is unknown: safe to resubmit
     * under the same id, which is the provider's idempotency key.
     */
    submissionError: p.string().length(64).nullable(),
    qrPayload: p.text().nullable(),
    qrExpiresAt: p.datetime().nullable(),
    crypto: p.json<CryptoTerms>().nullable(),
    /** The client's own key/value pairs, as given at creation (string values only); shown on the deposit. */
    metadata: p.json<Record<string, string>>().nullable(),
    approvedAt: p.datetime().nullable(),
    /** When the client first claimed the credit of this SUCCEEDED deposit (claimDepositCredit); null until then. */
    creditClaimedAt: p.datetime().nullable(),
    /** The key of the claim that took the credit (its client's, 1 to 255 printable ASCII characters); null for a claim made without one. */
    creditClaimKey: p.string().length(255).nullable(),
    /** The client whose claim took the credit; null before the claim key existed. */
    creditClaimedBy: p.string().length(30).nullable(),
    /**
     * When retention erased the payer's personal data from `request` (PERSONAL_DATA_RETENTION_MS
     * after the final deposit's last change); null while it is kept.
     */
    personalDataErasedAt: p.datetime().nullable(),
    /** The `traceparent` of the request that created this deposit, when tracing was on: later spans link to its trace (docs/tracing.md). */
    traceContext: p.string().length(55).nullable().onCreate(() => (currentTraceparent() ?? null) as string),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  // Declared to match the migration (the SQL there is the source of truth).
  uniques: [
    { name: 'deposit_provider_reference_unique', properties: ['provider', 'providerReference'] },
  ],
  indexes: [
    {
      name: 'deposit_client_created_idx',
      columns: [
        { name: 'client_id' },
        { name: 'created_at', sort: 'DESC' },
        { name: 'id', sort: 'DESC' },
      ],
    },
    {
      // An admin's list, which names no client or account (Migration20261128120000_admin_list_indexes).
      name: 'deposit_created_idx',
      columns: [
        { name: 'created_at', sort: 'DESC' },
        { name: 'id', sort: 'DESC' },
      ],
    },
    {
      name: 'deposit_account_created_idx',
      columns: [
        { name: 'merchant_account' },
        { name: 'created_at', sort: 'DESC' },
        { name: 'id', sort: 'DESC' },
      ],
    },
    { name: 'deposit_status_created_idx', properties: ['status', 'createdAt'] },
    { name: 'deposit_client_merchant_reference_idx', properties: ['clientId', 'merchantReference'] },
  ],
});

export class Deposit extends DepositSchema.class {
  amountMoney(): Money {
    return Money.fromDecimal(this.amount, this.currency);
  }

  feeMoney(): Money | null {
    return this.fee == null ? null : Money.fromDecimal(this.fee, this.currency);
  }

  netMoney(): Money | null {
    return this.net == null ? null : Money.fromDecimal(this.net, this.currency);
  }

  /**
   * The provider's payment reference, or null while it is not known (a hosted checkout deposit whose
   * player has not paid yet, or any deposit not yet submitted). Rows written before the column
   * existed fall back to the provider reference, which is the payment reference on every rail but
   * hosted checkout.
   */
  providerPaymentReference(): string | null {
    return this.paymentReference ?? (this.rail === 'HOSTED_CHECKOUT' ? null : (this.providerReference ?? null));
  }

  refundedMoney(): Money {
    return Money.fromDecimal(this.refundedAmount ?? '0', this.currency);
  }
}

DepositSchema.setClass(Deposit);
