// The deposit gateway's LATAM rules (spec: LATAM rail table; A7, A16, A30, A33): a country's
// currency, method, documents (with their check digits), phone fields, redirect addresses and link
// expiry, for deposits; payouts share the document rules.

import type { Money } from '../../lib/money.js';
import type { Customer, RailDetails } from '../provider.js';
import {
  CHILE_RUT_PATTERN,
  ECUADOR_EXPIRY_WINDOW_SECONDS,
  LATAM_COUNTRIES,
  LATAM_DOCUMENT_TYPES,
  LATAM_EXPIRES_AT,
  LATAM_REDIRECT_URLS_HTTPS_ONLY,
  LATAM_REDIRECT_URLS_REQUIRED,
  latamDepositCurrencies,
  PHONE_CODE_PATTERN,
  type LatamCountry,
} from './assumptions.js';
import { rutCheckDigit } from './check-digits.js';
import { checkCurrencyIn, checkHttpsUrl, checkName, isLatamCountry, quote, requireField, title, type Collector } from './field-checks.js';
import { LATAM_METHODS } from './rules.js';

const PERU_DNI = /^[0-9]{8}$/;

export function checkLatam(
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
export function checkDocument(
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
