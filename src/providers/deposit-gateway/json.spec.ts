// Exact reading of JSON numbers: amounts never pass through a binary float.

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { decimalText, integerValue, JsonNumber, parseJsonExact, stringifyJsonExact } from './json.js';

describe('parseJsonExact', () => {
  it('keeps the source text of every number', () => {
    const parsed = parseJsonExact('{"a": 10.10, "b": [0.1, 1e2], "c": "10.10", "d": true, "e": null}') as Record<string, unknown>;
    expect(parsed.a).toEqual(new JsonNumber('10.10'));
    expect(parsed.b).toEqual([new JsonNumber('0.1'), new JsonNumber('1e2')]);
    expect(parsed.c).toBe('10.10');
    expect(parsed.d).toBe(true);
    expect(parsed.e).toBeNull();
  });

  it('reads amounts a float would corrupt', () => {
    // 0.1 + 0.2 style: both of these print differently once they have been a double.
    const parsed = parseJsonExact('{"amount": 12345678901234567.89, "tiny": 0.30000000000000004}') as Record<string, unknown>;
    expect(decimalText(parsed.amount)).toBe('12345678901234567.89');
    expect(Money.fromDecimal(decimalText(parsed.amount)!, 'USD').minor).toBe(1234567890123456789n);
    expect(decimalText(parsed.tiny)).toBe('0.30000000000000004');
  });

  it('reads text without numbers the same way, and a number anywhere in it, also at the top level or after whitespace', () => {
    expect(parseJsonExact('{"amount": "10.10", "ok": true, "list": ["1", null]}')).toEqual({ amount: '10.10', ok: true, list: ['1', null] });
    expect(parseJsonExact('7')).toEqual(new JsonNumber('7'));
    expect(parseJsonExact(' [ "a",\n  -0.5 ]')).toEqual(['a', new JsonNumber('-0.5')]);
    expect(parseJsonExact('{"t": "x:1", "n": 2.50}')).toEqual({ t: 'x:1', n: new JsonNumber('2.50') });
  });

  it('still rejects malformed JSON', () => {
    expect(() => parseJsonExact('{"a": 01}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": NaN}')).toThrow(SyntaxError);
  });
});

describe('decimalText', () => {
  it.each([
    ['10', '10'],
    ['10.50', '10.50'],
    ['-3.25', '-3.25'],
    ['0', '0'],
    ['1e2', '100'],
    ['1E+2', '100'],
    ['1.05e1', '10.5'],
    ['1.5e3', '1500'],
    ['5e-1', '0.5'],
    ['5e-3', '0.005'],
    ['1234e-2', '12.34'],
    ['-1.5e-2', '-0.015'],
    ['10.0e0', '10.0'],
  ])('reads the number %s as %s', (source, expected) => {
    expect(decimalText(new JsonNumber(source))).toBe(expected);
  });

  it('passes strings through and refuses other values', () => {
    expect(decimalText('7.00')).toBe('7.00');
    expect(decimalText(true)).toBeUndefined();
    expect(decimalText(null)).toBeUndefined();
    expect(decimalText({})).toBeUndefined();
    expect(decimalText(new JsonNumber('1e400'))).toBeUndefined();
  });
});

describe('integerValue', () => {
  it('reads safe integers only', () => {
    expect(integerValue(new JsonNumber('30'))).toBe(30);
    expect(integerValue('45')).toBe(45);
    expect(integerValue(new JsonNumber('1.5'))).toBeUndefined();
    expect(integerValue(new JsonNumber('90071992547409931'))).toBeUndefined();
    expect(integerValue(undefined)).toBeUndefined();
  });
});

describe('stringifyJsonExact', () => {
  it('writes a JsonNumber as its own digits, never through a float', () => {
    expect(stringifyJsonExact({ amount: new JsonNumber('999999999999999.99'), b: [new JsonNumber('10.00')], c: '10.10' })).toBe(
      '{"amount":999999999999999.99,"b":[10.00],"c":"10.10"}',
    );
  });

  it('refuses a source that is not a plain decimal', () => {
    for (const source of ['1e2', 'NaN', '01.5', '1,5', '']) expect(() => stringifyJsonExact({ amount: new JsonNumber(source) })).toThrow(RangeError);
  });
});
