import { describe, expect, it } from 'vitest';
import { METADATA_LIMITS, metadataOf } from './deposit-metadata.js';

describe('metadataOf', () => {
  it('turns entries into one object, keeping every key as data (even one named like a prototype)', () => {
    const result = metadataOf([{ key: 'session', value: 'cs-42' }, { key: '__proto__', value: 'x' }, { key: 'a.b-c_d', value: '' }]);
    expect(result.ok).toBe(true);
    const metadata = (result as { metadata: Record<string, string> }).metadata;
    expect(Object.keys(metadata)).toEqual(['session', '__proto__', 'a.b-c_d']);
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(metadata);
  });

  it('takes exactly the limits, and refuses one past each', () => {
    const full = Array.from({ length: METADATA_LIMITS.entries }, (_, index) => ({ key: `k${index}`, value: 'v' }));
    expect(metadataOf(full).ok).toBe(true);
    expect(metadataOf([...full, { key: 'one-more', value: 'v' }])).toMatchObject({ ok: false, errors: [{ field: ['metadata'], code: 'METADATA_TOO_LARGE' }] });
    expect(metadataOf([{ key: 'k'.repeat(40), value: 'v'.repeat(METADATA_LIMITS.valueChars) }]).ok).toBe(true);
    expect(metadataOf([{ key: 'k'.repeat(41), value: 'v' }])).toMatchObject({ ok: false, errors: [{ field: ['metadata', '0', 'key'], code: 'INVALID_FORMAT' }] });
    expect(metadataOf([{ key: 'k', value: 'v'.repeat(METADATA_LIMITS.valueChars + 1) }])).toMatchObject({ ok: false, errors: [{ field: ['metadata', '0', 'value'], code: 'METADATA_TOO_LARGE' }] });
  });

  it('counts the total in UTF-8 bytes, not characters', () => {
    // 9 values of 250 two-byte characters: 2,250 characters but 4,500 bytes.
    const entries = Array.from({ length: 9 }, (_, index) => ({ key: `k${index}`, value: 'é'.repeat(250) }));
    expect(metadataOf(entries)).toMatchObject({ ok: false, errors: [{ field: ['metadata'], code: 'METADATA_TOO_LARGE' }] });
  });

  it('names a repeated key by the entry that repeats it', () => {
    expect(metadataOf([{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'a', value: '3' }])).toMatchObject({ ok: false, errors: [{ field: ['metadata', '2', 'key'], code: 'INVALID_VALUE' }] });
  });
});
