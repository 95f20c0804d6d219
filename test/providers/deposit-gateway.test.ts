// The deposit gateway adapter against the sandbox over real HTTP: every rail, lookups, errors,
// retries and idempotency, refunds, payouts, the card session and settle, and signed webhooks.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderTransport } from '../../src/kernel/provider-transport.js';
import { createLogger } from '../../src/lib/logger.js';
import { Money } from '../../src/lib/money.js';
import { createDepositGatewayAdapter } from '../../src/providers/deposit-gateway/index.js';
import type { CreateDepositRequest, Customer, MerchantAccount, ProviderResult, WebhookVerification } from '../../src/providers/provider.js';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { loadCardForm, submitCard } from '../card-form/shopper.js';

const TEST_KEY = 'svc_test_adapter_main';
const LIVE_KEY = 'svc_live_adapter_live';
const NO_CRYPTO_KEY = 'svc_test_adapter_nocrypto';
const HOOKS_KEY = 'svc_test_adapter_hooks';
const SECRET = 'whsec_adapter_test_secret';

let sandbox: DepositGatewaySandbox;
let receiver: http.Server;
const received: { body: Buffer; headers: Record<string, string | undefined> }[] = [];
const logLines: string[] = [];

const account = (apiKey: string, livemode = false): MerchantAccount => ({
  code: `acct-${apiKey.slice(-6)}`,
  provider: 'deposit-gateway',
  livemode,
  baseUrl: sandbox.baseUrl,
  apiKey,
  webhookSecrets: [SECRET],
});

/** A debug logger whose lines go to `lines`. */
const capturingLogger = (lines: string[]) =>
  createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  });

const logger = capturingLogger(logLines);
// Bound to `provider` as the provider registry binds every adapter's logger.
const adapter = createDepositGatewayAdapter({ transport: createProviderTransport({ timeoutMs: 400, maxRetries: 2, backoff: { baseMs: 10 } }), logger: logger.child({ provider: 'deposit-gateway' }) });

let seq = 0;
const newId = (prefix = 'dep') => `${prefix}_${Date.now().toString(36)}_${(seq++).toString(36)}`;
const money = (amount: string, currency: string) => Money.fromDecimal(amount, currency);
const billing: Customer = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG', phone: '+31201234567' };
const named: Customer = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };

function card(amount = '25.00', currency = 'EUR'): CreateDepositRequest {
  return { depositId: newId(), amount: money(amount, currency), details: { rail: 'CARD' }, customer: billing, returnUrl: 'https://shop.example/back' };
}

function value<T>(result: ProviderResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function failure<T>(result: ProviderResult<T>) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
  return result.error;
}

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks), headers: request.headers as Record<string, string | undefined> });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/deposit-gateway/hooks`;
  sandbox = await startDepositGatewaySandbox({
    timeScale: 0.01,
    accounts: [
      { apiKey: TEST_KEY, webhookSecret: SECRET },
      { apiKey: LIVE_KEY, webhookSecret: SECRET },
      { apiKey: NO_CRYPTO_KEY, webhookSecret: SECRET, disabledRails: ['crypto'] },
      { apiKey: HOOKS_KEY, webhookSecret: SECRET, webhookUrl: hookUrl },
    ],
  });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('create on every rail', () => {
  it('card: nested shape, redirected → PENDING', async () => {
    const request = card();
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), request));
    expect(deposit).toMatchObject({ status: 'PENDING', providerStatus: 'redirected', merchantReference: request.depositId });
    expect(deposit.reference).toMatch(/\S/);
    expect(deposit.redirectUrl).toMatch(/^https?:\/\//);
  });

  it('open banking: nested shape', async () => {
    const request: CreateDepositRequest = { depositId: newId(), amount: money('40.00', 'GBP'), details: { rail: 'OPEN_BANKING', method: 'fps', bankCountry: 'GB' }, customer: billing };
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), request));
    expect(deposit).toMatchObject({ status: 'PENDING', merchantReference: request.depositId });
  });

  const latam: [string, CreateDepositRequest['details'], Money, Customer][] = [
    ['Chile cards', { rail: 'LATAM', country: 'CHILE', method: 'cards', successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' }, money('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5', phone: '912345678', phoneCode: '+56' }],
    ['Peru qr', { rail: 'LATAM', country: 'PERU', method: 'qr' }, money('50.50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '12345678' }],
    ['Mexico', { rail: 'LATAM', country: 'MEXICO' }, money('500', 'MXN'), { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }],
    ['Colombia', { rail: 'LATAM', country: 'COLOMBIA', redirectUrl: 'https://shop.example/co' }, money('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' }],
    ['Ecuador', { rail: 'LATAM', country: 'ECUADOR', expiresAt: new Date(Date.now() + 30 * 60_000) }, money('25.00', 'USD'), { ...named, documentType: 'CI', documentNumber: '1710034065' }],
  ];
  it.each(latam)('LATAM %s: flat shape', async (_label, details, amount, customer) => {
    const request: CreateDepositRequest = { depositId: newId(), amount, details, customer };
    expect(adapter.validateDeposit(account(TEST_KEY), request)).toEqual([]);
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), request));
    expect(deposit).toMatchObject({ status: 'PENDING', providerStatus: 'redirected', merchantReference: request.depositId, amount });
    expect(deposit.redirectUrl).toBe(`${sandbox.checkoutUrl}/acquirer/latam/${deposit.reference}`);
  });

  it('UPI and PIX: flat shape', async () => {
    const upi = value(
      await adapter.createDeposit(account(TEST_KEY), { depositId: newId(), amount: money('500', 'INR'), details: { rail: 'UPI' }, customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' } }),
    );
    expect(upi).toMatchObject({ status: 'PENDING', providerStatus: 'redirected' });
    expect(upi.redirectUrl).toContain(`/r/${upi.reference}`);
    const pix = value(
      await adapter.createDeposit(account(TEST_KEY), { depositId: newId(), amount: money('50', 'BRL'), details: { rail: 'PIX' }, customer: { ...named, phone: '+5511912345678', personalId: '52998224725' } }),
    );
    expect(pix).toMatchObject({ status: 'PENDING' });
  });

  it('crypto: flat shape with the quote terms', async () => {
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), { depositId: newId(), amount: money('20.00', 'USD'), details: { rail: 'CRYPTO' }, customer: named }));
    expect(deposit).toMatchObject({ status: 'PENDING', providerStatus: 'pending', crypto: { quoteTtlMinutes: 15, underpayTolerancePct: '1' } });
  });

  it.each([
    ['20.10', 'USD'],
    ['10.00', 'EUR'],
    // A float would send 1000000000000000.
    ['999999999999999.99', 'EUR'],
  ])('crypto: the amount %s %s goes out as that JSON number, byte for byte (A21)', async (amount, currency) => {
    const depositId = newId();
    const before = sandbox.controls.requestBodies('/payments', 'POST').length;
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), { depositId, amount: money(amount, currency), details: { rail: 'CRYPTO' }, customer: named }));
    const bodies = sandbox.controls.requestBodies('/payments', 'POST').slice(before);
    expect(bodies).toEqual([
      `{"amount":${amount},"currency":"${currency}","merchant_reference":"${depositId}","idempotency_key":"${depositId}","email":"ana@example.com","firstName":"Ana","lastName":"Silva","provider":"crypto"}`,
    ]);
    expect(sandbox.controls.payment(deposit.reference)).toMatchObject({ amount, currency });
    const looked = value(await adapter.getDeposit(account(TEST_KEY), deposit.reference));
    expect(looked.amount?.toDecimal()).toBe(amount);
  });

  it('other rails keep the decimal string the spec shows for them', async () => {
    const request = card('20.10');
    const before = sandbox.controls.requestBodies('/payments', 'POST').length;
    value(await adapter.createDeposit(account(TEST_KEY), request));
    const [body] = sandbox.controls.requestBodies('/payments', 'POST').slice(before);
    expect(body).toMatch(/^\{"amount":"20\.10","currency":"EUR",/);
  });

  it('hosted checkout on a live account: the session id and url', async () => {
    const request: CreateDepositRequest = { depositId: newId(), amount: money('30.00', 'EUR'), details: { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 900 }, customer: { email: 'ana@example.com' }, returnUrl: 'https://shop.example/back' };
    expect(adapter.validateDeposit(account(LIVE_KEY, true), request)).toEqual([]);
    const deposit = value(await adapter.createDeposit(account(LIVE_KEY, true), request));
    expect(deposit.reference).toMatch(/^cs_/);
    expect(deposit.redirectUrl).toBe(`${sandbox.checkoutUrl}/c/${deposit.reference}`);
    expect(deposit.status).toBe('PENDING');
  });

  it('hosted checkout on a test account is refused before any call: it would charge for real', async () => {
    const before = sandbox.controls.requestCount('/checkout-sessions');
    const error = failure(await adapter.createDeposit(account(TEST_KEY), { depositId: newId(), amount: money('30.00', 'EUR'), details: { rail: 'HOSTED_CHECKOUT' }, customer: {} }));
    expect(error).toMatchObject({ code: 'RAIL_DISABLED', outcomeUnknown: false });
    expect(sandbox.controls.requestCount('/checkout-sessions')).toBe(before);
  });
});

describe('lookups', () => {
  it('getDeposit after auto-approval maps amount, fee, net and approval time', async () => {
    const request = card('100.00');
    const created = value(await adapter.createDeposit(account(TEST_KEY), request));
    await sandbox.controls.idle();
    const deposit = value(await adapter.getDeposit(account(TEST_KEY), created.reference));
    expect(deposit).toMatchObject({ reference: created.reference, status: 'SUCCEEDED', providerStatus: 'approved', merchantReference: request.depositId, amount: money('100.00', 'EUR') });
    expect(deposit.fee?.currency).toBe('EUR');
    expect(deposit.fee && deposit.net && deposit.fee.add(deposit.net).equals(deposit.amount!)).toBe(true);
    expect(deposit.approvedAt).toBeInstanceOf(Date);
    expect(deposit.declineReason).toBeUndefined();
  });

  it('an amount ending in .13 is declined, with the processor code kept for admins', async () => {
    const created = value(await adapter.createDeposit(account(TEST_KEY), card('10.13')));
    await sandbox.controls.idle();
    const deposit = value(await adapter.getDeposit(account(TEST_KEY), created.reference));
    expect(deposit).toMatchObject({ status: 'DECLINED', providerStatus: 'declined', declineReason: 'declined' });
    // the processor's code and text, as the provider reports them
    expect(deposit.statusReason).toBe('05 Do not honour');
    expect(sandbox.controls.payment(created.reference)).toMatchObject({ status_reason: deposit.statusReason });
    expect(deposit.approvedAt).toBeUndefined();
  });

  it('listDeposits pages newest first with a cursor', async () => {
    const first = value(await adapter.listDeposits(account(TEST_KEY), { limit: 2 }));
    expect(first.items).toHaveLength(2);
    expect(first.nextBefore).toBe(first.items[1]!.reference);
    const second = value(await adapter.listDeposits(account(TEST_KEY), { limit: 2, before: first.nextBefore }));
    expect(second.items[0]!.reference).not.toBe(first.items[0]!.reference);
  });

  it('an unknown reference is a known-outcome rejection', async () => {
    expect(failure(await adapter.getDeposit(account(TEST_KEY), 'svc_pay_does_not_exist'))).toMatchObject({ code: 'PROVIDER_REJECTED', httpStatus: 404, outcomeUnknown: false });
  });

  it('ping is true with a good key and false with a bad one', async () => {
    expect(await adapter.ping(account(TEST_KEY))).toBe(true);
    expect(await adapter.ping(account('svc_test_nobody'))).toBe(false);
  });
});

describe('provider errors', () => {
  it('401 with a bad key', async () => {
    const error = failure(await adapter.createDeposit(account('svc_test_revoked'), card()));
    expect(error).toMatchObject({ code: 'PROVIDER_AUTH_FAILED', httpStatus: 401, outcomeUnknown: false });
  });

  it('403 when the rail is disabled', async () => {
    const error = failure(await adapter.createDeposit(account(NO_CRYPTO_KEY), { depositId: newId(), amount: money('20.00', 'EUR'), details: { rail: 'CRYPTO' }, customer: named }));
    expect(error).toMatchObject({ code: 'RAIL_DISABLED', httpStatus: 403 });
  });

  it('"This payment method is not available right now" (solution not enabled) is RAIL_UNAVAILABLE, not RAIL_DISABLED', async () => {
    sandbox.controls.setAccount(NO_CRYPTO_KEY, { disabledRails: ['crypto', 'upi'] });
    try {
      const upi: CreateDepositRequest = { depositId: newId(), amount: money('500', 'INR'), details: { rail: 'UPI' }, customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' } };
      const error = failure(await adapter.createDeposit(account(NO_CRYPTO_KEY), upi));
      expect(error).toMatchObject({ code: 'RAIL_UNAVAILABLE', httpStatus: 403, outcomeUnknown: false, providerMessage: 'This payment method is not available right now' });
      expect(error.message).toMatch(/not available/);
    } finally {
      sandbox.controls.setAccount(NO_CRYPTO_KEY, { disabledRails: ['crypto'] });
    }
  });

  // Sent without validation, as a caller that skipped it would: the provider's 422s must still map.
  it.each<[string, CreateDepositRequest['details'], Money, Customer, string, string]>([
    ['crypto below 10.00', { rail: 'CRYPTO' }, money('5.00', 'EUR'), named, 'AMOUNT_BELOW_MINIMUM', 'Amount 5.00 is below the minimum of 10.00 EUR'],
    ['crypto in GBP', { rail: 'CRYPTO' }, money('50.00', 'GBP'), named, 'CURRENCY_NOT_SUPPORTED', 'Unsupported currency GBP: crypto supports EUR and USD'],
    ['card above 10,000', { rail: 'CARD' }, money('10000.01', 'EUR'), billing, 'AMOUNT_ABOVE_MAXIMUM', 'Amount 10000.01 is above the maximum of 10000.00 EUR for cards'],
    ['card below 1.00', { rail: 'CARD' }, money('0.50', 'EUR'), billing, 'AMOUNT_BELOW_MINIMUM', 'Amount 0.50 is below the minimum of 1.00 EUR for cards'],
    ['UPI below its band ("between 100 and 50000")', { rail: 'UPI' }, money('99', 'INR'), { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, 'AMOUNT_BELOW_MINIMUM', 'Enter an amount between 100 and 50000 INR'],
    ['UPI above its band', { rail: 'UPI' }, money('60000', 'INR'), { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, 'AMOUNT_ABOVE_MAXIMUM', 'Enter an amount between 100 and 50000 INR'],
    ['PIX in USD', { rail: 'PIX' }, money('50', 'USD'), { ...named, phone: '+5511912345678', personalId: '52998224725' }, 'CURRENCY_NOT_SUPPORTED', 'PIX settles BRL only'],
    ['UPI without personalId', { rail: 'UPI' }, money('500', 'INR'), { ...named, phone: '+919812345678' }, 'PROVIDER_REJECTED', "personalId is required: the payer's UPI ID"],
  ])('422 %s → %s', async (_label, details, amount, customer, code, providerMessage) => {
    const error = failure(await adapter.createDeposit(account(TEST_KEY), { depositId: newId(), amount, details, customer }));
    expect(error).toMatchObject({ code, httpStatus: 422, outcomeUnknown: false });
    // The provider's own words, kept as it gave them
    expect(error.providerMessage).toBe(providerMessage);
    expect(error.message).not.toBe(error.providerMessage);
  });

  it('429 is RATE_LIMITED and not retried', async () => {
    const before = sandbox.controls.requestCount('/payments');
    sandbox.controls.failNext({ status: 429, apiKey: TEST_KEY });
    const error = failure(await adapter.createDeposit(account(TEST_KEY), card()));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 429, outcomeUnknown: false });
    expect(sandbox.controls.requestCount('/payments') - before).toBe(1);
  });

  it('persistent 5xx is PROVIDER_UNAVAILABLE with an unknown outcome, after 1 + maxRetries attempts', async () => {
    const before = sandbox.controls.requestCount('/payments');
    sandbox.controls.failNext({ status: 500, count: 3, apiKey: TEST_KEY });
    const error = failure(await adapter.getDeposit(account(TEST_KEY), 'svc_pay_any'));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', httpStatus: 500, outcomeUnknown: true });
    expect(sandbox.controls.requestCount('/payments') - before).toBe(3);
  });

  it('a 503 outside payouts is an outage, retried', async () => {
    sandbox.controls.failNext({ status: 503, count: 1, apiKey: TEST_KEY });
    expect(value(await adapter.listDeposits(account(TEST_KEY), { limit: 1 })).items).toHaveLength(1);
  });

  it('a timeout is PROVIDER_UNAVAILABLE with an unknown outcome', async () => {
    const once = createDepositGatewayAdapter({ transport: createProviderTransport({ timeoutMs: 150, maxRetries: 0 }) });
    sandbox.controls.failNext({ hangMs: 1000, apiKey: TEST_KEY });
    const error = failure(await once.createDeposit(account(TEST_KEY), card()));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true });
    // Our own 150 ms timer ended the call: the sandbox would have cut the connection at 1000 ms,
    // which reads as a network error.
    expect(error.providerMessage).toBe('timed out after 150 ms');
  });

  it('a network failure is PROVIDER_UNAVAILABLE', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = failure(await adapter.getDeposit({ ...account(TEST_KEY), baseUrl: `http://127.0.0.1:${port}/v1` }, 'x'));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true });
  });
});

describe('retries and idempotency', () => {
  it('a payment retried after 5xx is created once: our deposit id is the idempotency key', async () => {
    const request = card('42.00');
    const before = sandbox.controls.requestCount('/payments');
    sandbox.controls.failNext({ status: 500, count: 2, apiKey: TEST_KEY });
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), request));
    expect(sandbox.controls.requestCount('/payments') - before).toBe(3);
    // A second create with the same deposit id (a crash and restart) returns the same payment.
    const again = value(await adapter.createDeposit(account(TEST_KEY), request));
    expect(again.reference).toBe(deposit.reference);
    const mine = value(await adapter.listDeposits(account(TEST_KEY), { limit: 200 })).items.filter((item) => item.merchantReference === request.depositId);
    expect(mine).toHaveLength(1);
  });

  it('a payment whose first attempt timed out is still created once', async () => {
    const request = card('43.00');
    const answered = () => sandbox.controls.processedCount('/payments', 'POST');
    const before = answered();
    // A slow provider: it takes the first attempt after our 400 ms time-out, whoever still waits.
    sandbox.controls.failNext({ hangMs: 700, thenProcess: true, evenIfCallerGone: true, apiKey: TEST_KEY });
    const deposit = value(await adapter.createDeposit(account(TEST_KEY), request));
    // The retry, then the first attempt at last.
    await expect.poll(answered, { interval: 20 }).toBe(before + 2);
    await sandbox.controls.idle();
    const mine = value(await adapter.listDeposits(account(TEST_KEY), { limit: 200 })).items.filter((item) => item.merchantReference === request.depositId);
    expect(mine.map((item) => item.reference)).toEqual([deposit.reference]);
  });

  it('checkout sessions are never retried: the spec gives them no idempotency key', async () => {
    const before = sandbox.controls.requestCount('/checkout-sessions');
    sandbox.controls.failNext({ status: 500, apiKey: LIVE_KEY });
    const error = failure(await adapter.createDeposit(account(LIVE_KEY, true), { depositId: newId(), amount: money('30.00', 'EUR'), details: { rail: 'HOSTED_CHECKOUT' }, customer: {} }));
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true });
    expect(sandbox.controls.requestCount('/checkout-sessions') - before).toBe(1);
  });
});

describe('refunds', () => {
  it('opens a refund on an approved payment; the same refund id returns the same request', async () => {
    const created = value(await adapter.createDeposit(account(TEST_KEY), card('60.00')));
    await sandbox.controls.idle();
    const refundId = newId('rfd');
    const refund = value(await adapter.requestRefund(account(TEST_KEY), { refundId, depositReference: created.reference, amount: money('20.00', 'EUR'), reason: 'player request' }));
    expect(refund).toMatchObject({ status: 'REQUESTED', providerStatus: 'pending', amount: money('20.00', 'EUR') });
    expect(refund.reference).toMatch(/^rf_/);
    const again = value(await adapter.requestRefund(account(TEST_KEY), { refundId, depositReference: created.reference, amount: money('20.00', 'EUR') }));
    expect(again.reference).toBe(refund.reference);
    expect(sandbox.controls.refunds(created.reference)).toHaveLength(1);
    await sandbox.controls.idle();
    const deposit = value(await adapter.getDeposit(account(TEST_KEY), created.reference));
    expect(deposit.refundStatus?.status).toBe('APPROVED');
  });

  it('a full refund needs no amount', async () => {
    const created = value(await adapter.createDeposit(account(TEST_KEY), card('61.00')));
    await sandbox.controls.idle();
    const refund = value(await adapter.requestRefund(account(TEST_KEY), { refundId: newId('rfd'), depositReference: created.reference }));
    expect(refund.amount?.toString()).toBe('EUR 61.00');
  });
});

describe('payouts', () => {
  const beneficiary = { name: 'Ana Soto', documentType: 'RUT', documentNumber: '12345678-5', accountNumber: '000123456700', bankCode: 'BCH', accountType: 'checking' };

  it('creates a payout, lists it, and sees it paid', async () => {
    const payoutId = newId('pyo');
    const request = { payoutId, country: 'CHILE', amount: money('150000', 'CLP'), beneficiary };
    expect(adapter.validatePayout(account(TEST_KEY), request)).toEqual([]);
    const payout = value(await adapter.createPayout(account(TEST_KEY), request));
    expect(payout).toMatchObject({ status: 'PENDING', providerStatus: 'pending', merchantReference: payoutId, amount: money('150000', 'CLP') });
    const again = value(await adapter.createPayout(account(TEST_KEY), request));
    expect(again.reference).toBe(payout.reference);
    await sandbox.controls.idle();
    const listed = value(await adapter.listPayouts(account(TEST_KEY), { limit: 50 })).items.find((item) => item.reference === payout.reference);
    expect(listed).toMatchObject({ status: 'PAID', merchantReference: payoutId });
  });

  it('missing beneficiary fields come back as gateway paths', async () => {
    const error = failure(
      await adapter.createPayout(account(TEST_KEY), { payoutId: newId('pyo'), country: 'PERU', amount: money('500', 'PEN'), beneficiary: { name: 'Ana', documentType: 'DNI', documentNumber: '12345678', accountNumber: '123' } }),
    );
    expect(error).toMatchObject({ code: 'BENEFICIARY_FIELDS_MISSING', httpStatus: 422, outcomeUnknown: false });
    expect(error.missing).toEqual(expect.arrayContaining([['beneficiary', 'bankCode'], ['beneficiary', 'accountType'], ['beneficiary', 'cci']]));
    expect(error.message).toContain('beneficiary.bankCode');
  });

  it('a live payout before live payouts are enabled is PAYOUTS_NOT_ENABLED, not retried', async () => {
    const before = sandbox.controls.requestCount('/payouts');
    const error = failure(await adapter.createPayout(account(LIVE_KEY, true), { payoutId: newId('pyo'), country: 'CHILE', amount: money('150000', 'CLP'), beneficiary }));
    expect(error).toMatchObject({ code: 'PAYOUTS_NOT_ENABLED', httpStatus: 503, outcomeUnknown: false });
    expect(sandbox.controls.requestCount('/payouts') - before).toBe(1);
  });
});

describe('embedded card form', () => {
  it('card session without integrity, then settle twice: promote once, then no change', async () => {
    sandbox.controls.setAutoComplete(false);
    try {
      const request = card('77.00');
      const created = value(await adapter.createDeposit(account(TEST_KEY), request));
      const session = value(await adapter.getCardSession(account(TEST_KEY), created.reference));
      expect(session).toMatchObject({ settled: false, status: 'PENDING', amount: money('77.00', 'EUR'), brands: ['VISA', 'MASTER'] });
      expect(session.scriptUrl).toContain(sandbox.checkoutUrl);
      expect(Object.keys(session)).not.toContain('integrity');
      expect(Object.values(session).some((field) => typeof field === 'string' && field.startsWith('sha384-'))).toBe(false);
      // The shopper submits a card to the processor's fields.
      await submitCard((await loadCardForm(session.scriptUrl!, 'https://shop.example/return', session.brands)).fieldsUrl);

      const first = value(await adapter.settleCard(account(TEST_KEY), created.reference));
      expect(first).toMatchObject({ settled: true, changed: true, deposit: { reference: created.reference, status: 'SUCCEEDED', merchantReference: request.depositId } });
      const second = value(await adapter.settleCard(account(TEST_KEY), created.reference));
      expect(second).toMatchObject({ settled: true, changed: false, deposit: { status: 'SUCCEEDED' } });

      const after = value(await adapter.getCardSession(account(TEST_KEY), created.reference));
      expect(after).toEqual({ settled: true, status: 'SUCCEEDED', providerStatus: 'approved', amount: money('77.00', 'EUR'), brands: [] });
    } finally {
      sandbox.controls.setAutoComplete(true);
    }
  });

  it('settling a .13 card declines it with a reason', async () => {
    sandbox.controls.setAutoComplete(false);
    try {
      const created = value(await adapter.createDeposit(account(TEST_KEY), card('20.13')));
      const session = value(await adapter.getCardSession(account(TEST_KEY), created.reference));
      await submitCard((await loadCardForm(session.scriptUrl!, 'https://shop.example/return', session.brands)).fieldsUrl);
      const settled = value(await adapter.settleCard(account(TEST_KEY), created.reference));
      expect(settled).toMatchObject({ changed: true, deposit: { status: 'DECLINED', declineReason: 'declined' } });
    } finally {
      sandbox.controls.setAutoComplete(true);
    }
  });
});

describe('signed webhooks', () => {
  it('every delivery verifies on its raw bytes and maps to the deposit, exact amounts included', async () => {
    const hooks = account(HOOKS_KEY);
    const cardRequest = card('12.34');
    const cardDeposit = value(await adapter.createDeposit(hooks, cardRequest));
    const cryptoDeposit = value(await adapter.createDeposit(hooks, { depositId: newId(), amount: money('20.10', 'USD'), details: { rail: 'CRYPTO' }, customer: named }));
    await sandbox.controls.idle();

    const verified = received.map((delivery) => adapter.verifyWebhook(hooks, { body: delivery.body, headers: delivery.headers }));
    expect(verified.length).toBeGreaterThanOrEqual(2);
    expect(verified.every((result) => result.ok)).toBe(true);
    const events = verified.flatMap((result: WebhookVerification) => (result.ok ? [result.event] : []));

    const approvedCard = events.find((event) => event.subject.kind === 'deposit' && event.subject.reference === cardDeposit.reference && event.subject.status === 'SUCCEEDED');
    expect(approvedCard).toMatchObject({ name: 'payment.approved', livemode: false, subject: { merchantReference: cardRequest.depositId, amount: money('12.34', 'EUR') } });
    expect(approvedCard?.eventId).toMatch(/^evt_/);
    const approvedCrypto = events.find((event) => event.subject.kind === 'deposit' && event.subject.reference === cryptoDeposit.reference && event.subject.status === 'SUCCEEDED');
    expect(approvedCrypto?.subject).toMatchObject({ amount: money('20.10', 'USD') });

    // The same bytes with another secret, or altered, are refused.
    const sample = received[0]!;
    expect(adapter.verifyWebhook({ ...hooks, webhookSecrets: ['whsec_other'] }, { body: sample.body, headers: sample.headers })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
    const altered = Buffer.from(sample.body.toString('utf8').replace('"livemode":false', '"livemode":true'));
    expect(adapter.verifyWebhook(hooks, { body: altered, headers: sample.headers })).toEqual({ ok: false, reason: 'SIGNATURE_MISMATCH' });
  });
});

describe('logging', () => {
  it('logs each call without keys or bodies', () => {
    const calls = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.provider === 'deposit-gateway');
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.some((line) => line.method === 'POST' && line.path === '/payments' && line.status === 201 && typeof line.durationMs === 'number' && line.attempt === 1)).toBe(true);
    expect(calls.some((line) => line.attempt === 3)).toBe(true);
    const everything = logLines.join('\n');
    for (const secret of [TEST_KEY, LIVE_KEY, SECRET, 'Bearer', '000123456700', 'ana@example.com']) expect(everything).not.toContain(secret);
  });
});
