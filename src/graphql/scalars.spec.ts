import { Kind, parseValue } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DateTimeScalar, DecimalScalar } from './scalars.js';

describe('Decimal scalar', () => {
  it.each(['10.50', '0', '1000', '-5', '0.001', '1234567890123456789012345'])('accepts the decimal string %j (amount rules come later, per currency)', (value) => {
    expect(DecimalScalar.parseValue(value)).toBe(value);
    expect(DecimalScalar.parseLiteral(parseValue(JSON.stringify(value)))).toBe(value);
  });

  it.each(['1e3', 'NaN', 'Infinity', '10,00', ' 10', '10 ', '+5', '.5', '5.', '0x10', '', '1'.repeat(41)])('rejects %j with a clear message', (value) => {
    expect(() => DecimalScalar.parseValue(value)).toThrow(/plain decimal string/);
  });

  it('rejects JSON numbers and non-strings: they may already have been through a float', () => {
    expect(() => DecimalScalar.parseValue(10.5)).toThrow(/not a JSON number/);
    expect(() => DecimalScalar.parseValue(true)).toThrow(/must be a string/);
    expect(() => DecimalScalar.parseLiteral({ kind: Kind.FLOAT, value: '10.5' })).toThrow(/not a JSON number/);
  });

  it('serializes decimal strings only', () => {
    expect(DecimalScalar.serialize('10.50')).toBe('10.50');
    expect(() => DecimalScalar.serialize(10.5)).toThrow();
  });
});

describe('DateTime scalar', () => {
  it('round-trips ISO 8601', () => {
    const date = DateTimeScalar.parseValue('2026-11-21T10:00:00.000Z');
    expect(date.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(JSON.stringify(DateTimeScalar.serialize(date))).toBe('"2026-11-21T10:00:00.000Z"');
    expect(() => DateTimeScalar.parseValue('yesterday')).toThrow();
  });

  it('answers a time given as a string exactly as the same time given as a Date', () => {
    for (const iso of ['2026-11-21T10:00:00.000Z', '2026-01-31T23:59:59.999Z', '2024-02-29T00:00:00.000Z']) {
      expect(JSON.stringify(DateTimeScalar.serialize(iso))).toBe(JSON.stringify(DateTimeScalar.serialize(new Date(iso))));
    }
    expect(JSON.stringify(DateTimeScalar.serialize('2026-11-21T11:00:00+01:00'))).toBe('"2026-11-21T10:00:00.000Z"');
    expect(() => DateTimeScalar.serialize('2026-02-30T00:00:00.000Z')).toThrow();
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow();
  });
});
