// Exact JSON for the QR gateway: integer amounts are read from their source text as bigint, so no
// amount ever passes through a binary float on its way in, and written as plain JSON integers on the way out.

/** A JSON number that is not an integer, kept as its source text so callers can refuse it. */
export class NonIntegerNumber {
  constructor(readonly source: string) {}
}

const INTEGER_SOURCE = /^-?(0|[1-9][0-9]*)$/;

/**
 * JSON.parse where every integer number becomes a bigint and any other number a {@link NonIntegerNumber}.
 * Uses the reviver's source-text access (Node 22); without it, only safe integers are accepted.
 */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number') return value;
    const source = typeof context?.source === 'string' ? context.source : Number.isSafeInteger(value) ? String(value) : undefined;
    if (source === undefined) return new NonIntegerNumber(String(value));
    return INTEGER_SOURCE.test(source) ? BigInt(source) : new NonIntegerNumber(source);
  });
}

const rawJSON = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * JSON.stringify that writes bigints as JSON integers, through `JSON.rawJSON` (Node 22) so no value
 * is converted to a Number; without it, only safe integers can be written.
 */
export function stringifyJsonExact(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'bigint') return item;
    if (rawJSON) return rawJSON(item.toString());
    if (item > BigInt(Number.MAX_SAFE_INTEGER) || item < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new RangeError('Cannot write this integer exactly on this runtime');
    }
    return Number(item);
  });
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NonIntegerNumber);
}
