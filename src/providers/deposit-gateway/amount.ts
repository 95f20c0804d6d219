// The deposit gateway's amount format: decimal strings in major units with at most two decimals,
// and whole CLP and COP (rules.ts). The gateway's Money carries ISO 4217's decimals (COP has two);
// this is where an amount meets the provider's fewer, before any call and on the wire.

import type { Money } from '../../lib/money.js';
import { currencyExponent } from '../../lib/money.js';
import { MAX_AMOUNT_DECIMALS, WHOLE_NUMBER_CURRENCIES } from './rules.js';

/**
 * Decimals the provider takes in `currency`: none for CLP and COP, otherwise ISO's, at most two.
 *
 * @example providerDecimals('COP') // 0, where ISO 4217 gives 2
 * @example providerDecimals('EUR') // 2
 * @example providerDecimals('JPY') // 0, as in ISO 4217
 */
export function providerDecimals(currency: string): number {
  return WHOLE_NUMBER_CURRENCIES.includes(currency) ? 0 : Math.min(currencyExponent(currency), MAX_AMOUNT_DECIMALS);
}

/** Why the provider cannot take `amount` exactly, or undefined when it can. */
export function amountPrecisionProblem(amount: Money): string | undefined {
  const decimals = providerDecimals(amount.currency);
  if (amount.fitsDecimals(decimals)) return undefined;
  return decimals === 0
    ? `${amount.currency} amounts are whole numbers at this provider; got ${amount.toDecimal()}.`
    : `${amount.currency} amounts have at most ${decimals} decimals at this provider; got ${amount.toDecimal()}.`;
}

/**
 * The `amount` field as the provider reads it. Validation refuses an amount that does not fit
 * (`amountPrecisionProblem`) before any call, so this throws only on a bug.
 *
 * @example wireAmount(Money.fromDecimal('250000', 'COP')) // '250000', not ISO's '250000.00'
 * @example wireAmount(Money.fromDecimal('10.5', 'EUR'))   // '10.50'
 */
export function wireAmount(amount: Money): string {
  return amount.toDecimalPlaces(providerDecimals(amount.currency));
}
