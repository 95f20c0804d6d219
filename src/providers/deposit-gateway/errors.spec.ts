// Provider answers → stable gateway error codes (spec: Errors).

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import { errorFromResponse, unavailable } from './errors.js';
import { AMOUNT_BANDS } from './rules.js';

const inr = (amount: string) => Money.fromDecimal(amount, 'INR');

describe('errorFromResponse', () => {
  it.each([
    [401, 'PROVIDER_AUTH_FAILED'],
    [403, 'RAIL_DISABLED'],
    [429, 'RATE_LIMITED'],
    [400, 'PROVIDER_REJECTED'],
    [404, 'PROVIDER_REJECTED'],
    [409, 'PROVIDER_REJECTED'],
  ])('HTTP %i is %s, with a known outcome', (status, code) => {
    const error = errorFromResponse(status, { ok: false, error: 'provider words' });
    expect(error).toMatchObject({ code, httpStatus: status, outcomeUnknown: false, providerMessage: 'provider words' });
    expect(error.message).not.toContain('provider words');
  });

  it.each([403, 422, 400])('"This payment method is not available right now" under HTTP %i is RAIL_UNAVAILABLE (A26)', (status) => {
    const error = errorFromResponse(status, { ok: false, error: 'This payment method is not available right now' });
    expect(error).toMatchObject({ code: 'RAIL_UNAVAILABLE', httpStatus: status, outcomeUnknown: false });
    expect(errorFromResponse(403, { ok: false, error: 'This payment method is currently disabled' }).code).toBe('RAIL_DISABLED');
  });

  it('503 is PAYOUTS_NOT_ENABLED on payout create only', () => {
    expect(errorFromResponse(503, { ok: false, error: 'Live payouts are not enabled' }, { payoutCreate: true })).toMatchObject({ code: 'PAYOUTS_NOT_ENABLED', outcomeUnknown: false });
  });

  it.each([
    ['Amount 5.00 is below the minimum of 10.00 EUR', 'AMOUNT_BELOW_MINIMUM'],
    ['Minimum amount is 10.00 EUR', 'AMOUNT_BELOW_MINIMUM'],
    ['Amount exceeds the maximum of 10000.00', 'AMOUNT_ABOVE_MAXIMUM'],
    ['Currency GBP is not supported; crypto supports EUR and USD', 'CURRENCY_NOT_SUPPORTED'],
    ['UPI settles INR only', 'CURRENCY_NOT_SUPPORTED'],
    ['PIX settles BRL only', 'CURRENCY_NOT_SUPPORTED'],
    ['personalId is required: the payer\'s UPI ID', 'PROVIDER_REJECTED'],
    ['phone is required for this solution', 'PROVIDER_REJECTED'],
    ['', 'PROVIDER_REJECTED'],
  ])('422 %j is %s', (text, code) => {
    const error = errorFromResponse(422, { ok: false, error: text });
    expect(error).toMatchObject({ code, httpStatus: 422, outcomeUnknown: false });
    expect(error.providerMessage).toBe(text || undefined);
  });

  describe('a range message decides by the request amount against the rail band', () => {
    const message = 'Enter an amount between 100 and 50000 INR';
    it.each([
      ['99.99', 'AMOUNT_BELOW_MINIMUM'],
      ['50000.01', 'AMOUNT_ABOVE_MAXIMUM'],
      ['500', 'PROVIDER_REJECTED'],
    ])('INR %s → %s', (amount, code) => {
      const error = errorFromResponse(422, { ok: false, error: message }, { amount: inr(amount), band: AMOUNT_BANDS.UPI });
      expect(error.code).toBe(code);
      expect(error.providerMessage).toBe(message);
    });

    it('names the amount and the band in gateway terms', () => {
      const error = errorFromResponse(422, { ok: false, error: message }, { amount: inr('50'), band: AMOUNT_BANDS.UPI });
      expect(error.message).toBe('INR 50.00 is below the minimum of INR 100 for this payment method.');
    });

    it('without a band the message alone cannot decide', () => {
      expect(errorFromResponse(422, { ok: false, error: message }, { amount: inr('50') }).code).toBe('PROVIDER_REJECTED');
    });
  });

  it('422 with a missing array lists gateway paths', () => {
    const error = errorFromResponse(422, { ok: false, error: 'Missing beneficiary fields', missing: ['bank_code', 'account_type'] }, { payoutCreate: true });
    expect(error).toMatchObject({ code: 'BENEFICIARY_FIELDS_MISSING', missing: [['beneficiary', 'bankCode'], ['beneficiary', 'accountType']], outcomeUnknown: false });
    expect(error.message).toContain('beneficiary.bankCode, beneficiary.accountType');
    expect(error.message).not.toContain('bank_code');
  });

  it('tolerates a body that is not the documented error shape', () => {
    expect(errorFromResponse(401, undefined)).toMatchObject({ code: 'PROVIDER_AUTH_FAILED' });
    expect(errorFromResponse(422, 'text')).toMatchObject({ code: 'PROVIDER_REJECTED' });
    expect(errorFromResponse(401, undefined)).not.toHaveProperty('providerMessage');
  });
});

describe('unavailable', () => {
  it('leaves the outcome unknown', () => {
    expect(unavailable('timed out', 504)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true, httpStatus: 504, providerMessage: 'timed out' });
  });
});
