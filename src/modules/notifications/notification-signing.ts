// Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`
// and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one `v1,` entry per
// live secret (two during a rotation's overlap), separated by spaces. Secrets are `whsec_` + the
// base64 of 32 random bytes, the HMAC key.

import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: shown once, kept to sign. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The base64 HMAC-SHA256 of `id.timestamp.body` under `secret`'s key. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
}

/**
 * The headers of one POST. `id` is the event's id, the same on every retry, so a receiver dedupes
 * on it; the timestamp is the sending moment on the system clock (what the receiver's tolerance
 * window compares with its own clock).
 */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'payments-gateway-notifications/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${sign(secret, id, timestampSeconds, body)}`).join(' '),
  };
}
