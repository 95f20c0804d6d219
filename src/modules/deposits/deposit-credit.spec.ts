// The claim key of claimDepositCredit follows the rules of idempotency keys, refused on its own field.

import { describe, expect, it } from 'vitest';
import { claimKeyErrors } from './deposit-credit.js';

describe('claimKeyErrors', () => {
  it('accepts 1 to 255 printable ASCII characters without spaces, and no key at all', () => {
    expect(claimKeyErrors(undefined)).toEqual([]);
    expect(claimKeyErrors('credit-dep_01/attempt#1')).toEqual([]);
    expect(claimKeyErrors('~'.repeat(255))).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'has space'],
    ['non-ASCII', 'clé'],
  ])('refuses a key that is %s, on the claimKey field', (_case, key) => {
    expect(claimKeyErrors(key)).toEqual([{ field: ['claimKey'], code: 'INVALID_FORMAT', message: 'claimKey must be 1 to 255 printable ASCII characters without spaces' }]);
  });
});
