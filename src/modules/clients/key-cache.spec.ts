// The key cache: bounded, timed out, and never refilled by a lookup that started before a revocation.

import { describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.entity.js';
import { KeyCache, type KeyHolder } from './key-cache.js';

const holder = (id: string, keyId = `key_of_${id}`): KeyHolder => ({
  client: Object.assign(new ApiClient(), { id, roles: ['CASHIER'] }),
  key: { id: keyId, clientId: id, prefix: 'gw_abcdefg', expiresAt: null },
});

describe('KeyCache', () => {
  it('answers a stored client until its time-out', () => {
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    cache.store('h1', holder('cli_1'), cache.generation(), 0);
    expect(cache.get('h1', 999)?.client.id).toBe('cli_1');
    expect(cache.get('h1', 1_000)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new KeyCache({ maxEntries: 2, ttlMs: 1_000 });
    cache.store('h1', holder('cli_1'), cache.generation(), 0);
    cache.store('h2', holder('cli_2'), cache.generation(), 0);
    cache.get('h1', 1);
    cache.store('h3', holder('cli_3'), cache.generation(), 1);
    expect(cache.get('h2', 2)).toBeUndefined();
    expect(cache.get('h1', 2)?.client.id).toBe('cli_1');
    expect(cache.get('h3', 2)?.client.id).toBe('cli_3');
  });

  it('forgets a revoked client under every key hash it was stored with', () => {
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    cache.store('h1', holder('cli_1'), cache.generation(), 0);
    cache.store('h2', holder('cli_2'), cache.generation(), 0);
    cache.forget('cli_1');
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.client.id).toBe('cli_2');
  });

  it("forgets one revoked key, and keeps the client's other keys", () => {
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    cache.store('h1', holder('cli_1', 'key_old'), cache.generation(), 0);
    cache.store('h2', holder('cli_1', 'key_new'), cache.generation(), 0);
    cache.forgetKey('key_old');
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.key.id).toBe('key_new');
  });

  it('does not store what a lookup read before a key revocation was heard', () => {
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    const started = cache.generation();
    cache.forgetKey('key_old');
    cache.store('h1', holder('cli_1', 'key_old'), started, 0);
    expect(cache.get('h1', 1)).toBeUndefined();
  });

  it('does not store what a lookup read before a revocation was heard', () => {
    // given: a lookup starts, then the revocation notification arrives before it stores its result
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    const started = cache.generation();
    cache.forget('cli_1');
    // when
    cache.store('h1', holder('cli_1'), started, 0);
    // then
    expect(cache.get('h1', 1)).toBeUndefined();
  });

  it('does not store what a lookup read before the cache was cleared (LISTEN reconnected)', () => {
    const cache = new KeyCache({ maxEntries: 10, ttlMs: 1_000 });
    cache.store('h1', holder('cli_1'), cache.generation(), 0);
    const started = cache.generation();
    cache.clear();
    cache.store('h2', holder('cli_2'), started, 0);
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)).toBeUndefined();
  });
});
