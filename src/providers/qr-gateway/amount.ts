// Conversion between exact gateway Money and the QR gateway's integer amount, in the unit the
// deployment names (assumption Q2), with the provider's amount bounds (Q11).

import { Money, currencyExponent } from '../../lib/money.js';
import { AMOUNT_BOUNDS_SATANG, type AmountUnit } from './assumptions.js';

export type ToProviderAmount = { ok: true; value: bigint } | { ok: false; reason: 'NOT_WHOLE_UNIT' };

/** Factor from the provider integer to the currency's minor units: 1 for `satang`, 100 for `baht` on THB. */
function unitFactor(currency: string, unit: AmountUnit): bigint {
  return unit === 'satang' ? 1n : 10n ** BigInt(currencyExponent(currency));
}

/**
 * The integer the provider expects for `money`. In `baht` unit a fractional amount cannot be sent.
 *
 * @example toProviderAmount(Money.fromDecimal('12.50', 'THB'), 'satang') // { ok: true, value: 1250n }
 * @example toProviderAmount(Money.fromDecimal('12.50', 'THB'), 'baht')   // { ok: false, reason: 'NOT_WHOLE_UNIT' }
 */
export function toProviderAmount(money: Money, unit: AmountUnit): ToProviderAmount {
  const factor = unitFactor(money.currency, unit);
  if (money.minor % factor !== 0n) return { ok: false, reason: 'NOT_WHOLE_UNIT' };
  return { ok: true, value: money.minor / factor };
}

/** Money for an integer the provider sent. */
export function fromProviderAmount(amount: bigint, currency: string, unit: AmountUnit): Money {
  return Money.ofMinor(amount * unitFactor(currency, unit), currency);
}

/** Q11's bounds expressed in the provider integer of `unit` (THB). */
export function providerAmountBounds(unit: AmountUnit): { min: bigint; max: bigint } {
  const factor = unitFactor('THB', unit);
  return { min: AMOUNT_BOUNDS_SATANG.min / factor, max: AMOUNT_BOUNDS_SATANG.max / factor };
}

/** Q11's bounds as THB Money, for messages. */
export const MIN_AMOUNT = Money.ofMinor(AMOUNT_BOUNDS_SATANG.min, 'THB');
export const MAX_AMOUNT = Money.ofMinor(AMOUNT_BOUNDS_SATANG.max, 'THB');

/** Baht with two decimals (`"1250.00"`) for an integer in `unit`: the EMVCo amount field's format. */
export function providerAmountToBahtText(amount: bigint, unit: AmountUnit): string {
  return fromProviderAmount(amount, 'THB', unit).toDecimal();
}
