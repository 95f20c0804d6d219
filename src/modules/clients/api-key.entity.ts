// One key of an internal client. A client holds any number of keys, so that a key can be rolled:
// a new one is made while the old one still works, and the old one is revoked or left to expire.
// The secret is shown once at creation and stored only as a SHA-256 hash.

import { defineEntity, p } from '@mikro-orm/core';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.string().primary().length(30),
    clientId: p.string().length(30),
    /** First characters of the key, safe to show, so an operator can tell keys apart. */
    prefix: p.string().length(16),
    hash: p.string().length(64).unique().hidden(),
    createdAt: p.datetime(),
    /** From this instant on the key is refused; null: it does not expire. */
    expiresAt: p.datetime().nullable(),
    /** About when it last authenticated: written at most once a minute, not on every request. */
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {
  /** Neither revoked nor expired at `now` (its client may still be revoked: that is the client's). */
  isUsable(now: Date): boolean {
    return this.revokedAt == null && !isExpired(this.expiresAt ?? null, now);
  }
}

ApiKeySchema.setClass(ApiKey);

/** True once `now` reached `expiresAt`: a key is refused from the instant it expires. */
export function isExpired(expiresAt: Date | null, now: Date | number): boolean {
  return expiresAt !== null && expiresAt.getTime() <= (typeof now === 'number' ? now : now.getTime());
}
