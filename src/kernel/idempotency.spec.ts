import { describe, expect, it } from 'vitest';
import { idempotencyKeyErrors } from './idempotency.js';

describe('idempotencyKeyErrors', () => {
  it('accepts 1 to 255 printable ASCII characters without spaces, and no key at all', () => {
    expect(idempotencyKeyErrors(undefined)).toEqual([]);
    expect(idempotencyKeyErrors('order-1001/attempt#1')).toEqual([]);
    expect(idempotencyKeyErrors('~'.repeat(255))).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'has space'],
    ['a control character', 'tab\there'],
    ['non-ASCII', 'clé'],
  ])('refuses a key that is %s, on the idempotencyKey field', (_case, key) => {
    expect(idempotencyKeyErrors(key)).toEqual([{ field: ['idempotencyKey'], code: 'INVALID_FORMAT', message: 'idempotencyKey must be 1 to 255 printable ASCII characters without spaces' }]);
  });
});
