// A Date as the ISO 8601 text the API answers (`2026-11-27T15:06:31.123Z`), written from the date's
// UTC fields. A page of deposits with their refunds and events carries hundreds of dates, and the
// built-in `toISOString` took about twice as long for each as this does (with the JSON written
// after it): see the spec for the proof that both give the same text.

/** `00` to `99`, by value. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => (value < 10 ? `0${value}` : String(value)));

/**
 * Exactly `date.toISOString()`: the same text for every date, and the same RangeError for an
 * invalid one. Years outside 1000-9999 (and invalid dates) go to the built-in, which writes the
 * padded and the six-digit signed forms.
 */
export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  return `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]}T${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/** A date as `isoString` writes it, or that text already: what snapshots and API objects carry. */
export function isoText(value: Date | string): string {
  return typeof value === 'string' ? value : isoString(value);
}

/**
 * `T` with each date property given either as a Date or as the ISO text `isoString` writes for it:
 * the facts a snapshot is made of, from an entity or from a plain read that kept its dates as text
 * (src/db/plain-rows.ts, `isoDateRows`).
 */
export type WithIsoDates<T> = { [K in keyof T]: Date extends T[K] ? T[K] | string : T[K] };
