// How the provider writes amounts in its answers and events, and what its amount triggers and fee
// count: whole pesos for CLP and COP, whatever decimals ISO 4217 gives them (COP has two), and at most
// two decimals for any other currency. Written from the spec, like the rest of the sandbox.

import { currencyExponent, Money } from '../../lib/money.js';

/** Spec, Payment create request: "Up to 2 decimals. CLP and COP are zero-decimal: send integers". */
export const WHOLE_NUMBER_CURRENCIES: readonly string[] = ['CLP', 'COP'];
const MAX_DECIMALS = 2;

/** Decimals the provider writes in `currency`: none for CLP and COP, otherwise the currency's own, at most two. */
function providerDecimals(currency: string): number {
  return WHOLE_NUMBER_CURRENCIES.includes(currency) ? 0 : Math.min(currencyExponent(currency), MAX_DECIMALS);
}

/** Minor units of the currency in one unit the provider writes: 100 for COP (whole pesos), 1 for EUR. */
function providerUnitSize(currency: string): bigint {
  return 10n ** BigInt(currencyExponent(currency) - providerDecimals(currency));
}

/** An amount as the provider writes it in answers and events: "50000" for COP, "10.50" for EUR. */
export function wireAmount(amount: Money): string {
  return amount.toDecimalPlaces(providerDecimals(amount.currency));
}

/** An amount counted in the smallest unit the provider writes (whole pesos for COP, cents for EUR). */
export function providerUnits(amount: Money): bigint {
  return amount.minor / providerUnitSize(amount.currency);
}

/** Money for a count of the smallest unit the provider writes in `currency`. */
export function fromProviderUnits(units: bigint, currency: string): Money {
  return Money.ofMinor(units * providerUnitSize(currency), currency);
}
