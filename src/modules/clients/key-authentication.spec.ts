// A key known without the database is answered as the database path answers it: the same client,
// the same refusals, expiry checked on every call; anything else is left to the database.

import { createHash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.entity.js';
import { ApiKey } from './api-key.entity.js';
import { hashKey, KeyAuthenticator } from './key-authentication.js';

const KEY = `gw_${'a'.repeat(43)}`;
const UNKNOWN = `gw_${'b'.repeat(43)}`;
const NOW = new Date('2026-12-07T12:00:00.000Z');

/** A database holding one key of one client, counting what it is asked. */
function database(expiresAt: Date | null = null) {
  const asked: string[] = [];
  const apiKey = Object.assign(new ApiKey(), { id: 'key_1', clientId: 'cli_1', prefix: KEY.slice(0, 10), hash: hashKey(KEY), expiresAt, lastUsedAt: NOW, revokedAt: null });
  const client = Object.assign(new ApiClient(), { id: 'cli_1', name: 'cashier', roles: ['CASHIER'], merchantAccounts: null, trustedDocumentsOnly: false, createdAt: NOW, revokedAt: null });
  const em = {
    findOne: async (entity: unknown, where: Record<string, unknown>) => {
      asked.push(entity === ApiKey ? 'key' : 'client');
      if (entity === ApiKey) return where.hash === apiKey.hash ? apiKey : null;
      return where.id === client.id ? client : null;
    },
    nativeUpdate: async () => 1,
  } as unknown as SqlEntityManager;
  return { em, asked };
}

async function started(): Promise<KeyAuthenticator> {
  const keys = new KeyAuthenticator();
  await keys.start(async () => async () => {});
  return keys;
}

describe('KeyAuthenticator.authenticateKnownKey', () => {
  it('hashes as the table does: the hex SHA-256 of the key', () => {
    expect(hashKey(KEY)).toBe(createHash('sha256').update(KEY, 'utf8').digest('hex'));
  });

  it('answers a key once authenticated, with the same client and key, and leaves an unknown one to the database', async () => {
    const keys = await started();
    const { em, asked } = database();
    expect(keys.authenticateKnownKey(KEY, NOW.getTime())).toBeUndefined();
    const first = await keys.authenticateKey(em, KEY, NOW);
    expect(first.ok).toBe(true);
    const known = keys.authenticateKnownKey(KEY, NOW.getTime());
    expect(known).toEqual(first);
    expect(keys.authenticateKnownKey(UNKNOWN, NOW.getTime())).toBeUndefined();
    expect(asked).toEqual(['key', 'client']);
  });

  it('refuses a malformed key, and an unknown one once the database refused it', async () => {
    const keys = await started();
    const { em } = database();
    expect(keys.authenticateKnownKey('gw_short', NOW.getTime())).toEqual({ ok: false, refusal: 'INVALID' });
    expect(await keys.authenticateKey(em, UNKNOWN, NOW)).toEqual({ ok: false, refusal: 'INVALID' });
    expect(keys.authenticateKnownKey(UNKNOWN, NOW.getTime())).toEqual({ ok: false, refusal: 'INVALID' });
  });

  it('checks a remembered key against its expiry on every call', async () => {
    const keys = await started();
    const expiresAt = new Date(NOW.getTime() + 1_000);
    const { em } = database(expiresAt);
    expect((await keys.authenticateKey(em, KEY, NOW)).ok).toBe(true);
    expect(keys.authenticateKnownKey(KEY, expiresAt.getTime() - 1)?.ok).toBe(true);
    expect(keys.authenticateKnownKey(KEY, expiresAt.getTime())).toEqual({ ok: false, refusal: 'EXPIRED' });
  });

  it('forgets a revoked key: the database is asked again', async () => {
    const keys = await started();
    const { em } = database();
    await keys.authenticateKey(em, KEY, NOW);
    keys.forgetKey('key_1');
    expect(keys.authenticateKnownKey(KEY, NOW.getTime())).toBeUndefined();
  });

  it('holds nothing before it listens for revocations', async () => {
    const keys = new KeyAuthenticator();
    const { em } = database();
    expect((await keys.authenticateKey(em, KEY, NOW)).ok).toBe(true);
    expect(keys.authenticateKnownKey(KEY, NOW.getTime())).toBeUndefined();
  });
});
