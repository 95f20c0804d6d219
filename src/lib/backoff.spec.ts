// Unit spec of the back-off (backoff.ts): exponential from the base by the factor, capped, jittered
// down by at most its share, finite for any attempt count; and the longest total of a retry budget.

import { describe, expect, it } from 'vitest';
import { backoffDelayMs, totalBackoffMs } from './backoff.js';

describe('backoffDelayMs', () => {
  it('multiplies the base by the factor (2 by default) with each attempt', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(attempt, { baseMs: 200 }))).toEqual([200, 400, 800, 1_600, 3_200]);
    expect([1, 2, 3].map((attempt) => backoffDelayMs(attempt, { baseMs: 100, factor: 3 }))).toEqual([100, 300, 900]);
  });

  it('stops at the cap, however many attempts', () => {
    expect([4, 5, 6, 500].map((attempt) => backoffDelayMs(attempt, { baseMs: 200, maxMs: 2_000 }))).toEqual([1_600, 2_000, 2_000, 2_000]);
  });

  it('reads attempt 0 and below as the first: the base', () => {
    expect(backoffDelayMs(0, { baseMs: 1_000 })).toBe(1_000);
    expect(backoffDelayMs(-3, { baseMs: 1_000 })).toBe(1_000);
  });

  it('stays a finite number for any attempt count, with or without a cap', () => {
    expect(backoffDelayMs(1_000_000, { baseMs: 1_000 })).toBe(1_000 * 2 ** 30);
    expect(backoffDelayMs(Number.MAX_SAFE_INTEGER, { baseMs: 1_000, maxMs: Number.MAX_SAFE_INTEGER })).toBe(1_000 * 2 ** 30);
    expect(backoffDelayMs(Number.MAX_SAFE_INTEGER, { baseMs: 1_000, maxMs: 60_000, jitter: 0.5 }, () => 0)).toBe(60_000);
  });

  it('asks for no random number without jitter', () => {
    expect(backoffDelayMs(2, { baseMs: 5 }, () => Number.NaN)).toBe(10);
  });

  it('takes off at most its jitter share at random, over the whole random range', () => {
    for (const jitter of [0.1, 0.5, 1]) {
      for (let attempt = 1; attempt <= 12; attempt++) {
        const nominal = Math.min(1_000 * 2 ** (attempt - 1), 60_000);
        for (const random of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999_999]) {
          const delay = backoffDelayMs(attempt, { baseMs: 1_000, maxMs: 60_000, jitter }, () => random);
          expect(delay).toBeLessThanOrEqual(nominal);
          expect(delay).toBeGreaterThanOrEqual(Math.round(nominal * (1 - jitter)));
        }
      }
    }
    expect(backoffDelayMs(1, { baseMs: 1_000, jitter: 0.1 }, () => 0.999_999)).toBe(900);
    expect(backoffDelayMs(3, { baseMs: 1_000, jitter: 0.5 }, () => 0.5)).toBe(3_000);
  });

  it('returns whole milliseconds', () => {
    expect(Number.isInteger(backoffDelayMs(2, { baseMs: 333, jitter: 0.1 }, () => 0.123))).toBe(true);
  });
});

describe('totalBackoffMs', () => {
  it('adds up the waits of a retry budget at their longest, jitter left out', () => {
    expect(totalBackoffMs(0, { baseMs: 200, maxMs: 2_000 })).toBe(0);
    expect(totalBackoffMs(2, { baseMs: 200, maxMs: 2_000 })).toBe(600);
    expect(totalBackoffMs(9, { baseMs: 200, maxMs: 2_000, jitter: 0.5 })).toBe(200 + 400 + 800 + 1_600 + 5 * 2_000);
  });
});
