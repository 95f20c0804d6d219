// A withdrawal from the merchant's balance at a provider. The gateway starts none (the QR gateway
// shows no withdrawal endpoint); it keeps the latest status each provider reports, for admins.

import { defineEntity, p } from '@mikro-orm/core';
import { Money } from '../../lib/money.js';
import type { ProviderName, WithdrawalStatus } from '../../providers/provider.js';

export const WithdrawalSchema = defineEntity({
  name: 'Withdrawal',
  tableName: 'withdrawal',
  properties: {
    id: p.string().primary().length(30),
    provider: p.string().$type<ProviderName>().length(32),
    merchantAccount: p.string().length(64),
    livemode: p.boolean(),
    /** The provider's withdrawal id: unique per provider and merchant account. */
    providerReference: p.string().length(255),
    status: p.string().$type<WithdrawalStatus>().length(16),
    /** The provider's raw status word. */
    providerStatus: p.string().length(64),
    /** Exact decimal string (numeric, as `Money.toDecimal()` wrote it); null until an event carries the amount. */
    amount: p.decimal('string').columnType('numeric').nullable(),
    currency: p.string().length(3).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  // Declared to match the migration (the SQL there is the source of truth).
  uniques: [{ name: 'withdrawal_provider_reference_unique', properties: ['provider', 'merchantAccount', 'providerReference'] }],
});

export class Withdrawal extends WithdrawalSchema.class {
  amountMoney(): Money | null {
    return this.amount != null && this.currency != null ? Money.fromDecimal(this.amount, this.currency) : null;
  }
}

WithdrawalSchema.setClass(Withdrawal);
