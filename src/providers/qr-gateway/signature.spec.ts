import { describe, expect, it } from 'vitest';
import { computeSignature, parseSignatureHeader, signatureHeader, verifySignature } from './signature.js';

const secret = 'whsec_current_secret';
const oldSecret = 'whsec_previous_secret';
const body = Buffer.from('{"event":"payment.succeeded","data":{"payment_id":"qr_1","status":"succeeded","amount":10000,"currency":"THB"}}');
const t = 1_750_000_000;
const at = (seconds: number): Date => new Date(seconds * 1000);

describe('QR webhook signature (Q4)', () => {
  it('accepts a delivery signed with the current secret', () => {
    const header = signatureHeader([secret], body, t);
    expect(verifySignature({ header, body, secrets: [secret], now: at(t + 10) })).toEqual({ ok: true, timestamp: t });
  });

  it('is HMAC-SHA256 over "<t>.<raw body>"', () => {
    expect(signatureHeader([secret], body, t)).toBe(`t=${t},v1=${computeSignature(secret, t, body)}`);
    expect(computeSignature(secret, t, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['a changed byte in the body', Buffer.from(body.toString().replace('10000', '10001'))],
    ['trailing whitespace', Buffer.concat([body, Buffer.from(' ')])],
  ])('refuses a tampered body: %s', (_label, tampered) => {
    const header = signatureHeader([secret], body, t);
    expect(verifySignature({ header, body: tampered, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('refuses a signature made with another secret', () => {
    const header = signatureHeader(['whsec_someone_else'], body, t);
    expect(verifySignature({ header, body, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('refuses a changed timestamp, since t is signed', () => {
    const header = signatureHeader([secret], body, t).replace(`t=${t}`, `t=${t + 1}`);
    expect(verifySignature({ header, body, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it.each([
    ['stale, just past the window', t + 301, false],
    ['at the edge of the window', t + 300, true],
    ['from the future, past the window', t - 301, false],
    ['slightly in the future', t - 30, true],
  ])('freshness: %s', (_label, nowSeconds, accepted) => {
    const header = signatureHeader([secret], body, t);
    const result = verifySignature({ header, body, secrets: [secret], now: at(nowSeconds) });
    expect(result.ok).toBe(accepted);
    if (!accepted) expect(result).toEqual({ ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' });
  });

  it.each([undefined, '', '   '])('refuses a missing header (%j)', (header) => {
    expect(verifySignature({ header, body, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
  });

  it.each([
    'garbage',
    `t=${t}`,
    'v1=' + 'a'.repeat(64),
    `t=abc,v1=${'a'.repeat(64)}`,
    `t=${t},v1=xyz`,
    `t=${t},v1=${'a'.repeat(63)}`,
    `t=${t},t=${t},v1=${'a'.repeat(64)}`,
  ])('refuses a malformed header %j', (header) => {
    expect(verifySignature({ header, body, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MALFORMED' });
  });

  describe('rotation', () => {
    it('accepts a delivery signed with an older secret the account still lists', () => {
      const header = signatureHeader([oldSecret], body, t);
      expect(verifySignature({ header, body, secrets: [secret, oldSecret], now: at(t) }).ok).toBe(true);
    });

    it('accepts a header carrying several v1 signatures when any one matches', () => {
      const header = signatureHeader(['whsec_unknown_new', secret], body, t);
      expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
      expect(verifySignature({ header, body, secrets: [secret], now: at(t) }).ok).toBe(true);
    });

    it('refuses once the old secret is dropped from the account', () => {
      const header = signatureHeader([oldSecret], body, t);
      expect(verifySignature({ header, body, secrets: [secret], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
    });

    it('ignores schemes it does not know, such as a future v2', () => {
      const header = `${signatureHeader([secret], body, t)},v2=whatever`;
      expect(verifySignature({ header, body, secrets: [secret], now: at(t) }).ok).toBe(true);
    });
  });

  it('refuses everything when the account has no secret', () => {
    const header = signatureHeader([secret], body, t);
    expect(verifySignature({ header, body, secrets: [], now: at(t) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });
});
