// Prefixed, time-sortable identifiers that say what they are: `dep_01JD…`, `cli_01JD…`.

import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'cli' | 'key' | 'dep' | 'evt' | 'rfd' | 'pay' | 'whd' | 'whr' | 'wdr' | 'idm' | 'job' | 'adm' | 'nep' | 'ndl' | 'nat' | 'pcl' | 'rck';

/**
 * Random bytes drawn from the CSPRNG in batches and each used once: one `randomBytes(10)` per id
 * (a Buffer and a call into C++ each) cost ten times what making the rest of the id does.
 */
const pool = Buffer.alloc(4_000);
let poolOffset = pool.length;

/** 40 unused random bits, as an integer (exact in a double, below 2^53). */
function random40(): number {
  if (poolOffset + 5 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const value = pool[poolOffset]! * 2 ** 32 + pool.readUInt32BE(poolOffset + 1);
  poolOffset += 5;
  return value;
}

/** `value` (an integer below 2^53) as `digits` Crockford base32 digits, most significant first. */
function base32(value: number, digits: number): string {
  let text = '';
  for (let i = 0; i < digits; i++) {
    text = CROCKFORD[value % 32]! + text;
    value = Math.floor(value / 32);
  }
  return text;
}

/**
 * A ULID (48-bit millisecond time + 80 random bits, Crockford base32) behind a type prefix, so
 * ids sort by creation time and a stray id in a log says what it names.
 *
 * @example newId('dep') // 'dep_01JD3V9K8W6Q7T2M4N5P6R7S8T'
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${base32(now, 10)}${base32(random40(), 8)}${base32(random40(), 8)}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` is an id with the given prefix (cheap shape check before a lookup). */
export function isId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
