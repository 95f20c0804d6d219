// The deposit gateway's published request rules (spec: rail tables, Limits), checked before any call.

import { Money } from '../../lib/money.js';
import { maskTail } from '../../lib/logger.js';
import type {
  CreateDepositRequest,
  CreatePayoutRequest,
  Customer,
  FieldError,
  MerchantAccount,
  PayoutBeneficiary,
  RailDetails,
} from '../provider.js';
import { RAIL_BLOCK } from '../provider.js';
import {
  CHILE_RUT_PATTERN,
  ECUADOR_EXPIRY_WINDOW_SECONDS,
  HOSTED_CHECKOUT_DEFAULT_CURRENCY,
  HOSTED_CHECKOUT_PRESELECT_METHODS,
  LATAM_COUNTRIES,
  LATAM_CURRENCY,
  LATAM_DOCUMENT_TYPES,
  LATAM_EXPIRES_AT,
  LATAM_REDIRECT_URLS_HTTPS_ONLY,
  LATAM_REDIRECT_URLS_REQUIRED,
  latamDepositCurrencies,
  OPEN_BANKING_CURRENCY,
  PAYOUT_DOCUMENT_TYPES,
  PAYOUT_REQUIRED_BENEFICIARY_FIELDS,
  PHONE_CODE_PATTERN,
  UPI_ID_PATTERN,
  type BeneficiaryField,
  type LatamCountry,
} from './assumptions.js';
import { amountPrecisionProblem } from './amount.js';
import {
  AMOUNT_BANDS,
  CARD_CURRENCIES,
  CHECKOUT_EXPIRES_IN,
  CRYPTO_CURRENCIES,
  ISO_COUNTRY_CODES,
  LATAM_METHODS,
  MERCHANT_REFERENCE_MAX_LENGTH,
  OPEN_BANKING_COUNTRIES,
  OPEN_BANKING_METHODS,
  PIX_CURRENCY,
  UPI_CURRENCY,
  type AmountBand,
} from './rules.js';

export type DepositToValidate = Omit<CreateDepositRequest, 'depositId'> & { depositId?: string };
export type PayoutToValidate = Omit<CreatePayoutRequest, 'payoutId'> & { payoutId?: string };


/** Gateway (camelCase) name of each provider beneficiary field (A5). */
export const BENEFICIARY_FIELD_NAMES: Readonly<Record<BeneficiaryField, keyof PayoutBeneficiary>> = {
  name: 'name',
  document_type: 'documentType',
  document_number: 'documentNumber',
  account_number: 'accountNumber',
  bank_code: 'bankCode',
  account_type: 'accountType',
  cci: 'cci',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9][0-9]{1,14}$/;
const CPF = /^[0-9]{11}$/;
const PERU_DNI = /^[0-9]{8}$/;
const CLABE = /^[0-9]{18}$/;

/** The currency a rail uses when the caller names none; '' where the rail has no default. */
export function defaultCurrency(details: RailDetails): string {
  switch (details.rail) {
    case 'HOSTED_CHECKOUT':
      return HOSTED_CHECKOUT_DEFAULT_CURRENCY;
    case 'CARD':
      return 'EUR';
    case 'UPI':
      return UPI_CURRENCY;
    case 'PIX':
      return PIX_CURRENCY;
    case 'LATAM':
      return isLatamCountry(details.country) ? LATAM_CURRENCY[details.country] : '';
    case 'OPEN_BANKING':
      return OPEN_BANKING_CURRENCY[details.bankCountry] ?? '';
    case 'CRYPTO':
    case 'THAI_QR':
      return '';
  }
}

/** Collects field errors; one per field at most, the first rule broken wins. */
class Collector {
  readonly errors: FieldError[] = [];

  add(field: string[], code: FieldError['code'], message: string): void {
    if (this.has(field)) return;
    this.errors.push({ field, code, message });
  }

  has(field: string[]): boolean {
    return this.errors.some((error) => error.field.join('.') === field.join('.'));
  }
}

export function validateDepositRequest(account: MerchantAccount, request: DepositToValidate, now: Date = new Date()): FieldError[] {
  const out = new Collector();
  const { details, customer, amount } = request;
  const block = RAIL_BLOCK[details.rail];

  if (request.depositId !== undefined && request.depositId.length > MERCHANT_REFERENCE_MAX_LENGTH) {
    out.add(['depositId'], 'REFERENCE_TOO_LONG', `The merchant reference is ${request.depositId.length} characters long; the provider accepts at most ${MERCHANT_REFERENCE_MAX_LENGTH}.`);
  }
  checkAmountShape(out, amount);
  if (request.returnUrl !== undefined) checkHttpsUrl(out, ['returnUrl'], request.returnUrl, 'returnUrl');

  switch (details.rail) {
    case 'HOSTED_CHECKOUT': {
      if (!account.livemode) {
        // Spec, POST /checkout-sessions: a test-key session "carries no test flag and produces a real charge".
        out.add([block], 'HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT', `Hosted checkout is only available on a live merchant account; account ${account.code} is in test mode, where a session would still make a real charge.`);
      }
      checkCurrencyIn(out, amount, CARD_CURRENCIES, 'hosted checkout');
      if (details.expiresInSeconds !== undefined) {
        const seconds = details.expiresInSeconds;
        if (!Number.isInteger(seconds)) {
          out.add([block, 'expiresInSeconds'], 'INVALID_VALUE', `expiresInSeconds must be a whole number of seconds; got ${seconds}.`);
        } else if (seconds < CHECKOUT_EXPIRES_IN.min || seconds > CHECKOUT_EXPIRES_IN.max) {
          out.add([block, 'expiresInSeconds'], 'EXPIRY_OUT_OF_RANGE', `expiresInSeconds must be between ${CHECKOUT_EXPIRES_IN.min} and ${CHECKOUT_EXPIRES_IN.max}; got ${seconds}.`);
        }
      }
      if (details.preselect) {
        const { method, bankCountry } = details.preselect;
        if (!HOSTED_CHECKOUT_PRESELECT_METHODS.includes(method)) {
          out.add([block, 'preselect', 'method'], 'INVALID_VALUE', `Pre-selected method ${quote(method)} is not one of ${HOSTED_CHECKOUT_PRESELECT_METHODS.join(', ')}.`);
        }
        // Spec (Checkout session request): "method, bankCountry ... omit to let the player choose".
        if (bankCountry !== undefined) checkBankCountry(out, [block, 'preselect', 'bankCountry'], method, bankCountry);
      }
      // A31: the partner return addresses take return_url's rule.
      if (details.successUrl !== undefined) checkHttpsUrl(out, [block, 'successUrl'], details.successUrl, 'successUrl');
      if (details.cancelUrl !== undefined) checkHttpsUrl(out, [block, 'cancelUrl'], details.cancelUrl, 'cancelUrl');
      // Prefill is optional on the hosted page, but a wrong value would be shown to the player.
      if (customer.email !== undefined) checkEmail(out, customer.email);
      if (customer.country !== undefined) checkIsoCountry(out, customer.country);
      break;
    }
    case 'CARD': {
      checkCurrencyIn(out, amount, CARD_CURRENCIES, 'cards');
      checkBand(out, amount, 'CARD', 'cards');
      checkBillingCustomer(out, customer);
      if (customer.phone !== undefined && !E164.test(customer.phone)) {
        out.add(['customer', 'phone'], 'INVALID_FORMAT', `Phone ${quote(customer.phone)} must be in E.164 format, such as +31201234567.`);
      }
      break;
    }
    case 'OPEN_BANKING': {
      if (!OPEN_BANKING_METHODS.includes(details.method)) {
        out.add([block, 'method'], details.method ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `Open banking method ${quote(details.method)} is not one of ${OPEN_BANKING_METHODS.join(', ')}.`);
      }
      checkBankCountry(out, [block, 'bankCountry'], details.method, details.bankCountry);
      const currency = OPEN_BANKING_CURRENCY[details.bankCountry];
      if (currency) checkCurrencyIn(out, amount, [currency], `open banking in ${details.bankCountry}`);
      checkBillingCustomer(out, customer);
      break;
    }
    case 'LATAM':
      checkLatam(out, details, customer, amount, now);
      break;
    case 'UPI': {
      const currencyOk = checkCurrencyIn(out, amount, [UPI_CURRENCY], 'UPI');
      if (currencyOk) checkBand(out, amount, 'UPI', 'UPI');
      checkName(out, customer);
      requireField(out, ['customer', 'phone'], customer.phone, 'phone is required for UPI payments.');
      if (requireField(out, ['customer', 'personalId'], customer.personalId, "personalId is required for UPI: the payer's UPI ID.")) {
        if (!UPI_ID_PATTERN.test(customer.personalId!)) {
          out.add(['customer', 'personalId'], 'INVALID_FORMAT', `personalId ${quote(customer.personalId)} must be the payer's UPI ID, of the form handle@bank.`);
        }
      }
      break;
    }
    case 'PIX': {
      const currencyOk = checkCurrencyIn(out, amount, [PIX_CURRENCY], 'PIX');
      if (currencyOk) checkBand(out, amount, 'PIX', 'PIX');
      checkName(out, customer);
      requireField(out, ['customer', 'phone'], customer.phone, 'phone is required for PIX payments.');
      if (requireField(out, ['customer', 'personalId'], customer.personalId, "personalId is required for PIX: the payer's CPF.")) {
        const cpf = customer.personalId!;
        if (!CPF.test(cpf)) {
          out.add(['customer', 'personalId'], 'INVALID_FORMAT', 'personalId must be the payer\'s CPF: exactly 11 digits, without dots or dashes.');
        } else if (!isValidCpf(cpf)) {
          out.add(['customer', 'personalId'], 'INVALID_CHECK_DIGIT', 'personalId is not a valid CPF: its check digits do not match.');
        }
      }
      break;
    }
    case 'CRYPTO': {
      if (!amount.currency) {
        out.add(['currency'], 'FIELD_REQUIRED', `Crypto payments need a currency: ${CRYPTO_CURRENCIES.join(' or ')}.`);
      } else if (checkCurrencyIn(out, amount, CRYPTO_CURRENCIES, 'crypto')) {
        checkBand(out, amount, 'CRYPTO', 'crypto');
      }
      checkName(out, customer);
      break;
    }
    case 'THAI_QR':
      out.add(['rail'], 'INVALID_VALUE', 'The deposit gateway does not serve the THAI_QR rail.');
      break;
  }
  return out.errors;
}

export function validatePayoutRequest(request: PayoutToValidate): FieldError[] {
  const out = new Collector();
  const { amount, beneficiary } = request;
  if (request.payoutId !== undefined && request.payoutId.length > MERCHANT_REFERENCE_MAX_LENGTH) {
    out.add(['payoutId'], 'REFERENCE_TOO_LONG', `The merchant reference is ${request.payoutId.length} characters long; the provider accepts at most ${MERCHANT_REFERENCE_MAX_LENGTH}.`);
  }
  checkAmountShape(out, amount);
  if (!isLatamCountry(request.country)) {
    out.add(['country'], request.country ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `Payout country ${quote(request.country)} is not one of ${LATAM_COUNTRIES.join(', ')}.`);
    return out.errors;
  }
  const country = request.country;
  checkCurrencyIn(out, amount, [LATAM_CURRENCY[country]], `payouts to ${title(country)}`);

  for (const field of PAYOUT_REQUIRED_BENEFICIARY_FIELDS[country]) {
    const name = BENEFICIARY_FIELD_NAMES[field];
    requireField(out, ['beneficiary', name], beneficiary[name], `beneficiary.${name} is required for payouts to ${title(country)}.`);
  }
  if (beneficiary.documentType !== undefined && beneficiary.documentType !== '') {
    checkDocument(out, ['beneficiary'], country, beneficiary.documentType, beneficiary.documentNumber, PAYOUT_DOCUMENT_TYPES[country]);
  }
  if (country === 'MEXICO' && beneficiary.accountNumber) {
    const clabe = beneficiary.accountNumber;
    if (!CLABE.test(clabe)) {
      out.add(['beneficiary', 'accountNumber'], 'INVALID_FORMAT', `The account number ${maskTail(clabe)} must be an 18-digit CLABE for payouts to Mexico.`);
    } else if (!isValidClabe(clabe)) {
      out.add(['beneficiary', 'accountNumber'], 'INVALID_CHECK_DIGIT', `The CLABE ${maskTail(clabe)} has a wrong check digit.`);
    }
  }
  return out.errors;
}

/**
 * A refund's amount in the provider's format (spec: Refund request, amount in the payment's currency):
 * a partial refund of COP 100.50 is refused here, before any call. Absent means the full amount.
 */
export function validateRefundRequest(request: { amount?: Money }): FieldError[] {
  const out = new Collector();
  if (request.amount) checkAmountPrecision(out, request.amount);
  return out.errors;
}

function checkLatam(
  out: Collector,
  details: Extract<RailDetails, { rail: 'LATAM' }>,
  customer: Customer,
  amount: Money,
  now: Date,
): void {
  checkName(out, customer);
  if (!isLatamCountry(details.country)) {
    out.add(['latam', 'country'], details.country ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `LATAM country ${quote(details.country)} is not one of ${LATAM_COUNTRIES.join(', ')}.`);
    return;
  }
  const country = details.country;
  const name = title(country);
  checkCurrencyIn(out, amount, latamDepositCurrencies(country), `${name} (the country's currency, or an override of A30)`);

  const methods = LATAM_METHODS[country];
  if (methods) {
    if (details.method === undefined || details.method === '') {
      out.add(['latam', 'method'], 'FIELD_REQUIRED', `method is required for ${name}: one of ${methods.join(', ')}.`);
    } else if (!methods.includes(details.method)) {
      out.add(['latam', 'method'], 'INVALID_VALUE', `method ${quote(details.method)} is not available in ${name}; use one of ${methods.join(', ')}.`);
    }
  } else if (details.method !== undefined) {
    out.add(['latam', 'method'], 'FIELD_NOT_ALLOWED', `method must be omitted for ${name}; the country alone selects the rail.`);
  }

  if (requireField(out, ['customer', 'documentType'], customer.documentType, `documentType is required for ${name}: one of ${LATAM_DOCUMENT_TYPES[country].join(', ')}.`)) {
    checkDocument(out, ['customer'], country, customer.documentType!, customer.documentNumber, LATAM_DOCUMENT_TYPES[country]);
  }
  requireField(out, ['customer', 'documentNumber'], customer.documentNumber, `documentNumber is required for ${name}.`);

  if (country === 'ECUADOR') {
    for (const field of ['phone', 'phoneCode'] as const) {
      if (customer[field] !== undefined) out.add(['customer', field], 'FIELD_NOT_ALLOWED', `${field} must be omitted for Ecuador, which rejects phone fields.`);
    }
  } else {
    const phoneRequired = country === 'COLOMBIA' || (country === 'CHILE' && details.method === 'cards');
    if (phoneRequired) {
      const why = country === 'COLOMBIA' ? 'Colombia' : 'Chile card payments';
      requireField(out, ['customer', 'phone'], customer.phone, `phone is required for ${why}.`);
      requireField(out, ['customer', 'phoneCode'], customer.phoneCode, `phoneCode (such as +57) is required for ${why}.`);
    }
    if (customer.phoneCode && !PHONE_CODE_PATTERN.test(customer.phoneCode)) {
      out.add(['customer', 'phoneCode'], 'INVALID_FORMAT', `phoneCode ${quote(customer.phoneCode)} must be a + and the country calling code, such as +57.`);
    }
  }

  if (details.redirectUrl !== undefined && country !== 'COLOMBIA') {
    out.add(['latam', 'redirectUrl'], 'FIELD_NOT_ALLOWED', `redirectUrl is for Colombia only; use successUrl and errorUrl for ${name}.`);
  }
  if (LATAM_REDIRECT_URLS_REQUIRED) {
    requireField(out, ['latam', 'successUrl'], details.successUrl, `successUrl is required for ${name}.`);
    requireField(out, ['latam', 'errorUrl'], details.errorUrl, `errorUrl is required for ${name}.`);
  }
  for (const field of ['successUrl', 'errorUrl', 'redirectUrl'] as const) {
    const url = details[field];
    if (url !== undefined) checkHttpsUrl(out, ['latam', field], url, field, LATAM_REDIRECT_URLS_HTTPS_ONLY);
  }

  // Ecuador requires a near-future expiry; Mexico and Colombia honour one in the same window (A33);
  // Peru and Chile ignore it, their links lasting the provider's 30 minutes.
  const { min, max } = ECUADOR_EXPIRY_WINDOW_SECONDS;
  const expiry = LATAM_EXPIRES_AT[country];
  if (!details.expiresAt) {
    if (expiry === 'required') {
      out.add(['latam', 'expiresAt'], 'FIELD_REQUIRED', `expiresAt is required for ${name}: a time between ${min / 60} minutes and ${max / 3600} hours from now.`);
    }
  } else if (Number.isNaN(details.expiresAt.getTime())) {
    out.add(['latam', 'expiresAt'], 'INVALID_FORMAT', 'expiresAt is not a valid date and time.');
  } else if (expiry !== 'ignored') {
    const ahead = (details.expiresAt.getTime() - now.getTime()) / 1000;
    if (ahead < min || ahead > max) {
      out.add(['latam', 'expiresAt'], 'EXPIRY_OUT_OF_RANGE', `expiresAt ${details.expiresAt.toISOString()} must be between ${min / 60} minutes and ${max / 3600} hours from now for ${name}.`);
    }
  }
}

/** documentType in the allowed list (case-sensitive, A7/A16); number format where the spec gives one. */
function checkDocument(
  out: Collector,
  prefix: string[],
  country: LatamCountry,
  documentType: string,
  documentNumber: string | undefined,
  allowed: readonly string[],
): void {
  if (!allowed.includes(documentType)) {
    out.add([...prefix, 'documentType'], 'INVALID_VALUE', `documentType ${quote(documentType)} is not accepted in ${title(country)}; use one of ${allowed.join(', ')} (case-sensitive).`);
    return;
  }
  if (!documentNumber) return;
  const field = [...prefix, 'documentNumber'];
  if (country === 'PERU' && documentType === 'DNI' && !PERU_DNI.test(documentNumber)) {
    out.add(field, 'INVALID_FORMAT', 'A Peruvian DNI is exactly 8 digits.');
  }
  if (country === 'CHILE' && documentType === 'RUT') {
    const match = CHILE_RUT_PATTERN.exec(documentNumber);
    if (!match) {
      out.add(field, 'INVALID_FORMAT', 'A Chilean RUT is written NNNNNNNN-D: 7 or 8 digits, a hyphen and a check digit (0-9 or K), without dots.');
    } else if (rutCheckDigit(match[1]!) !== match[2]) {
      out.add(field, 'INVALID_CHECK_DIGIT', 'The RUT check digit does not match its number (modulo 11).');
    }
  }
}

function checkAmountShape(out: Collector, amount: Money): void {
  if (!amount.isPositive()) {
    out.add(['amount'], 'INVALID_VALUE', `The amount must be greater than zero; got ${amount.toString()}.`);
    return;
  }
  checkAmountPrecision(out, amount);
}

/** Spec, Payment create request: "Up to 2 decimals. CLP and COP are zero-decimal: send integers". */
function checkAmountPrecision(out: Collector, amount: Money): void {
  const problem = amountPrecisionProblem(amount);
  if (problem) out.add(['amount'], 'AMOUNT_TOO_PRECISE', problem);
}

function checkCurrencyIn(out: Collector, amount: Money, allowed: readonly string[], what: string): boolean {
  if (allowed.includes(amount.currency)) return true;
  out.add(['currency'], 'CURRENCY_NOT_SUPPORTED', `${amount.currency || 'No currency'} is not supported for ${what}; use ${allowed.join(', ')}.`);
  return false;
}

function checkBand(out: Collector, amount: Money, rail: keyof typeof AMOUNT_BANDS, what: string): void {
  const band = AMOUNT_BANDS[rail];
  if (!band || !amount.isPositive()) return;
  const verdict = compareWithBand(amount, band);
  if (verdict === 'below') {
    out.add(['amount'], 'AMOUNT_BELOW_MINIMUM', `${amount.toString()} is below the ${what} minimum of ${amount.currency} ${band.min}.`);
  } else if (verdict === 'above') {
    out.add(['amount'], 'AMOUNT_ABOVE_MAXIMUM', `${amount.toString()} is above the ${what} maximum of ${amount.currency} ${band.max}.`);
  }
}

/** Where an amount lies against a band given in major units of the amount's own currency. */
export function compareWithBand(amount: Money, band: AmountBand): 'below' | 'within' | 'above' {
  if (amount.compare(Money.fromDecimal(band.min, amount.currency)) < 0) return 'below';
  if (band.max !== undefined && amount.compare(Money.fromDecimal(band.max, amount.currency)) > 0) return 'above';
  return 'within';
}

function checkName(out: Collector, customer: Customer): void {
  if (requireField(out, ['customer', 'email'], customer.email, 'email is required.')) checkEmail(out, customer.email!);
  requireField(out, ['customer', 'firstName'], customer.firstName, 'firstName is required.');
  requireField(out, ['customer', 'lastName'], customer.lastName, 'lastName is required.');
}

/** Cards and open banking: name, email and the full billing address (spec: Cards, European open banking). */
function checkBillingCustomer(out: Collector, customer: Customer): void {
  checkName(out, customer);
  if (requireField(out, ['customer', 'country'], customer.country, 'country is required: the ISO 3166-1 alpha-2 billing country, such as NL.')) {
    checkIsoCountry(out, customer.country!);
  }
  requireField(out, ['customer', 'address1'], customer.address1, 'address1 is required: the billing street address.');
  requireField(out, ['customer', 'city'], customer.city, 'city is required.');
  requireField(out, ['customer', 'zipCode'], customer.zipCode, 'zipCode is required.');
}

function checkEmail(out: Collector, email: string): void {
  if (email.length > 254 || !EMAIL.test(email)) {
    out.add(['customer', 'email'], 'INVALID_FORMAT', `${quote(email)} is not a valid email address.`);
  }
}

function checkIsoCountry(out: Collector, country: string): void {
  if (!ISO_COUNTRY_CODES.has(country)) {
    out.add(['customer', 'country'], 'INVALID_FORMAT', `Country ${quote(country)} must be an ISO 3166-1 alpha-2 code such as NL or GB, not a country name.`);
  }
}

function checkBankCountry(out: Collector, field: string[], method: string, bankCountry: string): void {
  if (!OPEN_BANKING_COUNTRIES.includes(bankCountry)) {
    out.add(field, bankCountry ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `bankCountry ${quote(bankCountry)} is not one of ${OPEN_BANKING_COUNTRIES.join(', ')}.`);
  } else if (method === 'fps' && bankCountry !== 'GB') {
    out.add(field, 'INVALID_VALUE', `fps (Faster Payments) is available for bankCountry GB only; got ${bankCountry}.`);
  }
}

function checkHttpsUrl(out: Collector, field: string[], value: string, name: string, httpsOnly = true): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    out.add(field, 'INVALID_FORMAT', `${name} ${quote(value)} is not an absolute URL.`);
    return;
  }
  if (url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:')) return;
  if (httpsOnly) out.add(field, 'URL_NOT_HTTPS', `${name} ${quote(value)} must use https://.`);
  else out.add(field, 'INVALID_FORMAT', `${name} ${quote(value)} must be an http(s) address.`);
}

/** Adds FIELD_REQUIRED when the value is absent or blank; true when present. */
function requireField(out: Collector, field: string[], value: string | undefined, message: string): boolean {
  if (value !== undefined && value.trim() !== '') return true;
  out.add(field, 'FIELD_REQUIRED', message[0]!.toUpperCase() + message.slice(1));
  return false;
}

function isLatamCountry(value: string): value is LatamCountry {
  return (LATAM_COUNTRIES as readonly string[]).includes(value);
}

/** Chilean RUT check digit: modulo 11 with weights 2..7 from the right; 10 is K, 11 is 0. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

/** Brazilian CPF: two modulo-11 check digits; eleven equal digits pass the arithmetic but are invalid. */
export function isValidCpf(cpf: string): boolean {
  if (!CPF.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits[length]) return false;
  }
  return true;
}

/** Mexican CLABE: weights 3, 7, 1 over the first 17 digits; the 18th makes the sum a multiple of 10. */
export function isValidClabe(clabe: string): boolean {
  if (!CLABE.test(clabe)) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(clabe[i]) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10 === Number(clabe[17]);
}

function title(country: string): string {
  return country.charAt(0) + country.slice(1).toLowerCase();
}

function quote(value: unknown): string {
  const shown = typeof value === 'string' ? value : String(value);
  return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown);
}
