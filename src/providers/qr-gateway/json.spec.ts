import { describe, expect, it } from 'vitest';
import { NonIntegerNumber, parseJsonExact, stringifyJsonExact } from './json.js';

describe('exact JSON', () => {
  it('reads integers as bigint from their source text', () => {
    expect(parseJsonExact('{"amount":9007199254740993,"n":-5}')).toEqual({ amount: 9007199254740993n, n: -5n });
  });

  it('keeps any other number as its source text', () => {
    const parsed = parseJsonExact('{"a":10.50,"b":1e3}') as Record<string, unknown>;
    expect(parsed.a).toEqual(new NonIntegerNumber('10.50'));
    expect(parsed.b).toEqual(new NonIntegerNumber('1e3'));
  });

  it('writes bigints as JSON integers', () => {
    expect(stringifyJsonExact({ amount: 9007199254740993n, name: 'x' })).toBe('{"amount":9007199254740993,"name":"x"}');
  });
});
