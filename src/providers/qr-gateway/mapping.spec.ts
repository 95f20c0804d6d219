import { describe, expect, it } from 'vitest';
import type { MerchantAccount } from '../provider.js';
import { parseJsonExact } from './json.js';
import { mapErrorResponse, mapQrCode, mapWebhookEvent } from './mapping.js';
import { createQrGatewayAdapter } from './qr-gateway.adapter.js';
import { signatureHeader } from './signature.js';

const codeBody = {
  id: 'qr_abc',
  reference: 'dep_01',
  amount: 25_075n,
  currency: 'THB',
  status: 'pending',
  qr_payload: '000201010212...6304ABCD',
  expires_at: '2030-01-01T00:15:00.000Z',
  created_at: '2030-01-01T00:00:00.000Z',
  paid_at: null,
  failure_reason: null,
};

describe('QR code object (Q1) as ProviderDeposit', () => {
  it('maps a created code', () => {
    const deposit = mapQrCode(codeBody, 'satang');
    expect(deposit).toMatchObject({
      reference: 'qr_abc',
      merchantReference: 'dep_01',
      status: 'PENDING',
      providerStatus: 'pending',
      qrCode: { payload: codeBody.qr_payload, expiresAt: new Date(codeBody.expires_at) },
    });
    expect(deposit?.amount?.toString()).toBe('THB 250.75');
  });

  it('reads the amount in the configured unit', () => {
    expect(mapQrCode({ ...codeBody, amount: 250n }, 'baht')?.amount?.toString()).toBe('THB 250.00');
  });

  it.each([
    ['succeeded', null, 'SUCCEEDED', undefined],
    ['failed', 'declined', 'DECLINED', 'declined'],
    ['failed', null, 'DECLINED', 'declined'],
    ['failed', 'expired', 'EXPIRED', 'expired'],
    ['processing', null, 'PENDING', undefined],
  ])('status %s (failure_reason %s) is %s', (status, reason, expected, declineReason) => {
    const deposit = mapQrCode({ ...codeBody, status, failure_reason: reason, paid_at: status === 'succeeded' ? '2030-01-01T00:01:00Z' : null }, 'satang');
    expect(deposit?.status).toBe(expected);
    expect(deposit?.declineReason).toBe(declineReason);
    if (expected === 'SUCCEEDED') expect(deposit?.approvedAt).toEqual(new Date('2030-01-01T00:01:00Z'));
  });

  it.each([
    ['no id', { ...codeBody, id: undefined }],
    ['a fractional amount', parseJsonExact(JSON.stringify({ ...codeBody, amount: 1 }).replace('"amount":1', '"amount":10.5'))],
    ['not an object', 'qr_abc'],
  ])('refuses a body with %s', (_label, body) => {
    expect(mapQrCode(body, 'satang')).toBeNull();
  });

  it('reads the id from the spec\'s payment_id first, then from the guessed id field (Q1)', () => {
    expect(mapQrCode({ ...codeBody, id: undefined, payment_id: 'pay_spec' }, 'satang')?.reference).toBe('pay_spec');
    expect(mapQrCode({ ...codeBody, payment_id: 'pay_spec' }, 'satang')?.reference).toBe('pay_spec');
    expect(mapQrCode(codeBody, 'satang')?.reference).toBe(codeBody.id);
  });

  it('reads a body with no status as a pending code (Q1): a code just made is unpaid', () => {
    expect(mapQrCode({ ...codeBody, status: undefined }, 'satang')).toMatchObject({ status: 'PENDING', providerStatus: 'pending' });
  });

  it('takes the expiry it is given when the body names none (Q3), and reads no code without one', () => {
    const { expires_at: _gone, ...noExpiry } = codeBody;
    const fallback = new Date('2030-01-01T00:15:00.000Z');
    expect(mapQrCode(noExpiry, 'satang', undefined, fallback)?.qrCode).toEqual({ payload: codeBody.qr_payload, expiresAt: fallback });
    expect(mapQrCode(noExpiry, 'satang')?.qrCode).toBeUndefined();
  });
});

describe('error bodies (Q9)', () => {
  const body = (code: string) => ({ error: { code, message: `m ${code}`, type: 't' } });
  it.each([
    [400, body('invalid_request'), 'PROVIDER_REJECTED', false],
    [400, body('amount_too_small'), 'AMOUNT_BELOW_MINIMUM', false],
    [400, body('amount_too_large'), 'AMOUNT_ABOVE_MAXIMUM', false],
    [400, body('currency_not_supported'), 'CURRENCY_NOT_SUPPORTED', false],
    [401, body('unauthorized'), 'PROVIDER_AUTH_FAILED', false],
    [403, body('test_mode_only'), 'PROVIDER_REJECTED', false],
    [404, body('not_found'), 'PROVIDER_REJECTED', false],
    [409, body('idempotency_conflict'), 'PROVIDER_REJECTED', true],
    [422, body('invalid_url'), 'PROVIDER_REJECTED', false],
    [422, body('unprocessable'), 'PROVIDER_REJECTED', false],
    [422, body('amount_too_small'), 'AMOUNT_BELOW_MINIMUM', false],
    [422, undefined, 'PROVIDER_REJECTED', false],
    [429, undefined, 'RATE_LIMITED', false],
    [500, body('internal_error'), 'PROVIDER_UNAVAILABLE', true],
    [503, 'not json', 'PROVIDER_UNAVAILABLE', true],
  ])('QR code calls: %i %j is %s', (status, errorBody, code, outcomeUnknown) => {
    const error = mapErrorResponse(status, errorBody, 'qrCode');
    expect(error).toMatchObject({ code, outcomeUnknown, httpStatus: status });
    expect(error.message).not.toMatch(/invalid_url|amount_too|qr-codes|webhook/i);
  });

  it.each([
    [422, body('invalid_url'), 'WEBHOOK_URL_INVALID'],
    // The registration's status table: 422 is "Invalid URL or unreachable endpoint", whatever the body.
    [422, undefined, 'WEBHOOK_URL_INVALID'],
    [400, body('invalid_url'), 'WEBHOOK_URL_INVALID'],
    [400, body('invalid_request'), 'PROVIDER_REJECTED'],
    [401, body('unauthorized'), 'PROVIDER_AUTH_FAILED'],
  ])('webhook registration: %i %j is %s', (status, errorBody, code) => {
    expect(mapErrorResponse(status, errorBody, 'registerWebhook')).toMatchObject({ code, httpStatus: status });
  });

  it('keeps the provider message for admins', () => {
    expect(mapErrorResponse(400, body('invalid_request'), 'qrCode').providerMessage).toBe('m invalid_request');
  });
});

describe('delivery events (Q5-Q7)', () => {
  const map = (payload: unknown, unit: 'satang' | 'baht' = 'satang') => mapWebhookEvent(payload, Buffer.from(JSON.stringify(payload, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))), unit, false);
  const payment = (event: string, data: Record<string, unknown> = {}) => ({
    event,
    data: { payment_id: 'qr_abc', reference: 'dep_01', status: event.split('.')[1], amount: 10_000n, currency: 'THB', ...data },
    timestamp: '2030-01-01T00:05:00.000Z',
  });

  it.each([
    ['payment.succeeded', {}, 'SUCCEEDED', undefined],
    ['payment.failed', {}, 'DECLINED', 'declined'],
    ['payment.failed', { failure_reason: 'expired' }, 'EXPIRED', 'expired'],
    ['payment.pending', {}, 'PENDING', undefined],
  ])('%s %j is a deposit %s', (event, extra, status, declineReason) => {
    const mapped = map(payment(event, extra));
    expect(mapped).toMatchObject({
      eventId: `qr_abc:${event}`,
      name: event,
      livemode: false,
      occurredAt: new Date('2030-01-01T00:05:00.000Z'),
      subject: { kind: 'deposit', reference: 'qr_abc', merchantReference: 'dep_01', status, providerStatus: event.split('.')[1] },
    });
    expect(mapped?.subject.kind === 'deposit' && mapped.subject.declineReason).toBe(declineReason ?? undefined);
    expect(mapped?.subject.kind === 'deposit' && mapped.subject.amount?.toString()).toBe('THB 100.00');
  });

  it('reads whole baht in baht unit', () => {
    const mapped = map(payment('payment.succeeded', { amount: 100n }), 'baht');
    expect(mapped?.subject.kind === 'deposit' && mapped.subject.amount?.toString()).toBe('THB 100.00');
  });

  it('works without the echoed reference (Q6: found by payment_id)', () => {
    const mapped = map({ event: 'payment.succeeded', data: { payment_id: 'qr_abc', status: 'succeeded', amount: 100n, currency: 'THB' } });
    expect(mapped?.subject).toEqual(expect.objectContaining({ kind: 'deposit', reference: 'qr_abc' }));
    expect(mapped?.subject.kind === 'deposit' && mapped.subject.merchantReference).toBeUndefined();
  });

  it.each([
    ['refund.completed', 'APPROVED', 'completed'],
    ['refund.failed', 'REJECTED', 'failed'],
  ])('%s is a refund %s', (event, status, word) => {
    const mapped = map({ event, data: { refund_id: 'rf_1', payment_id: 'qr_abc', status: word, amount: 5_000n, currency: 'THB' } });
    expect(mapped).toMatchObject({ eventId: `rf_1:${event}`, subject: { kind: 'refund', reference: 'rf_1', depositReference: 'qr_abc', status, providerStatus: word } });
    expect(mapped?.subject.kind === 'refund' && mapped.subject.amount?.toString()).toBe('THB 50.00');
  });

  it.each([
    ['withdrawal.pending', 'PENDING'],
    ['withdrawal.processed', 'PROCESSED'],
    ['withdrawal.succeeded', 'SUCCEEDED'],
    ['withdrawal.failed', 'FAILED'],
  ])('%s is a withdrawal %s', (event, status) => {
    const mapped = map({ event, data: { withdrawal_id: 'wd_1', status: event.slice(11), amount: 150n, currency: 'THB' } });
    expect(mapped).toMatchObject({ eventId: `wd_1:${event}`, subject: { kind: 'withdrawal', reference: 'wd_1', status, providerStatus: event.slice(11) } });
    expect(mapped?.subject.kind === 'withdrawal' && mapped.subject.amount?.toString()).toBe('THB 1.50');
  });

  it('keeps an event name that only looks like a withdrawal status as other', () => {
    expect(map({ event: 'toString', data: { withdrawal_id: 'wd_1' } })?.subject).toEqual({ kind: 'other' });
  });

  it('keeps unknown events as other, deduped on the body', () => {
    const mapped = map({ event: 'dispute.opened', data: {} });
    expect(mapped?.subject).toEqual({ kind: 'other' });
    expect(mapped?.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it.each([
    ['no event name', { data: { payment_id: 'qr_1' } }],
    ['a payment event without payment_id', { event: 'payment.succeeded', data: { status: 'succeeded' } }],
    ['a refund event without refund_id', { event: 'refund.completed', data: { payment_id: 'qr_1' } }],
    ['a withdrawal event without withdrawal_id', { event: 'withdrawal.succeeded', data: { status: 'succeeded' } }],
    ['a negative amount', { event: 'payment.succeeded', data: { payment_id: 'qr_1', amount: -1n } }],
    ['an array', []],
  ])('refuses %s', (_label, payload) => {
    expect(map(payload)).toBeNull();
  });
});

describe('adapter.verifyWebhook', () => {
  const adapter = createQrGatewayAdapter({ amountUnit: 'satang' });
  const account: MerchantAccount = {
    code: 'qr-test',
    provider: 'qr-gateway',
    livemode: false,
    baseUrl: 'http://127.0.0.1:1',
    apiKey: 'sk_test_x',
    webhookSecrets: ['whsec_new_secret', 'whsec_old_secret'],
  };
  const now = new Date('2030-01-01T00:05:00.000Z');
  const t = Math.floor(now.getTime() / 1000);
  const raw = Buffer.from('{"event":"payment.succeeded","data":{"payment_id":"qr_1","reference":"dep_1","status":"succeeded","amount":9007199254740993,"currency":"THB"},"timestamp":"2030-01-01T00:05:00.000Z"}');

  it('verifies on the raw bytes, then maps with an exact amount', () => {
    const result = adapter.verifyWebhook(account, { body: raw, headers: { 'x-qr-signature': signatureHeader(['whsec_old_secret'], raw, t) }, receivedAt: now });
    expect(result.ok).toBe(true);
    if (result.ok && result.event.subject.kind === 'deposit') expect(result.event.subject.amount?.toDecimal()).toBe('90071992547409.93');
  });

  it('never parses an unverified body', () => {
    const junk = Buffer.from('not json at all');
    expect(adapter.verifyWebhook(account, { body: junk, headers: {}, receivedAt: now })).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
    expect(adapter.verifyWebhook(account, { body: junk, headers: { 'x-qr-signature': signatureHeader(['whsec_other'], junk, t) }, receivedAt: now })).toEqual({
      ok: false,
      reason: 'SIGNATURE_MISMATCH',
    });
  });

  it('refuses a verified body that is not a usable event', () => {
    const junk = Buffer.from('not json at all');
    expect(adapter.verifyWebhook(account, { body: junk, headers: { 'x-qr-signature': signatureHeader(['whsec_new_secret'], junk, t) }, receivedAt: now })).toEqual({
      ok: false,
      reason: 'PAYLOAD_INVALID',
    });
  });

  it('refuses a stale delivery', () => {
    const result = adapter.verifyWebhook(account, { body: raw, headers: { 'x-qr-signature': signatureHeader(['whsec_new_secret'], raw, t - 600) }, receivedAt: now });
    expect(result).toEqual({ ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' });
  });

  it('names THB as the default currency of THAI_QR only', () => {
    expect(adapter.defaultCurrency({ rail: 'THAI_QR', payer: { name: 'A' }, clientId: 'c' })).toBe('THB');
    expect(adapter.defaultCurrency({ rail: 'PIX' })).toBe('');
  });
});
