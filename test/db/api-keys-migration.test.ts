// The api-keys migration moves each client's one key from columns of `api_client` into the
// `api_key` table, then drops the columns: every key of an existing database keeps working after
// the upgrade (a revoked client's stays refused), is listed with its prefix and when it was last
// used, and the client can be given a second key at once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261207120000_api_keys } from '../../src/db/migrations/Migration20261207120000_api_keys.js';
import { newId } from '../../src/lib/ids.js';
import { hashKey } from '../../src/modules/clients/key-authentication.js';
import { ApiClientKeysQuery, CreateApiClientMutation, CreateApiKeyMutation, ViewerQuery } from '../foundation/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** Runs the migration's `down` or `up` SQL on the gateway's database. */
async function run(direction: 'up' | 'down'): Promise<void> {
  const em = t.gateway.db.fork();
  const migration = new Migration20261207120000_api_keys(em.getDriver(), em.config);
  migration[direction]();
  for (const query of migration.getQueries()) await em.execute(query);
}

const sql = <T>(text: string, params: unknown[] = []) => t.gateway.db.fork().execute<T[]>(text, params);

/** A client as a release before this migration wrote it: its key in its own columns. */
async function insertOldClient(name: string, key: string, values: { lastUsedAt?: Date; revokedAt?: Date } = {}): Promise<string> {
  const id = newId('cli');
  await sql(
    `insert into api_client (id, name, roles, key_prefix, key_hash, merchant_accounts, created_at, last_used_at, revoked_at, trusted_documents_only)
     values (?, ?, '{CASHIER}', ?, ?, null, now() - interval '1 day', ?, ?, false)`,
    [id, name, key.slice(0, 10), hashKey(key), values.lastUsedAt ?? null, values.revokedAt ?? null],
  );
  return id;
}

async function viewerOf(key: string): Promise<{ id?: string; code?: unknown }> {
  const response = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key });
  return { id: response.data?.viewer.id, code: response.errors?.[0]?.extensions?.code };
}

describe('Migration20261207120000_api_keys', () => {
  it("keeps every existing client's key working, listed as its first key, and drops the old columns", async () => {
    // given: a client made through the API, then the schema as the previous migration left it ...
    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: 'made-before', roles: ['REFUNDS'] } }, { key: t.keys.admin });
    const madeBefore = { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
    await run('down');
    expect(await sql('select key_prefix from api_client where id = ?', [madeBefore.id])).toEqual([{ key_prefix: madeBefore.key.slice(0, 10) }]);
    // ... with clients an older release wrote, one used yesterday, one revoked
    const usedKey = `gw_${'u'.repeat(43)}`;
    const revokedKey = `gw_${'r'.repeat(43)}`;
    const lastUsedAt = new Date(Date.now() - 86_400_000);
    const used = await insertOldClient('old-and-used', usedKey, { lastUsedAt });
    const revoked = await insertOldClient('old-and-revoked', revokedKey, { revokedAt: new Date() });

    // when
    await run('up');

    // then: the old columns are gone, and each client has its key as a row of its own
    expect(await sql("select column_name from information_schema.columns where table_name = 'api_client' and column_name in ('key_prefix', 'key_hash', 'last_used_at')")).toEqual([]);
    const listed = await execute(t.gateway.graphqlUrl, ApiClientKeysQuery, { first: 100 }, { key: t.keys.admin });
    expect(listed.errors).toBeUndefined();
    const nodeOf = (id: string) => listed.data!.apiClients.edges.find((edge) => edge.node.id === id)!.node;
    expect(nodeOf(used)).toMatchObject({
      lastUsedAt: lastUsedAt.toISOString(),
      revokedAt: null,
      keys: [{ id: `key_${used.slice(4)}`, prefix: usedKey.slice(0, 10), expiresAt: null, lastUsedAt: lastUsedAt.toISOString(), revokedAt: null }],
    });
    expect(nodeOf(revoked)).toMatchObject({ revokedAt: expect.any(String), keys: [{ prefix: revokedKey.slice(0, 10) }] });
    expect(nodeOf(madeBefore.id).keys).toHaveLength(1);

    // ... every key works as before, the revoked client's stays refused
    expect(await viewerOf(usedKey)).toEqual({ id: used, code: undefined });
    expect(await viewerOf(madeBefore.key)).toEqual({ id: madeBefore.id, code: undefined });
    expect((await viewerOf(revokedKey)).code).toBe('UNAUTHENTICATED');

    // ... and a migrated client takes a second key, both working
    const second = await execute(t.gateway.graphqlUrl, CreateApiKeyMutation, { input: { clientId: used } }, { key: t.keys.admin });
    expect(second.data!.createApiKey.userErrors).toEqual([]);
    expect(await viewerOf(second.data!.createApiKey.key!)).toEqual({ id: used, code: undefined });
    expect(await viewerOf(usedKey)).toEqual({ id: used, code: undefined });
  });
});
