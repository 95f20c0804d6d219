// The clients this instance authenticated recently, by key hash, so that a request with a known key
// costs no SQL statement. Revocation empties it on every instance (see ApiClientService.start).

import type { ApiClient } from './api-client.entity.js';

/** The key a request authenticated with: what may be shown of it, and when it expires. */
export interface UsedKey {
  readonly id: string;
  readonly clientId: string;
  readonly prefix: string;
  /** Checked on every authentication, a cached one included; null: it does not expire. */
  readonly expiresAt: Date | null;
}

/** A key and its client, as one authentication found them. */
export interface KeyHolder {
  readonly client: ApiClient;
  readonly key: UsedKey;
}

export interface KeyCacheOptions {
  /** Most clients kept; the least recently used one leaves first. */
  maxEntries: number;
  /**
   * Longest life of an entry. Revocations reach the cache by notification; the time-out only bounds
   * how long a notification lost to a LISTEN connection that has not come back yet can matter.
   */
  ttlMs: number;
}

interface Entry {
  holder: KeyHolder;
  expiresAt: number;
}

/**
 * Clients and their keys, by the SHA-256 of the key (never the key itself). An entry's client is a
 * detached copy, shared by every request that uses the key: nobody may change it. A key's own
 * expiry is its holder's to check on each use: the cache's time-out knows nothing of it.
 *
 * The race it must survive: a lookup reads a client just before its revocation commits, the
 * revocation's notification empties the cache, and then the lookup stores what it read. Every
 * forgetting therefore moves a generation on, and a lookup may store its result only if the
 * generation it saw when it started is still the current one.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private current = 0;

  constructor(private readonly options: KeyCacheOptions) {}

  /** To be taken before the lookup whose result is later passed to `store`. */
  generation(): number {
    return this.current;
  }

  get(keyHash: string, now: number): KeyHolder | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    this.entries.delete(keyHash);
    if (entry.expiresAt <= now) return undefined;
    // Re-inserted, so the Map's order is least recently used first.
    this.entries.set(keyHash, entry);
    return entry.holder;
  }

  /** Keeps `holder` unless something was forgotten since `generation` was taken. */
  store(keyHash: string, holder: KeyHolder, generation: number, now: number): void {
    if (generation !== this.current) return;
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { holder, expiresAt: now + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops the client, under every key of it (a revocation): at most `maxEntries` to look at, and revocations are rare. */
  forget(clientId: string): void {
    this.current += 1;
    for (const [keyHash, entry] of this.entries) {
      if (entry.holder.client.id === clientId) this.entries.delete(keyHash);
    }
  }

  /** Drops one key of a client (its revocation); the client's other keys stay. */
  forgetKey(keyId: string): void {
    this.current += 1;
    for (const [keyHash, entry] of this.entries) {
      if (entry.holder.key.id === keyId) this.entries.delete(keyHash);
    }
  }

  /** Drops everything (revocations may have been missed). */
  clear(): void {
    this.current += 1;
    this.entries.clear();
  }
}
