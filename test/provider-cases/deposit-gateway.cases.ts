// Every request rule of spec/deposit-gateway.md, with its boundary, as one table of cases. Each case
// is a request as the provider receives it (the spec's field names) and the verdict the spec gives:
// accepted, or rejected by one named rule. deposit-gateway.test.ts runs every case against the
// adapter's validation and against the sandbox over HTTP; both must give the table's verdict.
//
// Where the spec says "not shown" the rule comes from an assumption in
// src/providers/deposit-gateway/assumptions.ts (A-numbers, see docs/provider-assumptions.md).

import { JsonNumber } from '../../src/providers/deposit-gateway/json.js';

export type DepositRail = 'HOSTED_CHECKOUT' | 'CARD' | 'OPEN_BANKING' | 'LATAM' | 'UPI' | 'PIX' | 'CRYPTO' | 'PAYOUT';

/** A rule a request can break: the spec's words, where the adapter reports it, what the sandbox says. */
export interface Rule {
  spec: string;
  /** The adapter's field path (FieldError.field joined with dots). */
  field: string;
  /** The sandbox's 4xx `error` text names the rule. */
  message: RegExp;
}

export const RULES = {
  'amount.decimals': { spec: 'Payment: "Up to 2 decimals. CLP and COP are zero-decimal: send integers"', field: 'amount', message: /decimal|whole number/i },
  'amount.positive': { spec: 'Money amounts are decimal strings in major units (an amount of nothing moves no money)', field: 'amount', message: /greater than zero|decimal/i },
  'amount.format': { spec: 'Money amounts are decimal strings in major units; amount is required', field: 'amount', message: /decimal|amount is required/i },
  'amount.below': { spec: 'Limits / 422: "Amount below the minimum for the rail"', field: 'amount', message: /below the minimum|between/i },
  'amount.above': { spec: 'Limits / 422: "amount above the maximum"', field: 'amount', message: /above the maximum|between/i },
  currency: { spec: '422: "currency not supported"; UPI/PIX: "A mismatch is rejected, not converted"', field: 'currency', message: /currenc|settles [A-Z]{3} only/i },
  merchant_reference: { spec: 'merchant_reference: "Max 128 chars"', field: 'depositId', message: /merchant_reference/ },
  return_url: { spec: 'return_url: "https:// only"', field: 'returnUrl', message: /return_url/ },
  email: { spec: 'email: "Customer email" (required)', field: 'customer.email', message: /email/ },
  firstName: { spec: 'firstName, lastName: required', field: 'customer.firstName', message: /firstName/ },
  lastName: { spec: 'firstName, lastName: required', field: 'customer.lastName', message: /lastName/ },
  country: { spec: 'Cards: "ISO 3166-1 alpha-2 only (a country name is wrong)"', field: 'customer.country', message: /country/ },
  address1: { spec: 'address1, city, zipCode: "Billing address" (required)', field: 'customer.address1', message: /address1/ },
  city: { spec: 'address1, city, zipCode: "Billing address" (required)', field: 'customer.city', message: /city/ },
  zipCode: { spec: 'address1, city, zipCode: "Billing address" (required)', field: 'customer.zipCode', message: /zipCode/ },
  'card.phone': { spec: 'Cards: phone "E.164 format"', field: 'customer.phone', message: /E\.164/ },
  'ob.method': { spec: 'Open banking method: "`sepa`, `instant`, `fps`"', field: 'openBanking.method', message: /method/ },
  'ob.bankCountry': { spec: 'bankCountry: "`NL`, `MT`, `GB`; `fps` is GB only"', field: 'openBanking.bankCountry', message: /bankCountry|fps/ },
  'latam.country': { spec: 'LATAM country: "`ECUADOR`, `CHILE`, `PERU`, `MEXICO`, `COLOMBIA`"', field: 'latam.country', message: /country/ },
  'latam.method': { spec: 'LATAM method: "Chile: `cards` or `bank`. Peru: `bank` or `qr`. Omitted for Ecuador, Mexico, Colombia"', field: 'latam.method', message: /method/ },
  documentType: { spec: 'documentType: "Case-sensitive; allowed values per country" (A7)', field: 'customer.documentType', message: /documentType/ },
  documentNumber: { spec: 'documentNumber: "Validated per country (Peru DNI: 8 digits; Chile RUT: NNNNNNNN-D)" (A14)', field: 'customer.documentNumber', message: /documentNumber/ },
  phone: { spec: 'phone: "Required for Chile cards and Colombia; Ecuador rejects phone fields entirely"; UPI/PIX: "Payment rejected without it"', field: 'customer.phone', message: /phone\b/ },
  phoneCode: { spec: 'phoneCode: "like `+57`. Required for Chile cards and Colombia; Ecuador rejects phone fields entirely" (A29)', field: 'customer.phoneCode', message: /phoneCode/ },
  successUrl: { spec: 'successUrl: redirect after the hosted payment (https only, A22)', field: 'latam.successUrl', message: /successUrl/ },
  errorUrl: { spec: 'errorUrl: redirect after the hosted payment (https only, A22)', field: 'latam.errorUrl', message: /errorUrl/ },
  redirectUrl: { spec: 'redirectUrl: "Colombia only" (https only, A22)', field: 'latam.redirectUrl', message: /redirectUrl/ },
  expiresAt: { spec: 'expiresAt: "ISO 8601 link expiry. Ecuador requires a near-future value" (A8)', field: 'latam.expiresAt', message: /expiresAt/ },
  personalId: { spec: 'personalId: "India: the payer\'s UPI ID. Brazil: the payer\'s CPF, 11 digits" (A28)', field: 'customer.personalId', message: /personalId/ },
  expires_in: { spec: 'Checkout session expires_in: "300 to 86400, default 3600"', field: 'hostedCheckout.expiresInSeconds', message: /expires_in/ },
  'session.method': { spec: 'Checkout session method: "Pre-select the rail" (A13)', field: 'hostedCheckout.preselect.method', message: /method/ },
  'session.bankCountry': { spec: 'Checkout session bankCountry, with the open-banking values (A13)', field: 'hostedCheckout.preselect.bankCountry', message: /bankCountry|fps/ },
  'payout.country': { spec: 'Payout country: "`ECUADOR`, `CHILE`, `PERU`, `MEXICO`, `COLOMBIA`"', field: 'country', message: /country/ },
  'payout.reference': { spec: 'Payout merchant_reference: "Max 128 chars"', field: 'payoutId', message: /merchant_reference/ },
  'beneficiary.name': { spec: 'Beneficiary fields required per country (A5); 422 with a `missing` array', field: 'beneficiary.name', message: /name/ },
  'beneficiary.document_type': { spec: 'Beneficiary document_type: "Case-sensitive ID type per country" (A5, A16)', field: 'beneficiary.documentType', message: /document_type/ },
  'beneficiary.document_number': { spec: 'Beneficiary document_number, validated as for deposits (A5, A16)', field: 'beneficiary.documentNumber', message: /document_number/ },
  'beneficiary.account_number': { spec: 'account_number: "Destination account number (the CLABE for Mexico)"', field: 'beneficiary.accountNumber', message: /account_number/ },
  'beneficiary.bank_code': { spec: 'Beneficiary fields required per country (A5)', field: 'beneficiary.bankCode', message: /bank_code/ },
  'beneficiary.account_type': { spec: 'Beneficiary fields required per country (A5)', field: 'beneficiary.accountType', message: /account_type/ },
  'beneficiary.cci': { spec: 'cci: "Peru only: interbank number" (required for Peru, A5)', field: 'beneficiary.cci', message: /cci/ },
  // Rules only a body the adapter never writes can break: the sandbox's own strictness.
  'amount.type': { spec: 'Payment: amount is a "string, major units"; only "Crypto examples send a JSON number"', field: 'amount', message: /must be a string/ },
  metadata: { spec: 'metadata: "object", opaque data echoed back', field: 'metadata', message: /metadata must be an object/ },
  white_label: { spec: 'white_label: "boolean", default false', field: 'whiteLabel', message: /white_label must be a boolean/ },
  solution: { spec: 'solution: "Accepted: cards, crypto, upi, pix, plus three further provider-specific rail names"', field: 'rail', message: /Unknown solution/ },
  'solution.conflict': { spec: 'solution "Names the rail explicitly"; provider `crypto` "selects the crypto rail"', field: 'rail', message: /does not belong to solution|name two different rails/ },
  body: { spec: 'Conventions: "requests and responses are JSON" objects', field: 'body', message: /JSON object|valid JSON/ },
  beneficiary: { spec: 'Payout beneficiary: "Object, see below"', field: 'beneficiary', message: /beneficiary is required/ },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export interface DepositCase {
  name: string;
  rail: DepositRail;
  body: Record<string, unknown>;
  expect: 'accepted' | RuleId;
  /**
   * A body the adapter would never write (a wrong JSON type, a raw token): only the sandbox is
   * asked, so its own strictness is tested rather than assumed from the adapter's.
   */
  sandboxOnly?: true;
  /** Sent instead of `body`, byte for byte (sandbox-only cases whose JSON no serializer writes). */
  raw?: string;
}

/**
 * Crypto amounts as the spec's examples send them, a JSON number (A21), with its exact token. A
 * plain decimal string of a crypto case becomes one (JSON's own number grammar: no leading zero);
 * a malformed string stays a string.
 */
const cryptoAmount = (value: unknown): unknown => (typeof value === 'string' && /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value) ? new JsonNumber(value) : value);

// ------------------------------------------------------------------------------------ valid bodies

const person = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const billing = { country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' };
const minutesFromNow = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();

const VALID: Record<DepositRail, Record<string, unknown>> = {
  HOSTED_CHECKOUT: { amount: '25.00', currency: 'EUR' },
  CARD: { solution: 'cards', method: 'cards', amount: '10.00', ...person, ...billing },
  OPEN_BANKING: { method: 'sepa', bankCountry: 'NL', amount: '25.00', ...person, ...billing },
  LATAM: { country: 'PERU', method: 'bank', amount: '50.00', ...person, documentType: 'DNI', documentNumber: '12345678' },
  UPI: { solution: 'upi', amount: '500.00', ...person, phone: '+919876543210', personalId: 'ada@okaxis' },
  PIX: { solution: 'pix', amount: '50.00', ...person, phone: '+5511987654321', personalId: '52998224725' },
  CRYPTO: { provider: 'crypto', amount: '25.00', currency: 'EUR', ...person },
  PAYOUT: {
    country: 'COLOMBIA',
    amount: '50000',
    beneficiary: { name: 'Ada Lovelace', document_type: 'CC', document_number: '1020304050', account_number: '1234567890', bank_code: 'BANCOLOMBIA', account_type: 'SAVINGS' },
  },
};

/** A valid LATAM body per country; each breaks no rule. */
const LATAM: Record<string, Record<string, unknown>> = {
  ECUADOR: { country: 'ECUADOR', amount: '20.00', ...person, documentType: 'CI', documentNumber: '1710034065', expiresAt: minutesFromNow(60) },
  CHILE: { country: 'CHILE', method: 'bank', amount: '5000', ...person, documentType: 'RUT', documentNumber: '12345678-5' },
  PERU: VALID.LATAM,
  MEXICO: { country: 'MEXICO', amount: '100.00', ...person, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN09' },
  COLOMBIA: { country: 'COLOMBIA', amount: '50000', ...person, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' },
};

/** A valid payout beneficiary per country (A5's required fields). */
const BENEFICIARY: Record<string, Record<string, string>> = {
  ECUADOR: { name: 'Ada Lovelace', document_type: 'CI', document_number: '1710034065', account_number: '2200123456', bank_code: 'PICHINCHA', account_type: 'SAVINGS' },
  CHILE: { name: 'Ada Lovelace', document_type: 'RUT', document_number: '12345678-5', account_number: '00123456', bank_code: 'BCI', account_type: 'CHECKING' },
  PERU: { name: 'Ada Lovelace', document_type: 'DNI', document_number: '12345678', account_number: '1912345678', bank_code: 'BCP', account_type: 'SAVINGS', cci: '00219100123456789012' },
  MEXICO: { name: 'Ada Lovelace', document_type: 'CURP', document_number: 'GODE561231HDFRRN09', account_number: '002180012345678906' },
  COLOMBIA: VALID.PAYOUT.beneficiary as Record<string, string>,
};
const PAYOUT_AMOUNT: Record<string, string> = { ECUADOR: '20.00', CHILE: '5000', PERU: '50.00', MEXICO: '100.00', COLOMBIA: '50000' };

// ------------------------------------------------------------------------------------ builders

const cases: DepositCase[] = [];

function with_(rail: DepositRail, base: Record<string, unknown>, name: string, change: Record<string, unknown>, expect: DepositCase['expect']): void {
  const body = { ...base };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  if (rail === 'CRYPTO' && 'amount' in body) body.amount = cryptoAmount(body.amount);
  cases.push({ name, rail, body, expect });
}

/** A body only the sandbox is asked about (see `DepositCase.sandboxOnly`); `raw` rewrites its JSON text. */
function sandboxOnly(rail: DepositRail, name: string, change: Record<string, unknown>, expect: DepositCase['expect'], raw?: (json: string) => string): void {
  const body = { ...VALID[rail] };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  cases.push({ name: `${name} (a body the adapter never writes)`, rail, body, expect, sandboxOnly: true, ...(raw ? { raw: raw(JSON.stringify(body)) } : {}) });
}

const add = (rail: DepositRail, name: string, change: Record<string, unknown>, expect: DepositCase['expect']): void => with_(rail, VALID[rail], name, change, expect);
const latam = (country: string, name: string, change: Record<string, unknown>, expect: DepositCase['expect']): void => with_('LATAM', LATAM[country]!, `${country}: ${name}`, change, expect);
const payout = (country: string, name: string, change: Record<string, unknown>, expect: DepositCase['expect'], beneficiary: Record<string, unknown> = {}): void => {
  const merged: Record<string, unknown> = { ...BENEFICIARY[country] };
  for (const [key, value] of Object.entries(beneficiary)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  with_('PAYOUT', { country, amount: PAYOUT_AMOUNT[country], beneficiary: merged }, `${country}: ${name}`, change, expect);
};

// ------------------------------------------------------------------------------------ every rail

for (const rail of Object.keys(VALID) as DepositRail[]) add(rail, 'the valid request', {}, 'accepted');
for (const country of Object.keys(LATAM)) latam(country, 'the valid request', {}, 'accepted');
for (const country of Object.keys(BENEFICIARY)) payout(country, 'the valid request', {}, 'accepted');

// Shared fields of a payment (spec: Payment create request, shared fields).
for (const rail of ['CARD', 'OPEN_BANKING', 'LATAM', 'UPI', 'PIX', 'CRYPTO', 'HOSTED_CHECKOUT'] as const) {
  add(rail, 'merchant_reference of 128 characters', { merchant_reference: 'r'.repeat(128) }, 'accepted');
  add(rail, 'merchant_reference of 129 characters', { merchant_reference: 'r'.repeat(129) }, 'merchant_reference');
  add(rail, 'return_url https', { return_url: 'https://shop.example/return' }, 'accepted');
  add(rail, 'return_url http', { return_url: 'http://shop.example/return' }, 'return_url');
  add(rail, 'return_url not a URL', { return_url: 'shop.example/return' }, 'return_url');
  add(rail, 'amount zero', { amount: rail === 'HOSTED_CHECKOUT' || rail === 'CRYPTO' || rail === 'CARD' || rail === 'OPEN_BANKING' ? '0.00' : '0' }, 'amount.positive');
  add(rail, 'amount negative', { amount: '-10.00' }, 'amount.positive');
  add(rail, 'amount with a thousands separator', { amount: '1,000.00' }, 'amount.format');
  add(rail, 'amount with an exponent', { amount: '1e3' }, 'amount.format');
  add(rail, 'amount with a leading zero', { amount: '025' }, 'amount.format');
  add(rail, 'amount ending in a point', { amount: '25.' }, 'amount.format');
  add(rail, 'amount with spaces', { amount: ' 25' }, 'amount.format');
  add(rail, 'amount missing', { amount: undefined }, 'amount.format');
}
for (const rail of ['CARD', 'OPEN_BANKING', 'UPI', 'PIX', 'CRYPTO', 'HOSTED_CHECKOUT'] as const) {
  add(rail, 'amount with 3 decimals', { amount: rail === 'UPI' ? '500.001' : '25.001' }, 'amount.decimals');
  add(rail, 'amount with 1 decimal', { amount: rail === 'UPI' ? '500.5' : '25.5' }, 'accepted');
  add(rail, 'amount without decimals', { amount: rail === 'UPI' ? '500' : '25' }, 'accepted');
}

// Name and email (every direct rail: "email yes", "firstName, lastName yes").
for (const rail of ['CARD', 'OPEN_BANKING', 'LATAM', 'UPI', 'PIX', 'CRYPTO'] as const) {
  add(rail, 'email missing', { email: undefined }, 'email');
  add(rail, 'email without a domain', { email: 'ada@example' }, 'email');
  add(rail, 'email with a space', { email: 'ada lovelace@example.com' }, 'email');
  add(rail, 'email without @', { email: 'ada.example.com' }, 'email');
  add(rail, 'email with a subdomain and plus', { email: 'ada+test@mail.example.co.uk' }, 'accepted');
  add(rail, 'firstName missing', { firstName: undefined }, 'firstName');
  add(rail, 'firstName blank', { firstName: '   ' }, 'firstName');
  add(rail, 'lastName missing', { lastName: undefined }, 'lastName');
}

// ------------------------------------------------------------------------------------ cards

const CARD_CURRENCIES = ['EUR', 'GBP', 'USD', 'CAD', 'AUD', 'TRY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'NZD', 'JPY'];
for (const currency of CARD_CURRENCIES) {
  const whole = currency === 'JPY';
  add('CARD', `currency ${currency} at the minimum`, { currency, amount: whole ? '1' : '1.00' }, 'accepted');
  add('CARD', `currency ${currency} at the maximum`, { currency, amount: whole ? '10000' : '10000.00' }, 'accepted');
  add('CARD', `currency ${currency} above the maximum`, { currency, amount: whole ? '10001' : '10000.01' }, 'amount.above');
}
add('CARD', 'currency omitted (default EUR)', { currency: undefined }, 'accepted');
add('CARD', 'amount 0.99, below 1.00', { amount: '0.99' }, 'amount.below');
add('CARD', 'amount 0.01', { amount: '0.01' }, 'amount.below');
add('CARD', 'JPY amount with decimals', { currency: 'JPY', amount: '100.50' }, 'amount.decimals');
for (const currency of ['BRL', 'INR', 'MXN', 'THB', 'HUF']) add('CARD', `currency ${currency} not in the card list`, { currency }, 'currency');
add('CARD', 'currency in lower case', { currency: 'eur' }, 'currency');
for (const country of ['NL', 'GB', 'DE', 'US', 'BR', 'IN', 'JP', 'AX', 'CW', 'SS']) add('CARD', `country ${country}`, { country }, 'accepted');
for (const country of ['Netherlands', 'nl', 'NLD', 'N', 'UK', 'EU', 'XK', 'ZZ', 'AN', 'EZ', 'UN', 'QO', 'XA', 'SU', 'YU', 'AC', 'IC', 'TA']) {
  add('CARD', `country ${country} is not an ISO 3166-1 alpha-2 code`, { country }, 'country');
}
// `solution: "cards"` names the rail: a LATAM country name does not route the payment to LATAM
// (spec: shared fields, `solution`), it is a card payment whose country is not an ISO code.
for (const country of ['CHILE', 'PERU', 'ECUADOR', 'MEXICO', 'COLOMBIA']) add('CARD', `solution cards with the LATAM country ${country}`, { country }, 'country');
add('CARD', 'country missing', { country: undefined }, 'country');
add('CARD', 'address1 missing', { address1: undefined }, 'address1');
add('CARD', 'city missing', { city: undefined }, 'city');
add('CARD', 'zipCode missing', { zipCode: undefined }, 'zipCode');
add('CARD', 'phone in E.164', { phone: '+31201234567' }, 'accepted');
add('CARD', 'phone of 15 digits', { phone: '+123456789012345' }, 'accepted');
add('CARD', 'phone of 16 digits', { phone: '+1234567890123456' }, 'card.phone');
add('CARD', 'phone without +', { phone: '0201234567' }, 'card.phone');
add('CARD', 'phone with spaces', { phone: '+31 20 123 4567' }, 'card.phone');
add('CARD', 'phone starting +0', { phone: '+0201234567' }, 'card.phone');

// ------------------------------------------------------------------------------------ open banking

for (const [method, bankCountry, currency] of [
  ['sepa', 'NL', 'EUR'], ['sepa', 'MT', 'EUR'], ['sepa', 'GB', 'GBP'], ['instant', 'NL', 'EUR'], ['instant', 'MT', 'EUR'], ['instant', 'GB', 'GBP'], ['fps', 'GB', 'GBP'],
] as const) {
  add('OPEN_BANKING', `${method} in ${bankCountry} with ${currency}`, { method, bankCountry, currency, country: bankCountry }, 'accepted');
}
add('OPEN_BANKING', 'fps in NL', { method: 'fps', bankCountry: 'NL', currency: 'EUR' }, 'ob.bankCountry');
add('OPEN_BANKING', 'fps in MT', { method: 'fps', bankCountry: 'MT', currency: 'EUR' }, 'ob.bankCountry');
for (const bankCountry of ['DE', 'FR', 'nl', 'GBR']) add('OPEN_BANKING', `bankCountry ${bankCountry}`, { bankCountry, currency: 'EUR' }, 'ob.bankCountry');
add('OPEN_BANKING', 'bankCountry missing', { bankCountry: undefined, currency: 'EUR' }, 'ob.bankCountry');
for (const method of ['SEPA', 'ideal', 'bank']) add('OPEN_BANKING', `method ${method}`, { method }, 'ob.method');
add('OPEN_BANKING', 'GBP in NL (A9: EUR)', { currency: 'GBP' }, 'currency');
add('OPEN_BANKING', 'EUR in GB (A9: GBP)', { bankCountry: 'GB', currency: 'EUR' }, 'currency');
add('OPEN_BANKING', 'currency omitted in GB (A9 default GBP)', { bankCountry: 'GB', currency: undefined }, 'accepted');
add('OPEN_BANKING', 'country name', { country: 'Netherlands' }, 'country');
add('OPEN_BANKING', 'country UK', { country: 'UK' }, 'country');
add('OPEN_BANKING', 'address1 missing', { address1: undefined }, 'address1');
add('OPEN_BANKING', 'city missing', { city: undefined }, 'city');
add('OPEN_BANKING', 'zipCode missing', { zipCode: undefined }, 'zipCode');
add('OPEN_BANKING', 'phone in any form (no rule given)', { phone: '020 123 4567' }, 'accepted');

// ------------------------------------------------------------------------------------ LATAM

for (const country of ['ARGENTINA', 'BRAZIL', 'chile', 'Chile']) add('LATAM', `country ${country}`, { country, currency: 'USD', amount: '50.00', method: undefined }, 'latam.country');
// Currency per country (A6) and the zero-decimal rule.
for (const [country, currency, ok, tooPrecise] of [
  ['ECUADOR', 'USD', '20.00', '20.005'], ['CHILE', 'CLP', '5000', '5000.5'], ['PERU', 'PEN', '50.00', '50.001'], ['MEXICO', 'MXN', '100.00', '100.001'], ['COLOMBIA', 'COP', '50000', '50000.5'],
] as const) {
  latam(country, `currency ${currency} named`, { currency, amount: ok }, 'accepted');
  latam(country, `amount ${tooPrecise} ${currency}`, { amount: tooPrecise }, 'amount.decimals');
  latam(country, 'currency EUR instead of the country currency', { currency: 'EUR', amount: '50.00' }, 'currency');
}
// The currency override (A30): US dollars anywhere, with two decimals even where the country's currency has none.
for (const country of ['CHILE', 'PERU', 'MEXICO', 'COLOMBIA']) {
  latam(country, 'currency USD override (A30)', { currency: 'USD', amount: '50.25' }, 'accepted');
  latam(country, 'currency USD override with 3 decimals', { currency: 'USD', amount: '50.255' }, 'amount.decimals');
  latam(country, 'currency GBP override', { currency: 'GBP', amount: '50.00' }, 'currency');
}
latam('PERU', 'currency MXN of another LATAM country', { currency: 'MXN', amount: '50.00' }, 'currency');
latam('CHILE', 'amount 5000.00 written with decimals', { amount: '5000.50' }, 'amount.decimals');
latam('COLOMBIA', 'amount 1', { amount: '1' }, 'accepted');
// Methods.
latam('CHILE', 'method cards (with phone)', { method: 'cards', phone: '912345678', phoneCode: '+56' }, 'accepted');
latam('CHILE', 'method qr', { method: 'qr' }, 'latam.method');
latam('CHILE', 'method missing', { method: undefined }, 'latam.method');
latam('CHILE', 'method BANK', { method: 'BANK' }, 'latam.method');
latam('PERU', 'method qr', { method: 'qr' }, 'accepted');
latam('PERU', 'method cards', { method: 'cards' }, 'latam.method');
latam('PERU', 'method missing', { method: undefined }, 'latam.method');
for (const country of ['ECUADOR', 'MEXICO', 'COLOMBIA']) latam(country, 'method given', { method: 'bank' }, 'latam.method');
// Document types (A7), case-sensitive.
const DOCUMENTS: Record<string, Array<[string, string]>> = {
  ECUADOR: [['CI', '1710034065'], ['RUC', '1790012345001'], ['PASSPORT', 'A1234567']],
  CHILE: [['RUT', '12345678-5']],
  PERU: [['DNI', '12345678'], ['CE', '001234567'], ['PASSPORT', 'P1234567']],
  MEXICO: [['CURP', 'GODE561231HDFRRN09'], ['RFC', 'GODE561231GR8'], ['PASSPORT', 'G12345678']],
  COLOMBIA: [['CC', '1020304050'], ['CE', '123456'], ['NIT', '900123456'], ['PASSPORT', 'AB123456']],
};
for (const [country, documents] of Object.entries(DOCUMENTS)) {
  for (const [documentType, documentNumber] of documents) {
    latam(country, `documentType ${documentType}`, { documentType, documentNumber }, 'accepted');
    if (documentType.toLowerCase() !== documentType) latam(country, `documentType ${documentType.toLowerCase()} (case-sensitive)`, { documentType: documentType.toLowerCase(), documentNumber }, 'documentType');
  }
  latam(country, 'documentType missing', { documentType: undefined }, 'documentType');
  latam(country, 'documentNumber missing', { documentNumber: undefined }, 'documentNumber');
}
latam('PERU', 'documentType RUT (Chile only)', { documentType: 'RUT', documentNumber: '12345678-5' }, 'documentType');
latam('CHILE', 'documentType DNI', { documentType: 'DNI', documentNumber: '12345678' }, 'documentType');
latam('MEXICO', 'documentType CC', { documentType: 'CC', documentNumber: '1020304050' }, 'documentType');
// Peru DNI: 8 digits.
latam('PERU', 'DNI of 7 digits', { documentNumber: '1234567' }, 'documentNumber');
latam('PERU', 'DNI of 9 digits', { documentNumber: '123456789' }, 'documentNumber');
latam('PERU', 'DNI with a letter', { documentNumber: '1234567A' }, 'documentNumber');
latam('PERU', 'DNI with a dash', { documentNumber: '1234-5678' }, 'documentNumber');
latam('PERU', 'DNI 00000001', { documentNumber: '00000001' }, 'accepted');
// Chile RUT: NNNNNNNN-D with its check digit (A14).
for (const rut of ['12345678-5', '7654321-6', '1000005-K', '10000013-K', '20000000-5', '9999999-3']) latam('CHILE', `RUT ${rut}`, { documentNumber: rut }, 'accepted');
for (const rut of ['12.345.678-5', '123456785', '12345678-0', '1000005-k', '123456-0', '123456789-2', '12345678-', '12345678 5', ' 12345678-5']) {
  latam('CHILE', `RUT ${JSON.stringify(rut)}`, { documentNumber: rut }, 'documentNumber');
}
// Phone fields.
latam('COLOMBIA', 'phone missing', { phone: undefined }, 'phone');
latam('COLOMBIA', 'phoneCode missing', { phoneCode: undefined }, 'phoneCode');
latam('CHILE', 'cards without phone', { method: 'cards', phoneCode: '+56' }, 'phone');
latam('CHILE', 'cards without phoneCode', { method: 'cards', phone: '912345678' }, 'phoneCode');
latam('CHILE', 'bank without phone fields', {}, 'accepted');
latam('PERU', 'phone fields given (optional)', { phone: '912345678', phoneCode: '+51' }, 'accepted');
latam('MEXICO', 'phone fields given (optional)', { phone: '5512345678', phoneCode: '+52' }, 'accepted');
latam('ECUADOR', 'phone given', { phone: '991234567' }, 'phone');
latam('ECUADOR', 'phoneCode given', { phoneCode: '+593' }, 'phoneCode');
for (const phoneCode of ['+1', '+57', '+593']) latam('COLOMBIA', `phoneCode ${phoneCode}`, { phoneCode }, 'accepted');
for (const phoneCode of ['57', '+057', '+0', '+', '+5712', '+57 ', '0057', '+5a']) latam('COLOMBIA', `phoneCode ${JSON.stringify(phoneCode)}`, { phoneCode }, 'phoneCode');
latam('PERU', 'phoneCode 51 without +', { phone: '912345678', phoneCode: '51' }, 'phoneCode');
// Redirect addresses.
latam('COLOMBIA', 'redirectUrl https', { redirectUrl: 'https://shop.example/back' }, 'accepted');
latam('COLOMBIA', 'redirectUrl http', { redirectUrl: 'http://shop.example/back' }, 'redirectUrl');
latam('COLOMBIA', 'redirectUrl not a URL', { redirectUrl: 'shop.example/back' }, 'redirectUrl');
for (const country of ['ECUADOR', 'CHILE', 'PERU', 'MEXICO']) latam(country, 'redirectUrl outside Colombia', { redirectUrl: 'https://shop.example/back' }, 'redirectUrl');
for (const country of ['CHILE', 'COLOMBIA']) {
  latam(country, 'successUrl and errorUrl https', { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' }, 'accepted');
  latam(country, 'successUrl http', { successUrl: 'http://shop.example/ok' }, 'successUrl');
  latam(country, 'errorUrl http', { errorUrl: 'http://shop.example/ko' }, 'errorUrl');
  latam(country, 'successUrl ftp', { successUrl: 'ftp://shop.example/ok' }, 'successUrl');
}
// expiresAt: Ecuador's near-future window (A8: 5 minutes to 72 hours); Peru and Chile ignore it.
latam('ECUADOR', 'expiresAt missing', { expiresAt: undefined }, 'expiresAt');
latam('ECUADOR', 'expiresAt in 6 minutes', { expiresAt: minutesFromNow(6) }, 'accepted');
latam('ECUADOR', 'expiresAt in 4 minutes', { expiresAt: minutesFromNow(4) }, 'expiresAt');
latam('ECUADOR', 'expiresAt in 71 hours', { expiresAt: minutesFromNow(71 * 60) }, 'accepted');
latam('ECUADOR', 'expiresAt in 73 hours', { expiresAt: minutesFromNow(73 * 60) }, 'expiresAt');
latam('ECUADOR', 'expiresAt in the past', { expiresAt: minutesFromNow(-10) }, 'expiresAt');
latam('ECUADOR', 'expiresAt not a date', { expiresAt: 'tomorrow' }, 'expiresAt');
latam('ECUADOR', 'expiresAt with an offset', { expiresAt: new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+00:00') }, 'accepted');
latam('PERU', 'expiresAt in the past (ignored)', { expiresAt: minutesFromNow(-60) }, 'accepted');
latam('CHILE', 'expiresAt in a week (ignored)', { expiresAt: minutesFromNow(7 * 24 * 60) }, 'accepted');
latam('PERU', 'expiresAt not a date', { expiresAt: 'soon' }, 'expiresAt');
latam('MEXICO', 'expiresAt in an hour', { expiresAt: minutesFromNow(60) }, 'accepted');
// A33: Mexico and Colombia honour expiresAt, in Ecuador's window; without it their link lasts 30 minutes.
latam('MEXICO', 'expiresAt in the past (A33)', { expiresAt: minutesFromNow(-10) }, 'expiresAt');
latam('MEXICO', 'expiresAt in 4 minutes (A33)', { expiresAt: minutesFromNow(4) }, 'expiresAt');
latam('COLOMBIA', 'expiresAt in 6 minutes (A33)', { expiresAt: minutesFromNow(6) }, 'accepted');
latam('COLOMBIA', 'expiresAt in 73 hours (A33)', { expiresAt: minutesFromNow(73 * 60) }, 'expiresAt');

// ------------------------------------------------------------------------------------ UPI and PIX

add('UPI', 'amount 100 (minimum)', { amount: '100' }, 'accepted');
add('UPI', 'amount 99.99', { amount: '99.99' }, 'amount.below');
add('UPI', 'amount 50000 (maximum)', { amount: '50000.00' }, 'accepted');
add('UPI', 'amount 50000.01', { amount: '50000.01' }, 'amount.above');
add('UPI', 'currency INR named', { currency: 'INR' }, 'accepted');
add('UPI', 'currency USD', { currency: 'USD' }, 'currency');
add('UPI', 'currency BRL', { currency: 'BRL' }, 'currency');
add('UPI', 'phone missing', { phone: undefined }, 'phone');
add('UPI', 'personalId missing', { personalId: undefined }, 'personalId');
for (const id of ['ada@okaxis', 'ada.lovelace@ybl', 'ada_1-x@paytm', '9876543210@upi', 'ab@icici']) add('UPI', `UPI ID ${id}`, { personalId: id }, 'accepted');
for (const id of ['ada', 'ada@', '@okaxis', 'a@okaxis', 'ada lovelace@okaxis', 'ada@ok.axis', 'ada@ok-axis', 'ada@1bank', 'ada@okaxis@x', 'ada@o', '9876543210']) {
  add('UPI', `UPI ID ${JSON.stringify(id)}`, { personalId: id }, 'personalId');
}
add('PIX', 'amount 10 (minimum)', { amount: '10' }, 'accepted');
add('PIX', 'amount 9.99', { amount: '9.99' }, 'amount.below');
add('PIX', 'amount 15000 (maximum)', { amount: '15000.00' }, 'accepted');
add('PIX', 'amount 15000.01', { amount: '15000.01' }, 'amount.above');
add('PIX', 'currency BRL named', { currency: 'BRL' }, 'accepted');
add('PIX', 'currency USD', { currency: 'USD' }, 'currency');
add('PIX', 'currency INR', { currency: 'INR' }, 'currency');
add('PIX', 'phone missing', { phone: undefined }, 'phone');
add('PIX', 'personalId missing', { personalId: undefined }, 'personalId');
for (const cpf of ['52998224725', '11144477735', '01234567890']) add('PIX', `CPF ${cpf}`, { personalId: cpf }, 'accepted');
for (const cpf of ['529.982.247-25', '111.444.777-35', '529982247-25', '5299822472', '529982247250', '52998224726', '11111111111', '00000000000', 'abcdefghijk', ' 52998224725']) {
  add('PIX', `CPF ${JSON.stringify(cpf)}`, { personalId: cpf }, 'personalId');
}

// ------------------------------------------------------------------------------------ crypto

add('CRYPTO', 'currency USD', { currency: 'USD' }, 'accepted');
add('CRYPTO', 'currency missing', { currency: undefined }, 'currency');
for (const currency of ['GBP', 'BTC', 'usd']) add('CRYPTO', `currency ${currency}`, { currency }, 'currency');
add('CRYPTO', 'amount 10.00 (cited minimum)', { amount: '10.00' }, 'accepted');
add('CRYPTO', 'amount 9.99', { amount: '9.99' }, 'amount.below');
add('CRYPTO', 'amount 9.99 USD', { amount: '9.99', currency: 'USD' }, 'amount.below');
add('CRYPTO', 'a large amount (no maximum shown)', { amount: '999999.99' }, 'accepted');

// ------------------------------------------------------------------------------------ hosted checkout

for (const currency of CARD_CURRENCIES) add('HOSTED_CHECKOUT', `currency ${currency}`, { currency, amount: currency === 'JPY' ? '2500' : '25.00' }, 'accepted');
add('HOSTED_CHECKOUT', 'currency omitted (A10 default EUR)', { currency: undefined }, 'accepted');
add('HOSTED_CHECKOUT', 'currency BRL', { currency: 'BRL' }, 'currency');
add('HOSTED_CHECKOUT', 'expires_in 300', { expires_in: 300 }, 'accepted');
add('HOSTED_CHECKOUT', 'expires_in 86400', { expires_in: 86400 }, 'accepted');
add('HOSTED_CHECKOUT', 'expires_in 299', { expires_in: 299 }, 'expires_in');
add('HOSTED_CHECKOUT', 'expires_in 86401', { expires_in: 86401 }, 'expires_in');
add('HOSTED_CHECKOUT', 'expires_in 3600.5', { expires_in: 3600.5 }, 'expires_in');
add('HOSTED_CHECKOUT', 'expires_in 0', { expires_in: 0 }, 'expires_in');
for (const method of ['cards', 'sepa', 'instant', 'fps']) add('HOSTED_CHECKOUT', `method ${method} pre-selected`, { method }, 'accepted');
add('HOSTED_CHECKOUT', 'fps with bankCountry GB', { method: 'fps', bankCountry: 'GB' }, 'accepted');
add('HOSTED_CHECKOUT', 'sepa with bankCountry MT', { method: 'sepa', bankCountry: 'MT' }, 'accepted');
add('HOSTED_CHECKOUT', 'fps with bankCountry NL', { method: 'fps', bankCountry: 'NL' }, 'session.bankCountry');
add('HOSTED_CHECKOUT', 'sepa with bankCountry DE', { method: 'sepa', bankCountry: 'DE' }, 'session.bankCountry');
for (const method of ['upi', 'crypto', 'CARDS']) add('HOSTED_CHECKOUT', `method ${method} pre-selected`, { method }, 'session.method');
add('HOSTED_CHECKOUT', 'prefilled details', { ...person, ...billing, phone: '+31201234567' }, 'accepted');
add('HOSTED_CHECKOUT', 'prefilled email invalid', { email: 'ada@example' }, 'email');
add('HOSTED_CHECKOUT', 'prefilled country name', { country: 'Netherlands' }, 'country');
add('HOSTED_CHECKOUT', 'prefilled country EU', { country: 'EU' }, 'country');

// ------------------------------------------------------------------------------------ payouts

for (const country of ['ARGENTINA', 'chile', 'BR']) payout('COLOMBIA', `country ${country}`, { country, currency: 'USD', amount: '10.00' }, 'payout.country');
payout('COLOMBIA', 'merchant_reference of 128 characters', { merchant_reference: 'p'.repeat(128) }, 'accepted');
payout('COLOMBIA', 'merchant_reference of 129 characters', { merchant_reference: 'p'.repeat(129) }, 'payout.reference');
for (const [country, currency] of Object.entries({ ECUADOR: 'USD', CHILE: 'CLP', PERU: 'PEN', MEXICO: 'MXN', COLOMBIA: 'COP' })) {
  payout(country, `currency ${currency} named`, { currency }, 'accepted');
  payout(country, 'currency EUR', { currency: 'EUR', amount: '10.00' }, 'currency');
}
payout('CHILE', 'amount with decimals in CLP', { amount: '5000.5' }, 'amount.decimals');
payout('COLOMBIA', 'amount with decimals in COP', { amount: '50000.50' }, 'amount.decimals');
payout('PERU', 'amount with 3 decimals', { amount: '50.001' }, 'amount.decimals');
payout('MEXICO', 'amount zero', { amount: '0.00' }, 'amount.positive');
const REQUIRED: Record<string, string[]> = {
  ECUADOR: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
  CHILE: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
  PERU: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type', 'cci'],
  MEXICO: ['name', 'document_type', 'document_number', 'account_number'],
  COLOMBIA: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
};
for (const [country, fields] of Object.entries(REQUIRED)) {
  for (const field of fields) payout(country, `beneficiary ${field} missing`, {}, `beneficiary.${field}` as RuleId, { [field]: undefined });
}
payout('MEXICO', 'no bank_code or account_type needed', {}, 'accepted', { bank_code: undefined, account_type: undefined });
payout('COLOMBIA', 'cci omitted outside Peru', {}, 'accepted', { cci: undefined });
payout('COLOMBIA', 'document_type cc (case-sensitive)', {}, 'beneficiary.document_type', { document_type: 'cc' });
payout('PERU', 'document_type CURP', {}, 'beneficiary.document_type', { document_type: 'CURP' });
payout('PERU', 'DNI of 7 digits', {}, 'beneficiary.document_number', { document_number: '1234567' });
payout('CHILE', 'RUT with dots', {}, 'beneficiary.document_number', { document_number: '12.345.678-5' });
payout('CHILE', 'RUT with a wrong check digit', {}, 'beneficiary.document_number', { document_number: '12345678-4' });
payout('MEXICO', 'CLABE 012180012345678909', {}, 'accepted', { account_number: '012180012345678909' });
payout('MEXICO', 'CLABE of 17 digits', {}, 'beneficiary.account_number', { account_number: '00218001234567890' });
payout('MEXICO', 'CLABE with a wrong check digit', {}, 'beneficiary.account_number', { account_number: '002180012345678907' });
payout('MEXICO', 'CLABE with letters', {}, 'beneficiary.account_number', { account_number: '00218001234567890A' });

// ------------------------------------------------------------------------------------ the sandbox's own strictness

// Wrong JSON types: the adapter writes strings (and a number for crypto) from typed values.
sandboxOnly('CARD', 'amount as a JSON number', { amount: 10 }, 'amount.type');
sandboxOnly('LATAM', 'amount as a JSON number', { amount: 50 }, 'amount.type');
sandboxOnly('UPI', 'amount as a JSON number', { amount: 500 }, 'amount.type');
sandboxOnly('PIX', 'amount as a JSON number', { amount: 50 }, 'amount.type');
sandboxOnly('HOSTED_CHECKOUT', 'amount as a JSON number', { amount: 25 }, 'amount.type');
sandboxOnly('PAYOUT', 'amount as a JSON number', { amount: 50000 }, 'amount.type');
sandboxOnly('CRYPTO', 'amount as a JSON boolean', { amount: true }, 'amount.type');
sandboxOnly('CRYPTO', 'amount as a JSON number in exponent form', {}, 'amount.format', (json) => json.replace('"amount":"25.00"', '"amount":2.5e1'));
sandboxOnly('CRYPTO', 'amount as a negative JSON number', {}, 'amount.format', (json) => json.replace('"amount":"25.00"', '"amount":-25.00'));
sandboxOnly('CRYPTO', 'amount as a JSON number with 3 decimals', {}, 'amount.format', (json) => json.replace('"amount":"25.00"', '"amount":25.001'));
sandboxOnly('CARD', 'email as a JSON number', { email: 42 }, 'email');
sandboxOnly('CARD', 'merchant_reference as a JSON number', { merchant_reference: 12345 }, 'merchant_reference');
sandboxOnly('CARD', 'return_url with a javascript: scheme', { return_url: 'javascript:alert(1)' }, 'return_url');
sandboxOnly('CARD', 'metadata as an array', { metadata: ['a', 'b'] }, 'metadata');
sandboxOnly('CARD', 'metadata as a string', { metadata: 'order=1' }, 'metadata');
sandboxOnly('CARD', 'metadata as an object', { metadata: { order: '1' } }, 'accepted');
sandboxOnly('CARD', 'white_label as a string', { white_label: 'true' }, 'white_label');
sandboxOnly('CARD', 'white_label as a number', { white_label: 1 }, 'white_label');
sandboxOnly('CARD', 'white_label true', { white_label: true }, 'accepted');
sandboxOnly('CARD', 'a solution the spec does not name', { method: undefined, solution: 'paypal' }, 'solution');
sandboxOnly('CARD', 'solution cards with an open-banking method', { method: 'sepa', bankCountry: 'NL' }, 'solution.conflict');
sandboxOnly('CARD', 'solution cards without method', { method: undefined }, 'accepted');
sandboxOnly('CARD', 'solution cards with a LATAM body and country name', { country: 'CHILE', documentType: 'RUT', documentNumber: '12345678-5' }, 'country');
sandboxOnly('CRYPTO', 'provider crypto with solution cards', { solution: 'cards' }, 'solution.conflict');
sandboxOnly('UPI', 'solution in upper case', { solution: 'UPI' }, 'solution');
sandboxOnly('HOSTED_CHECKOUT', 'expires_in as a string', { expires_in: '3600' }, 'expires_in');
sandboxOnly('HOSTED_CHECKOUT', 'expires_in with a fraction', { expires_in: 3600.5 }, 'expires_in');
sandboxOnly('CARD', 'a JSON array for a body', {}, 'body', () => '[]');
sandboxOnly('CARD', 'a body that is not JSON', {}, 'body', (json) => json.slice(0, -1));
sandboxOnly('PAYOUT', 'beneficiary as a string', { beneficiary: 'Ada Lovelace, 1234567890' }, 'beneficiary');
sandboxOnly('PAYOUT', 'beneficiary account_number as a JSON number', { beneficiary: { ...(VALID.PAYOUT.beneficiary as Record<string, unknown>), account_number: 1234567890 } }, 'beneficiary.account_number');

export const DEPOSIT_GATEWAY_CASES: readonly DepositCase[] = cases;
