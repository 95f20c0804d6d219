// Writing the provider's request bodies: each rail's payment, the checkout session, refunds and
// payouts, the spec's optional deposit fields, and a 422's missing fields read back as paths.

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { JsonNumber, stringifyJsonExact } from './json.js';
import { customer, deposit, eur } from './mapping.fixture.js';
import { checkoutSessionBody, missingFieldPaths, paymentBody, payoutBody, refundBody } from './request-bodies.js';

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

describe('missing fields', () => {
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
