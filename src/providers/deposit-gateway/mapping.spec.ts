// Reading the provider's wire format: status words, the three create shapes, lookups, pages,
// refunds, payouts and card sessions, and amounts in the provider's decimals both ways.

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import type { CreateDepositRequest, DepositStatus } from '../provider.js';
import { deposit, eur, json } from './mapping.fixture.js';
import {
  depositStatusOf,
  parseCardSession,
  parseCheckoutSession,
  parseCreatedPayment,
  parsePage,
  parsePayment,
  parsePayout,
  parseRefund,
  parseSettleResult,
  payoutStatusOf,
  refundStatusOf,
  ShapeError,
} from './mapping.js';
import { checkoutSessionBody, paymentBody, payoutBody, refundBody } from './request-bodies.js';

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

});
