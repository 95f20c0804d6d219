import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The millisecond time a ULID's first ten digits carry. */
function timeOf(id: string): number {
  return [...id.slice(4, 14)].reduce((value, digit) => value * 32 + CROCKFORD.indexOf(digit), 0);
}

describe('newId', () => {
  it('is the prefix and a 26-digit ULID whose first ten digits are the time', () => {
    const now = Date.UTC(2026, 10, 26, 3, 40, 12, 345);
    const id = newId('dep', now);
    expect(id).toMatch(/^dep_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId(id, 'dep')).toBe(true);
    expect(isId(id, 'rfd')).toBe(false);
    expect(timeOf(id)).toBe(now);
    // The largest time a ULID holds (2^48 - 1 ms) still fits its ten digits.
    expect(newId('evt', 2 ** 48 - 1).slice(4, 14)).toBe('7ZZZZZZZZZ');
  });

  it('sorts by time, and never repeats', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => newId('evt', 1_700_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    const byTime = [...ids].sort((a, b) => timeOf(a) - timeOf(b));
    expect(byTime.map(timeOf)).toEqual(ids.map(timeOf));
    for (let i = 1; i < ids.length; i++) if (timeOf(ids[i]!) !== timeOf(ids[i - 1]!)) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it('draws all 80 random bits: every digit of the random part takes all 32 values', () => {
    const seen = Array.from({ length: 16 }, () => new Set<string>());
    // Past the size of the random pool several times, so refills are covered.
    for (let n = 0; n < 5_000; n++) {
      const random = newId('job', 0).slice(14);
      for (let i = 0; i < 16; i++) seen[i]!.add(random[i]!);
    }
    expect(seen.map((digits) => digits.size)).toEqual(Array(16).fill(32));
  });
});
