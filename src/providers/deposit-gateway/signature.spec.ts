// Webhook verification: signature, freshness and the verify-before-parse order (spec: Authentication, 6).

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MerchantAccount } from '../provider.js';
import { createDepositGatewayAdapter } from './index.js';
import { parseSignatureHeader, signatureHeader, verifySignature } from './signature.js';

const SECRET = 'whsec_current';
const OLD_SECRET = 'whsec_previous';
const T = 1_763_700_000;
const AT = new Date(T * 1000);

const account: MerchantAccount = {
  code: 'dg-test',
  provider: 'deposit-gateway',
  livemode: false,
  baseUrl: 'http://127.0.0.1:1/v1',
  apiKey: 'svc_test_unused',
  webhookSecrets: [SECRET],
};

const body = Buffer.from(
  JSON.stringify({
    id: 'evt_1',
    event: 'payment.approved',
    livemode: false,
    created_at: '2025-11-21T04:40:00Z',
    data: { reference: 'pay_1', merchant_reference: 'dep_1', status: 'approved', amount: '10.50', currency: 'EUR' },
  }),
);

const adapter = createDepositGatewayAdapter();
const verify = (header: string | undefined, options: { bytes?: Buffer; secrets?: string[]; receivedAt?: Date } = {}) =>
  adapter.verifyWebhook(
    { ...account, webhookSecrets: options.secrets ?? account.webhookSecrets },
    { body: options.bytes ?? body, headers: header === undefined ? {} : { 'x-service-signature': header }, receivedAt: options.receivedAt ?? AT },
  );

describe('webhook signature', () => {
  it('accepts a body signed with the account secret', () => {
    const result = verify(signatureHeader(body, [SECRET], T));
    expect(result.ok).toBe(true);
  });

  it('signs `<t>.<raw body>` with HMAC-SHA256, as the spec describes', () => {
    const hex = createHmac('sha256', SECRET).update(`${T}.${body.toString('utf8')}`).digest('hex');
    expect(verify(`t=${T},v1=${hex}`).ok).toBe(true);
    expect(signatureHeader(body, [SECRET], T)).toBe(`t=${T},v1=${hex}`);
  });

  it('rejects a tampered body', () => {
    const header = signatureHeader(body, [SECRET], T);
    const tampered = Buffer.from(body.toString('utf8').replace('10.50', '99.50'));
    expect(verify(header, { bytes: tampered })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('rejects a body that differs only in whitespace: the exact bytes are signed', () => {
    const header = signatureHeader(body, [SECRET], T);
    expect(verify(header, { bytes: Buffer.concat([body, Buffer.from('\n')]) })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('rejects a signature made with another secret', () => {
    expect(verify(signatureHeader(body, ['whsec_attacker'], T))).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('rejects everything when the account has no secret', () => {
    expect(verify(signatureHeader(body, [SECRET], T), { secrets: [] })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('rejects a valid signature whose timestamp was altered', () => {
    const header = signatureHeader(body, [SECRET], T).replace(`t=${T}`, `t=${T + 1}`);
    expect(verify(header)).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('verifySignature defaults to the A12 window and reports the timestamp', () => {
    const result = verifySignature({ body, header: signatureHeader(body, [SECRET], T), secrets: [SECRET], receivedAt: AT });
    expect(result).toEqual({ ok: true, timestamp: T });
  });
});

describe('webhook signature: freshness (A12: 300 s either way)', () => {
  it.each([
    ['300 s old', T - 300, true],
    ['301 s old', T - 301, false],
    ['an hour old', T - 3600, false],
    ['300 s in the future', T + 300, true],
    ['301 s in the future', T + 301, false],
    ['a day in the future', T + 86_400, false],
  ])('%s', (_label, t, accepted) => {
    const result = verify(signatureHeader(body, [SECRET], t));
    expect(result.ok ? true : result.reason).toBe(accepted ? true : 'TIMESTAMP_OUT_OF_WINDOW');
  });
});

describe('webhook signature: header shape', () => {
  it('reports a missing header', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
    expect(verify('')).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
    expect(verify('   ')).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
  });

  const good = signatureHeader(body, [SECRET], T).split(',')[1]!;
  it.each([
    ['no timestamp', good],
    ['no signature', `t=${T}`],
    ['a non-numeric timestamp', `t=abc,${good}`],
    ['two timestamps', `t=${T},t=${T},${good}`],
    ['a short signature', `t=${T},v1=abcd`],
    ['a non-hex signature', `t=${T},v1=${'z'.repeat(64)}`],
    ['a part without =', `t=${T},${good},garbage`],
    ['only an unknown scheme', `t=${T},v0=${'a'.repeat(64)}`],
    ['a bare word', 'sha256=deadbeef'],
  ])('reports a malformed header with %s', (_label, header) => {
    expect(verify(header)).toEqual({ ok: false, reason: 'SIGNATURE_MALFORMED' });
  });

  it('tolerates spaces around parts and skips unknown schemes', () => {
    const [t, v1] = signatureHeader(body, [SECRET], T).split(',');
    expect(verify(` ${t} , v0=${'a'.repeat(64)} , ${v1} `).ok).toBe(true);
  });

  it('accepts upper-case hex', () => {
    const [t, v1] = signatureHeader(body, [SECRET], T).split(',');
    expect(verify(`${t},${v1!.toUpperCase().replace('V1=', 'v1=')}`).ok).toBe(true);
  });

  it('parses every v1 entry', () => {
    const parsed = parseSignatureHeader(signatureHeader(body, ['a', 'b', 'c'], T));
    expect(parsed?.timestamp).toBe(String(T));
    expect(parsed?.signatures).toHaveLength(3);
  });
});

describe('webhook signature: rotation', () => {
  it('accepts when any of several v1 entries matches', () => {
    const header = signatureHeader(body, ['whsec_other', SECRET, 'whsec_third'], T);
    expect(verify(header).ok).toBe(true);
  });

  it('accepts a signature made with an older secret still on the account', () => {
    const header = signatureHeader(body, [OLD_SECRET], T);
    expect(verify(header, { secrets: [SECRET, OLD_SECRET] }).ok).toBe(true);
  });

  it('accepts several v1 against several secrets when one pair matches', () => {
    const header = signatureHeader(body, ['whsec_x', OLD_SECRET], T);
    expect(verify(header, { secrets: [SECRET, 'whsec_y', OLD_SECRET] }).ok).toBe(true);
  });

  it('rejects several v1 against several secrets when none pairs up', () => {
    const header = signatureHeader(body, ['whsec_x', 'whsec_z'], T);
    expect(verify(header, { secrets: [SECRET, OLD_SECRET] })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('rejects a retired secret once it is removed from the account', () => {
    expect(verify(signatureHeader(body, [OLD_SECRET], T), { secrets: [SECRET] })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });
});

describe('webhook signature: verify before parse', () => {
  it('reports a bad signature, not bad JSON, for an unsigned garbage body', () => {
    const garbage = Buffer.from('{not json');
    expect(verify(signatureHeader(body, [SECRET], T), { bytes: garbage })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });

  it('reports PAYLOAD_INVALID only for a correctly signed body that is not JSON', () => {
    const garbage = Buffer.from('{not json');
    expect(verify(signatureHeader(garbage, [SECRET], T), { bytes: garbage })).toEqual({ ok: false, reason: 'PAYLOAD_INVALID' });
  });

  it('reports PAYLOAD_INVALID for signed bytes that are not UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(verify(signatureHeader(bytes, [SECRET], T), { bytes })).toEqual({ ok: false, reason: 'PAYLOAD_INVALID' });
  });

  it('reports PAYLOAD_INVALID for signed JSON that is not an envelope', () => {
    const bytes = Buffer.from('[1,2,3]');
    expect(verify(signatureHeader(bytes, [SECRET], T), { bytes })).toEqual({ ok: false, reason: 'PAYLOAD_INVALID' });
  });
});

