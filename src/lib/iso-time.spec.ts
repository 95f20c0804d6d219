import { describe, expect, it } from 'vitest';
import { isoString } from './iso-time.js';

describe('isoString', () => {
  it('is toISOString for dates across and beyond the four-digit years, every millisecond digit count included', () => {
    const first = Date.UTC(-1, 0, 1);
    const last = Date.UTC(10001, 0, 1);
    // A step that is no whole number of seconds, minutes or days walks every field through its values.
    for (let time = first; time < last; time += 7_777_777_777 + 123) {
      const date = new Date(time);
      expect(isoString(date)).toBe(date.toISOString());
    }
    for (const time of [0, 1, 9, 10, 99, 100, 999, Date.UTC(1000, 0, 1), Date.UTC(1000, 0, 1) - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(2024, 1, 29, 12), 8.64e15, -8.64e15]) {
      const date = new Date(time);
      expect(isoString(date)).toBe(date.toISOString());
    }
  });

  it('throws the built-in RangeError for an invalid date', () => {
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
