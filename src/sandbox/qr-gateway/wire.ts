// The QR sandbox's own reading and writing of the wire: exact JSON integers, the integer amount in
// the account's unit (Q2) and its bounds (Q11), and the delivery signature (Q4). Written from the
// spec and the Q assumptions alone, apart from the adapter's modules, so that a mistake in the
// adapter cannot be copied into the provider it is tested against.

import { createHmac } from 'node:crypto';
import { AMOUNT_BOUNDS_SATANG, SIGNATURE_SCHEME, type AmountUnit } from '../../providers/qr-gateway/assumptions.js';
import { FractionalNumber } from '../fractional-number.js';

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;

/** JSON.parse where integers become bigint (read from their source text) and other numbers {@link FractionalNumber}. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number') return value;
    const source = context?.source ?? String(value);
    return INTEGER_TEXT.test(source) ? BigInt(source) : new FractionalNumber(source);
  });
}

const rawJSON = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

/**
 * JSON.stringify writing bigints as plain JSON integers and a {@link FractionalNumber} as the number
 * it was read as (Node 22's JSON.rawJSON), so an echoed value (metadata) is the one sent.
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return rawJSON(item.toString());
    if (item instanceof FractionalNumber) return rawJSON(item.source);
    return item;
  });
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof FractionalNumber);
}

/** Satang in one unit of `unit` (Q2): 1 for satang, 100 for baht. */
function satangPer(unit: AmountUnit): bigint {
  return unit === 'satang' ? 1n : 100n;
}

/** Q11's bounds in the account's unit. */
export function amountBounds(unit: AmountUnit): { min: bigint; max: bigint } {
  const factor = satangPer(unit);
  return { min: AMOUNT_BOUNDS_SATANG.min / factor, max: AMOUNT_BOUNDS_SATANG.max / factor };
}

/** An integer amount of `unit` as baht with two decimals (`"12.50"`), the EMVCo amount's format. */
export function bahtText(amount: bigint, unit: AmountUnit): string {
  const satang = amount * satangPer(unit);
  const sign = satang < 0n ? '-' : '';
  const digits = (satang < 0n ? -satang : satang).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A baht text typed on the dashboard (`"50"`, `"50.5"`, `"50.25"`) as an integer of `unit`; undefined when it is not one. */
export function amountFromBahtText(text: string, unit: AmountUnit): bigint | undefined {
  const match = /^([0-9]{1,13})(?:\.([0-9]{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const satang = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  const factor = satangPer(unit);
  return satang % factor === 0n ? satang / factor : undefined;
}

/** Q4: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signDelivery(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},${SIGNATURE_SCHEME}=${mac}`;
}
