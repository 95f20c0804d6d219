// The signed order token the embedded card form's action carries (spec: GET /payments/{reference}/card-session,
// step 2: "an opaque or signed order token, not a raw id"), and its verification when the shopper returns.
//
// The key is derived from the merchant account's current webhook signing secret (HMAC with a
// purpose label), so every gateway instance can verify any token without a new secret to configure,
// and a rotated secret still verifies the tokens it signed while it is listed.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MerchantAccount } from '../../providers/provider.js';

const VERSION = 'v1';
const PURPOSE = 'card-form-order-token/v1';
/** A shopper may spend a while in 3-D Secure or leave the form open; a day is ample, and a stale link is refused. */
export const ORDER_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

interface TokenPayload {
  /** Deposit id. */
  d: string;
  /** Merchant account code. */
  a: string;
  /** Expiry, epoch seconds. */
  x: number;
}

export type OrderTokenCheck =
  | { ok: true; depositId: string; accountCode: string }
  | { ok: false; reason: 'MALFORMED' | 'UNKNOWN_ACCOUNT' | 'BAD_SIGNATURE' | 'EXPIRED' };

function keyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update(PURPOSE).digest();
}

function mac(secret: string, signed: string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(signed).digest();
}

/** A token naming the deposit and its account, signed with the account's current webhook secret. */
export function signOrderToken(account: MerchantAccount, depositId: string, now = Date.now()): string {
  const payload: TokenPayload = { d: depositId, a: account.code, x: Math.floor((now + ORDER_TOKEN_LIFETIME_MS) / 1000) };
  const signed = `${VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signed}.${mac(account.webhookSecrets[0]!, signed).toString('base64url')}`;
}

/** Checks the signature (constant time, every listed secret) before reading anything from the token. */
export function verifyOrderToken(token: string, accountOf: (code: string) => MerchantAccount | undefined, now = Date.now()): OrderTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION || !/^[A-Za-z0-9_-]+$/.test(parts[1]!) || !/^[A-Za-z0-9_-]{43}$/.test(parts[2]!)) return { ok: false, reason: 'MALFORMED' };
  let payload: Partial<TokenPayload>;
  try {
    payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Partial<TokenPayload>;
  } catch {
    return { ok: false, reason: 'MALFORMED' };
  }
  if (typeof payload !== 'object' || payload === null || typeof payload.d !== 'string' || typeof payload.a !== 'string' || typeof payload.x !== 'number') {
    return { ok: false, reason: 'MALFORMED' };
  }
  // The account code only picks which secrets to try; nothing is trusted before one of them matches.
  const account = accountOf(payload.a);
  if (!account) return { ok: false, reason: 'UNKNOWN_ACCOUNT' };
  const signed = `${parts[0]}.${parts[1]}`;
  const presented = Buffer.from(parts[2]!, 'base64url');
  const matches = account.webhookSecrets.some((secret) => {
    const expected = mac(secret, signed);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
  if (!matches) return { ok: false, reason: 'BAD_SIGNATURE' };
  if (payload.x * 1000 <= now) return { ok: false, reason: 'EXPIRED' };
  return { ok: true, depositId: payload.d, accountCode: payload.a };
}
