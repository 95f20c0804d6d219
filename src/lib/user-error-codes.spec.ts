import { describe, expect, it } from 'vitest';
import { isUserErrorCode, userErrorCodeOf } from './user-error-codes.js';

describe('userErrorCodeOf', () => {
  it('reads a registered code at the head of a reason text', () => {
    expect(userErrorCodeOf('AMOUNT_MISMATCH: reported EUR 5.00, deposit is EUR 6.00', 'ANOMALY')).toBe('AMOUNT_MISMATCH');
    expect(userErrorCodeOf('RATE_LIMITED', 'PROVIDER_REJECTED')).toBe('RATE_LIMITED');
  });

  it('falls back for an unregistered, absent or lower-case head, so no unknown code reaches a client', () => {
    expect(userErrorCodeOf('SESSION_EXPIRED: no payment was made', 'ANOMALY')).toBe('ANOMALY');
    expect(userErrorCodeOf(null, 'PROVIDER_REJECTED')).toBe('PROVIDER_REJECTED');
    expect(userErrorCodeOf('refused: http 400', 'PROVIDER_REJECTED')).toBe('PROVIDER_REJECTED');
  });

  it('knows no inherited property as a code', () => {
    expect(isUserErrorCode('toString')).toBe(false);
    expect(isUserErrorCode('FIELD_REQUIRED')).toBe(true);
  });
});
