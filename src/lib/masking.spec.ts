// Unit spec of identifier masking.

import { describe, expect, it } from 'vitest';
import { maskIdentifier } from './masking.js';

describe('maskIdentifier', () => {
  it('keeps the last four characters behind a fixed-width mask', () => {
    expect(maskIdentifier('002180000118359710')).toBe('****9710');
    expect(maskIdentifier('12345')).toBe('****2345');
  });

  it('never cuts a character made of two UTF-16 units in half', () => {
    expect(maskIdentifier('12345😀🈚𼂴é')).toBe('****😀🈚𼂴é');
    expect(maskIdentifier('😀😀😀😀')).toBe('****');
  });

  it('hides short values entirely', () => {
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('12')).toBe('****');
  });
});
