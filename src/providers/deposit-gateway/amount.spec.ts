// The deposit gateway's amount format against ISO 4217's decimals (spec: Payment create request).

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { amountPrecisionProblem, providerDecimals, wireAmount } from './amount.js';

const m = (amount: string, currency: string) => Money.fromDecimal(amount, currency);

describe('deposit gateway amounts', () => {
  it.each([
    ['CLP', 0], ['COP', 0], ['JPY', 0],
    ['EUR', 2], ['USD', 2], ['BRL', 2], ['INR', 2],
    ['KWD', 2], ['CLF', 2],
  ] as const)('takes %s with %i decimals', (currency, decimals) => {
    expect(providerDecimals(currency)).toBe(decimals);
  });

  it.each([
    ['50000.00', 'COP', '50000'],
    ['15000', 'CLP', '15000'],
    ['2500', 'JPY', '2500'],
    ['10.5', 'EUR', '10.50'],
    ['1.230', 'KWD', '1.23'],
  ])('writes %s %s as %j', (amount, currency, wire) => {
    expect(amountPrecisionProblem(m(amount, currency))).toBeUndefined();
    expect(wireAmount(m(amount, currency))).toBe(wire);
  });

  it.each([
    ['50000.50', 'COP', 'COP amounts are whole numbers at this provider; got 50000.50.'],
    ['0.01', 'COP', 'COP amounts are whole numbers at this provider; got 0.01.'],
    ['1.234', 'KWD', 'KWD amounts have at most 2 decimals at this provider; got 1.234.'],
  ])('cannot take %s %s', (amount, currency, problem) => {
    expect(amountPrecisionProblem(m(amount, currency))).toBe(problem);
    expect(() => wireAmount(m(amount, currency))).toThrow(RangeError);
  });
});
