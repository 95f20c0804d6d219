import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { PglitePlatform } from '@mikro-orm/pglite';
import { describe, expect, it } from 'vitest';
import { isoString } from '../lib/iso-time.js';
import { isoTimestamp } from './plain-rows.js';

describe('isoTimestamp', () => {
  // What each database's ORM platform makes of a timestamp's text, written as snapshots write dates.
  const platforms = [new PostgreSqlPlatform(), new PglitePlatform()];
  const theOrmsWay = (platform: PostgreSqlPlatform | PglitePlatform, text: string): string => isoString(platform.parseDate(text));

  /** PostgreSQL's text for `time` (ms) plus `micros` (0-999) in UTC: trailing zeros of the fraction dropped, as the server writes it. */
  const serverText = (time: number, micros: number): string => {
    const iso = new Date(time).toISOString();
    const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
  };

  it('writes the server\'s UTC text as the ORM\'s Date would be written, for every fraction length and field value', () => {
    const first = Date.UTC(1000, 0, 1);
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    // A step that is no whole number of seconds, minutes or days walks every field through its values.
    // Some 290,000 comparisons: the differences are gathered and asserted once (an `expect` each
    // cost the spec three seconds).
    const differences: Array<{ text: string; ours: string; theOrms: string }> = [];
    let compared = 0;
    for (let time = first, micros = 0; time < last; time += 7_777_777_777 + 123, micros = (micros + 37) % 1000) {
      for (const text of [serverText(time, micros), serverText(time - (time % 1000), 0), serverText(time - (time % 100), 0), serverText(time - (time % 10), 0)]) {
        for (const platform of platforms) {
          const ours = isoTimestamp(text, platform);
          const theOrms = theOrmsWay(platform, text);
          compared += 1;
          if (ours !== theOrms) differences.push({ text, ours: String(ours), theOrms });
        }
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(280_000);
  });

  it('leaves every other text to the ORM\'s parser: other zones, days past the 28th, years before 1000, BC, ISO text', () => {
    for (const text of ['2026-11-27 15:06:31.5+01', '2026-11-27 15:06:31-05:30', '2024-02-29 23:59:59.999999+00', '2026-01-31 00:00:00+00', '0999-12-31 23:59:59.9+00', '0001-01-01 00:00:00+00 BC', '2026-11-27T15:06:31.123Z', '2026-11-27 15:06:31.123456']) {
      for (const platform of platforms) expect(isoTimestamp(text, platform)).toBe(theOrmsWay(platform, text));
    }
  });

  it('keeps null, writes a Date, and throws as the ORM\'s way does for text no parser reads', () => {
    const platform = platforms[0]!;
    expect(isoTimestamp(null, platform)).toBeNull();
    expect(isoTimestamp(undefined, platform)).toBeNull();
    const date = new Date(Date.UTC(2026, 10, 27, 15, 6, 31, 123));
    expect(isoTimestamp(date, platform)).toBe(date.toISOString());
    expect(() => isoTimestamp('not a time', platform)).toThrow(TypeError);
  });
});
