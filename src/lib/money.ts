// Exact money: amounts are bigint counts of a currency's minor unit, parsed from and printed as
// decimal strings. Binary floating point never touches an amount anywhere in the gateway.

/**
 * Currencies whose amounts have no minor unit. The deposit gateway names CLP and COP zero-decimal
 * ("send integers", spec: Payment create request); JPY is zero-decimal in ISO 4217.
 */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['CLP', 'COP', 'JPY']);

/** Longest amount we accept, in digits before the decimal point: 10^15 is far above any rail's maximum. */
const MAX_INTEGER_DIGITS = 15;

const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** Plain decimal grammar: no exponent, grouping, spaces, plus sign or leading zeros. */
const DECIMAL_PATTERN = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Number of digits after the decimal point for a currency (0 or 2). */
export function currencyExponent(currency: string): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
}

export function isCurrencyCode(value: string): boolean {
  return CURRENCY_PATTERN.test(value);
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
    /** Count of the currency's minor unit (cents for EUR, pesos for CLP). */
    readonly minor: bigint,
    readonly currency: string,
  ) {}

  static ofMinor(minor: bigint, currency: string): Money {
    if (!isCurrencyCode(currency)) throw new RangeError(`Invalid currency code ${JSON.stringify(currency)}`);
    return new Money(minor, currency);
  }

  static zero(currency: string): Money {
    return Money.ofMinor(0n, currency);
  }

  /**
   * Parses a caller's amount strictly: a plain decimal string, positive, with no more decimals than
   * the currency allows ("10.5" and "10.50" are EUR 10.50; "1000" is CLP 1000, "1000.5" is not).
   *
   * @example Money.parse('10.50', 'EUR') // { ok: true, money: EUR 10.50 }
   * @example Money.parse('1e3', 'EUR')   // { ok: false, error: { code: 'AMOUNT_INVALID', ... } }
   */
  static parse(amount: string, currency: string): MoneyResult {
    if (!isCurrencyCode(currency)) {
      return fail('CURRENCY_INVALID', `Currency must be a three-letter ISO 4217 code such as EUR; got ${quote(currency)}`);
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
   * Throws on anything inexact: such a value is a bug or a provider fault, never caller input.
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

  /** Canonical decimal string with exactly the currency's decimals: "10.50", "1000". */
  toDecimal(): string {
    const exponent = currencyExponent(this.currency);
    const negative = this.minor < 0n;
    const digits = (negative ? -this.minor : this.minor).toString();
    if (exponent === 0) return (negative ? '-' : '') + digits;
    const padded = digits.padStart(exponent + 1, '0');
    const integer = padded.slice(0, -exponent);
    const fraction = padded.slice(-exponent);
    return `${negative ? '-' : ''}${integer}.${fraction}`;
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

/** What a numeric(20, 2) column reads as: digits, a point and two decimals, no leading zero. */
const TWO_DECIMALS_PATTERN = /^-?(0|[1-9][0-9]*)\.[0-9]{2}$/;

/**
 * `Money.fromDecimal(value, currency).toDecimal()` without the round trip through a bigint when
 * `value` is already canonical: for a two-decimal currency, an amount column reads as its canonical
 * string, so lists of amounts format at the cost of one pattern test each.
 *
 * @example canonicalDecimal('25.00', 'EUR') // '25.00'
 * @example canonicalDecimal('1000.00', 'CLP') // '1000'
 */
export function canonicalDecimal(value: string, currency: string): string {
  if (currencyExponent(currency) === 2 && TWO_DECIMALS_PATTERN.test(value) && value !== '-0.00' && isCurrencyCode(currency)) return value;
  return Money.fromDecimal(value, currency).toDecimal();
}

/** True when `value` is a plain decimal string (the `Decimal` scalar's grammar), sign allowed. */
export function isPlainDecimal(value: string): boolean {
  return DECIMAL_PATTERN.test(value);
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
