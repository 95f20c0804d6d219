import { describe, expect, it } from 'vitest';
import { LATAM_PROVIDER_LINK_LIFETIME_SECONDS, latamLinkExpiresAt } from './assumptions.js';

describe('latamLinkExpiresAt: when a LATAM link stops taking a payment', () => {
  const createdAt = new Date('2026-03-02T10:00:00.000Z');
  const inThirtyMinutes = new Date('2026-03-02T10:30:00.000Z');
  const requested = new Date('2026-03-02T14:00:00.000Z');

  it('is the 30 minutes the provider sets for Peru and Chile, which ignore expiresAt (spec)', () => {
    expect(LATAM_PROVIDER_LINK_LIFETIME_SECONDS).toBe(30 * 60);
    for (const country of ['PERU', 'CHILE'] as const) {
      expect(latamLinkExpiresAt(country, createdAt, undefined)).toEqual(inThirtyMinutes);
      expect(latamLinkExpiresAt(country, createdAt, requested)).toEqual(inThirtyMinutes);
    }
  });

  it('is Ecuador\'s expiresAt (spec)', () => {
    expect(latamLinkExpiresAt('ECUADOR', createdAt, requested)).toEqual(requested);
  });

  it('is Mexico\'s and Colombia\'s expiresAt when given, else the provider\'s 30 minutes (A33)', () => {
    for (const country of ['MEXICO', 'COLOMBIA'] as const) {
      expect(latamLinkExpiresAt(country, createdAt, requested)).toEqual(requested);
      expect(latamLinkExpiresAt(country, createdAt, null)).toEqual(inThirtyMinutes);
    }
  });
});
