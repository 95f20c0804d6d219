// Prefixed, time-sortable identifiers that say what they are: `dep_01JD…`, `cli_01JD…`.

import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'cli' | 'dep' | 'evt' | 'rfd' | 'pay' | 'whd' | 'whr' | 'wdr' | 'idm' | 'job' | 'adm';

/**
 * A ULID (48-bit millisecond time + 80 random bits, Crockford base32) behind a type prefix, so
 * ids sort by creation time and a stray id in a log says what it names.
 *
 * @example newId('dep') // 'dep_01JD3V9K8W6Q7T2M4N5P6R7S8T'
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let random = '';
  for (let i = 0; i < 16; i++) {
    random = CROCKFORD[Number(bits & 31n)] + random;
    bits >>= 5n;
  }
  return `${prefix}_${time}${random}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` is an id with the given prefix (cheap shape check before a lookup). */
export function isId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
