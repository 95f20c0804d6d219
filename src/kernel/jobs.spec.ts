// Retry delays of the job queue: exponential from the base, capped, never more than the nominal delay.

import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './jobs.js';

const settings = { backoffBaseMs: 1_000, backoffMaxMs: 60_000 };

describe('retryDelayMs', () => {
  it('doubles from the base with each attempt', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, settings, () => 0))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('stops at the maximum, however many attempts', () => {
    expect(retryDelayMs(7, settings, () => 0)).toBe(60_000);
    expect(retryDelayMs(500, settings, () => 0)).toBe(60_000);
  });

  it('takes off at most a tenth at random, so failures that came together do not retry together', () => {
    expect(retryDelayMs(1, settings, () => 0.999_999)).toBe(900);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(3_800);
  });
});
