// Keys that failed authentication recently, by hash, so that a client repeating a bad key (one
// socket flooding `subscribe` with it, a misconfigured service retrying) costs no SQL statement per
// attempt. Bounded in size (the least recently seen leaves first) and in time.
//
// Remembering a failure is safe for as long as we like: a key is 256 random bits made by the
// gateway, so a key unknown now is never created later, and a revoked key is never valid again.
// The time bound only keeps the memory of a key nobody sends any more from lasting.

export interface FailedKeysOptions {
  maxEntries: number;
  ttlMs: number;
}

export class FailedKeys {
  /** Key hash → when the entry expires; the Map's order is least recently seen first. */
  private readonly entries = new Map<string, number>();
  private hitCount = 0;

  constructor(private readonly options: FailedKeysOptions) {}

  /** Whether the key (by hash) failed recently. */
  has(keyHash: string, now: number): boolean {
    const expiresAt = this.entries.get(keyHash);
    if (expiresAt === undefined) return false;
    this.entries.delete(keyHash);
    if (expiresAt <= now) return false;
    this.entries.set(keyHash, expiresAt);
    this.hitCount += 1;
    return true;
  }

  remember(keyHash: string, now: number): void {
    this.entries.delete(keyHash);
    this.entries.set(keyHash, now + this.options.ttlMs);
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Entries held now, and failures answered from memory since start (metrics and tests). */
  stats(): { size: number; hits: number } {
    return { size: this.entries.size, hits: this.hitCount };
  }
}
