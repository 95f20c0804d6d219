import { describe, expect, it } from 'vitest';
import { Money, canonicalDecimal, currencyExponent, isCurrencyCode, isPlainDecimal } from './money.js';

describe('Money.parse', () => {
  it.each([
    ['10', 'EUR', '10.00'],
    ['10.5', 'EUR', '10.50'],
    ['10.50', 'EUR', '10.50'],
    ['0.01', 'EUR', '0.01'],
    ['10000.00', 'EUR', '10000.00'],
    ['1000', 'CLP', '1000'],
    ['1000.00', 'CLP', '1000'],
    ['5', 'JPY', '5'],
    ['1000', 'KRW', '1000'],
    ['1000', 'COP', '1000.00'],
    ['50000.5', 'COP', '50000.50'],
    ['1.234', 'KWD', '1.234'],
    ['1.2', 'KWD', '1.200'],
    ['0.001', 'BHD', '0.001'],
    ['0.0001', 'CLF', '0.0001'],
    ['999999999999999', 'EUR', '999999999999999.00'],
  ])('accepts %s %s as %s', (amount, currency, expected) => {
    const result = Money.parse(amount, currency);
    expect(result.ok && result.money.toDecimal()).toBe(expected);
  });

  it.each([
    ['1e3', 'EUR', 'AMOUNT_INVALID'],
    ['-5', 'EUR', 'AMOUNT_NOT_POSITIVE'],
    ['--5', 'EUR', 'AMOUNT_INVALID'],
    ['0', 'EUR', 'AMOUNT_NOT_POSITIVE'],
    ['0.00', 'EUR', 'AMOUNT_NOT_POSITIVE'],
    ['0.001', 'EUR', 'AMOUNT_TOO_PRECISE'],
    ['10.5', 'CLP', 'AMOUNT_TOO_PRECISE'],
    ['10.5', 'JPY', 'AMOUNT_TOO_PRECISE'],
    ['1000.1', 'KRW', 'AMOUNT_TOO_PRECISE'],
    ['0.001', 'COP', 'AMOUNT_TOO_PRECISE'],
    ['1.2345', 'KWD', 'AMOUNT_TOO_PRECISE'],
    ['1.00001', 'CLF', 'AMOUNT_TOO_PRECISE'],
    ['NaN', 'EUR', 'AMOUNT_INVALID'],
    ['Infinity', 'EUR', 'AMOUNT_INVALID'],
    ['10,00', 'EUR', 'AMOUNT_INVALID'],
    [' 10', 'EUR', 'AMOUNT_INVALID'],
    ['10 ', 'EUR', 'AMOUNT_INVALID'],
    ['010', 'EUR', 'AMOUNT_INVALID'],
    ['.5', 'EUR', 'AMOUNT_INVALID'],
    ['5.', 'EUR', 'AMOUNT_INVALID'],
    ['+5', 'EUR', 'AMOUNT_INVALID'],
    ['0x10', 'EUR', 'AMOUNT_INVALID'],
    ['', 'EUR', 'AMOUNT_INVALID'],
    ['1234567890123456789012345', 'EUR', 'AMOUNT_TOO_LARGE'],
    ['10', 'eur', 'CURRENCY_INVALID'],
    ['10', 'EURO', 'CURRENCY_INVALID'],
    ['10', 'XYZ', 'CURRENCY_INVALID'],
    ['10', 'XAU', 'CURRENCY_INVALID'],
    ['10', 'XTS', 'CURRENCY_INVALID'],
  ])('rejects %j %s with %s', (amount, currency, code) => {
    const result = Money.parse(amount, currency);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message.length).toBeGreaterThan(10);
    }
  });
});

describe('Money arithmetic', () => {
  const eur = (value: string) => Money.fromDecimal(value, 'EUR');

  it('adds and subtracts exactly where floats would drift', () => {
    expect(eur('0.10').add(eur('0.20')).toDecimal()).toBe('0.30');
    expect(eur('100.00').subtract(eur('99.99')).toDecimal()).toBe('0.01');
    expect(eur('1.00').subtract(eur('2.50')).toDecimal()).toBe('-1.50');
  });

  it('compares', () => {
    expect(eur('10.00').compare(eur('9.99'))).toBe(1);
    expect(eur('10.00').compare(eur('10'))).toBe(0);
    expect(eur('10.00').equals(eur('10.0'))).toBe(true);
  });

  it('refuses to mix currencies', () => {
    expect(() => eur('1').add(Money.fromDecimal('1', 'USD'))).toThrow(/EUR with USD/);
    expect(() => eur('1').subtract(Money.fromDecimal('1', 'USD'))).toThrow(/EUR with USD/);
    expect(() => eur('1').compare(Money.fromDecimal('1', 'USD'))).toThrow(/EUR with USD/);
  });

  it('tells the same digits in another currency apart without throwing (the amount checks of every subject kind)', () => {
    expect(eur('10.00').equals(Money.fromDecimal('10.00', 'USD'))).toBe(false);
    expect(eur('10.00').equals(eur('10.01'))).toBe(false);
  });

  it('says whether an amount is positive', () => {
    expect([eur('0.01'), eur('0'), eur('-0.01'), Money.zero('EUR')].map((money) => money.isPositive())).toEqual([true, false, false, false]);
  });

  it('writes itself with its currency, in minor units as given', () => {
    expect(eur('10.5').toString()).toBe('EUR 10.50');
    expect(Money.fromDecimal('1000', 'CLP').toString()).toBe('CLP 1000');
    expect(Money.ofMinor(1050n, 'EUR').toDecimal()).toBe('10.50');
    expect(Money.ofMinor(-5n, 'EUR').toDecimal()).toBe('-0.05');
    expect(Money.zero('CLP').toDecimal()).toBe('0');
  });

  it('reads stored values with trailing zeros but nothing inexact', () => {
    expect(Money.fromDecimal('1000.00', 'CLP').toDecimal()).toBe('1000');
    expect(Money.fromDecimal('0012.30', 'EUR').toDecimal()).toBe('12.30');
    expect(() => Money.fromDecimal('1000.50', 'CLP')).toThrow(RangeError);
    expect(() => Money.fromDecimal('1.005', 'EUR')).toThrow(RangeError);
    expect(() => Money.fromDecimal('abc', 'EUR')).toThrow(RangeError);
    expect(Money.fromDecimal('1.2340', 'KWD').toDecimal()).toBe('1.234');
    expect(() => Money.fromDecimal('1.2345', 'KWD')).toThrow(RangeError);
  });

  it('writes three- and four-decimal currencies with all their decimals', () => {
    expect(Money.ofMinor(1234n, 'KWD').toString()).toBe('KWD 1.234');
    expect(Money.ofMinor(5n, 'BHD').toDecimal()).toBe('0.005');
    expect(Money.ofMinor(-5n, 'BHD').toDecimal()).toBe('-0.005');
    expect(Money.ofMinor(12345n, 'CLF').toDecimal()).toBe('1.2345');
    expect(Money.fromDecimal('1.100', 'KWD').add(Money.fromDecimal('0.011', 'KWD')).toDecimal()).toBe('1.111');
  });
});

describe('amounts in a provider\'s own number of decimals', () => {
  it('says whether an amount can be written with fewer decimals than ISO gives', () => {
    expect(Money.fromDecimal('50000.00', 'COP').fitsDecimals(0)).toBe(true);
    expect(Money.fromDecimal('50000.50', 'COP').fitsDecimals(0)).toBe(false);
    expect(Money.fromDecimal('1.230', 'KWD').fitsDecimals(2)).toBe(true);
    expect(Money.fromDecimal('1.234', 'KWD').fitsDecimals(2)).toBe(false);
    expect(Money.fromDecimal('10.01', 'EUR').fitsDecimals(2)).toBe(true);
    expect(Money.fromDecimal('1000', 'JPY').fitsDecimals(2)).toBe(true);
  });

  it('writes an amount with exactly the decimals asked, never rounding', () => {
    expect(Money.fromDecimal('50000.00', 'COP').toDecimalPlaces(0)).toBe('50000');
    expect(Money.fromDecimal('-50000', 'COP').toDecimalPlaces(0)).toBe('-50000');
    expect(Money.fromDecimal('10.5', 'EUR').toDecimalPlaces(2)).toBe('10.50');
    expect(Money.fromDecimal('10.5', 'EUR').toDecimalPlaces(3)).toBe('10.500');
    expect(Money.fromDecimal('1000', 'JPY').toDecimalPlaces(2)).toBe('1000.00');
    expect(Money.fromDecimal('1.230', 'KWD').toDecimalPlaces(2)).toBe('1.23');
    expect(() => Money.fromDecimal('50000.50', 'COP').toDecimalPlaces(0)).toThrow(/COP 50000.50 cannot be written with 0 decimals/);
    expect(() => Money.fromDecimal('1.234', 'KWD').toDecimalPlaces(2)).toThrow(RangeError);
    expect(() => Money.fromDecimal('1', 'EUR').toDecimalPlaces(-1)).toThrow(RangeError);
    expect(() => Money.fromDecimal('1', 'EUR').toDecimalPlaces(1.5)).toThrow(RangeError);
  });
});

describe('currency rules', () => {
  it('takes each currency\'s decimals from ISO 4217, not from any provider', () => {
    expect(['CLP', 'JPY', 'KRW', 'VND', 'ISK'].map(currencyExponent)).toEqual([0, 0, 0, 0, 0]);
    // The deposit gateway sends whole COP, but ISO gives the peso two decimals.
    expect(['EUR', 'THB', 'COP'].map(currencyExponent)).toEqual([2, 2, 2]);
    expect(['BHD', 'KWD', 'JOD', 'OMR', 'TND', 'IQD', 'LYD'].map(currencyExponent)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(['CLF', 'UYW'].map(currencyExponent)).toEqual([4, 4]);
  });

  it('has no Money, and no decimals, for a code ISO does not list with a minor unit', () => {
    for (const code of ['XYZ', 'XAU', 'eur']) {
      expect(isCurrencyCode(code)).toBe(false);
      expect(() => currencyExponent(code)).toThrow(RangeError);
      expect(() => Money.ofMinor(100n, code)).toThrow(RangeError);
      expect(() => Money.fromDecimal('1.00', code)).toThrow(RangeError);
    }
    expect(isCurrencyCode('KWD')).toBe(true);
  });

  it('defines the Decimal grammar', () => {
    expect(isPlainDecimal('10.50')).toBe(true);
    expect(isPlainDecimal('0')).toBe(true);
    expect(isPlainDecimal('1e3')).toBe(false);
    expect(isPlainDecimal('-5')).toBe(true);
    expect(isPlainDecimal(' 10')).toBe(false);
  });
});

describe('canonicalDecimal', () => {
  it.each([
    ['25.00', 'EUR', '25.00'],
    ['0.00', 'EUR', '0.00'],
    ['-0.00', 'EUR', '0.00'],
    ['-4.50', 'EUR', '-4.50'],
    ['7.5', 'EUR', '7.50'],
    ['007.50', 'EUR', '7.50'],
    ['1000.00', 'CLP', '1000'],
    ['1000', 'CLP', '1000'],
    ['-0', 'CLP', '0'],
    ['12', 'THB', '12.00'],
    ['50000.00', 'COP', '50000.00'],
    ['50000', 'COP', '50000.00'],
    ['1.234', 'KWD', '1.234'],
    ['1.23', 'KWD', '1.230'],
    ['-0.000', 'KWD', '0.000'],
    ['0.0001', 'CLF', '0.0001'],
  ])('formats %s %s as %s, as Money.fromDecimal(...).toDecimal() does', (value, currency, expected) => {
    expect(canonicalDecimal(value, currency)).toBe(expected);
    expect(canonicalDecimal(value, currency)).toBe(Money.fromDecimal(value, currency).toDecimal());
  });

  it('refuses what Money.fromDecimal refuses', () => {
    expect(() => canonicalDecimal('25.00', 'eur')).toThrow(RangeError);
    expect(() => canonicalDecimal('25.001', 'EUR')).toThrow(RangeError);
    expect(() => canonicalDecimal('1000.50', 'CLP')).toThrow(RangeError);
    expect(() => canonicalDecimal('1.2345', 'KWD')).toThrow(RangeError);
    expect(() => canonicalDecimal('25.00', 'XYZ')).toThrow(RangeError);
  });
});
