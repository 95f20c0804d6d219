// Secrets the database holds, sealed with AES-256-GCM under a configured key (docs/secrets.md).
// A sealed value is one string, `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url), whose associated
// data binds it to its place (table, column, row id): copied into another row or column it no
// longer opens. Several keys may be configured so keys can rotate: the first seals, every one opens.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
/** GCM's recommended nonce size; random per seal (2^-32 collision odds only after 2^32 seals under one key). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const SEALED = /^v1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22,})$/;
/** Any sealed format, this version or a later one: never taken for a plain value. */
const ANY_VERSION = /^v[0-9]+\./;

/** Where a sealed value lives: part of what it is sealed to. */
export interface SealedPlace {
  table: string;
  column: string;
  /** The row's id. */
  id: string;
}

/** Why a stored value did not open. Messages name the key id, never a key or the value. */
export type OpenFailure = {
  ok: false;
  code: 'KEY_NOT_CONFIGURED' | 'NOT_AUTHENTIC' | 'MALFORMED';
  /** The key id the value names, when it names one. */
  keyId: string | null;
  message: string;
};

export type OpenResult = { ok: true; plaintext: string; /** The key it was sealed under; null for a plain value written before sealing. */ keyId: string | null } | OpenFailure;

/** What a holder of secrets needs: seal for a place, open from it. */
export interface SecretSealer {
  seal(plaintext: string, place: SealedPlace): string;
  open(stored: string, place: SealedPlace): OpenResult;
}

/**
 * The keys that seal and open secrets. Key material stays in a private field: the keyring prints,
 * logs and serializes as its key ids alone.
 *
 * @example
 * const parsed = SecretsKeyring.parse('k2:<base64 of 32 bytes>,k1:<base64 of 32 bytes>');
 * if (parsed.ok) parsed.keyring.seal('whsec_…', { table: 'notification_endpoint', column: 'secret', id: 'nep_…' });
 */
export class SecretsKeyring implements SecretSealer {
  readonly #keys: ReadonlyMap<string, Buffer>;
  /** The key that seals: the first one listed. */
  readonly currentKeyId: string;

  private constructor(keys: ReadonlyArray<readonly [string, Buffer]>) {
    this.#keys = new Map(keys);
    this.currentKeyId = keys[0]![0];
  }

  /**
   * `keyId:base64` entries separated by commas or white space (a file may hold one per line); the
   * first seals new values, every one opens. Problems name an entry by its position or key id,
   * never by its key.
   */
  static parse(text: string): { ok: true; keyring: SecretsKeyring } | { ok: false; problems: string[] } {
    const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
    if (entries.length === 0) return { ok: false, problems: ['lists no key; give keyId:base64-of-32-bytes, the key that seals first'] };
    const problems: string[] = [];
    const keys: Array<[string, Buffer]> = [];
    entries.forEach((entry, index) => {
      const colon = entry.indexOf(':');
      if (colon <= 0) {
        problems.push(`entry ${index + 1} is not keyId:base64-of-32-bytes`);
        return;
      }
      const id = entry.slice(0, colon);
      if (!KEY_ID.test(id)) {
        problems.push(`entry ${index + 1}: a key id is 1 to 32 letters, digits, _ or -`);
        return;
      }
      if (keys.some(([known]) => known === id)) {
        problems.push(`key id ${id} is listed twice`);
        return;
      }
      const key = decodeKey(entry.slice(colon + 1));
      if (typeof key === 'string') {
        problems.push(`key ${id} ${key}`);
        return;
      }
      keys.push([id, key]);
    });
    return problems.length > 0 ? { ok: false, problems } : { ok: true, keyring: new SecretsKeyring(keys) };
  }

  /** A new `keyId:base64` entry of 32 random bytes, for GATEWAY_SECRETS_KEY or a key file. */
  static newEntry(keyId: string): string {
    if (!KEY_ID.test(keyId)) throw new Error('A key id is 1 to 32 letters, digits, _ or -');
    return `${keyId}:${randomBytes(KEY_BYTES).toString('base64')}`;
  }

  /** Every key id, the sealing one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  holds(keyId: string): boolean {
    return this.#keys.has(keyId);
  }

  /** Seals `plaintext` for `place` under the current key, with a fresh random IV. */
  seal(plaintext: string, place: SealedPlace): string {
    const keyId = this.currentKeyId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#keys.get(keyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(keyId, place));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${keyId}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /**
   * Opens a stored value sealed for `place`. A value in no sealed format is a plain one written
   * before secrets were sealed: returned as it is (`keyId: null`) until it is sealed. A value
   * that does not authenticate (another key, another place, altered) never yields a plaintext.
   */
  open(stored: string, place: SealedPlace): OpenResult {
    if (!ANY_VERSION.test(stored)) return { ok: true, plaintext: stored, keyId: null };
    const match = SEALED.exec(stored);
    if (!match) return { ok: false, code: 'MALFORMED', keyId: null, message: `The value at ${describe(place)} is not a ${VERSION} sealed value` };
    const [, keyId, iv, body] = match as unknown as [string, string, string, string];
    const key = this.#keys.get(keyId);
    if (!key) return { ok: false, code: 'KEY_NOT_CONFIGURED', keyId, message: `The value at ${describe(place)} is sealed under key ${keyId}, which is not configured` };
    const bytes = Buffer.from(body, 'base64url');
    try {
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(keyId, place));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plaintext = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      return { ok: true, plaintext, keyId };
    } catch {
      return { ok: false, code: 'NOT_AUTHENTIC', keyId, message: `The value at ${describe(place)} does not open under key ${keyId}: another key of that id, another place, or altered` };
    }
  }

  toJSON(): { currentKeyId: string; keyIds: string[] } {
    return { currentKeyId: this.currentKeyId, keyIds: this.keyIds };
  }

  [inspect.custom](): string {
    return `SecretsKeyring { ${this.keyIds.join(', ')} }`;
  }
}

/**
 * For a process that was given no key (the client CLI, which holds no secret): sealing throws,
 * opening a sealed value fails. A plain value still opens, as with any keyring.
 */
export const NO_SECRETS_KEY: SecretSealer = {
  seal() {
    throw new Error('No secrets key was given to this process: it cannot seal a secret');
  },
  open(stored, place) {
    if (!ANY_VERSION.test(stored)) return { ok: true, plaintext: stored, keyId: null };
    const keyId = sealedKeyId(stored) ?? null;
    return { ok: false, code: 'KEY_NOT_CONFIGURED', keyId, message: `The value at ${describe(place)} is sealed, and this process was given no key` };
  },
};

/** The key id a stored value is sealed under; null for a plain value; undefined when it is in no format this version reads. */
export function sealedKeyId(stored: string): string | null | undefined {
  if (!ANY_VERSION.test(stored)) return null;
  return SEALED.exec(stored)?.[1];
}

/** The prefix of every value sealed under `keyId` (for SQL: values that need no re-seal start with it). */
export function sealedPrefix(keyId: string): string {
  return `${VERSION}.${keyId}.`;
}

/**
 * The version, the key id and the place, unambiguously: a value moved to another row, another
 * column or another table, or relabelled with another key id, fails authentication.
 */
function associatedData(keyId: string, place: SealedPlace): Buffer {
  return Buffer.from(JSON.stringify([VERSION, keyId, place.table, place.column, place.id]), 'utf8');
}

function describe(place: SealedPlace): string {
  return `${place.table}.${place.column} of ${place.id}`;
}

/** 32 bytes from base64 (standard or URL-safe), or why not (never the text itself). */
function decodeKey(text: string): Buffer | string {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return 'is not base64';
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES) return `is ${key.length} bytes, not ${KEY_BYTES}: give the base64 of 32 random bytes (openssl rand -base64 32)`;
  return key;
}
