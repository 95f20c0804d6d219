// Request rules of every rail, turned into the provider's status codes and messages
// (spec: rail tables, Limits and Errors). Pure functions: no state, no I/O. Written from the spec
// alone: the only thing shared with the adapter is its assumption constants (assumptions.ts), so a
// mistake in the adapter's validation shows up as a disagreement in test/provider-cases.

import {
  CHILE_RUT_PATTERN,
  ECUADOR_EXPIRY_WINDOW_SECONDS,
  HOSTED_CHECKOUT_PRESELECT_METHODS,
  HOSTED_CHECKOUT_DEFAULT_CURRENCY,
  HOSTED_CHECKOUT_CURRENCY_FIELD,
  HOSTED_CHECKOUT_RETURN_FIELDS,
  LATAM_COUNTRIES,
  LATAM_CURRENCY,
  LATAM_CURRENCY_OVERRIDES,
  LATAM_DOCUMENT_TYPES,
  LATAM_EXPIRES_AT,
  OPEN_BANKING_CURRENCY,
  PAYOUT_DOCUMENT_TYPES,
  PAYOUT_REQUIRED_BENEFICIARY_FIELDS,
  PHONE_CODE_PATTERN,
  LATAM_REDIRECT_URLS_HTTPS_ONLY,
  LATAM_REDIRECT_URLS_REQUIRED,
  UPI_ID_PATTERN,
  type LatamCountry,
} from '../../providers/deposit-gateway/assumptions.js';
import { Money } from '../../lib/money.js';
import { WHOLE_NUMBER_CURRENCIES, wireAmount } from './amounts.js';
import type { Rail } from './store.js';

/** A JSON number kept as the exact text it was sent as, so `10.10` never passes through a binary float. */
export class RawNumber {
  constructor(readonly source: string) {}
}

/**
 * Parses a request body. A numeric `amount` is kept as its source text (crypto examples send a JSON
 * number; spec: Payment create request) so that its value is exact.
 */
export function parseJsonBody(text: string): unknown {
  type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
  const reviver: Reviver = (key, value, context) =>
    key === 'amount' && typeof value === 'number' ? new RawNumber(context?.source ?? String(value)) : value;
  return JSON.parse(text, reviver);
}

export type Validated<T> = { ok: true; value: T } | { ok: false; status: number; error: string; missing?: string[] };

/** Thrown inside a validator to stop at the first broken rule; never escapes this module. */
class Rejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly missing?: string[],
  ) {
    super(message);
  }
}

function reject(message: string, status = 422): never {
  throw new Rejection(status, message);
}

function run<T>(validate: () => T): Validated<T> {
  try {
    return { ok: true, value: validate() };
  } catch (error) {
    if (error instanceof Rejection) {
      return error.missing
        ? { ok: false, status: error.status, error: error.message, missing: error.missing }
        : { ok: false, status: error.status, error: error.message };
    }
    throw error;
  }
}

export type Body = Record<string, unknown>;

export const CARD_CURRENCIES: readonly string[] = ['EUR', 'GBP', 'USD', 'CAD', 'AUD', 'TRY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'NZD', 'JPY'];
export const OPEN_BANKING_METHODS: readonly string[] = ['sepa', 'instant', 'fps'];
const BANK_COUNTRIES: readonly string[] = ['NL', 'MT', 'GB'];
const CRYPTO_CURRENCIES: readonly string[] = ['EUR', 'USD'];
/** Spec: `solution` accepts these plus provider-specific names; unknown names are rejected. */
const KNOWN_SOLUTIONS: readonly string[] = ['cards', 'crypto', 'upi', 'pix'];
const MERCHANT_REFERENCE_MAX = 128;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164_PATTERN = /^\+[1-9][0-9]{1,14}$/;
const ISO_DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/**
 * ISO 3166-1 alpha-2, officially assigned codes only (spec, Cards: "ISO 3166-1 alpha-2 only ... a
 * wrong code fails 3-D Secure v2"). Reserved and user-assigned codes (UK, EU, XK, ...) are not codes.
 */
const ISO_ALPHA2 = new Set(
  `AF AX AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BQ BA BW BV BR IO BN BG BF BI
   CV KH CM CA KY CF TD CL CN CX CC CO KM CG CD CK CR CI HR CU CW CY CZ DK DJ DM DO EC EG SV GQ ER EE SZ ET FK FO FJ
   FI FR GF PF TF GA GM GE DE GH GI GR GL GD GP GU GT GG GN GW GY HT HM VA HN HK HU IS IN ID IR IQ IE IM IL IT JM JP
   JE JO KZ KE KI KP KR KW KG LA LV LB LS LR LY LI LT LU MO MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA
   MZ MM NA NR NP NL NC NZ NI NE NG NU NF MK MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR QA RE RO RU RW BL SH KN LC
   MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS SS ES LK SD SR SJ SE CH SY TW TJ TZ TH TL TG TK TO TT TN
   TR TM TC TV UG UA AE GB US UM UY UZ VU VE VN VG VI WF EH YE ZM ZW`.split(/\s+/),
);

// ---------------------------------------------------------------------------------------------
// Field helpers

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function optionalString(body: Body, field: string): string | null {
  const value = body[field];
  if (!present(value)) return null;
  if (typeof value !== 'string') reject(`${field} must be a string`);
  return value;
}

function requiredString(body: Body, field: string, message = `${field} is required`): string {
  const value = body[field];
  if (!present(value)) reject(message);
  if (typeof value !== 'string') reject(`${field} must be a string`);
  if (value.trim() === '') reject(message);
  return value;
}

function email(body: Body): string {
  const value = requiredString(body, 'email');
  if (!EMAIL_PATTERN.test(value)) reject(`email ${JSON.stringify(value)} is not a valid email address`);
  return value;
}

function alpha2Country(value: string, field = 'country'): string {
  if (!ISO_ALPHA2.has(value)) {
    reject(`${field} must be an ISO 3166-1 alpha-2 code such as DE; got ${JSON.stringify(value)}`);
  }
  return value;
}

function httpsUrl(value: string, field: string, allowInsecureLocal: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reject(`${field} must be an https:// URL`);
  }
  const local = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  if (url.protocol !== 'https:' && !(allowInsecureLocal && local)) reject(`${field} must be an https:// URL`);
  return value;
}

/** LATAM `successUrl`, `errorUrl`, `redirectUrl`: optional (A15), https only like return_url (A22). */
function latamUrl(body: Body, field: string, context: ValidationContext): string | null {
  const value = optionalString(body, field);
  if (value === null) return null;
  if (LATAM_REDIRECT_URLS_HTTPS_ONLY) return httpsUrl(value, field, context.allowInsecureReturnUrls);
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) reject(`${field} must be an http(s) URL`);
  return value;
}

export interface SharedFields {
  merchantReference: string | null;
  returnUrl: string | null;
  idempotencyKey: string | null;
  metadata: Record<string, unknown> | null;
  whiteLabel: boolean;
}

export interface ValidationContext {
  now: Date;
  /** Accept http://localhost return addresses (a local demo has no TLS); off by default, as in the spec. */
  allowInsecureReturnUrls: boolean;
}

function merchantReference(body: Body): string | null {
  const value = optionalString(body, 'merchant_reference');
  if (value !== null && value.length > MERCHANT_REFERENCE_MAX) {
    reject(`merchant_reference is longer than ${MERCHANT_REFERENCE_MAX} characters (${value.length})`);
  }
  return value;
}

function sharedFields(body: Body, headerKey: string | null, context: ValidationContext): SharedFields {
  const returnUrl = optionalString(body, 'return_url');
  const metadata = body.metadata;
  if (present(metadata) && (typeof metadata !== 'object' || Array.isArray(metadata))) reject('metadata must be an object');
  const whiteLabel = body.white_label;
  if (whiteLabel !== undefined && whiteLabel !== null && typeof whiteLabel !== 'boolean') reject('white_label must be a boolean');
  return {
    merchantReference: merchantReference(body),
    returnUrl: returnUrl === null ? null : httpsUrl(returnUrl, 'return_url', context.allowInsecureReturnUrls),
    idempotencyKey: idempotencyKey(body, headerKey),
    metadata: present(metadata) ? (metadata as Record<string, unknown>) : null,
    whiteLabel: whiteLabel === true,
  };
}

// Assumption: an idempotency_key (or Idempotency-Key header) has at most 255 characters.
function idempotencyKey(body: Body, headerKey: string | null): string | null {
  const value = optionalString(body, 'idempotency_key') ?? headerKey;
  if (value !== null && value.length > 255) reject('idempotency_key is longer than 255 characters');
  return value;
}

// ---------------------------------------------------------------------------------------------
// Amounts

/** Parses `amount` exactly: a string in major units (or, where allowed, a JSON number kept as text). */
function amountOf(body: Body, currency: string, options: { allowNumber?: boolean } = {}): Money {
  const value = body.amount;
  if (!present(value)) reject('amount is required');
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value instanceof RawNumber && options.allowNumber) text = value.source;
  else return reject('amount must be a string in major units, e.g. "10.50"');
  if (WHOLE_NUMBER_CURRENCIES.includes(currency)) {
    if (!/^[0-9]+$/.test(text)) reject(`amount must be a whole number for ${currency} (no decimals); got ${JSON.stringify(text)}`);
  } else if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(text)) {
    reject(`amount must be a decimal number with up to 2 decimals, e.g. "10.50"; got ${JSON.stringify(text)}`);
  }
  const parsed = Money.parse(text, currency);
  if (!parsed.ok) reject(parsed.error.message);
  return parsed.money;
}

function bound(decimal: string, currency: string): Money {
  return Money.fromDecimal(decimal, currency);
}

function checkBand(amount: Money, label: string, min: Money | null, max: Money | null): void {
  const cur = amount.currency;
  if (min && amount.compare(min) < 0) reject(`Amount ${wireAmount(amount)} is below the minimum of ${wireAmount(min)} ${cur}${label}`);
  if (max && amount.compare(max) > 0) reject(`Amount ${wireAmount(amount)} is above the maximum of ${wireAmount(max)} ${cur}${label}`);
}

function currencyOf(body: Body, fallback: string): string {
  const value = body.currency;
  if (!present(value)) return fallback;
  if (typeof value !== 'string') return reject('currency must be a 3-letter ISO code');
  return value;
}

// ---------------------------------------------------------------------------------------------
// Payments

export interface ValidPayment extends SharedFields {
  rail: Rail;
  /** Request `method` (`sepa`, `cards`, `bank`…) when the rail has one. */
  requestMethod: string | null;
  amount: Money;
  customerEmail: string;
  customerName: string;
  country: string | null;
  successUrl: string | null;
  errorUrl: string | null;
  colombiaRedirectUrl: string | null;
  /** LATAM `expiresAt` as sent (A33 says whether the country honours it); null elsewhere. */
  expiresAt: Date | null;
}

/** Which rail a create request addresses (spec: Payment shared fields, `solution` and `provider`). */
// Assumption: with no method, solution or provider, the sandbox merchant's only enabled account is
// cards, so routing "by the merchant's enabled accounts" lands there.
export function selectRail(body: Body): Validated<Rail> {
  return run(() => {
    const provider = body.provider;
    const solution = body.solution;
    const method = body.method;
    if (present(provider) && provider !== 'crypto') reject(`Unknown provider ${JSON.stringify(provider)}; the only provider value is "crypto"`);
    // An unknown solution is refused before anything routes by country: a named rail is never guessed.
    if (present(solution) && !KNOWN_SOLUTIONS.includes(String(solution))) reject(`Unknown solution ${JSON.stringify(solution)}`);
    if (provider === 'crypto' && present(solution) && solution !== 'crypto') reject(`provider "crypto" and solution ${JSON.stringify(solution)} name two different rails; send one`);
    if (provider === 'crypto' || solution === 'crypto') return 'crypto';
    if (solution === 'upi') return 'upi';
    if (solution === 'pix') return 'pix';
    // `solution` "names the rail explicitly": the customer's country routes only a request without
    // one (spec: shared fields, `solution`), so `cards` with a LATAM country name is still a card
    // payment, whose country must then be an ISO code.
    if (solution === 'cards') {
      if (present(method) && method !== 'cards') reject(`method ${JSON.stringify(method)} does not belong to solution "cards"; send method cards or omit it`);
      return 'cards';
    }
    if (typeof body.country === 'string' && (LATAM_COUNTRIES as readonly string[]).includes(body.country)) return 'latam';
    // A country written as a name selects a LATAM rail (spec: LATAM, country); names outside the five are refused.
    const latamShaped = present(body.documentType) || !present(method) || method === 'bank' || method === 'qr';
    if (typeof body.country === 'string' && !/^[A-Z]{2}$/.test(body.country) && latamShaped) {
      reject(`country ${JSON.stringify(body.country)} is not one of ${LATAM_COUNTRIES.join(', ')}`);
    }
    if (method === 'cards' || solution === 'cards') return 'cards';
    if (typeof method === 'string' && OPEN_BANKING_METHODS.includes(method)) return 'openbanking';
    if (!present(method)) return 'cards';
    return reject(`Unknown method ${JSON.stringify(method)}; use cards, sepa, instant or fps`);
  });
}

export function validatePayment(rail: Rail, body: Body, headerKey: string | null, context: ValidationContext): Validated<ValidPayment> {
  return run(() => {
    switch (rail) {
      case 'cards':
        return cards(body, headerKey, context);
      case 'openbanking':
        return openBanking(body, headerKey, context);
      case 'latam':
        return latam(body, headerKey, context);
      case 'upi':
      case 'pix':
        return pushPayment(rail, body, headerKey, context);
      case 'crypto':
        return crypto(body, headerKey, context);
    }
  });
}

function customer(body: Body): { customerEmail: string; customerName: string } {
  const customerEmail = email(body);
  const firstName = requiredString(body, 'firstName');
  const lastName = requiredString(body, 'lastName');
  return { customerEmail, customerName: `${firstName} ${lastName}` };
}

function billingAddress(body: Body): string {
  const country = alpha2Country(requiredString(body, 'country'));
  requiredString(body, 'address1');
  requiredString(body, 'city');
  requiredString(body, 'zipCode');
  return country;
}

const noLatamUrls = { successUrl: null, errorUrl: null, colombiaRedirectUrl: null, expiresAt: null };

function cards(body: Body, headerKey: string | null, context: ValidationContext): ValidPayment {
  const currency = currencyOf(body, 'EUR');
  if (!CARD_CURRENCIES.includes(currency)) reject(`Unsupported currency ${currency} for cards; supported currencies: ${CARD_CURRENCIES.join(', ')}`);
  const amount = amountOf(body, currency);
  checkBand(amount, ' for cards', bound('1', currency), bound('10000', currency));
  const shared = sharedFields(body, headerKey, context);
  const who = customer(body);
  const country = billingAddress(body);
  const phone = optionalString(body, 'phone');
  if (phone !== null && !E164_PATTERN.test(phone)) reject(`phone must be in E.164 format such as +4915112345678; got ${JSON.stringify(phone)}`);
  return { rail: 'cards', requestMethod: 'cards', amount, ...shared, ...who, country, ...noLatamUrls };
}

function openBanking(body: Body, headerKey: string | null, context: ValidationContext): ValidPayment {
  const method = requiredString(body, 'method');
  const bankCountry = requiredString(body, 'bankCountry');
  if (!BANK_COUNTRIES.includes(bankCountry)) reject(`bankCountry ${JSON.stringify(bankCountry)} is not supported; use NL, MT or GB`);
  if (method === 'fps' && bankCountry !== 'GB') reject('fps is available for bankCountry GB only');
  const expected = OPEN_BANKING_CURRENCY[bankCountry] ?? 'EUR';
  const currency = currencyOf(body, expected);
  if (currency !== expected) reject(`Unsupported currency ${currency} for ${method} in ${bankCountry}; use ${expected}`);
  const amount = amountOf(body, currency);
  const shared = sharedFields(body, headerKey, context);
  const who = customer(body);
  const country = billingAddress(body);
  optionalString(body, 'phone');
  return { rail: 'openbanking', requestMethod: method, amount, ...shared, ...who, country, ...noLatamUrls };
}

/** Spec (LATAM): "Validated per country (Peru DNI: 8 digits; Chile RUT: NNNNNNNN-D)"; payouts too (A16). */
function checkDocumentNumber(country: LatamCountry, documentType: string, documentNumber: string, field: string): void {
  if (country === 'PERU' && documentType === 'DNI' && !/^[0-9]{8}$/.test(documentNumber)) {
    reject(`${field} must be a Peru DNI of 8 digits`);
  }
  if (country === 'CHILE' && documentType === 'RUT') {
    if (!CHILE_RUT_PATTERN.test(documentNumber)) reject(`${field} must be a Chile RUT in the form NNNNNNNN-D (check digit 0-9 or K)`);
    if (!isValidRut(documentNumber)) reject(`${field} ${documentNumber} has a wrong RUT check digit`);
  }
}

/** Mexican CLABE: digits weighted 3, 7, 1 (each product mod 10); the 18th digit makes the sum a multiple of 10. */
export function isValidClabe(value: string): boolean {
  if (!/^[0-9]{18}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += (Number(value[i]) * [3, 7, 1][i % 3]!) % 10;
  return (10 - (sum % 10)) % 10 === Number(value[17]);
}

/** Chile RUT `NNNNNNNN-D` (assumption A14): modulo-11 check digit over the body, weights 2..7 from the right; 10 is K. */
export function isValidRut(value: string): boolean {
  const match = CHILE_RUT_PATTERN.exec(value);
  if (!match) return false;
  const [, digits = '', check = ''] = match;
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += Number(digits[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const remainder = 11 - (sum % 11);
  const expected = remainder === 11 ? '0' : remainder === 10 ? 'K' : String(remainder);
  return check === expected;
}

/** Brazilian CPF: 11 digits (spec: "the payer's CPF, 11 digits"; no dots or dash), two modulo-11 check digits, not all one digit. */
export function isValidCpf(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const checkDigit = (length: number): number => {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return checkDigit(9) === Number(digits[9]) && checkDigit(10) === Number(digits[10]);
}

const LATAM_METHODS: Readonly<Partial<Record<LatamCountry, readonly string[]>>> = { CHILE: ['cards', 'bank'], PERU: ['bank', 'qr'] };

// The LATAM `currency` override accepts the country currency (A6) or one of A30's; a conversion nobody asked for is worse than a 422.
function latam(body: Body, headerKey: string | null, context: ValidationContext): ValidPayment {
  const country = body.country as LatamCountry;
  const allowedMethods = LATAM_METHODS[country];
  const method = optionalString(body, 'method');
  if (allowedMethods) {
    if (method === null) reject(`method is required for ${country}: use ${allowedMethods.join(' or ')}`);
    if (!allowedMethods.includes(method)) reject(`method ${JSON.stringify(method)} is not available for ${country}; use ${allowedMethods.join(' or ')}`);
  } else if (method !== null) {
    reject(`method is not accepted for ${country}; omit it`);
  }
  const expected = LATAM_CURRENCY[country];
  const currency = currencyOf(body, expected);
  const accepted = [expected, ...LATAM_CURRENCY_OVERRIDES.filter((other) => other !== expected)];
  if (!accepted.includes(currency)) reject(`Unsupported currency ${currency} for ${country}; use ${accepted.join(' or ')}`);
  const amount = amountOf(body, currency);
  const shared = sharedFields(body, headerKey, context);
  const who = customer(body);

  const documentType = requiredString(body, 'documentType');
  const allowedTypes = LATAM_DOCUMENT_TYPES[country];
  if (!allowedTypes.includes(documentType)) {
    reject(`documentType ${JSON.stringify(documentType)} is not accepted for ${country}; use one of ${allowedTypes.join(', ')} (case-sensitive)`);
  }
  checkDocumentNumber(country, documentType, requiredString(body, 'documentNumber'), 'documentNumber');

  const phone = optionalString(body, 'phone');
  const phoneCode = optionalString(body, 'phoneCode');
  if (country === 'ECUADOR' && (phone !== null || phoneCode !== null)) reject('phone and phoneCode are not accepted for ECUADOR; omit them');
  const phoneRequired = country === 'COLOMBIA' || (country === 'CHILE' && method === 'cards');
  const where = country === 'CHILE' ? 'CHILE cards' : country;
  if (phoneRequired && phone === null) reject(`phone is required for ${where}`);
  if (phoneRequired && phoneCode === null) reject(`phoneCode is required for ${where}`);
  if (phoneCode !== null && !PHONE_CODE_PATTERN.test(phoneCode)) reject(`phoneCode must look like +57; got ${JSON.stringify(phoneCode)}`);

  // Spec (LATAM): redirectUrl is "Colombia only"; elsewhere successUrl and errorUrl do its work.
  if (country !== 'COLOMBIA' && optionalString(body, 'redirectUrl') !== null) {
    reject(`redirectUrl is accepted for COLOMBIA only; use successUrl and errorUrl for ${country}`);
  }
  if (LATAM_REDIRECT_URLS_REQUIRED) {
    requiredString(body, 'successUrl', `successUrl is required for ${country}`);
    requiredString(body, 'errorUrl', `errorUrl is required for ${country}`);
  }
  for (const field of ['successUrl', 'errorUrl', 'redirectUrl']) latamUrl(body, field, context);

  const expiresAt = optionalString(body, 'expiresAt');
  if (expiresAt !== null && (!ISO_DATETIME_PATTERN.test(expiresAt) || Number.isNaN(Date.parse(expiresAt)))) {
    reject('expiresAt must be an ISO 8601 date-time such as 2030-01-01T12:00:00Z');
  }
  // Ecuador requires a near-future expiry (A8); Mexico and Colombia honour one (A33); Peru and Chile ignore it.
  const expiry = LATAM_EXPIRES_AT[country];
  if (expiry === 'required' && expiresAt === null) reject(`expiresAt is required for ${country}`);
  if (expiry !== 'ignored' && expiresAt !== null) {
    const { min, max } = ECUADOR_EXPIRY_WINDOW_SECONDS;
    const ahead = (Date.parse(expiresAt) - context.now.getTime()) / 1000;
    if (ahead < min || ahead > max) reject(`expiresAt must be ${min / 60} minutes to ${max / 3600} hours in the future for ${country}`);
  }
  return {
    rail: 'latam',
    requestMethod: method,
    amount,
    ...shared,
    ...who,
    country,
    successUrl: latamUrl(body, 'successUrl', context),
    errorUrl: latamUrl(body, 'errorUrl', context),
    colombiaRedirectUrl: country === 'COLOMBIA' ? latamUrl(body, 'redirectUrl', context) : null,
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
  };
}

const PUSH_RULES = {
  upi: { currency: 'INR', min: '100', max: '50000', label: 'UPI', personalIdMessage: "personalId is required: the payer's UPI ID" },
  pix: { currency: 'BRL', min: '10', max: '15000', label: 'PIX', personalIdMessage: "personalId is required: the payer's CPF, matching the person paying" },
} as const;

/** UPI and PIX, with the spec's own message texts (spec: Errors, 3). */
function pushPayment(rail: 'upi' | 'pix', body: Body, headerKey: string | null, context: ValidationContext): ValidPayment {
  const rules = PUSH_RULES[rail];
  const currency = currencyOf(body, rules.currency);
  if (currency !== rules.currency) reject(`${rules.label} settles ${rules.currency} only`);
  const amount = amountOf(body, currency);
  const min = bound(rules.min, currency);
  const max = bound(rules.max, currency);
  if (amount.compare(min) < 0 || amount.compare(max) > 0) reject(`Enter an amount between ${rules.min} and ${rules.max} ${rules.currency}`);
  const shared = sharedFields(body, headerKey, context);
  const who = customer(body);
  requiredString(body, 'phone', 'phone is required for this solution');
  const personalId = requiredString(body, 'personalId', rules.personalIdMessage);
  if (rail === 'upi' && !UPI_ID_PATTERN.test(personalId)) reject(`personalId must be the payer's UPI ID such as name@bank; got ${JSON.stringify(personalId)}`);
  if (rail === 'pix' && !isValidCpf(personalId)) reject("personalId must be the payer's CPF: 11 digits with valid check digits");
  return { rail, requestMethod: null, amount, ...shared, ...who, country: null, ...noLatamUrls };
}

function crypto(body: Body, headerKey: string | null, context: ValidationContext): ValidPayment {
  const currency = currencyOf(body, '');
  if (currency === '') reject('currency is required: crypto supports EUR and USD');
  if (!CRYPTO_CURRENCIES.includes(currency)) reject(`Unsupported currency ${currency}: crypto supports EUR and USD`);
  const amount = amountOf(body, currency, { allowNumber: true });
  checkBand(amount, '', bound('10', currency), null);
  const shared = sharedFields(body, headerKey, context);
  const who = customer(body);
  return { rail: 'crypto', requestMethod: null, amount, ...shared, ...who, country: null, ...noLatamUrls };
}

// ---------------------------------------------------------------------------------------------
// Checkout sessions

export interface ValidSession {
  amount: Money;
  returnUrl: string | null;
  /** A31: where the player goes after an approved payment, and after any other outcome. */
  successUrl: string | null;
  cancelUrl: string | null;
  merchantReference: string | null;
  method: string | null;
  bankCountry: string | null;
  expiresIn: number;
  prefill: Record<string, string>;
}

const PREFILL_FIELDS = ['email', 'firstName', 'lastName', 'country', 'address1', 'city', 'zipCode', 'phone'] as const;

export function validateSession(body: Body, context: ValidationContext): Validated<ValidSession> {
  return run(() => {
    // A10: the session's currency field; absent, the default.
    const currency = currencyOf({ currency: body[HOSTED_CHECKOUT_CURRENCY_FIELD] }, HOSTED_CHECKOUT_DEFAULT_CURRENCY);
    if (!CARD_CURRENCIES.includes(currency)) reject(`Unsupported currency ${currency} for hosted checkout; supported currencies: ${CARD_CURRENCIES.join(', ')}`);
    const amount = amountOf(body, currency);
    const expiresInValue = body.expires_in;
    let expiresIn = 3600;
    if (present(expiresInValue)) {
      if (typeof expiresInValue !== 'number' || !Number.isInteger(expiresInValue) || expiresInValue < 300 || expiresInValue > 86400) {
        reject('expires_in must be an integer from 300 to 86400 seconds');
      }
      expiresIn = expiresInValue;
    }
    const returnUrl = optionalString(body, 'return_url');
    const method = optionalString(body, 'method');
    if (method !== null && !HOSTED_CHECKOUT_PRESELECT_METHODS.includes(method)) {
      reject(`Unknown method ${JSON.stringify(method)}; use cards, sepa, instant or fps`);
    }
    const bankCountry = optionalString(body, 'bankCountry');
    if (bankCountry !== null && !BANK_COUNTRIES.includes(bankCountry)) reject(`bankCountry ${JSON.stringify(bankCountry)} is not supported; use NL, MT or GB`);
    if (method === 'fps' && bankCountry !== null && bankCountry !== 'GB') reject('fps is available for bankCountry GB only');
    const prefill: Record<string, string> = {};
    for (const field of PREFILL_FIELDS) {
      const value = optionalString(body, field);
      if (value !== null) prefill[field] = value;
    }
    if (prefill.email !== undefined && !EMAIL_PATTERN.test(prefill.email)) reject(`email ${JSON.stringify(prefill.email)} is not a valid email address`);
    if (prefill.country !== undefined) alpha2Country(prefill.country);
    const partnerUrl = (field: string): string | null => {
      const value = optionalString(body, field);
      return value === null ? null : httpsUrl(value, field, context.allowInsecureReturnUrls);
    };
    return {
      amount,
      returnUrl: returnUrl === null ? null : httpsUrl(returnUrl, 'return_url', context.allowInsecureReturnUrls),
      successUrl: partnerUrl(HOSTED_CHECKOUT_RETURN_FIELDS.success),
      cancelUrl: partnerUrl(HOSTED_CHECKOUT_RETURN_FIELDS.cancel),
      merchantReference: merchantReference(body),
      method,
      bankCountry,
      expiresIn,
      prefill,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Refunds and payouts

export interface ValidRefund {
  reference: string;
  /** Still text: it is parsed in the payment's currency once the payment is found. */
  amount: string | null;
  reason: string | null;
  idempotencyKey: string | null;
}

export function validateRefund(body: Body, headerKey: string | null): Validated<ValidRefund> {
  return run(() => {
    const reference = requiredString(body, 'reference');
    const amount = body.amount;
    if (present(amount) && typeof amount !== 'string') reject('amount must be a string in major units, e.g. "10.50"');
    const reason = optionalString(body, 'reason');
    // Assumption: a refund reason has at most 500 characters.
    if (reason !== null && reason.length > 500) reject('reason is longer than 500 characters');
    return { reference, amount: present(amount) ? (amount as string) : null, reason, idempotencyKey: idempotencyKey(body, headerKey) };
  });
}

/** Parses a refund amount in the payment's currency. */
export function refundAmount(text: string, currency: string): Validated<Money> {
  return run(() => amountOf({ amount: text }, currency));
}

export interface ValidPayout {
  country: LatamCountry;
  amount: Money;
  merchantReference: string | null;
  beneficiary: Record<string, string>;
  idempotencyKey: string | null;
}

export function validatePayout(body: Body, headerKey: string | null): Validated<ValidPayout> {
  return run(() => {
    const countryValue = requiredString(body, 'country');
    if (!(LATAM_COUNTRIES as readonly string[]).includes(countryValue)) {
      reject(`country ${JSON.stringify(countryValue)} is not supported for payouts; use ${LATAM_COUNTRIES.join(', ')}`);
    }
    const country = countryValue as LatamCountry;
    const expected = LATAM_CURRENCY[country];
    const currency = currencyOf(body, expected);
    if (currency !== expected) reject(`Unsupported currency ${currency} for payouts to ${country}; use ${expected}`);
    const amount = amountOf(body, currency);
    const merchant = merchantReference(body);
    const required = PAYOUT_REQUIRED_BENEFICIARY_FIELDS[country];
    const raw = body.beneficiary;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new Rejection(422, `beneficiary is required for payouts to ${country}`, [...required]);
    }
    const given = raw as Record<string, unknown>;
    const missing = required.filter((field) => !present(given[field]));
    if (missing.length > 0) throw new Rejection(422, `Missing beneficiary fields for ${country}: ${missing.join(', ')}`, missing);
    const beneficiary: Record<string, string> = {};
    for (const [field, value] of Object.entries(given)) {
      if (!present(value)) continue;
      if (typeof value !== 'string') reject(`beneficiary.${field} must be a string`);
      beneficiary[field] = value;
    }
    const documentTypes = PAYOUT_DOCUMENT_TYPES[country];
    if (!documentTypes.includes(beneficiary.document_type ?? '')) {
      reject(`beneficiary.document_type ${JSON.stringify(beneficiary.document_type)} is not accepted for ${country}; use one of ${documentTypes.join(', ')} (case-sensitive)`);
    }
    checkDocumentNumber(country, beneficiary.document_type ?? '', beneficiary.document_number ?? '', 'beneficiary.document_number');
    // Spec (Payout request): account_number is "the CLABE for Mexico": 18 digits, the last a check digit.
    if (country === 'MEXICO' && !/^[0-9]{18}$/.test(beneficiary.account_number ?? '')) {
      reject('beneficiary.account_number must be an 18-digit CLABE for MEXICO');
    }
    if (country === 'MEXICO' && !isValidClabe(beneficiary.account_number ?? '')) {
      reject('beneficiary.account_number has a wrong CLABE check digit');
    }
    // Spec: cci is optional outside Peru and defaults to account_number.
    if (beneficiary.cci === undefined && beneficiary.account_number !== undefined) beneficiary.cci = beneficiary.account_number;
    return { country, amount, merchantReference: merchant, beneficiary, idempotencyKey: idempotencyKey(body, headerKey) };
  });
}

/** Limit of GET /payments and GET /payouts: 1 to 200, default 50 (spec: GET /payments). */
export function pageLimit(value: string | null): Validated<number> {
  return run(() => {
    if (value === null || value === '') return 50;
    if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 200) reject('limit must be an integer from 1 to 200');
    return Number(value);
  });
}
