// Webhook signature check (spec: Authentication, 6): HMAC-SHA256 over `<t>.<raw body>`, constant-time
// compare, freshness window A12. Runs on the exact bytes received, before anything parses them.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookRejection } from '../provider.js';
import { SIGNATURE_TOLERANCE_SECONDS } from './assumptions.js';

export interface SignatureInput {
  body: Buffer;
  /** Value of the `x-service-signature` header, if any. */
  header: string | undefined;
  /** Current secret first; every secret still valid during rotation. */
  secrets: readonly string[];
  receivedAt: Date;
  toleranceSeconds?: number;
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: WebhookRejection };

interface ParsedHeader {
  timestamp: string;
  signatures: Buffer[];
}

const TIMESTAMP = /^[0-9]{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * `t=<unix>,v1=<hex>[,v1=<hex>…]`. Several `v1` entries may appear while the provider signs with
 * more than one secret; other schemes (`v0`, future versions) are skipped, not trusted.
 */
export function parseSignatureHeader(header: string): ParsedHeader | undefined {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) return undefined;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return undefined;
      timestamp = value;
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return undefined;
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

export function verifySignature(input: SignatureInput): SignatureCheck {
  const header = input.header?.trim();
  if (!header) return { ok: false, reason: 'SIGNATURE_MISSING' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'SIGNATURE_MALFORMED' };

  let matched = false;
  for (const secret of input.secrets) {
    if (!secret) continue;
    const expected = computeSignature(parsed.timestamp, input.body, secret);
    for (const candidate of parsed.signatures) {
      // Both are 32-byte digests (the header grammar admits only 64 hex digits), as timingSafeEqual requires.
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'SIGNATURE_MISMATCH' };

  const timestamp = Number(parsed.timestamp);
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  // Either direction: a `t` far in the future is as suspect as a replayed old one.
  if (Math.abs(input.receivedAt.getTime() / 1000 - timestamp) > tolerance) {
    return { ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' };
  }
  return { ok: true, timestamp };
}

function computeSignature(timestamp: string, body: Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/**
 * Builds a header the way the provider does; for tests and local tooling.
 *
 * @example signatureHeader(body, ['whsec_a'], 1700000000) // 't=1700000000,v1=5f…'
 */
export function signatureHeader(body: Buffer | string, secrets: readonly string[], timestamp: number): string {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const parts = secrets.map((secret) => `v1=${computeSignature(String(timestamp), bytes, secret).toString('hex')}`);
  return [`t=${timestamp}`, ...parts].join(',');
}
