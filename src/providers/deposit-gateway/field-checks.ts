// The deposit gateway's field rules that every rail and payouts share (spec: shared fields, Limits):
// amounts and their precision, currencies and amount bands, names, emails, billing addresses,
// countries and URLs, each adding at most one error per field to a Collector.

import { Money } from '../../lib/money.js';
import type { Customer, FieldError } from '../provider.js';
import { LATAM_COUNTRIES, type LatamCountry } from './assumptions.js';
import { amountPrecisionProblem } from './amount.js';
import { AMOUNT_BANDS, ISO_COUNTRY_CODES, OPEN_BANKING_COUNTRIES, type AmountBand } from './rules.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Collects field errors; one per field at most, the first rule broken wins. */
export class Collector {
  readonly errors: FieldError[] = [];

  add(field: string[], code: FieldError['code'], message: string): void {
    if (this.has(field)) return;
    this.errors.push({ field, code, message });
  }

  has(field: string[]): boolean {
    return this.errors.some((error) => error.field.join('.') === field.join('.'));
  }
}

export function checkAmountShape(out: Collector, amount: Money): void {
  if (!amount.isPositive()) {
    out.add(['amount'], 'INVALID_VALUE', `The amount must be greater than zero; got ${amount.toString()}.`);
    return;
  }
  checkAmountPrecision(out, amount);
}

/** Spec, Payment create request: "Up to 2 decimals. CLP and COP are zero-decimal: send integers". */
export function checkAmountPrecision(out: Collector, amount: Money): void {
  const problem = amountPrecisionProblem(amount);
  if (problem) out.add(['amount'], 'AMOUNT_TOO_PRECISE', problem);
}

export function checkCurrencyIn(out: Collector, amount: Money, allowed: readonly string[], what: string): boolean {
  if (allowed.includes(amount.currency)) return true;
  out.add(['currency'], 'CURRENCY_NOT_SUPPORTED', `${amount.currency || 'No currency'} is not supported for ${what}; use ${allowed.join(', ')}.`);
  return false;
}

export function checkBand(out: Collector, amount: Money, rail: keyof typeof AMOUNT_BANDS, what: string): void {
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

export function checkName(out: Collector, customer: Customer): void {
  if (requireField(out, ['customer', 'email'], customer.email, 'email is required.')) checkEmail(out, customer.email!);
  requireField(out, ['customer', 'firstName'], customer.firstName, 'firstName is required.');
  requireField(out, ['customer', 'lastName'], customer.lastName, 'lastName is required.');
}

/** Cards and open banking: name, email and the full billing address (spec: Cards, European open banking). */
export function checkBillingCustomer(out: Collector, customer: Customer): void {
  checkName(out, customer);
  if (requireField(out, ['customer', 'country'], customer.country, 'country is required: the ISO 3166-1 alpha-2 billing country, such as NL.')) {
    checkIsoCountry(out, customer.country!);
  }
  requireField(out, ['customer', 'address1'], customer.address1, 'address1 is required: the billing street address.');
  requireField(out, ['customer', 'city'], customer.city, 'city is required.');
  requireField(out, ['customer', 'zipCode'], customer.zipCode, 'zipCode is required.');
}

export function checkEmail(out: Collector, email: string): void {
  if (email.length > 254 || !EMAIL.test(email)) {
    out.add(['customer', 'email'], 'INVALID_FORMAT', `${quote(email)} is not a valid email address.`);
  }
}

export function checkIsoCountry(out: Collector, country: string): void {
  if (!ISO_COUNTRY_CODES.has(country)) {
    out.add(['customer', 'country'], 'INVALID_FORMAT', `Country ${quote(country)} must be an ISO 3166-1 alpha-2 code such as NL or GB, not a country name.`);
  }
}

export function checkBankCountry(out: Collector, field: string[], method: string, bankCountry: string): void {
  if (!OPEN_BANKING_COUNTRIES.includes(bankCountry)) {
    out.add(field, bankCountry ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `bankCountry ${quote(bankCountry)} is not one of ${OPEN_BANKING_COUNTRIES.join(', ')}.`);
  } else if (method === 'fps' && bankCountry !== 'GB') {
    out.add(field, 'INVALID_VALUE', `fps (Faster Payments) is available for bankCountry GB only; got ${bankCountry}.`);
  }
}

export function checkHttpsUrl(out: Collector, field: string[], value: string, name: string, httpsOnly = true): void {
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
export function requireField(out: Collector, field: string[], value: string | undefined, message: string): boolean {
  if (value !== undefined && value.trim() !== '') return true;
  out.add(field, 'FIELD_REQUIRED', message[0]!.toUpperCase() + message.slice(1));
  return false;
}

export function isLatamCountry(value: string): value is LatamCountry {
  return (LATAM_COUNTRIES as readonly string[]).includes(value);
}

export function title(country: string): string {
  return country.charAt(0) + country.slice(1).toLowerCase();
}

export function quote(value: unknown): string {
  const shown = typeof value === 'string' ? value : String(value);
  return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown);
}
