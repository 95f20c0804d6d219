// Custom scalars: `Decimal` (exact decimal strings, never floats) and `DateTime` (ISO 8601).

import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { isoString } from '../lib/iso-time.js';
import { isPlainDecimal } from '../lib/money.js';

const MAX_DECIMAL_LENGTH = 40;

function parseDecimal(value: unknown): string {
  if (typeof value !== 'string') {
    // A JSON number has already been through binary floating point in most clients: refuse it.
    throw new GraphQLError(`Decimal must be a string such as "10.50", not ${typeof value === 'number' ? 'a JSON number' : typeof value}`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  if (value.length > MAX_DECIMAL_LENGTH || !isPlainDecimal(value)) {
    const shown = value.length > MAX_DECIMAL_LENGTH ? `${value.slice(0, MAX_DECIMAL_LENGTH)}…` : value;
    throw new GraphQLError(
      `Decimal must be a plain decimal string such as "10.50" (digits, one optional ".", no exponent, spaces or thousands separators); got ${JSON.stringify(shown)}`,
      { extensions: { code: 'BAD_USER_INPUT' } },
    );
  }
  return value;
}

export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description:
    'An exact decimal number carried as a string, e.g. "10.50" or "1000". Never a float: JSON numbers, exponents, ' +
    'signs other than a leading "-", spaces and thousands separators are rejected. Each currency has its own number of decimals.',
  serialize(value) {
    if (typeof value === 'string' && isPlainDecimal(value)) return value;
    throw new GraphQLError('Decimal cannot represent a non-decimal value');
  },
  parseValue: parseDecimal,
  parseLiteral(ast: ValueNode) {
    if (ast.kind !== Kind.STRING) return parseDecimal(ast.kind === Kind.INT || ast.kind === Kind.FLOAT ? Number(ast.value) : ast.kind);
    return parseDecimal(ast.value);
  },
});

const dateTimeConfig = DateTimeResolver.toConfig();

/**
 * `Date.toISOString()`'s own form with a day that every month has: such a string is already the
 * answer, as parsing it and writing it again would give. Other days go the long way, which checks
 * that the day exists.
 */
const CANONICAL_DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * ISO 8601 date-time with offset, e.g. "2026-11-21T10:00:00.000Z". Snapshots carry their times as
 * such strings, answered as they are; a valid Date is answered as its ISO string at once, where
 * graphql-scalars hands the Date itself to the response, whose JSON.stringify then leaves its fast
 * path to call `toJSON` on each of the hundreds of dates of a page.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...dateTimeConfig,
  name: 'DateTime',
  serialize(value) {
    if (typeof value === 'string' && CANONICAL_DATE_TIME.test(value)) return value;
    if (value instanceof Date && !Number.isNaN(value.getTime())) return isoString(value);
    return dateTimeConfig.serialize(value);
  },
});

/** ISO 4217 currency code, e.g. "EUR". */
function parseCurrency(value: unknown): string {
  if (typeof value === 'string' && /^[A-Z]{3}$/.test(value)) return value;
  throw new GraphQLError(`Currency must be a three-letter ISO 4217 code in capitals such as "EUR"; got ${JSON.stringify(value)}`, { extensions: { code: 'BAD_USER_INPUT' } });
}

export const CurrencyScalar: GraphQLScalarType<string, string> = new GraphQLScalarType<string, string>({
  name: 'Currency',
  description: 'An ISO 4217 currency code in capitals, e.g. "EUR", "CLP", "THB".',
  serialize(value) {
    if (typeof value === 'string' && /^[A-Z]{3}$/.test(value)) return value;
    throw new GraphQLError('Currency cannot represent this value');
  },
  parseValue: parseCurrency,
  parseLiteral(ast: ValueNode): string {
    return parseCurrency(ast.kind === Kind.STRING ? ast.value : ast.kind);
  },
});
