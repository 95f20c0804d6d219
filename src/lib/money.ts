// Exact money: amounts are bigint counts of a currency's minor unit, parsed from and printed as
// decimal strings. Binary floating point never touches an amount anywhere in the gateway.
//
// A currency's decimals are ISO 4217's (src/lib/currencies.ts): JPY and CLP 0, EUR and COP 2, KWD 3,
// CLF 4. A provider that takes fewer (the deposit gateway's whole CLP and COP) says so in its adapter.

import { isoMinorUnits, type MinorUnits } from './currencies.js';

/** Longest amount we accept, in digits before the decimal point: 10^15 is far above any rail's maximum. */
const MAX_INTEGER_DIGITS = 15;

const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** Plain decimal grammar: no exponent, grouping, spaces, plus sign or leading zeros. */
const DECIMAL_PATTERN = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * Number of digits after the decimal point for a currency: its ISO 4217 minor units (0, 2, 3 or 4).
 * Throws for a code ISO does not list with a minor unit: no Money exists in such a currency.
 *
 * @example currencyExponent('EUR') // 2
 * @example currencyExponent('KWD') // 3
 */
export function currencyExponent(currency: string): MinorUnits {
  const exponent = isoMinorUnits(currency);
  if (exponent === undefined) throw new RangeError(`${quote(currency)} is not an ISO 4217 currency with a minor unit`);
  return exponent;
}

/**
 * True for a code ISO 4217 lists with a minor unit. Any other code, however well-formed, is refused:
 * guessing the decimals of a currency we do not know could misread an amount a hundredfold, and no
 * provider takes a currency ISO does not list.
 */
export function isCurrencyCode(value: string): boolean {
  return typeof value === 'string' && isoMinorUnits(value) !== undefined;
}

export type MoneyErrorCode =
  | 'AMOUNT_INVALID'
  | 'AMOUNT_NOT_POSITIVE'
  | 'AMOUNT_TOO_PRECISE'
  | 'AMOUNT_TOO_LARGE'
  | 'CURRENCY_INVALID';

export interface MoneyError {
  code: MoneyErrorCode;
  message: string;
}

export type MoneyResult = { ok: true; money: Money } | { ok: false; error: MoneyError };

/** An exact amount in one currency. Immutable. */
export class Money {
  private constructor(
    /** Count of the currency's ISO 4217 minor unit (cents for EUR and COP, pesos for CLP, fils for KWD). */
    readonly minor: bigint,
    readonly currency: string,
  ) {}

  static ofMinor(minor: bigint, currency: string): Money {
    if (!isCurrencyCode(currency)) throw new RangeError(`Not an ISO 4217 currency with a minor unit: ${quote(currency)}`);
    return new Money(minor, currency);
  }

  static zero(currency: string): Money {
    return Money.ofMinor(0n, currency);
  }

  /**
   * Parses a caller's amount strictly: a plain decimal string, positive, with no more decimals than
   * ISO 4217 gives the currency ("10.5" and "10.50" are EUR 10.50; "1000" is CLP 1000, "1000.5" is
   * not; "1.234" is KWD 1.234).
   *
   * @example Money.parse('10.50', 'EUR') // { ok: true, money: EUR 10.50 }
   * @example Money.parse('1e3', 'EUR')   // { ok: false, error: { code: 'AMOUNT_INVALID', ... } }
   * @example Money.parse('10', 'XYZ')    // { ok: false, error: { code: 'CURRENCY_INVALID', ... } }
   */
  static parse(amount: string, currency: string): MoneyResult {
    if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
      return fail('CURRENCY_INVALID', `Currency must be a three-letter ISO 4217 code such as EUR; got ${quote(currency)}`);
    }
    if (!isCurrencyCode(currency)) {
      return fail('CURRENCY_INVALID', `${currency} is not an ISO 4217 currency that amounts are paid in; use a code such as EUR, JPY or KWD`);
    }
    if (typeof amount === 'string' && amount.startsWith('-') && DECIMAL_PATTERN.test(amount)) {
      return fail('AMOUNT_NOT_POSITIVE', `Amount must be greater than zero; got ${quote(amount)}`);
    }
    const parts = splitDecimal(amount);
    if (!parts) {
      return fail('AMOUNT_INVALID', `Amount must be a plain decimal string such as "10.50"; got ${quote(amount)}`);
    }
    const exponent = currencyExponent(currency);
    if (parts.integer.length > MAX_INTEGER_DIGITS) {
      return fail('AMOUNT_TOO_LARGE', `Amount has more than ${MAX_INTEGER_DIGITS} digits before the decimal point`);
    }
    const fraction = parts.fraction.replace(/0+$/, '');
    if (fraction.length > exponent) {
      return fail(
        'AMOUNT_TOO_PRECISE',
        exponent === 0
          ? `${currency} amounts are whole numbers; got ${quote(amount)}`
          : `${currency} amounts have at most ${exponent} decimals; got ${quote(amount)}`,
      );
    }
    const minor = BigInt(parts.integer + fraction.padEnd(exponent, '0'));
    if (minor <= 0n) {
      return fail('AMOUNT_NOT_POSITIVE', `Amount must be greater than zero; got ${quote(amount)}`);
    }
    return { ok: true, money: new Money(minor, currency) };
  }

  /**
   * Reads an amount we produced ourselves or a provider sent (database `numeric`, provider JSON):
   * any number of trailing zero decimals is accepted, zero and negatives too (fees, refunds).
   * Throws on anything inexact, or in a currency ISO 4217 does not list: such a value is a bug or a
   * provider fault, never caller input.
   */
  static fromDecimal(value: string, currency: string): Money {
    const negative = value.startsWith('-');
    const parts = splitDecimal(negative ? value.slice(1) : value, { allowLeadingZeros: true });
    if (!parts) throw new RangeError(`Not a decimal amount: ${quote(value)}`);
    const exponent = currencyExponent(currency);
    const fraction = parts.fraction.replace(/0+$/, '');
    if (fraction.length > exponent) throw new RangeError(`${quote(value)} is not an exact ${currency} amount`);
    const minor = BigInt(parts.integer + fraction.padEnd(exponent, '0'));
    return Money.ofMinor(negative ? -minor : minor, currency);
  }

  /** Canonical decimal string with exactly the currency's ISO 4217 decimals: "10.50", "1000" (CLP), "1.234" (KWD). */
  toDecimal(): string {
    return formatMinor(this.minor, currencyExponent(this.currency));
  }

  /**
   * True when the amount can be written with `decimals` decimals without rounding: how an adapter
   * whose provider takes fewer decimals than ISO gives (whole COP) checks an amount before sending it.
   *
   * @example Money.fromDecimal('50000.00', 'COP').fitsDecimals(0) // true
   * @example Money.fromDecimal('50000.50', 'COP').fitsDecimals(0) // false
   */
  fitsDecimals(decimals: number): boolean {
    const exponent = currencyExponent(this.currency);
    return decimals >= exponent || this.minor % 10n ** BigInt(exponent - checkDecimals(decimals)) === 0n;
  }

  /**
   * The amount written with exactly `decimals` decimals, for a provider whose format is not ISO's.
   * Throws when that would round: check `fitsDecimals` first.
   *
   * @example Money.fromDecimal('50000.00', 'COP').toDecimalPlaces(0) // '50000'
   * @example Money.fromDecimal('10.5', 'EUR').toDecimalPlaces(3)      // '10.500'
   */
  toDecimalPlaces(decimals: number): string {
    const exponent = currencyExponent(this.currency);
    const wanted = checkDecimals(decimals);
    if (wanted >= exponent) return formatMinor(this.minor * 10n ** BigInt(wanted - exponent), wanted);
    if (!this.fitsDecimals(wanted)) throw new RangeError(`${this.toString()} cannot be written with ${wanted} decimals without rounding`);
    return formatMinor(this.minor / 10n ** BigInt(exponent - wanted), wanted);
  }

  toString(): string {
    return `${this.currency} ${this.toDecimal()}`;
  }

  add(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.minor + other.minor, this.currency);
  }

  subtract(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.minor - other.minor, this.currency);
  }

  /** -1, 0 or 1. */
  compare(other: Money): -1 | 0 | 1 {
    this.assertSameCurrency(other);
    return this.minor < other.minor ? -1 : this.minor > other.minor ? 1 : 0;
  }

  equals(other: Money): boolean {
    return this.currency === other.currency && this.minor === other.minor;
  }

  isPositive(): boolean {
    return this.minor > 0n;
  }

  private assertSameCurrency(other: Money): void {
    if (other.currency !== this.currency) {
      throw new RangeError(`Cannot combine ${this.currency} with ${other.currency}`);
    }
  }
}

/** Canonical amounts of each number of decimals: digits, and a point with exactly that many decimals. */
const CANONICAL_PATTERNS: Readonly<Record<MinorUnits, RegExp>> = {
  0: /^-?(0|[1-9][0-9]*)$/,
  2: /^-?(0|[1-9][0-9]*)\.[0-9]{2}$/,
  3: /^-?(0|[1-9][0-9]*)\.[0-9]{3}$/,
  4: /^-?(0|[1-9][0-9]*)\.[0-9]{4}$/,
};

const NEGATIVE_ZERO = /^-0(\.0+)?$/;

/**
 * `Money.fromDecimal(value, currency).toDecimal()` without the round trip through a bigint when
 * `value` is already canonical: the amount columns keep what `toDecimal()` wrote, so lists of amounts
 * format at the cost of one pattern test each. Older rows (written with two decimals whatever the
 * currency) take the long way.
 *
 * @example canonicalDecimal('25.00', 'EUR') // '25.00'
 * @example canonicalDecimal('1000.00', 'CLP') // '1000'
 */
export function canonicalDecimal(value: string, currency: string): string {
  const exponent = isoMinorUnits(currency);
  if (exponent !== undefined && CANONICAL_PATTERNS[exponent].test(value) && !(value.startsWith('-') && NEGATIVE_ZERO.test(value))) return value;
  return Money.fromDecimal(value, currency).toDecimal();
}

/** True when `value` is a plain decimal string (the `Decimal` scalar's grammar), sign allowed. */
export function isPlainDecimal(value: string): boolean {
  return DECIMAL_PATTERN.test(value);
}

/** `minor` units of 10^-exponent as a decimal string with exactly `exponent` decimals. */
function formatMinor(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString();
  if (exponent === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(exponent + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

function checkDecimals(decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new RangeError(`A number of decimals from 0 to 18; got ${decimals}`);
  return decimals;
}

function splitDecimal(value: string, options: { allowLeadingZeros?: boolean } = {}): { integer: string; fraction: string } | null {
  const pattern = options.allowLeadingZeros ? /^([0-9]+)(?:\.([0-9]+))?$/ : /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
  if (typeof value !== 'string' || value.length > 64 || !pattern.test(value)) return null;
  const [integer = '0', fraction = ''] = value.split('.');
  return { integer: integer.replace(/^0+(?=\d)/, ''), fraction };
}

function fail(code: MoneyErrorCode, message: string): MoneyResult {
  return { ok: false, error: { code, message } };
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
