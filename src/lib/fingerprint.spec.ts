import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './fingerprint.js';

describe('requestFingerprint', () => {
  it('ignores key order, absent and null members, and the idempotency key', () => {
    const a = requestFingerprint({ amount: '10.00', customer: { email: 'a@b.c', phone: null }, idempotencyKey: 'k1' });
    const b = requestFingerprint({ customer: { email: 'a@b.c' }, amount: '10.00', idempotencyKey: 'k2', merchantReference: undefined });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells different content apart', () => {
    expect(requestFingerprint({ amount: '10.00' })).not.toBe(requestFingerprint({ amount: '10.01' }));
    expect(requestFingerprint({ items: [1, 2] })).not.toBe(requestFingerprint({ items: [2, 1] }));
  });

  it('writes dates as ISO strings', () => {
    expect(canonicalJson({ at: new Date('2026-11-21T00:00:00Z') })).toBe('{"at":"2026-11-21T00:00:00.000Z"}');
  });
});
