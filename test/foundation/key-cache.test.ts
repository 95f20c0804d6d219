// A known API key is authenticated from memory (no SQL statement), and a revoked key is refused at
// once all the same: on the instance that revoked it, on every other instance sharing the
// database, and after a LISTEN connection that may have missed the revocation comes back.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { statementsOf } from '../support/statements.js';
import { API_CLIENT_REVOKED_CHANNEL } from '../../src/modules/clients/key-authentication.js';
import { CreateApiClientMutation, RevokeApiClientMutation, ViewerQuery } from './operations.js';

let a: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  a = await startTestGateway();
});
afterAll(() => a?.close());

async function newClient(name: string): Promise<{ id: string; key: string }> {
  const created = await execute(a.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles: ['CASHIER'] } }, { key: a.keys.admin });
  expect(created.errors).toBeUndefined();
  return { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
}

async function viewerOf(t: TestGateway, key: string): Promise<{ id?: string; code?: unknown }> {
  const response = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key });
  return { id: response.data?.viewer.id, code: response.errors?.[0]?.extensions?.code };
}

async function revoke(t: TestGateway, id: string): Promise<void> {
  const revoked = await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id } }, { key: t.keys.admin });
  expect(revoked.errors).toBeUndefined();
  expect(revoked.data!.revokeApiClient.userErrors).toEqual([]);
}

describe('authenticating a known key', () => {
  it('costs no SQL statement once the key was used', async () => {
    // given: a key used once
    const client = await newClient('cached-viewer');
    expect(await viewerOf(a, client.key)).toEqual({ id: client.id, code: undefined });

    // when
    let seen: { id?: string; code?: unknown } = {};
    const count = await statementsOf(a, async () => {
      seen = await viewerOf(a, client.key);
    });

    // then
    expect(seen).toEqual({ id: client.id, code: undefined });
    expect(count).toBe(0);
  });

  it('costs one lookup for an unknown key, then none: it stays refused, from memory', async () => {
    const unknown = `gw_${'A'.repeat(43)}`;
    const first = await statementsOf(a, async () => {
      expect((await viewerOf(a, unknown)).code).toBe('UNAUTHENTICATED');
    });
    expect(first).toBe(1);
    const again = await statementsOf(a, async () => {
      expect((await viewerOf(a, unknown)).code).toBe('UNAUTHENTICATED');
    });
    expect(again).toBe(0);
  });
});

describe('a revoked key', () => {
  it('is refused by the instance that revoked it on the very next request', async () => {
    const client = await newClient('revoked-here');
    expect((await viewerOf(a, client.key)).id).toBe(client.id);
    await revoke(a, client.id);
    expect((await viewerOf(a, client.key)).code).toBe('UNAUTHENTICATED');
  });
});

// Two instances, and a LISTEN connection cut from outside, need one shared database server:
// PGlite lives inside one process, so these run on PostgreSQL only.
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('a key revoked through instance A is refused by instance B, which had it cached, as soon as B hears of it', async () => {
    const b = await startTestGateway({ database: a.database });
    try {
      // given: the key is known to B, and a listener of ours on B's revocation channel (called
      // after the key cache's own, registered at start, in the same turn)
      const client = await newClient('revoked-elsewhere');
      expect((await viewerOf(b, client.key)).id).toBe(client.id);
      expect(await statementsOf(b, async () => void (await viewerOf(b, client.key)))).toBe(0);
      let heard!: () => void;
      const revocationHeard = new Promise<void>((resolve) => (heard = resolve));
      const unlisten = await b.gateway.db.listen(API_CLIENT_REVOKED_CHANNEL, (clientId) => clientId === client.id && heard());

      // when
      await revoke(a, client.id);

      // then: once B hears the revocation, its very next answer refuses the key (its cache would
      // otherwise answer for another 30 s)
      await revocationHeard;
      await unlisten();
      expect((await viewerOf(b, client.key)).code).toBe('UNAUTHENTICATED');
    } finally {
      await b.close();
    }
  });

  it('a revocation missed while the LISTEN connection was down is heard once it is back', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const database = new URL(a.database.env.DATABASE_URL!).pathname.slice(1);
    const listenBackends = async () =>
      (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN %'", [database])).rows;
    try {
      // given: a cached key, revoked without a notification (as one lost while not listening)
      const client = await newClient('revoked-unheard');
      expect((await viewerOf(a, client.key)).id).toBe(client.id);
      const scoped = new pg.Client({ connectionString: a.database.env.DATABASE_URL });
      await scoped.connect();
      try {
        await scoped.query('UPDATE api_client SET revoked_at = now() WHERE id = $1', [client.id]);
      } finally {
        await scoped.end();
      }
      expect((await viewerOf(a, client.key)).id).toBe(client.id);

      // when: the LISTEN connection drops and comes back; a listener of our own is told when it
      // is back, in the same turn as the key cache (every listener of the connection is)
      let reconnects = 0;
      const unlisten = await a.gateway.db.listen('key_cache_test', () => undefined, { onReconnect: () => void (reconnects += 1) });
      try {
        const before = await listenBackends();
        expect(before).toHaveLength(1);
        await admin.query('SELECT pg_terminate_backend($1)', [before[0]!.pid]);
        await expect.poll(async () => (await listenBackends()).map((row) => row.pid), { interval: 100 }).not.toEqual(before.map((row) => row.pid));
        await expect.poll(async () => (await listenBackends()).length, { interval: 100 }).toBe(1);
        await expect.poll(() => reconnects).toBe(1);
      } finally {
        await unlisten();
      }

      // then
      expect((await viewerOf(a, client.key)).code).toBe('UNAUTHENTICATED');
    } finally {
      await admin.end();
    }
  });
});
