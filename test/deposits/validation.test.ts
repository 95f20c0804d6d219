// Every rule of every rail, through the API: bad input is a userError with the field path and a
// stable code (or, for a malformed Decimal, a GraphQL input error), and the provider is never called.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateDepositInput } from '../__generated__/graphql.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT, VALID_DEPOSITS } from './fixtures.js';
import { CreateDepositMutation } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const input = (label: string): CreateDepositInput => structuredClone(VALID_DEPOSITS.find(([name]) => name === label)![1]);
const withCustomer = (label: string, customer: Record<string, unknown>): CreateDepositInput => {
  const base = input(label);
  return { ...base, customer: { ...base.customer, ...customer } };
};

const providerCalls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/', 'POST');

const CASES: Array<[string, CreateDepositInput, string[], string]> = [
  ['negative amount', { ...CARD_INPUT, amount: '-5' }, ['amount'], 'AMOUNT_NOT_POSITIVE'],
  ['zero amount', { ...CARD_INPUT, amount: '0' }, ['amount'], 'AMOUNT_NOT_POSITIVE'],
  ['three decimals', { ...CARD_INPUT, amount: '0.001' }, ['amount'], 'AMOUNT_TOO_PRECISE'],
  ['25 digits', { ...CARD_INPUT, amount: '1234567890123456789012345' }, ['amount'], 'AMOUNT_TOO_LARGE'],
  ['card below 1.00', { ...CARD_INPUT, amount: '0.99' }, ['amount'], 'AMOUNT_BELOW_MINIMUM'],
  ['card above 10,000.00', { ...CARD_INPUT, amount: '10000.01' }, ['amount'], 'AMOUNT_ABOVE_MAXIMUM'],
  ['card currency not offered', { ...CARD_INPUT, currency: 'BRL' }, ['currency'], 'CURRENCY_NOT_SUPPORTED'],
  ['lower-case currency', { ...CARD_INPUT, currency: 'eur' }, ['currency'], 'CURRENCY_INVALID'],
  ['card country as a name', withCustomer('CARD', { country: 'Netherlands' }), ['customer', 'country'], 'INVALID_FORMAT'],
  ['card without email', withCustomer('CARD', { email: null }), ['customer', 'email'], 'FIELD_REQUIRED'],
  ['card phone not E.164', withCustomer('CARD', { phone: '0612345678' }), ['customer', 'phone'], 'INVALID_FORMAT'],
  ['fps outside GB', { ...input('OPEN_BANKING sepa NL'), openBanking: { method: 'fps', bankCountry: 'NL' } }, ['openBanking', 'bankCountry'], 'INVALID_VALUE'],
  ['open banking in FR', { ...input('OPEN_BANKING sepa NL'), openBanking: { method: 'sepa', bankCountry: 'FR' } }, ['openBanking', 'bankCountry'], 'INVALID_VALUE'],
  ['CLP with decimals', { ...input('LATAM Chile bank'), amount: '15000.50' }, ['amount'], 'AMOUNT_TOO_PRECISE'],
  // ISO 4217 gives COP two decimals; the deposit gateway takes whole pesos (its adapter's rule).
  ['COP with centavos', { ...input('LATAM Colombia'), amount: '50000.50' }, ['amount'], 'AMOUNT_TOO_PRECISE'],
  ['JPY with decimals', { ...CARD_INPUT, currency: 'JPY', amount: '1000.5' }, ['amount'], 'AMOUNT_TOO_PRECISE'],
  ['a currency ISO 4217 does not list', { ...CARD_INPUT, currency: 'XYZ' }, ['currency'], 'CURRENCY_INVALID'],
  ['a three-decimal currency no rail takes', { ...CARD_INPUT, currency: 'KWD', amount: '10.125' }, ['currency'], 'CURRENCY_NOT_SUPPORTED'],
  ['Peru DNI of 7 digits', withCustomer('LATAM Peru qr', { documentNumber: '1234567' }), ['customer', 'documentNumber'], 'INVALID_FORMAT'],
  ['Chile RUT with a wrong check digit', withCustomer('LATAM Chile bank', { documentNumber: '12345678-9' }), ['customer', 'documentNumber'], 'INVALID_CHECK_DIGIT'],
  ['Chile cards without phoneCode', withCustomer('LATAM Chile cards', { phoneCode: null }), ['customer', 'phoneCode'], 'FIELD_REQUIRED'],
  ['Colombia without phone', withCustomer('LATAM Colombia', { phone: null }), ['customer', 'phone'], 'FIELD_REQUIRED'],
  ['Ecuador with a phone', withCustomer('LATAM Ecuador', { phone: '+593987654321' }), ['customer', 'phone'], 'FIELD_NOT_ALLOWED'],
  ['Ecuador without expiresAt', { ...input('LATAM Ecuador'), latam: { country: 'ECUADOR' } }, ['latam', 'expiresAt'], 'FIELD_REQUIRED'],
  ['unknown LATAM country', { ...input('LATAM Mexico'), latam: { country: 'ARGENTINA' } }, ['latam', 'country'], 'INVALID_VALUE'],
  ['document type in the wrong case', withCustomer('LATAM Peru qr', { documentType: 'dni' }), ['customer', 'documentType'], 'INVALID_VALUE'],
  ['UPI below 100', { ...input('UPI'), amount: '99.99' }, ['amount'], 'AMOUNT_BELOW_MINIMUM'],
  ['UPI above 50,000', { ...input('UPI'), amount: '50000.01' }, ['amount'], 'AMOUNT_ABOVE_MAXIMUM'],
  ['UPI in USD', { ...input('UPI'), currency: 'USD' }, ['currency'], 'CURRENCY_NOT_SUPPORTED'],
  ['LATAM in a currency that is neither the country\'s nor an override', { ...input('LATAM Peru qr'), currency: 'GBP' }, ['currency'], 'CURRENCY_NOT_SUPPORTED'],
  ['UPI without a UPI ID', withCustomer('UPI', { personalId: null }), ['customer', 'personalId'], 'FIELD_REQUIRED'],
  ['UPI ID without a bank', withCustomer('UPI', { personalId: 'ana' }), ['customer', 'personalId'], 'INVALID_FORMAT'],
  ['UPI without phone', withCustomer('UPI', { phone: null }), ['customer', 'phone'], 'FIELD_REQUIRED'],
  ['PIX below 10', { ...input('PIX'), amount: '9.99' }, ['amount'], 'AMOUNT_BELOW_MINIMUM'],
  ['PIX above 15,000', { ...input('PIX'), amount: '15000.01' }, ['amount'], 'AMOUNT_ABOVE_MAXIMUM'],
  ['PIX CPF with wrong check digits', withCustomer('PIX', { personalId: '52998224724' }), ['customer', 'personalId'], 'INVALID_CHECK_DIGIT'],
  ['PIX CPF of 10 digits', withCustomer('PIX', { personalId: '5299822472' }), ['customer', 'personalId'], 'INVALID_FORMAT'],
  ['crypto in GBP', { ...input('CRYPTO'), currency: 'GBP' }, ['currency'], 'CURRENCY_NOT_SUPPORTED'],
  ['crypto below 10.00', { ...input('CRYPTO'), amount: '9.99' }, ['amount'], 'AMOUNT_BELOW_MINIMUM'],
  ['crypto without currency', { ...input('CRYPTO'), currency: null }, ['currency'], 'FIELD_REQUIRED'],
  ['return URL over http', { ...CARD_INPUT, returnUrl: 'http://shop.example/back' }, ['returnUrl'], 'URL_NOT_HTTPS'],
  ['merchant reference over 128', { ...CARD_INPUT, merchantReference: 'x'.repeat(129) }, ['merchantReference'], 'INVALID_FORMAT'],
  ['unknown merchant account', { ...CARD_INPUT, merchantAccount: 'nope' }, ['merchantAccount'], 'MERCHANT_ACCOUNT_NOT_FOUND'],
  ['QR account for a card', { ...CARD_INPUT, merchantAccount: 'qr-test' }, ['merchantAccount'], 'MERCHANT_ACCOUNT_NOT_FOUND'],
  ['no rail block', { amount: '10.00', customer: CARD_INPUT.customer }, [], 'RAIL_REQUIRED'],
  ['two rail blocks', { ...CARD_INPUT, upi: {} }, ['upi'], 'RAIL_AMBIGUOUS'],
];

describe('createDeposit refuses bad input before any provider call', () => {
  it.each(CASES)('%s', async (_label, bad, field, code) => {
    const calls = providerCalls();
    const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: bad }, { key: t.keys.webCashier });
    expect(response.errors).toBeUndefined();
    const { deposit, userErrors } = response.data!.createDeposit;
    expect(deposit).toBeNull();
    const match = userErrors.find((error) => JSON.stringify(error.field ?? []) === JSON.stringify(field));
    expect(match, JSON.stringify(userErrors)).toMatchObject({ code, message: expect.stringMatching(/^.{16,}$/s) });
    expect(providerCalls()).toBe(calls);
  });

  it.each(['1e3', 'NaN', '10,00', ' 10', '10 ', '+5', '.5', ''])('refuses the malformed amount %j as an input error naming the rule', async (amount) => {
    const calls = providerCalls();
    const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount } }, { key: t.keys.webCashier });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toMatch(/plain decimal string/);
    expect(providerCalls()).toBe(calls);
  });

  it('refuses a JSON number amount: it may already have been through a float', async () => {
    const response = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'mutation($input: CreateDepositInput!) { createDeposit(input: $input) { deposit { id } } }', variables: { input: { ...CARD_INPUT, amount: 10.5 } } },
      t.keys.webCashier,
    );
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(response.body.errors[0].message).toMatch(/not a JSON number/);
  });

  it('takes whole pesos written with ISO\'s two COP decimals, sends the integer the provider asks for, and shows ISO\'s decimals', async () => {
    const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...input('LATAM Colombia'), amount: '50000.00' } }, { key: t.keys.webCashier });
    expect(response.errors).toBeUndefined();
    expect(response.data!.createDeposit.userErrors).toEqual([]);
    expect(response.data!.createDeposit.deposit!.amount).toEqual({ amount: '50000.00', currency: 'COP' });
    const sent = t.gateway.sandboxes.get('deposit-gateway')!.controls.requestBodies('/payments', 'POST').map((body) => JSON.parse(body) as { merchant_reference?: string; amount?: unknown });
    expect(sent.find((body) => body.merchant_reference === response.data!.createDeposit.deposit!.id)?.amount).toBe('50000');
  });

  it('accepts every valid fixture (the table above fails for the right reason)', async () => {
    for (const [label, valid] of VALID_DEPOSITS) {
      const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: valid }, { key: t.keys.webCashier });
      expect(response.data!.createDeposit.userErrors, label).toEqual([]);
    }
  });
});
