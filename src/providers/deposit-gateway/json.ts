// Exact JSON reading: every JSON number keeps its source text, so an amount the provider sends as a
// number (spec: Payment create request, "Crypto examples send a JSON number") never passes through a float.

/** A JSON number exactly as the sender wrote it. */
export class JsonNumber {
  constructor(readonly source: string) {}
}

/** Where a JSON number token can start: the start of the text, or after `:`, `[` or `,`. */
const MAYBE_NUMBER = /(?:^|[:[,])\s*-?[0-9]/;

/**
 * JSON.parse with numbers replaced by {@link JsonNumber}. Uses the reviver's source-text access
 * (Node 22); on a runtime without it, only safe integers are accepted and any other number throws,
 * so an inexact value can never slip through.
 */
export function parseJsonExact(text: string): unknown {
  // A reviver is called for every value: text with no number token in it (amounts as strings, as
  // the provider's envelopes have them) parses the same without one. A match inside a string only
  // costs the slower path.
  if (!MAYBE_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number') return value;
    if (typeof context?.source === 'string') return new JsonNumber(context.source);
    if (Number.isSafeInteger(value)) return new JsonNumber(String(value));
    throw new SyntaxError('Cannot read a non-integer JSON number exactly on this runtime');
  });
}

const NUMBER_SOURCE = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
const MAX_EXPONENT = 40;

/**
 * The plain decimal text of a JSON string or number (`"10.50"`, `10.50`, `1.05e1` → `"10.5"`),
 * or undefined when the value is neither. Exponents are shifted in the digits, never computed.
 */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!(value instanceof JsonNumber)) return undefined;
  const match = NUMBER_SOURCE.exec(value.source);
  if (!match) return undefined;
  const [, sign = '', integer = '', fraction = '', exponentText] = match;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  if (exponent === 0) return fraction ? `${sign}${integer}.${fraction}` : `${sign}${integer}`;
  const digits = integer + fraction;
  const point = integer.length + exponent;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : point > digits.length ? digits.padEnd(point, '0') : digits;
  const at = point <= 0 ? 1 : point;
  const whole = padded.slice(0, at).replace(/^0+(?=[0-9])/, '');
  const rest = padded.slice(at);
  return rest ? `${sign}${whole}.${rest}` : `${sign}${whole}`;
}

/** A safe integer from a JSON number or a digit string; undefined otherwise. */
export function integerValue(value: unknown): number | undefined {
  const text = value instanceof JsonNumber ? value.source : typeof value === 'string' ? value : undefined;
  if (text === undefined || !/^-?[0-9]+$/.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : undefined;
}

const rawJSON = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;
const PLAIN_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * JSON.stringify that writes each {@link JsonNumber} as the number token of its source text, through
 * `JSON.rawJSON` (Node 22), so a decimal such as `20.10` goes out as `20.10`, digit for digit, and
 * never as the nearest binary float. Refuses a source that is not a plain decimal, and a runtime
 * without `JSON.rawJSON`, rather than writing an inexact number.
 */
export function stringifyJsonExact(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof JsonNumber)) return item;
    if (!PLAIN_DECIMAL.test(item.source)) throw new RangeError('A JSON number must be a plain decimal');
    if (!rawJSON) throw new RangeError('Cannot write an exact JSON number on this runtime');
    return rawJSON(item.source);
  });
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/** A non-empty string field, or undefined. */
export function text(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
