// Sealing: AES-256-GCM under the first configured key, bound to its place, opened by any configured
// key, and never a plaintext from a value that does not authenticate.

import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NO_SECRETS_KEY, SecretsKeyring, sealedKeyId, type SealedPlace } from './sealed-secrets.js';

const key = () => randomBytes(32).toString('base64');
const place: SealedPlace = { table: 'notification_endpoint', column: 'secret', id: 'nep_one' };
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

function keyring(text: string): SecretsKeyring {
  const parsed = SecretsKeyring.parse(text);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.keyring;
}

function problems(text: string): string[] {
  const parsed = SecretsKeyring.parse(text);
  return parsed.ok ? [] : parsed.problems;
}

describe('sealing', () => {
  const k1 = `k1:${key()}`;

  it('writes v1.<keyId>.<12-byte IV>.<ciphertext and 16-byte tag>, base64url, a fresh IV each time, and opens it again', () => {
    const ring = keyring(k1);
    const first = ring.seal(SECRET, place);
    const second = ring.seal(SECRET, place);
    expect(first).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    const [, , iv, body] = first.split('.');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(body!, 'base64url')).toHaveLength(Buffer.byteLength(SECRET) + 16);
    expect(second).not.toBe(first);
    expect(first).not.toContain(SECRET.slice(6));
    expect(ring.open(first, place)).toEqual({ ok: true, plaintext: SECRET, keyId: 'k1' });
    expect(ring.open(second, place)).toEqual({ ok: true, plaintext: SECRET, keyId: 'k1' });
    expect(sealedKeyId(first)).toBe('k1');
  });

  it('binds a value to its place: another row, column or table does not open it', () => {
    const ring = keyring(k1);
    const sealed = ring.seal(SECRET, place);
    for (const elsewhere of [{ ...place, id: 'nep_two' }, { ...place, column: 'previous_secret' }, { ...place, table: 'other' }]) {
      expect(ring.open(sealed, elsewhere)).toMatchObject({ ok: false, code: 'NOT_AUTHENTIC', keyId: 'k1' });
    }
  });

  it('refuses an altered value, and a value relabelled with another configured key id', () => {
    const ring = keyring(`${k1},k2:${key()}`);
    const sealed = ring.seal(SECRET, place);
    const [version, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0]! ^= 1;
    expect(ring.open([version, id, iv, flipped.toString('base64url')].join('.'), place)).toMatchObject({ ok: false, code: 'NOT_AUTHENTIC' });
    expect(ring.open([version, 'k2', iv, body].join('.'), place)).toMatchObject({ ok: false, code: 'NOT_AUTHENTIC', keyId: 'k2' });
    expect(ring.open('v1.k1.garbage', place)).toMatchObject({ ok: false, code: 'MALFORMED' });
    expect(ring.open('v2.k1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAA', place)).toMatchObject({ ok: false, code: 'MALFORMED' });
  });

  it('seals with the first key and opens with any configured one; a value under a key not configured does not open', () => {
    const old = `k1:${key()}`;
    const next = `k2:${key()}`;
    const before = keyring(old).seal(SECRET, place);
    const both = keyring(`${next},${old}`);
    expect(both.currentKeyId).toBe('k2');
    expect(both.keyIds).toEqual(['k2', 'k1']);
    expect(both.open(before, place)).toEqual({ ok: true, plaintext: SECRET, keyId: 'k1' });
    expect(both.seal(SECRET, place)).toMatch(/^v1\.k2\./);
    expect(keyring(next).open(before, place)).toMatchObject({ ok: false, code: 'KEY_NOT_CONFIGURED', keyId: 'k1', message: expect.stringContaining('key k1') });
    // Another key that happens to carry the same id
    expect(keyring(`k1:${key()}`).open(before, place)).toMatchObject({ ok: false, code: 'NOT_AUTHENTIC' });
  });

  it('reads a value in no sealed format as a plain one written before sealing', () => {
    expect(keyring(k1).open(SECRET, place)).toEqual({ ok: true, plaintext: SECRET, keyId: null });
    expect(sealedKeyId(SECRET)).toBeNull();
    expect(NO_SECRETS_KEY.open(SECRET, place)).toEqual({ ok: true, plaintext: SECRET, keyId: null });
    expect(NO_SECRETS_KEY.open(keyring(k1).seal(SECRET, place), place)).toMatchObject({ ok: false, code: 'KEY_NOT_CONFIGURED' });
    expect(() => NO_SECRETS_KEY.seal(SECRET, place)).toThrow(/no secrets key/i);
  });

  it('never shows key material when printed, logged or serialized', () => {
    const material = key();
    const ring = keyring(`k1:${material}`);
    const printed = [JSON.stringify(ring), JSON.stringify({ config: { secretsKeyring: ring } }), inspect(ring, { showHidden: true, depth: 5 }), String(Object.keys(ring))];
    for (const text of printed) {
      expect(text).not.toContain(material);
      expect(text).not.toContain(Buffer.from(material, 'base64').toString('hex'));
    }
    expect(JSON.parse(JSON.stringify(ring))).toEqual({ currentKeyId: 'k1', keyIds: ['k1'] });
  });
});

describe('keys', () => {
  it('takes keyId:base64 entries separated by commas, spaces or lines, standard or URL-safe base64', () => {
    const bytes = randomBytes(32);
    const ring = keyring(`a-1:${bytes.toString('base64url')}\n b_2:${key()} ,c:${key()}\n`);
    expect(ring.keyIds).toEqual(['a-1', 'b_2', 'c']);
    expect(SecretsKeyring.newEntry('k9')).toMatch(/^k9:[A-Za-z0-9+/]{43}=$/);
    expect(() => SecretsKeyring.newEntry('k.9')).toThrow(/key id/);
  });

  it('refuses a wrong length, bad base64, a missing or bad id, a repeated id and no key at all, never echoing a key', () => {
    const short = randomBytes(16).toString('base64');
    expect(problems(`k1:${short}`)).toEqual(['key k1 is 16 bytes, not 32: give the base64 of 32 random bytes (openssl rand -base64 32)']);
    expect(problems(`k1:${randomBytes(48).toString('base64')}`)).toEqual([expect.stringMatching(/^key k1 is 48 bytes, not 32/)]);
    expect(problems('k1:not*base64')).toEqual(['key k1 is not base64']);
    const bare = key();
    expect(problems(bare)).toEqual(['entry 1 is not keyId:base64-of-32-bytes']);
    expect(problems(`:${key()}`)).toEqual(['entry 1 is not keyId:base64-of-32-bytes']);
    expect(problems(`k.1:${key()}`)).toEqual(['entry 1: a key id is 1 to 32 letters, digits, _ or -']);
    expect(problems(`k1:${key()},k1:${key()}`)).toEqual(['key id k1 is listed twice']);
    expect(problems(' , ')).toEqual(['lists no key; give keyId:base64-of-32-bytes, the key that seals first']);
    const said = JSON.stringify(problems(`k1:${short},${bare}`));
    expect(said).not.toContain(short);
    expect(said).not.toContain(bare);
  });
});
