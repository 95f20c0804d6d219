// A refund of (part of) a succeeded deposit: who asked, how much, and where the provider's decision stands.

import { defineEntity, p } from '@mikro-orm/core';
import { Money } from '../../lib/money.js';
import type { RefundStatus } from '../../providers/provider.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';

export type RefundOrigin = 'GATEWAY' | 'PROVIDER';

export const RefundSchema = defineEntity({
  name: 'Refund',
  tableName: 'refund',
  properties: {
    id: p.string().primary().length(30),
    depositId: p.string().length(30),
    /**
     * The ApiClient that requested it (a refunds back office, an admin): scopes the idempotency key.
     * Null exactly when `origin` is PROVIDER: nobody asked the gateway for that refund.
     */
    clientId: p.string().length(30).nullable(),
    /** GATEWAY: requested through the gateway. PROVIDER: made outside it and learned from the provider's event. */
    origin: p.string().$type<RefundOrigin>().length(16).default('GATEWAY'),
    /** Exact decimal string in the deposit's currency (numeric, as `Money.toDecimal()` wrote it); read it through `amountMoney()`. */
    amount: p.decimal('string').columnType('numeric'),
    currency: p.string().length(3),
    reason: p.string().length(500).nullable(),
    status: p.string().$type<RefundStatus>().length(16),
    /** The provider's refund id (`rf_…` at the deposit gateway, assumption A3). */
    providerReference: p.string().length(255).nullable(),
    /** The provider's raw refund status word. */
    providerStatus: p.string().length(64).nullable(),
    /**
     * Stable code of the last failed submission. With no provider reference and status REQUESTED it
     * marks a refund whose outcome at the provider is unknown: safe to resubmit under the same id,
     * which is the provider's idempotency key.
     */
    submissionError: p.string().length(64).nullable(),
    /** The `traceparent` of the request that created this refund, when tracing was on: later spans link to its trace (docs/tracing.md). */
    traceContext: p.string().length(55).nullable().onCreate(() => (currentTraceparent() ?? null) as string),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  // Declared to match the migration (the SQL there is the source of truth).
  indexes: [
    { name: 'refund_deposit_created_idx', properties: ['depositId', 'createdAt'] },
    { name: 'refund_provider_reference_idx', properties: ['providerReference'] },
  ],
});

export class Refund extends RefundSchema.class {
  amountMoney(): Money {
    return Money.fromDecimal(this.amount, this.currency);
  }
}

RefundSchema.setClass(Refund);
