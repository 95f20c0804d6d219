// A stable hash of a request's content, so a retry under the same idempotency key can be told
// apart from a different request reusing it. Key order, absent and null fields do not matter.

import { createHash } from 'node:crypto';

/** SHA-256 hex of the canonical JSON of `input`, leaving out the fields named in `ignore`. */
export function requestFingerprint(input: object, ignore: readonly string[] = ['idempotencyKey']): string {
  const kept = Object.fromEntries(Object.entries(input).filter(([key]) => !ignore.includes(key)));
  return createHash('sha256').update(canonicalJson(kept)).digest('hex');
}

/** JSON with object keys sorted and null/undefined members dropped; dates as ISO strings. */
export function canonicalJson(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined && member !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
