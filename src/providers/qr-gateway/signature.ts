// The QR gateway's webhook signature (assumption Q4): `t=<unix>,v1=<hex>` over `<t>.<raw body>`.
// Signing is here too, so the sandbox signs exactly what the adapter verifies.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookRejection } from '../provider.js';
import { SIGNATURE_SCHEME, SIGNATURE_TOLERANCE_SECONDS } from './assumptions.js';

/** HMAC-SHA256 hex of `<t>.<body>`. */
export function computeSignature(secret: string, timestamp: number, body: Buffer | string): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

/**
 * The header value for a delivery signed with each of `secrets` (several during a rotation).
 *
 * @example signatureHeader(['whsec_abc'], '{"event":"payment.succeeded"}', 1700000000) // 't=1700000000,v1=5f2b…'
 */
export function signatureHeader(secrets: readonly string[], body: Buffer | string, timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `${SIGNATURE_SCHEME}=${computeSignature(secret, timestamp, body)}`)].join(',');
}

export interface ParsedSignature {
  timestamp: number;
  signatures: Buffer[];
}

const TIMESTAMP = /^[0-9]{1,12}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** Reads `t=…,v1=…[,v1=…]`; unknown schemes are skipped so a future `v2` does not break us. */
export function parseSignatureHeader(header: string): ParsedSignature | null {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    if (index <= 0) return null;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return null;
      timestamp = Number(value);
    } else if (key === SIGNATURE_SCHEME) {
      if (!HEX_SHA256.test(value)) return null;
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: WebhookRejection };

/**
 * Checks a signature header against the raw body with any of `secrets`, before anything parses the
 * body. Every candidate is compared in constant time; the freshness window applies both ways so a
 * replayed old delivery and a clock-skewed future one are both refused.
 */
export function verifySignature(options: {
  header: string | undefined;
  body: Buffer;
  secrets: readonly string[];
  now: Date;
  toleranceSeconds?: number;
}): SignatureCheck {
  const { header, body, secrets, now } = options;
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'SIGNATURE_MISSING' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'SIGNATURE_MALFORMED' };

  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, body), 'hex');
    for (const candidate of parsed.signatures) {
      // No early exit: every pair is compared, so timing does not reveal which secret matched.
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'SIGNATURE_MISMATCH' };

  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const ageSeconds = Math.floor(now.getTime() / 1000) - parsed.timestamp;
  if (Math.abs(ageSeconds) > tolerance) return { ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' };
  return { ok: true, timestamp: parsed.timestamp };
}
