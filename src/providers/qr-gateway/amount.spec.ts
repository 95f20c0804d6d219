import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { fromProviderAmount, providerAmountBounds, providerAmountToBahtText, toProviderAmount } from './amount.js';

const thb = (decimal: string): Money => Money.fromDecimal(decimal, 'THB');

describe('QR amount unit (Q2)', () => {
  it.each([
    ['1.00', 'satang', 100n],
    ['12.34', 'satang', 1234n],
    ['2000000.00', 'satang', 200_000_000n],
    ['1.00', 'baht', 1n],
    ['1250.00', 'baht', 1250n],
    ['2000000', 'baht', 2_000_000n],
  ] as const)('THB %s in %s is %s', (decimal, unit, integer) => {
    expect(toProviderAmount(thb(decimal), unit)).toEqual({ ok: true, value: integer });
    expect(fromProviderAmount(integer, 'THB', unit).equals(thb(decimal))).toBe(true);
  });

  it.each(['12.50', '0.01', '99.99'])('THB %s cannot be sent in whole baht', (decimal) => {
    expect(toProviderAmount(thb(decimal), 'baht')).toEqual({ ok: false, reason: 'NOT_WHOLE_UNIT' });
  });

  it('stays exact far beyond float precision', () => {
    const huge = 123_456_789_012_345_678_901n;
    expect(fromProviderAmount(huge, 'THB', 'satang').toDecimal()).toBe('1234567890123456789.01');
    expect(fromProviderAmount(huge, 'THB', 'baht').toDecimal()).toBe('123456789012345678901.00');
    expect(toProviderAmount(fromProviderAmount(huge, 'THB', 'baht'), 'baht')).toEqual({ ok: true, value: huge });
  });

  it('expresses the Q11 bounds in each unit', () => {
    expect(providerAmountBounds('satang')).toEqual({ min: 100n, max: 200_000_000n });
    expect(providerAmountBounds('baht')).toEqual({ min: 1n, max: 2_000_000n });
  });

  it('prints the EMVCo amount in baht with two decimals', () => {
    expect(providerAmountToBahtText(1205n, 'satang')).toBe('12.05');
    expect(providerAmountToBahtText(1205n, 'baht')).toBe('1205.00');
  });
});
