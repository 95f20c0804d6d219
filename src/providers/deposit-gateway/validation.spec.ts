// Request rules per rail (spec: rail tables, Limits, and assumptions A5-A8, A13-A16, A22).

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import type { Customer, MerchantAccount, RailDetails } from '../provider.js';
import { isValidClabe, isValidCpf, rutCheckDigit } from './check-digits.js';
import { defaultCurrency, validateDepositRequest, validatePayoutRequest, validateRefundRequest, type DepositToValidate, type PayoutToValidate } from './validation.js';

const NOW = new Date('2025-11-21T12:00:00Z');
const live: MerchantAccount = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://example.invalid/v1', apiKey: 'svc_live_x', webhookSecrets: ['s'] };
const test: MerchantAccount = { ...live, code: 'dg-test', livemode: false, apiKey: 'svc_test_x' };

const m = (amount: string, currency: string) => Money.fromDecimal(amount, currency);
const billing: Customer = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' };
const named: Customer = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };

/** `field:code` of every error, in order. */
function errors(request: DepositToValidate, account: MerchantAccount = test): string[] {
  return validateDepositRequest(account, request, NOW).map((error) => `${error.field.join('.')}:${error.code}`);
}
const req = (details: RailDetails, amount: Money, customer: Customer, extra: Partial<DepositToValidate> = {}): DepositToValidate => ({ details, amount, customer, ...extra });

describe('defaultCurrency', () => {
  it.each<[RailDetails, string]>([
    [{ rail: 'CARD' }, 'EUR'],
    [{ rail: 'HOSTED_CHECKOUT' }, 'EUR'],
    [{ rail: 'UPI' }, 'INR'],
    [{ rail: 'PIX' }, 'BRL'],
    [{ rail: 'CRYPTO' }, ''],
    [{ rail: 'LATAM', country: 'ECUADOR' }, 'USD'],
    [{ rail: 'LATAM', country: 'CHILE' }, 'CLP'],
    [{ rail: 'LATAM', country: 'PERU' }, 'PEN'],
    [{ rail: 'LATAM', country: 'MEXICO' }, 'MXN'],
    [{ rail: 'LATAM', country: 'COLOMBIA' }, 'COP'],
    [{ rail: 'LATAM', country: 'BRAZIL' }, ''],
    [{ rail: 'OPEN_BANKING', method: 'sepa', bankCountry: 'NL' }, 'EUR'],
    [{ rail: 'OPEN_BANKING', method: 'sepa', bankCountry: 'MT' }, 'EUR'],
    [{ rail: 'OPEN_BANKING', method: 'fps', bankCountry: 'GB' }, 'GBP'],
    [{ rail: 'OPEN_BANKING', method: 'sepa', bankCountry: 'DE' }, ''],
  ])('%j → %s', (details, currency) => {
    expect(defaultCurrency(details)).toBe(currency);
  });
});

describe('shared rules', () => {
  it('returns no errors for a valid card deposit', () => {
    expect(errors(req({ rail: 'CARD' }, m('10.00', 'EUR'), billing, { returnUrl: 'https://shop.example/back' }))).toEqual([]);
  });

  it.each([
    ['http://shop.example/back', 'returnUrl:URL_NOT_HTTPS'],
    ['not a url', 'returnUrl:INVALID_FORMAT'],
    ['javascript:alert(1)', 'returnUrl:URL_NOT_HTTPS'],
  ])('returnUrl %s', (returnUrl, error) => {
    expect(errors(req({ rail: 'CARD' }, m('10.00', 'EUR'), billing, { returnUrl }))).toEqual([error]);
  });

  it('refuses a zero amount and an over-long merchant reference', () => {
    expect(errors(req({ rail: 'CRYPTO' }, m('0', 'EUR'), named))).toEqual(['amount:INVALID_VALUE']);
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), billing, { depositId: 'd'.repeat(129) }))).toEqual(['depositId:REFERENCE_TOO_LONG']);
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), billing, { depositId: 'd'.repeat(128) }))).toEqual([]);
  });

  it('messages are sentences naming the value and the rule', () => {
    const [error] = validateDepositRequest(test, req({ rail: 'CARD' }, m('0.99', 'EUR'), billing), NOW);
    expect(error?.message).toBe('EUR 0.99 is below the cards minimum of EUR 1.00.');
  });

  it('does not serve THAI_QR', () => {
    expect(errors(req({ rail: 'THAI_QR', payer: { name: 'A' }, clientId: 'c' }, m('10', 'THB'), {}))).toEqual(['rail:INVALID_VALUE']);
  });
});

describe('cards', () => {
  it.each([
    ['1.00', 'EUR', []],
    ['10000.00', 'EUR', []],
    ['0.99', 'EUR', ['amount:AMOUNT_BELOW_MINIMUM']],
    ['10000.01', 'EUR', ['amount:AMOUNT_ABOVE_MAXIMUM']],
    ['50', 'JPY', []],
    ['50', 'GBP', []],
    ['50', 'BRL', ['currency:CURRENCY_NOT_SUPPORTED']],
    ['50', 'INR', ['currency:CURRENCY_NOT_SUPPORTED']],
  ])('%s %s', (amount, currency, expected) => {
    expect(errors(req({ rail: 'CARD' }, m(amount, currency), billing))).toEqual(expected);
  });

  it.each(['email', 'firstName', 'lastName', 'country', 'address1', 'city', 'zipCode'] as const)('requires customer.%s', (field) => {
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), { ...billing, [field]: undefined }))).toEqual([`customer.${field}:FIELD_REQUIRED`]);
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), { ...billing, [field]: '  ' }))).toEqual([`customer.${field}:FIELD_REQUIRED`]);
  });

  it.each([
    ['Netherlands', ['customer.country:INVALID_FORMAT']],
    ['nl', ['customer.country:INVALID_FORMAT']],
    ['UK', ['customer.country:INVALID_FORMAT']],
    ['XX', ['customer.country:INVALID_FORMAT']],
    ['GB', []],
    ['BR', []],
  ])('country %s', (country, expected) => {
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), { ...billing, country }))).toEqual(expected);
  });

  it.each([
    ['+31201234567', []],
    ['+442071234567', []],
    ['0201234567', ['customer.phone:INVALID_FORMAT']],
    ['+31 20 123 4567', ['customer.phone:INVALID_FORMAT']],
    ['+0123456', ['customer.phone:INVALID_FORMAT']],
    ['+1234567890123456', ['customer.phone:INVALID_FORMAT']],
  ])('phone %s', (phone, expected) => {
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), { ...billing, phone }))).toEqual(expected);
  });

  it.each([
    ['ana@example.com', []],
    ['ana.silva+deposits@mail.example.co.uk', []],
    ['ana@example', ['customer.email:INVALID_FORMAT']],
    ['ana example.com', ['customer.email:INVALID_FORMAT']],
    ['@example.com', ['customer.email:INVALID_FORMAT']],
  ])('email %s', (email, expected) => {
    expect(errors(req({ rail: 'CARD' }, m('10', 'EUR'), { ...billing, email }))).toEqual(expected);
  });
});

describe('open banking', () => {
  const ob = (method: string, bankCountry: string): RailDetails => ({ rail: 'OPEN_BANKING', method, bankCountry });
  it.each([
    ['sepa', 'NL', 'EUR', []],
    ['instant', 'MT', 'EUR', []],
    ['fps', 'GB', 'GBP', []],
    ['sepa', 'GB', 'GBP', []],
    ['fps', 'NL', 'EUR', ['openBanking.bankCountry:INVALID_VALUE']],
    ['sepa', 'DE', 'EUR', ['openBanking.bankCountry:INVALID_VALUE']],
    ['sepa', '', 'EUR', ['openBanking.bankCountry:FIELD_REQUIRED']],
    ['ideal', 'NL', 'EUR', ['openBanking.method:INVALID_VALUE']],
    ['', 'NL', 'EUR', ['openBanking.method:FIELD_REQUIRED']],
    ['sepa', 'NL', 'GBP', ['currency:CURRENCY_NOT_SUPPORTED']],
    ['fps', 'GB', 'EUR', ['currency:CURRENCY_NOT_SUPPORTED']],
  ])('%s in %s with %s', (method, bankCountry, currency, expected) => {
    expect(errors(req(ob(method, bankCountry), m('10', currency), billing))).toEqual(expected);
  });

  it('requires the billing customer', () => {
    expect(errors(req(ob('sepa', 'NL'), m('10', 'EUR'), { email: 'a@b.nl' }))).toEqual([
      'customer.firstName:FIELD_REQUIRED',
      'customer.lastName:FIELD_REQUIRED',
      'customer.country:FIELD_REQUIRED',
      'customer.address1:FIELD_REQUIRED',
      'customer.city:FIELD_REQUIRED',
      'customer.zipCode:FIELD_REQUIRED',
    ]);
  });
});

describe('LATAM', () => {
  const inMinutes = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
  const cases: [string, RailDetails, Money, Customer, string[]][] = [
    ['Chile bank, valid RUT', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, []],
    ['Chile, 7-digit RUT with check 0', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '1000013-0' }, []],
    ['Chile, RUT with check K', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '10000013-K' }, []],
    ['Chile, RUT lower-case k', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '10000013-k' }, ['customer.documentNumber:INVALID_FORMAT']],
    ['Chile, RUT wrong check digit', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-9' }, ['customer.documentNumber:INVALID_CHECK_DIGIT']],
    ['Chile, RUT with dots', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12.345.678-5' }, ['customer.documentNumber:INVALID_FORMAT']],
    ['Chile, RUT without hyphen', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '123456785' }, ['customer.documentNumber:INVALID_FORMAT']],
    ['Chile, documentType is case-sensitive', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15000', 'CLP'), { ...named, documentType: 'rut', documentNumber: '12345678-5' }, ['customer.documentType:INVALID_VALUE']],
    ['Chile, method required', { rail: 'LATAM', country: 'CHILE' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['latam.method:FIELD_REQUIRED']],
    ['Chile, method qr not offered', { rail: 'LATAM', country: 'CHILE', method: 'qr' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['latam.method:INVALID_VALUE']],
    ['Chile cards needs phone and phoneCode', { rail: 'LATAM', country: 'CHILE', method: 'cards' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['customer.phone:FIELD_REQUIRED', 'customer.phoneCode:FIELD_REQUIRED']],
    ['Chile cards with phone', { rail: 'LATAM', country: 'CHILE', method: 'cards' }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5', phone: '912345678', phoneCode: '+56' }, []],
    ['Chile, a currency neither Chilean nor an override (A30)', { rail: 'LATAM', country: 'CHILE', method: 'bank' }, m('15', 'EUR'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['currency:CURRENCY_NOT_SUPPORTED']],
    ['Chile, expiresAt ignored', { rail: 'LATAM', country: 'CHILE', method: 'bank', expiresAt: inMinutes(60 * 24 * 30) }, m('15000', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, []],
    ['Peru bank with DNI', { rail: 'LATAM', country: 'PERU', method: 'bank' }, m('50.50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '12345678' }, []],
    ['Peru qr with passport', { rail: 'LATAM', country: 'PERU', method: 'qr' }, m('50', 'PEN'), { ...named, documentType: 'PASSPORT', documentNumber: 'AB12345' }, []],
    ['Peru DNI 7 digits', { rail: 'LATAM', country: 'PERU', method: 'bank' }, m('50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '1234567' }, ['customer.documentNumber:INVALID_FORMAT']],
    ['Peru DNI with a letter', { rail: 'LATAM', country: 'PERU', method: 'bank' }, m('50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '1234567A' }, ['customer.documentNumber:INVALID_FORMAT']],
    ['Peru, method cards not offered', { rail: 'LATAM', country: 'PERU', method: 'cards' }, m('50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '12345678' }, ['latam.method:INVALID_VALUE']],
    ['Peru, RUT not a Peruvian document', { rail: 'LATAM', country: 'PERU', method: 'bank' }, m('50', 'PEN'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['customer.documentType:INVALID_VALUE']],
    ['Mexico, method omitted', { rail: 'LATAM', country: 'MEXICO' }, m('500', 'MXN'), { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, []],
    ['Mexico, method given', { rail: 'LATAM', country: 'MEXICO', method: 'bank' }, m('500', 'MXN'), { ...named, documentType: 'CURP', documentNumber: 'X' }, ['latam.method:FIELD_NOT_ALLOWED']],
    ['Mexico, redirectUrl is Colombia only', { rail: 'LATAM', country: 'MEXICO', redirectUrl: 'https://s.example/r' }, m('500', 'MXN'), { ...named, documentType: 'RFC', documentNumber: 'X' }, ['latam.redirectUrl:FIELD_NOT_ALLOWED']],
    // A33: Mexico and Colombia honour an expiresAt in Ecuador's window; without one their link lasts 30 minutes.
    ['Mexico, expiresAt in an hour', { rail: 'LATAM', country: 'MEXICO', expiresAt: inMinutes(60) }, m('500', 'MXN'), { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, []],
    ['Mexico, expiresAt in the past', { rail: 'LATAM', country: 'MEXICO', expiresAt: inMinutes(-10) }, m('500', 'MXN'), { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, ['latam.expiresAt:EXPIRY_OUT_OF_RANGE']],
    ['Colombia, expiresAt past 72 h', { rail: 'LATAM', country: 'COLOMBIA', expiresAt: inMinutes(72 * 60 + 1) }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1', phone: '3001234567', phoneCode: '+57' }, ['latam.expiresAt:EXPIRY_OUT_OF_RANGE']],
    ['Peru, expiresAt in the past ignored', { rail: 'LATAM', country: 'PERU', method: 'bank', expiresAt: inMinutes(-10) }, m('50', 'PEN'), { ...named, documentType: 'DNI', documentNumber: '12345678' }, []],
    ['Colombia needs phone and phoneCode', { rail: 'LATAM', country: 'COLOMBIA' }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1020304050' }, ['customer.phone:FIELD_REQUIRED', 'customer.phoneCode:FIELD_REQUIRED']],
    ['Colombia complete', { rail: 'LATAM', country: 'COLOMBIA', redirectUrl: 'https://s.example/r' }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' }, []],
    ['Colombia, bad phoneCode', { rail: 'LATAM', country: 'COLOMBIA' }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1', phone: '3001234567', phoneCode: '57' }, ['customer.phoneCode:INVALID_FORMAT']],
    ['Colombia, method given', { rail: 'LATAM', country: 'COLOMBIA', method: 'bank' }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1', phone: '3001234567', phoneCode: '+57' }, ['latam.method:FIELD_NOT_ALLOWED']],
    ['Colombia, http success address', { rail: 'LATAM', country: 'COLOMBIA', successUrl: 'http://s.example/ok' }, m('50000', 'COP'), { ...named, documentType: 'CC', documentNumber: '1', phone: '3001234567', phoneCode: '+57' }, ['latam.successUrl:URL_NOT_HTTPS']],
    ['Ecuador complete', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(30) }, m('25.00', 'USD'), { ...named, documentType: 'CI', documentNumber: '1710034065' }, []],
    ['Ecuador, expiresAt required', { rail: 'LATAM', country: 'ECUADOR' }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.expiresAt:FIELD_REQUIRED']],
    ['Ecuador, expiresAt in 4 minutes', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(4) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.expiresAt:EXPIRY_OUT_OF_RANGE']],
    ['Ecuador, expiresAt in the past', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(-10) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.expiresAt:EXPIRY_OUT_OF_RANGE']],
    ['Ecuador, expiresAt at 72 h', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(72 * 60) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, []],
    ['Ecuador, expiresAt past 72 h', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(72 * 60 + 1) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.expiresAt:EXPIRY_OUT_OF_RANGE']],
    ['Ecuador, invalid date', { rail: 'LATAM', country: 'ECUADOR', expiresAt: new Date('nope') }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.expiresAt:INVALID_FORMAT']],
    ['Ecuador rejects phone fields', { rail: 'LATAM', country: 'ECUADOR', expiresAt: inMinutes(30) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1', phone: '991234567', phoneCode: '+593' }, ['customer.phone:FIELD_NOT_ALLOWED', 'customer.phoneCode:FIELD_NOT_ALLOWED']],
    ['Ecuador, method given', { rail: 'LATAM', country: 'ECUADOR', method: 'bank', expiresAt: inMinutes(30) }, m('25', 'USD'), { ...named, documentType: 'CI', documentNumber: '1' }, ['latam.method:FIELD_NOT_ALLOWED']],
    ['unknown country', { rail: 'LATAM', country: 'BRAZIL' }, m('25', 'BRL'), { ...named, documentType: 'CPF', documentNumber: '1' }, ['latam.country:INVALID_VALUE']],
    ['country names are case-sensitive', { rail: 'LATAM', country: 'Chile', method: 'bank' }, m('25', 'CLP'), { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, ['latam.country:INVALID_VALUE']],
    ['documents required', { rail: 'LATAM', country: 'MEXICO' }, m('500', 'MXN'), named, ['customer.documentType:FIELD_REQUIRED', 'customer.documentNumber:FIELD_REQUIRED']],
    ['name and email required', { rail: 'LATAM', country: 'MEXICO' }, m('500', 'MXN'), { documentType: 'CURP', documentNumber: 'X' }, ['customer.email:FIELD_REQUIRED', 'customer.firstName:FIELD_REQUIRED', 'customer.lastName:FIELD_REQUIRED']],
  ];
  it.each(cases)('%s', (_label, details, amount, customer, expected) => {
    expect(errors(req(details, amount, customer))).toEqual(expected);
  });
});

describe('UPI', () => {
  const upi: Customer = { ...named, phone: '+919812345678', personalId: 'ana.silva@okhdfc' };
  it.each<[string, Money, Customer, string[]]>([
    ['valid', m('100', 'INR'), upi, []],
    ['at the maximum', m('50000', 'INR'), upi, []],
    ['below 100', m('99.99', 'INR'), upi, ['amount:AMOUNT_BELOW_MINIMUM']],
    ['above 50,000', m('50000.01', 'INR'), upi, ['amount:AMOUNT_ABOVE_MAXIMUM']],
    ['not INR', m('100', 'EUR'), upi, ['currency:CURRENCY_NOT_SUPPORTED']],
    ['no phone', m('100', 'INR'), { ...upi, phone: undefined }, ['customer.phone:FIELD_REQUIRED']],
    ['no personalId', m('100', 'INR'), { ...upi, personalId: undefined }, ['customer.personalId:FIELD_REQUIRED']],
    ['personalId not a UPI ID', m('100', 'INR'), { ...upi, personalId: '9812345678' }, ['customer.personalId:INVALID_FORMAT']],
    ['personalId with two @', m('100', 'INR'), { ...upi, personalId: 'a@b@c' }, ['customer.personalId:INVALID_FORMAT']],
  ])('%s', (_label, amount, customer, expected) => {
    expect(errors(req({ rail: 'UPI' }, amount, customer))).toEqual(expected);
  });
});

describe('PIX', () => {
  const pix: Customer = { ...named, phone: '+5511912345678', personalId: '52998224725' };
  it.each<[string, Money, Customer, string[]]>([
    ['valid', m('10', 'BRL'), pix, []],
    ['another valid CPF at the maximum', m('15000', 'BRL'), { ...pix, personalId: '11144477735' }, []],
    ['below 10', m('9.99', 'BRL'), pix, ['amount:AMOUNT_BELOW_MINIMUM']],
    ['above 15,000', m('15000.01', 'BRL'), pix, ['amount:AMOUNT_ABOVE_MAXIMUM']],
    ['not BRL', m('10', 'USD'), pix, ['currency:CURRENCY_NOT_SUPPORTED']],
    ['no phone', m('10', 'BRL'), { ...pix, phone: undefined }, ['customer.phone:FIELD_REQUIRED']],
    ['no CPF', m('10', 'BRL'), { ...pix, personalId: undefined }, ['customer.personalId:FIELD_REQUIRED']],
    ['CPF with punctuation', m('10', 'BRL'), { ...pix, personalId: '529.982.247-25' }, ['customer.personalId:INVALID_FORMAT']],
    ['CPF of 10 digits', m('10', 'BRL'), { ...pix, personalId: '5299822472' }, ['customer.personalId:INVALID_FORMAT']],
    ['CPF with a wrong check digit', m('10', 'BRL'), { ...pix, personalId: '52998224724' }, ['customer.personalId:INVALID_CHECK_DIGIT']],
    ['CPF of repeated digits', m('10', 'BRL'), { ...pix, personalId: '11111111111' }, ['customer.personalId:INVALID_CHECK_DIGIT']],
  ])('%s', (_label, amount, customer, expected) => {
    expect(errors(req({ rail: 'PIX' }, amount, customer))).toEqual(expected);
  });
});

describe('crypto', () => {
  it.each<[string, Money, string[]]>([
    ['EUR 10.00', m('10.00', 'EUR'), []],
    ['USD 250000 (no maximum is published)', m('250000', 'USD'), []],
    ['EUR 9.99', m('9.99', 'EUR'), ['amount:AMOUNT_BELOW_MINIMUM']],
    ['GBP', m('50', 'GBP'), ['currency:CURRENCY_NOT_SUPPORTED']],
  ])('%s', (_label, amount, expected) => {
    expect(errors(req({ rail: 'CRYPTO' }, amount, named))).toEqual(expected);
  });

  it('requires the buyer name and email', () => {
    expect(errors(req({ rail: 'CRYPTO' }, m('10', 'EUR'), {}))).toEqual(['customer.email:FIELD_REQUIRED', 'customer.firstName:FIELD_REQUIRED', 'customer.lastName:FIELD_REQUIRED']);
  });
});

describe('hosted checkout', () => {
  it('is refused on a test-mode account: a test-key session still charges for real', () => {
    expect(errors(req({ rail: 'HOSTED_CHECKOUT' }, m('10', 'EUR'), {}), test)).toEqual(['hostedCheckout:HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT']);
  });

  it.each<[string, RailDetails, Money, Customer, string[]]>([
    ['minimal', { rail: 'HOSTED_CHECKOUT' }, m('10', 'EUR'), {}, []],
    ['expiry at the bounds', { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 300 }, m('10', 'EUR'), {}, []],
    ['expiry at the upper bound', { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 86400 }, m('10', 'EUR'), {}, []],
    ['expiry too short', { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 299 }, m('10', 'EUR'), {}, ['hostedCheckout.expiresInSeconds:EXPIRY_OUT_OF_RANGE']],
    ['expiry too long', { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 86401 }, m('10', 'EUR'), {}, ['hostedCheckout.expiresInSeconds:EXPIRY_OUT_OF_RANGE']],
    ['expiry not whole', { rail: 'HOSTED_CHECKOUT', expiresInSeconds: 600.5 }, m('10', 'EUR'), {}, ['hostedCheckout.expiresInSeconds:INVALID_VALUE']],
    ['currency outside the card list (A10)', { rail: 'HOSTED_CHECKOUT' }, m('10', 'BRL'), {}, ['currency:CURRENCY_NOT_SUPPORTED']],
    ['preselect sepa NL', { rail: 'HOSTED_CHECKOUT', preselect: { method: 'sepa', bankCountry: 'NL' } }, m('10', 'EUR'), {}, []],
    ['preselect fps NL', { rail: 'HOSTED_CHECKOUT', preselect: { method: 'fps', bankCountry: 'NL' } }, m('10', 'EUR'), {}, ['hostedCheckout.preselect.bankCountry:INVALID_VALUE']],
    ['preselect unknown method', { rail: 'HOSTED_CHECKOUT', preselect: { method: 'paypal' } }, m('10', 'EUR'), {}, ['hostedCheckout.preselect.method:INVALID_VALUE']],
    ['prefill email must be valid', { rail: 'HOSTED_CHECKOUT' }, m('10', 'EUR'), { email: 'nope' }, ['customer.email:INVALID_FORMAT']],
    ['prefill country must be ISO', { rail: 'HOSTED_CHECKOUT' }, m('10', 'EUR'), { country: 'Germany' }, ['customer.country:INVALID_FORMAT']],
  ])('on a live account: %s', (_label, details, amount, customer, expected) => {
    expect(errors(req(details, amount, customer), live)).toEqual(expected);
  });
});

describe('payouts', () => {
  const payout = (country: string, amount: Money, beneficiary: PayoutToValidate['beneficiary']): string[] =>
    validatePayoutRequest({ country, amount, beneficiary }).map((error) => `${error.field.join('.')}:${error.code}`);
  const full = { name: 'Ana Soto', documentType: 'RUT', documentNumber: '12345678-5', accountNumber: '000123456789', bankCode: 'BCH', accountType: 'checking' };

  it.each<[string, string, Money, PayoutToValidate['beneficiary'], string[]]>([
    ['Chile complete', 'CHILE', m('150000', 'CLP'), full, []],
    ['Chile missing bank fields', 'CHILE', m('150000', 'CLP'), { ...full, bankCode: undefined, accountType: '' }, ['beneficiary.bankCode:FIELD_REQUIRED', 'beneficiary.accountType:FIELD_REQUIRED']],
    ['Chile bad RUT', 'CHILE', m('150000', 'CLP'), { ...full, documentNumber: '12345678-0' }, ['beneficiary.documentNumber:INVALID_CHECK_DIGIT']],
    ['Chile in USD', 'CHILE', m('150', 'USD'), full, ['currency:CURRENCY_NOT_SUPPORTED']],
    ['Peru needs the CCI', 'PERU', m('500', 'PEN'), { ...full, documentType: 'DNI', documentNumber: '12345678' }, ['beneficiary.cci:FIELD_REQUIRED']],
    ['Peru complete', 'PERU', m('500', 'PEN'), { ...full, documentType: 'DNI', documentNumber: '12345678', cci: '00219300123456789012' }, []],
    ['Mexico with a CLABE and no bank code', 'MEXICO', m('1500', 'MXN'), { name: 'Ana', documentType: 'RFC', documentNumber: 'X', accountNumber: '032180000118359719' }, []],
    ['Mexico CLABE of 17 digits', 'MEXICO', m('1500', 'MXN'), { name: 'Ana', documentType: 'RFC', documentNumber: 'X', accountNumber: '03218000011835971' }, ['beneficiary.accountNumber:INVALID_FORMAT']],
    ['Mexico CLABE with a wrong check digit', 'MEXICO', m('1500', 'MXN'), { name: 'Ana', documentType: 'RFC', documentNumber: 'X', accountNumber: '032180000118359710' }, ['beneficiary.accountNumber:INVALID_CHECK_DIGIT']],
    ['Colombia nothing given', 'COLOMBIA', m('250000', 'COP'), {}, [
      'beneficiary.name:FIELD_REQUIRED',
      'beneficiary.documentType:FIELD_REQUIRED',
      'beneficiary.documentNumber:FIELD_REQUIRED',
      'beneficiary.accountNumber:FIELD_REQUIRED',
      'beneficiary.bankCode:FIELD_REQUIRED',
      'beneficiary.accountType:FIELD_REQUIRED',
    ]],
    ['Ecuador unknown document type', 'ECUADOR', m('100', 'USD'), { ...full, documentType: 'DNI' }, ['beneficiary.documentType:INVALID_VALUE']],
    ['unknown country', 'BRAZIL', m('100', 'BRL'), full, ['country:INVALID_VALUE']],
    ['zero amount', 'CHILE', m('0', 'CLP'), full, ['amount:INVALID_VALUE']],
  ])('%s', (_label, country, amount, beneficiary, expected) => {
    expect(payout(country, amount, beneficiary)).toEqual(expected);
  });

  it('never echoes a full account number in a message', () => {
    const [error] = validatePayoutRequest({ country: 'MEXICO', amount: m('10', 'MXN'), beneficiary: { name: 'A', documentType: 'RFC', documentNumber: 'X', accountNumber: '032180000118359710' } });
    expect(error?.message).not.toContain('032180000118359710');
    expect(error?.message).toContain('9710');
  });

  it('refuses an over-long merchant reference', () => {
    expect(validatePayoutRequest({ payoutId: 'p'.repeat(129), country: 'CHILE', amount: m('1000', 'CLP'), beneficiary: full }).map((e) => e.code)).toEqual(['REFERENCE_TOO_LONG']);
  });
});

describe('amount decimals: the provider\'s, where they are fewer than ISO 4217\'s', () => {
  const colombia: RailDetails = { rail: 'LATAM', country: 'COLOMBIA', redirectUrl: 'https://s.example/co' };
  const colombian: Customer = { ...named, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' };
  const payoutTo = { name: 'Ana Gómez', documentType: 'CC', documentNumber: '1020304050', accountNumber: '4567890122', bankCode: 'BANCOLOMBIA', accountType: 'savings' };
  const amountErrors = (found: { field: string[]; code: string; message: string }[]) => found.filter((error) => error.field[0] === 'amount');

  it('takes a whole COP amount written with ISO\'s two decimals', () => {
    expect(errors(req(colombia, m('50000.00', 'COP'), colombian))).toEqual([]);
    expect(validatePayoutRequest({ country: 'COLOMBIA', amount: m('250000.00', 'COP'), beneficiary: payoutTo })).toEqual([]);
  });

  it('refuses a COP amount with a fraction on `amount`, with a message saying why, for deposits, payouts and refunds', () => {
    const expected = [{ field: ['amount'], code: 'AMOUNT_TOO_PRECISE', message: 'COP amounts are whole numbers at this provider; got 50000.50.' }];
    expect(amountErrors(validateDepositRequest(test, req(colombia, m('50000.50', 'COP'), colombian), NOW))).toEqual(expected);
    expect(amountErrors(validatePayoutRequest({ country: 'COLOMBIA', amount: m('50000.50', 'COP'), beneficiary: payoutTo }))).toEqual(expected);
    expect(validateRefundRequest({ amount: m('50000.50', 'COP') })).toEqual(expected);
    expect(validateRefundRequest({ amount: m('0.01', 'COP') }).map((error) => error.code)).toEqual(['AMOUNT_TOO_PRECISE']);
  });

  it('takes a refund the provider can write, and a refund of the whole payment', () => {
    expect(validateRefundRequest({ amount: m('5000', 'COP') })).toEqual([]);
    expect(validateRefundRequest({ amount: m('15000', 'CLP') })).toEqual([]);
    expect(validateRefundRequest({ amount: m('10.50', 'EUR') })).toEqual([]);
    expect(validateRefundRequest({})).toEqual([]);
  });

  it('takes at most two decimals whatever ISO gives: a three-decimal currency is refused before any call', () => {
    expect(validateRefundRequest({ amount: m('1.234', 'KWD') })).toEqual([
      { field: ['amount'], code: 'AMOUNT_TOO_PRECISE', message: 'KWD amounts have at most 2 decimals at this provider; got 1.234.' },
    ]);
    expect(validateRefundRequest({ amount: m('1.230', 'KWD') })).toEqual([]);
  });
});

describe('check digits', () => {
  it('RUT modulo 11', () => {
    expect(rutCheckDigit('12345678')).toBe('5');
    expect(rutCheckDigit('10000013')).toBe('K');
    expect(rutCheckDigit('1000013')).toBe('0');
  });
  it('CPF', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224715')).toBe(false);
    expect(isValidCpf('00000000000')).toBe(false);
  });
  it('CLABE', () => {
    expect(isValidClabe('032180000118359719')).toBe(true);
    expect(isValidClabe('032180000118359718')).toBe(false);
  });
});
