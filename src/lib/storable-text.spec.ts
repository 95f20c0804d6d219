// Which strings PostgreSQL can store, and where the first one it cannot is found in a value.

import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText, unstorableProblem } from './storable-text.js';

describe('storable text', () => {
  it('accepts ordinary and astral text and refuses NUL and lone surrogates', () => {
    expect(isStorableText('')).toBe(true);
    expect(isStorableText('Zürich 東京 😀 \u{10FFFF}')).toBe(true);
    expect(unstorableProblem('a\u0000b')).toBe('NUL');
    expect(unstorableProblem('\ud800')).toBe('LONE_SURROGATE');
    expect(unstorableProblem('x\udc00')).toBe('LONE_SURROGATE');
    expect(unstorableProblem('\ud83d\ud83d\ude00')).toBe('LONE_SURROGATE');
  });

  it('names the path of the first unstorable string, keys included', () => {
    expect(findUnstorableText({ a: [1, 'ok', { b: 'x\u0000' }] }, ['input'])).toEqual({ path: ['input', 'a', 2, 'b'], problem: 'NUL' });
    expect(findUnstorableText({ ['k\ud800']: 1 })).toEqual({ path: ['k\ud800'], problem: 'LONE_SURROGATE' });
    expect(findUnstorableText({ when: new Date(), bytes: Buffer.from([0]), fine: 'ok' })).toBeUndefined();
    expect(findUnstorableText({ id: 'x'.repeat(256) }, [], { maxLength: 255 })).toEqual({ path: ['id'], problem: 'TOO_LONG' });
    expect(findUnstorableText({ id: 'x'.repeat(255) }, [], { maxLength: 255 })).toBeUndefined();
  });
});
