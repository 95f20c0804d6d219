// Mapping between gateway types and the provider's wire format: bodies, the three create shapes,
// lookups, status words and webhook envelopes.

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import type { CreateDepositRequest, DepositStatus } from '../provider.js';
import { JsonNumber, parseJsonExact, stringifyJsonExact } from './json.js';
import {
  checkoutSessionBody,
  depositStatusOf,
  missingFieldPaths,
  parseCardSession,
  parseCheckoutSession,
  parseCreatedPayment,
  parsePage,
  parsePayment,
  parsePayout,
  parseRefund,
  parseSettleResult,
  parseWebhookEnvelope,
  paymentBody,
  payoutBody,
  payoutStatusOf,
  refundBody,
  refundStatusOf,
  ShapeError,
} from './mapping.js';

const eur = (amount: string) => Money.fromDecimal(amount, 'EUR');
const json = (text: string) => parseJsonExact(text);

const customer = {
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  country: 'NL',
  address1: 'Damrak 1',
  city: 'Amsterdam',
  zipCode: '1012LG',
  phone: '+31201234567',
};

function deposit(details: CreateDepositRequest['details'], amount = eur('25.00'), extra: Partial<CreateDepositRequest> = {}): CreateDepositRequest {
  return { depositId: 'dep_01', amount, details, customer, ...extra };
}

describe('status words', () => {
  it.each<[string, DepositStatus]>([
    ['redirected', 'PENDING'],
    ['pending', 'PENDING'],
    ['approved_for_payment', 'AUTHORIZED'],
    ['approved', 'SUCCEEDED'],
    ['declined', 'DECLINED'],
    ['expired', 'EXPIRED'],
    ['cancelled', 'CANCELLED'],
    ['error', 'FAILED'],
    ['refunded', 'REFUNDED'],
  ])('payment %s is %s', (word, status) => {
    expect(depositStatusOf(word)).toBe(status);
  });

  it('knows no other payment words, including inherited object keys', () => {
    expect(depositStatusOf('APPROVED')).toBeUndefined();
    expect(depositStatusOf('settled')).toBeUndefined();
    expect(depositStatusOf('toString')).toBeUndefined();
  });

  it('maps payout and refund words', () => {
    expect(['pending', 'paid', 'bounced', 'reverted', 'failed'].map(payoutStatusOf)).toEqual(['PENDING', 'PAID', 'BOUNCED', 'REVERTED', 'FAILED']);
    expect(['pending', 'approved', 'rejected', 'cancelled', 'refunded'].map(refundStatusOf)).toEqual(['REQUESTED', 'APPROVED', 'REJECTED', 'REJECTED', 'APPROVED']);
    expect(payoutStatusOf('constructor')).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('card: solution and method cards, billing fields, decimal string amount, our id as reference and idempotency key', () => {
    expect(paymentBody(deposit({ rail: 'CARD' }, eur('10.5'), { returnUrl: 'https://shop.example/back' }))).toEqual({
      amount: '10.50',
      currency: 'EUR',
      merchant_reference: 'dep_01',
      idempotency_key: 'dep_01',
      return_url: 'https://shop.example/back',
      solution: 'cards',
      method: 'cards',
      ...customer,
    });
  });

  it('open banking: method and bankCountry', () => {
    const body = paymentBody(deposit({ rail: 'OPEN_BANKING', method: 'fps', bankCountry: 'GB' }, Money.fromDecimal('40', 'GBP')));
    expect(body).toMatchObject({ method: 'fps', bankCountry: 'GB', amount: '40.00', currency: 'GBP', country: 'NL', zipCode: '1012LG' });
  });

  it('LATAM: country, method, documents, phone code, redirect addresses and ISO expiry; CLP as an integer string', () => {
    const expiresAt = new Date('2025-11-21T06:00:00.000Z');
    const body = paymentBody({
      depositId: 'dep_02',
      amount: Money.fromDecimal('15000', 'CLP'),
      details: { rail: 'LATAM', country: 'CHILE', method: 'cards', successUrl: 'https://s.example/ok', errorUrl: 'https://s.example/ko', expiresAt },
      customer: { email: 'a@b.cl', firstName: 'Ana', lastName: 'Soto', documentType: 'RUT', documentNumber: '12345678-5', phone: '912345678', phoneCode: '+56' },
    });
    expect(body).toEqual({
      amount: '15000',
      currency: 'CLP',
      merchant_reference: 'dep_02',
      idempotency_key: 'dep_02',
      return_url: undefined,
      email: 'a@b.cl',
      firstName: 'Ana',
      lastName: 'Soto',
      country: 'CHILE',
      method: 'cards',
      documentType: 'RUT',
      documentNumber: '12345678-5',
      phone: '912345678',
      phoneCode: '+56',
      successUrl: 'https://s.example/ok',
      errorUrl: 'https://s.example/ko',
      redirectUrl: undefined,
      expiresAt: '2025-11-21T06:00:00.000Z',
    });
    expect(JSON.parse(JSON.stringify(body))).not.toHaveProperty('redirectUrl');
  });

  it('UPI and PIX name the solution and carry personalId and phone', () => {
    const upi = paymentBody({ ...deposit({ rail: 'UPI' }, Money.fromDecimal('500', 'INR')), customer: { ...customer, personalId: 'ana@okbank' } });
    expect(upi).toMatchObject({ solution: 'upi', personalId: 'ana@okbank', phone: '+31201234567', amount: '500.00', currency: 'INR' });
    const pix = paymentBody({ ...deposit({ rail: 'PIX' }, Money.fromDecimal('50', 'BRL')), customer: { ...customer, personalId: '52998224725' } });
    expect(pix).toMatchObject({ solution: 'pix', personalId: '52998224725' });
    expect(pix).not.toHaveProperty('address1');
  });

  it('crypto: provider crypto, amount a JSON number of the exact decimal (A21)', () => {
    const body = paymentBody(deposit({ rail: 'CRYPTO' }, Money.fromDecimal('20.1', 'USD')));
    expect(body).toMatchObject({ provider: 'crypto', amount: new JsonNumber('20.10'), currency: 'USD' });
    expect(stringifyJsonExact(body)).toContain('"amount":20.10,');
    expect(body).not.toHaveProperty('method');
  });

  it('checkout session: prefill, preselect, expires_in, and no idempotency key (the spec has none)', () => {
    const body = checkoutSessionBody(deposit({ rail: 'HOSTED_CHECKOUT', preselect: { method: 'sepa', bankCountry: 'NL' }, expiresInSeconds: 900 }), {
      rail: 'HOSTED_CHECKOUT',
      preselect: { method: 'sepa', bankCountry: 'NL' },
      expiresInSeconds: 900,
    });
    expect(body).toMatchObject({ amount: '25.00', currency: 'EUR', merchant_reference: 'dep_01', method: 'sepa', bankCountry: 'NL', expires_in: 900, email: 'ana@example.com' });
    expect(body).not.toHaveProperty('idempotency_key');
  });

  it('refund and payout bodies', () => {
    expect(refundBody({ refundId: 'rfd_1', depositReference: 'pay_1', amount: eur('5'), reason: 'duplicate' })).toEqual({
      reference: 'pay_1',
      amount: '5.00',
      reason: 'duplicate',
      idempotency_key: 'rfd_1',
    });
    const payout = payoutBody({
      payoutId: 'pyo_1',
      country: 'COLOMBIA',
      amount: Money.fromDecimal('250000', 'COP'),
      beneficiary: { name: 'Ana', documentType: 'CC', documentNumber: '123', accountNumber: '0001112223', bankCode: 'BANCOLOMBIA', accountType: 'savings' },
    });
    expect(payout).toEqual({
      country: 'COLOMBIA',
      amount: '250000',
      currency: 'COP',
      merchant_reference: 'pyo_1',
      idempotency_key: 'pyo_1',
      beneficiary: { name: 'Ana', document_type: 'CC', document_number: '123', account_number: '0001112223', bank_code: 'BANCOLOMBIA', account_type: 'savings', cci: undefined },
    });
  });
});

describe('amounts on the wire: the provider\'s decimals, not ISO\'s', () => {
  const cop = (amount: string) => Money.fromDecimal(amount, 'COP');
  const colombia: CreateDepositRequest['details'] = { rail: 'LATAM', country: 'COLOMBIA', redirectUrl: 'https://s.example/co' };

  it('sends COP, which ISO 4217 gives two decimals, as the integer string the spec asks for', () => {
    expect(cop('50000').toDecimal()).toBe('50000.00');
    expect(paymentBody(deposit(colombia, cop('50000.00')))).toMatchObject({ amount: '50000', currency: 'COP' });
    expect(refundBody({ refundId: 'rfd_1', depositReference: 'pay_1', amount: cop('5000') })).toMatchObject({ amount: '5000' });
    expect(payoutBody({ payoutId: 'pyo_1', country: 'COLOMBIA', amount: cop('250000.00'), beneficiary: {} })).toMatchObject({ amount: '250000', currency: 'COP' });
  });

  it('sends whole CLP and JPY as ISO writes them, and two-decimal currencies with both decimals', () => {
    expect(paymentBody(deposit({ rail: 'LATAM', country: 'CHILE', method: 'bank' }, Money.fromDecimal('15000', 'CLP')))).toMatchObject({ amount: '15000' });
    expect(paymentBody(deposit({ rail: 'CARD' }, Money.fromDecimal('2500', 'JPY')))).toMatchObject({ amount: '2500', currency: 'JPY' });
    expect(checkoutSessionBody(deposit({ rail: 'HOSTED_CHECKOUT' }, Money.fromDecimal('2500', 'JPY')), { rail: 'HOSTED_CHECKOUT' })).toMatchObject({ amount: '2500' });
    expect(paymentBody(deposit({ rail: 'CARD' }, eur('10.5')))).toMatchObject({ amount: '10.50' });
  });

  it('never rounds an amount the provider cannot take: validation refuses it before any call', () => {
    expect(() => paymentBody(deposit(colombia, cop('50000.50')))).toThrow(RangeError);
    expect(() => refundBody({ refundId: 'rfd_1', depositReference: 'pay_1', amount: cop('0.50') })).toThrow(RangeError);
  });

  it('reads the provider\'s whole COP as the same amount in ISO\'s decimals', () => {
    expect(parsePayment(json('{"reference":"p","status":"approved","amount":"250000","fee":"7250","net":"242750","currency":"COP"}'))).toMatchObject({
      amount: cop('250000.00'),
      fee: cop('7250'),
      net: cop('242750'),
    });
    expect(parsePayout(json('{"reference":"po_1","status":"paid","amount":"250000","currency":"COP"}')).amount?.toDecimal()).toBe('250000.00');
  });

  it('refuses an amount in a currency ISO 4217 does not list as a provider fault', () => {
    expect(() => parsePayment(json('{"reference":"p","status":"approved","amount":"10.00","currency":"XYZ"}'))).toThrow(ShapeError);
  });
});

describe('create responses: three shapes into one ProviderDeposit', () => {
  it('European and card: nested payment', () => {
    const body = json('{"ok":true,"payment":{"reference":"pay_abc","redirect_url":"https://acs.example/3ds","status":"redirected","merchant_reference":"dep_01"}}');
    expect(parseCreatedPayment(body, deposit({ rail: 'CARD' }))).toEqual({
      reference: 'pay_abc',
      status: 'PENDING',
      providerStatus: 'redirected',
      redirectUrl: 'https://acs.example/3ds',
      merchantReference: 'dep_01',
      amount: eur('25.00'),
    });
  });

  it('UPI/PIX and LATAM: flat, without a status (A17: redirected)', () => {
    const body = json('{"ok":true,"reference":"pay_upi","redirect_url":"https://checkout.example/r/pay_upi"}');
    const request = deposit({ rail: 'UPI' }, Money.fromDecimal('500', 'INR'));
    expect(parseCreatedPayment(body, request)).toEqual({
      reference: 'pay_upi',
      status: 'PENDING',
      providerStatus: 'redirected',
      redirectUrl: 'https://checkout.example/r/pay_upi',
      merchantReference: 'dep_01',
      amount: Money.fromDecimal('500', 'INR'),
    });
  });

  it('crypto: flat with status and the quote terms, tolerance kept exact', () => {
    const body = json(
      '{"ok":true,"reference":"pay_c","redirect_url":"https://crypto.example/q/1","status":"pending","provider":"crypto","crypto":{"quote_ttl_minutes":30,"underpay_tolerance_pct":0.5}}',
    );
    expect(parseCreatedPayment(body, deposit({ rail: 'CRYPTO' }))).toEqual({
      reference: 'pay_c',
      status: 'PENDING',
      providerStatus: 'pending',
      redirectUrl: 'https://crypto.example/q/1',
      merchantReference: 'dep_01',
      amount: eur('25.00'),
      crypto: { quoteTtlMinutes: 30, underpayTolerancePct: '0.5' },
    });
    const asStrings = json('{"ok":true,"reference":"pay_c","status":"pending","crypto":{"quote_ttl_minutes":"15","underpay_tolerance_pct":"1.25"}}');
    expect(parseCreatedPayment(asStrings, deposit({ rail: 'CRYPTO' })).crypto).toEqual({ quoteTtlMinutes: 15, underpayTolerancePct: '1.25' });
  });

  it('refuses a body without a reference or with unreadable quote terms', () => {
    expect(() => parseCreatedPayment(json('{"ok":true,"redirect_url":"x"}'), deposit({ rail: 'UPI' }))).toThrow(ShapeError);
    expect(() => parseCreatedPayment(json('{"ok":true,"payment":{"status":"redirected"}}'), deposit({ rail: 'CARD' }))).toThrow(ShapeError);
    expect(() => parseCreatedPayment(json('{"ok":true,"reference":"p","crypto":{"quote_ttl_minutes":1.5,"underpay_tolerance_pct":1}}'), deposit({ rail: 'CRYPTO' }))).toThrow(ShapeError);
    expect(() => parseCreatedPayment(json('[]'), deposit({ rail: 'CARD' }))).toThrow(ShapeError);
  });

  it('checkout session: id is the reference, url the redirect', () => {
    const body = json('{"ok":true,"id":"cs_123","url":"https://checkout.example/c/cs_123","expires_in":3600}');
    expect(parseCheckoutSession(body, deposit({ rail: 'HOSTED_CHECKOUT' }))).toEqual({
      reference: 'cs_123',
      status: 'PENDING',
      providerStatus: 'redirected',
      redirectUrl: 'https://checkout.example/c/cs_123',
      merchantReference: 'dep_01',
      amount: eur('25.00'),
    });
    expect(() => parseCheckoutSession(json('{"ok":true,"id":"cs_1"}'), deposit({ rail: 'HOSTED_CHECKOUT' }))).toThrow(ShapeError);
  });
});

describe('payment lookup', () => {
  const full = `{
    "reference": "pay_abc", "status": "approved", "amount": "100.00", "fee": "2.90", "net": "97.10", "currency": "EUR",
    "method": "card", "settlement": "settled", "customer_email": "ana@example.com", "customer_name": "Ana Silva",
    "merchant_reference": "dep_01", "decline_reason": null, "status_reason": "00", "card_bin": "411111", "card_last4": "1111",
    "card_scheme": "VISA", "mid_code": "M1", "approved_at": "2025-11-21T05:00:00Z", "settlement_date": "2025-11-23",
    "refund_status": "pending", "created_at": "2025-11-21T04:59:00Z", "updated_at": "2025-11-21T05:00:00Z"
  }`;

  it('maps every field the gateway keeps', () => {
    expect(parsePayment(json(full))).toEqual({
      reference: 'pay_abc',
      status: 'SUCCEEDED',
      providerStatus: 'approved',
      merchantReference: 'dep_01',
      amount: eur('100.00'),
      fee: eur('2.90'),
      net: eur('97.10'),
      statusReason: '00',
      approvedAt: new Date('2025-11-21T05:00:00Z'),
      createdAt: new Date('2025-11-21T04:59:00Z'),
      refundStatus: { status: 'REQUESTED', providerStatus: 'pending' },
    });
  });

  it('reads refund_status refunded as the payment reversed in full (A25)', () => {
    const reversed = parsePayment(json('{"reference":"p","status":"refunded","amount":"10.00","currency":"EUR","refund_status":"refunded"}'));
    expect(reversed.refundStatus).toEqual({ status: 'APPROVED', providerStatus: 'refunded', reversedInFull: true });
    const partial = parsePayment(json('{"reference":"p","status":"approved","amount":"10.00","currency":"EUR","refund_status":"approved"}'));
    expect(partial.refundStatus).toEqual({ status: 'APPROVED', providerStatus: 'approved' });
  });

  it('keeps a net that is not amount - fee apart (netMismatch), never as net', () => {
    const wrong = parsePayment(json('{"reference":"p","status":"approved","amount":"10.00","fee":"0.30","net":"9.80","currency":"EUR","approved_at":"2026-01-02T03:04:05.678Z"}'));
    expect(wrong).toMatchObject({ amount: eur('10.00'), fee: eur('0.30'), netMismatch: eur('9.80'), approvedAt: new Date('2026-01-02T03:04:05.678Z') });
    expect(wrong).not.toHaveProperty('net');
    const right = parsePayment(json('{"reference":"p","status":"approved","amount":"10.00","fee":"0.30","net":"9.70","currency":"EUR"}'));
    expect(right).toMatchObject({ net: eur('9.70') });
    expect(right).not.toHaveProperty('netMismatch');
  });

  it('maps a declined payment with its reason and no approval time', () => {
    const declined = parsePayment(json('{"reference":"p","status":"declined","amount":"10.13","fee":"0.00","net":"10.13","currency":"EUR","decline_reason":"declined","approved_at":null,"refund_status":null}'));
    expect(declined).toEqual({ reference: 'p', status: 'DECLINED', providerStatus: 'declined', amount: eur('10.13'), fee: eur('0'), net: eur('10.13'), declineReason: 'declined' });
  });

  it('reads zero-decimal currencies and JSON number amounts exactly', () => {
    const clp = parsePayment(json('{"reference":"p","status":"approved","amount":15000,"fee":"450","net":14550,"currency":"CLP"}'));
    expect(clp.amount?.toString()).toBe('CLP 15000');
    expect(clp.net?.toString()).toBe('CLP 14550');
    const usd = parsePayment(json('{"reference":"p","status":"approved","amount":0.30,"currency":"USD"}'));
    expect(usd.amount?.minor).toBe(30n);
  });

  it('keeps an unknown status word and reads it as PENDING', () => {
    expect(parsePayment(json('{"reference":"p","status":"on_hold"}'))).toEqual({ reference: 'p', status: 'PENDING', providerStatus: 'on_hold' });
  });

  it('refuses inexact or currency-less amounts', () => {
    expect(() => parsePayment(json('{"reference":"p","status":"approved","amount":"10.005","currency":"EUR"}'))).toThrow(ShapeError);
    expect(() => parsePayment(json('{"reference":"p","status":"approved","amount":"10.5","currency":"CLP"}'))).toThrow(ShapeError);
    expect(() => parsePayment(json('{"reference":"p","status":"approved","amount":"10.00"}'))).toThrow(ShapeError);
    expect(() => parsePayment(json('{"reference":"p"}'))).toThrow(ShapeError);
  });

  it('pages with and without a next cursor', () => {
    const page = parsePage(json('{"ok":true,"data":[{"reference":"a","status":"approved"},{"reference":"b","status":"redirected"}],"paging":{"limit":2,"next_before":"b"}}'), parsePayment);
    expect(page.items.map((item) => item.reference)).toEqual(['a', 'b']);
    expect(page.nextBefore).toBe('b');
    expect(parsePage(json('{"ok":true,"data":[],"paging":{"limit":50,"next_before":null}}'), parsePayment)).toEqual({ items: [] });
    expect(() => parsePage(json('{"ok":true}'), parsePayment)).toThrow(ShapeError);
  });
});

describe('refunds, payouts, card sessions and settle', () => {
  it('refund (A3): the refund id is the reference', () => {
    const body = json('{"ok":true,"refund":{"id":"rf_1","reference":"pay_1","amount":"5.00","currency":"EUR","status":"pending","reason":null,"created_at":"2025-11-21T05:00:00Z"}}');
    expect(parseRefund(body, { refundId: 'rfd_1', depositReference: 'pay_1' })).toEqual({ reference: 'rf_1', status: 'REQUESTED', providerStatus: 'pending', amount: eur('5.00') });
  });

  it('payout object', () => {
    const payout = parsePayout(json('{"reference":"po_1","status":"pending","amount":"250000","currency":"COP","country":"COLOMBIA","merchant_reference":"pyo_1"}'));
    expect(payout).toEqual({ reference: 'po_1', status: 'PENDING', providerStatus: 'pending', merchantReference: 'pyo_1', amount: Money.fromDecimal('250000', 'COP') });
    expect(() => parsePayout(json('{"reference":"po_1","status":"mystery"}'))).toThrow(ShapeError);
  });

  it('card session never carries integrity', () => {
    const session = parseCardSession(
      json('{"ok":true,"settled":false,"status":"redirected","amount":"25.00","currency":"EUR","script_url":"https://pay.example/loader.js?checkoutId=1","integrity":"sha384-abc","brands":"VISA MASTER"}'),
    );
    expect(session).toEqual({ settled: false, status: 'PENDING', providerStatus: 'redirected', amount: eur('25.00'), scriptUrl: 'https://pay.example/loader.js?checkoutId=1', brands: ['VISA', 'MASTER'] });
    expect(Object.values(session)).not.toContain('sha384-abc');
    expect(Object.keys(session)).not.toContain('integrity');
    const settled = parseCardSession(json('{"ok":true,"settled":true,"status":"approved"}'));
    expect(settled).toEqual({ settled: true, status: 'SUCCEEDED', providerStatus: 'approved', brands: [] });
  });

  it('settle result', () => {
    const result = parseSettleResult(
      json('{"ok":true,"settled":true,"changed":true,"payment":{"reference":"pay_1","status":"approved","amount":"25.00","currency":"EUR","merchant_reference":"dep_01","decline_reason":null}}'),
    );
    expect(result).toEqual({
      settled: true,
      changed: true,
      deposit: { reference: 'pay_1', status: 'SUCCEEDED', providerStatus: 'approved', merchantReference: 'dep_01', amount: eur('25.00') },
    });
    expect(() => parseSettleResult(json('{"ok":true,"payment":{}}'))).toThrow(ShapeError);
  });

  it('missing beneficiary fields become gateway paths', () => {
    expect(missingFieldPaths(['bank_code', 'beneficiary.account_type', 'beneficiary[cci]', 'document_number', 'country', 'beneficiary.branch_id', 7])).toEqual([
      ['beneficiary', 'bankCode'],
      ['beneficiary', 'accountType'],
      ['beneficiary', 'cci'],
      ['beneficiary', 'documentNumber'],
      ['country'],
      ['beneficiary', 'branchId'],
    ]);
    expect(missingFieldPaths(undefined)).toEqual([]);
  });
});

describe('webhook envelopes', () => {
  const envelope = (event: string, data: Record<string, unknown> | string, extra = '') =>
    json(`{"id":"evt_1","event":"${event}","livemode":false,"created_at":"2025-11-21T05:00:00Z","data":${typeof data === 'string' ? data : JSON.stringify(data)}${extra}}`);

  it.each<[string, string, DepositStatus]>([
    ['payment.pending', 'redirected', 'PENDING'],
    ['payment.pending', 'pending', 'PENDING'],
    ['payment.approved', 'approved_for_payment', 'AUTHORIZED'],
    ['payment.approved', 'approved', 'SUCCEEDED'],
    ['payment.declined', 'declined', 'DECLINED'],
    ['payment.declined', 'expired', 'EXPIRED'],
    ['payment.declined', 'cancelled', 'CANCELLED'],
    ['payment.declined', 'error', 'FAILED'],
    ['payment.refunded', 'refunded', 'REFUNDED'],
  ])('%s with status %s is a deposit %s', (event, word, status) => {
    const parsed = parseWebhookEnvelope(envelope(event, { reference: 'pay_1', merchant_reference: 'dep_1', status: word, amount: '10.50', currency: 'EUR' }));
    expect(parsed).toEqual({
      eventId: 'evt_1',
      name: event,
      livemode: false,
      occurredAt: new Date('2025-11-21T05:00:00Z'),
      subject: { kind: 'deposit', reference: 'pay_1', merchantReference: 'dep_1', status, providerStatus: word, amount: eur('10.50') },
    });
  });

  it('reads a crypto JSON-number amount from its source text', () => {
    const parsed = parseWebhookEnvelope(envelope('payment.approved', '{"reference":"pay_c","status":"approved","amount":20.10,"currency":"USD"}'));
    expect(parsed?.subject).toMatchObject({ kind: 'deposit', amount: Money.fromDecimal('20.10', 'USD') });
    const big = parseWebhookEnvelope(envelope('payment.approved', '{"reference":"pay_c","status":"approved","amount":90071992547409.93,"currency":"USD"}'));
    expect(big?.subject.kind === 'deposit' && big.subject.amount?.toDecimal()).toBe('90071992547409.93');
  });

  it('refuses an amount that is not exact for its currency, or has no currency', () => {
    expect(parseWebhookEnvelope(envelope('payment.approved', '{"reference":"p","status":"approved","amount":10.001,"currency":"USD"}'))).toBeUndefined();
    expect(parseWebhookEnvelope(envelope('payment.approved', '{"reference":"p","status":"approved","amount":"10.00"}'))).toBeUndefined();
  });

  it('takes the status from the event name when data has none, and keeps the decline reason', () => {
    const parsed = parseWebhookEnvelope(envelope('payment.declined', { reference: 'p', decline_reason: 'expired_card', amount: '5.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'deposit', reference: 'p', status: 'DECLINED', providerStatus: 'declined', amount: eur('5.00'), declineReason: 'expired_card' });
  });

  it('falls back to reference:status when the envelope has no id', () => {
    const parsed = parseWebhookEnvelope(json('{"event":"payment.approved","data":{"reference":"pay_9","status":"approved","amount":"1.00","currency":"EUR"}}'));
    expect(parsed?.eventId).toBe('pay_9:approved');
    expect(parsed).not.toHaveProperty('livemode');
  });

  it('maps refund events (A4)', () => {
    const parsed = parseWebhookEnvelope(envelope('refund.approved', { reference: 'rf_1', payment_reference: 'pay_1', merchant_reference: 'dep_1', status: 'approved', amount: '5.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'refund', reference: 'rf_1', depositReference: 'pay_1', status: 'APPROVED', providerStatus: 'approved', amount: eur('5.00') });
    const requested = parseWebhookEnvelope(envelope('refund.requested', { reference: 'rf_1', payment_reference: 'pay_1' }));
    expect(requested?.subject).toMatchObject({ kind: 'refund', status: 'REQUESTED', providerStatus: 'pending' });
    const rejected = parseWebhookEnvelope(envelope('refund.rejected', { reference: 'rf_1', status: 'rejected' }));
    expect(rejected?.subject).toMatchObject({ kind: 'refund', status: 'REJECTED' });
  });

  it.each([
    ['payout.paid', 'paid', 'PAID'],
    ['payout.bounced', 'bounced', 'BOUNCED'],
    ['payout.reverted', 'reverted', 'REVERTED'],
    ['payout.failed', 'failed', 'FAILED'],
  ])('maps %s to a payout %s', (event, word, status) => {
    const parsed = parseWebhookEnvelope(envelope(event, { reference: 'po_1', merchant_reference: 'pyo_1', status: word, amount: '250000', currency: 'COP' }));
    expect(parsed?.subject).toEqual({ kind: 'payout', reference: 'po_1', merchantReference: 'pyo_1', status, providerStatus: word, amount: Money.fromDecimal('250000', 'COP') });
  });

  it('maps chargeback.opened', () => {
    const parsed = parseWebhookEnvelope(envelope('chargeback.opened', { reference: 'pay_1', merchant_reference: 'dep_1', status: 'opened', amount: '10.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'chargeback', reference: 'pay_1', merchantReference: 'dep_1' });
  });

  it('keeps unknown events and unknown words as other, to be stored and ignored', () => {
    expect(parseWebhookEnvelope(envelope('subscription.created', { reference: 'sub_1', status: 'active' }))?.subject).toEqual({ kind: 'other', reference: 'sub_1' });
    expect(parseWebhookEnvelope(envelope('payment.on_hold', { reference: 'pay_1', status: 'on_hold' }))?.subject).toEqual({ kind: 'other', reference: 'pay_1' });
    expect(parseWebhookEnvelope(envelope('chargeback.closed', { reference: 'pay_1' }))?.subject).toEqual({ kind: 'other', reference: 'pay_1' });
    expect(parseWebhookEnvelope(json('{"id":"evt_2","event":"account.updated"}'))?.subject).toEqual({ kind: 'other' });
  });

  it('refuses envelopes it cannot key or place', () => {
    expect(parseWebhookEnvelope(json('{"id":"evt_1","data":{}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('{"event":"payment.approved","data":{"status":"approved"}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('{"id":"evt_1","event":"payment.approved","data":{"status":"approved"}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('"payment.approved"'))).toBeUndefined();
  });
});

describe('the spec\'s optional deposit fields', () => {
  it('POST /payments carries metadata as an object and white_label only when the account asks for it', () => {
    const body = paymentBody(deposit({ rail: 'CARD' }, eur('25.00'), { metadata: { session: 'cs-42' } }), { whiteLabel: true });
    expect(body).toMatchObject({ metadata: { session: 'cs-42' }, white_label: true });
    const plain = JSON.parse(stringifyJsonExact(paymentBody(deposit({ rail: 'CARD' })))) as Record<string, unknown>;
    expect(plain).not.toHaveProperty('metadata');
    expect(plain).not.toHaveProperty('white_label');
  });

  it('a checkout session carries currency, success_url and cancel_url (A10, A31), and no metadata (A32)', () => {
    const details = { rail: 'HOSTED_CHECKOUT' as const, successUrl: 'https://shop.example/paid', cancelUrl: 'https://shop.example/cancelled' };
    const body = JSON.parse(stringifyJsonExact(checkoutSessionBody(deposit(details, Money.fromDecimal('30.00', 'GBP'), { metadata: { session: 'cs-42' } }), details))) as Record<string, unknown>;
    expect(body).toMatchObject({ currency: 'GBP', success_url: 'https://shop.example/paid', cancel_url: 'https://shop.example/cancelled' });
    expect(body).not.toHaveProperty('metadata');
  });
});
