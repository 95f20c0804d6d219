// Turns a Deposit entity into the JSON snapshot that event rows and live notifications carry.

import type { DepositSnapshot } from '../events/payment-event.types.js';
import type { Deposit } from './deposit.entity.js';

/**
 * The deposit as it stands now, in the shape of `DepositSnapshot`: amounts as canonical decimal
 * strings in the deposit's currency (`"10.50"`, `"1000"` for CLP), dates as ISO strings. Admin-only
 * fields (`statusReason`) are included; the API layer filters them per caller.
 */
export function toDepositSnapshot(deposit: Deposit): DepositSnapshot {
  return {
    id: deposit.id,
    clientId: deposit.clientId,
    merchantAccount: deposit.merchantAccount,
    provider: deposit.provider,
    rail: deposit.rail,
    livemode: deposit.livemode,
    status: deposit.status,
    providerStatus: deposit.providerStatus ?? null,
    statusReason: deposit.statusReason ?? null,
    amount: deposit.amountMoney().toDecimal(),
    currency: deposit.currency,
    fee: deposit.feeMoney()?.toDecimal() ?? null,
    net: deposit.netMoney()?.toDecimal() ?? null,
    refundedAmount: deposit.refundedMoney().toDecimal(),
    refundStatus: deposit.refundStatus ?? null,
    disputed: deposit.disputed ?? false,
    redirectUrl: deposit.redirectUrl ?? null,
    merchantReference: deposit.merchantReference ?? null,
    declineReason: deposit.declineReason ?? null,
    qrPayload: deposit.qrPayload ?? null,
    qrExpiresAt: iso(deposit.qrExpiresAt),
    crypto: deposit.crypto ? { quoteTtlMinutes: deposit.crypto.quoteTtlMinutes, underpayTolerancePct: deposit.crypto.underpayTolerancePct } : null,
    approvedAt: iso(deposit.approvedAt),
    createdAt: deposit.createdAt.toISOString(),
    updatedAt: deposit.updatedAt.toISOString(),
  };
}

function iso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
