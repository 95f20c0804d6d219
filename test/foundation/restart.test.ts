// A restart on the same data keeps clients, and the migration is applied exactly once, on
// embedded PGlite always and on PostgreSQL when DATABASE_URL is set. Nothing an admin does through
// the API keeps the next start from succeeding: a revoked demo client stays revoked, with its history,
// and a demo client whose printed key alone was revoked gets a new key.
// With no GATEWAY_SECRETS_KEY, the first start generates the key that seals secrets into the data
// directory, readable by its owner alone, and every later start uses it.

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase } from '../support/database.js';
import { execute, startTestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { ApiClientKeysQuery, CreateApiClientMutation, RevokeApiClientMutation, RevokeApiKeyMutation, ViewerQuery } from './operations.js';

const kinds = process.env.DATABASE_URL ? (['pglite', 'postgresql'] as const) : (['pglite'] as const);

describe.each(kinds)('restart on %s', (kind) => {
  it('keeps clients and applies migrations once', async () => {
    // Empty: the first start applies the migrations.
    const database = await createTestDatabase(kind, { empty: true });
    try {
      const first = await startTestGateway({ database });
      expect(first.gateway.db.kind).toBe(kind);
      expect(first.gateway.db.appliedMigrations).toEqual(migrations.map((migration) => migration.name));
      const created = await execute(first.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: 'survivor', roles: ['REFUNDS'] } }, { key: first.keys.admin });
      const key = created.data!.createApiClient.key!;
      const demoKeys = first.keys;
      const keyFile = path.join(database.env.DATA_DIR!, 'secrets.key');
      const sealingKey = readFileSync(keyFile, 'utf8');
      expect(sealingKey).toMatch(/^local:[A-Za-z0-9+/]{43}=\n$/);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      await first.close();

      const second = await startTestGateway({ database });
      try {
        expect(second.gateway.db.appliedMigrations).toEqual([]);
        expect(second.keys).toEqual(demoKeys);
        expect(readFileSync(keyFile, 'utf8')).toBe(sealingKey);
        const viewer = await execute(second.gateway.graphqlUrl, ViewerQuery, {}, { key });
        expect(viewer.data?.viewer.name).toBe('survivor');
        const rows = await second.gateway.db.fork().execute<{ count: string }[]>('select count(*)::text as count from mikro_orm_migrations');
        expect(Number(rows[0]!.count)).toBe(migrations.length);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('starts again after a start that failed once its database was open: the failed start closed what it had opened', async () => {
    const database = await createTestDatabase(kind);
    try {
      // A manifest that cannot be read stops the start after the database, the services and the
      // parts listening to the database have opened (the embedded database would stay locked).
      await expect(startTestGateway({ database, env: { TRUSTED_DOCUMENTS_FILE: '/nonexistent/persisted-documents.json' } })).rejects.toThrow('Could not read the persisted-documents manifest');
      const second = await startTestGateway({ database });
      try {
        const viewer = await execute(second.gateway.graphqlUrl, ViewerQuery, {}, { key: second.keys.admin });
        expect(viewer.errors).toBeUndefined();
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('starts again after an admin revoked a demo client that has deposits, which keeps them and stays revoked, and a demo key, which is replaced', async () => {
    const database = await createTestDatabase(kind);
    try {
      const first = await startTestGateway({ database });
      const created = await execute(first.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: first.keys.webCashier });
      const depositId = created.data!.createDeposit.deposit!.id;
      const cashier = first.gateway.demoClients.find((client) => client.name.startsWith('web-cashier'))!;
      const revoked = await execute(first.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: cashier.id } }, { key: first.keys.admin });
      expect(revoked.data!.revokeApiClient.userErrors).toEqual([]);
      // ... and the mobile cashier's key alone, not the client
      const mobile = first.gateway.demoClients.find((client) => client.name.startsWith('mobile-cashier'))!;
      const listed = await execute(first.gateway.graphqlUrl, ApiClientKeysQuery, { first: 100 }, { key: first.keys.admin });
      const [mobileKey] = listed.data!.apiClients.edges.find((edge) => edge.node.id === mobile.id)!.node.keys;
      const revokedKey = await execute(first.gateway.graphqlUrl, RevokeApiKeyMutation, { input: { keyId: mobileKey!.id } }, { key: first.keys.admin });
      expect(revokedKey.data!.revokeApiKey.userErrors).toEqual([]);
      const { admin, mobileCashier } = first.keys;
      await first.close();

      const second = await startTestGateway({ database });
      try {
        // The same client, still revoked, listed without a key; the admin's key unchanged; the
        // mobile cashier, the same client, with a new key that works where the revoked one does not.
        expect(second.gateway.demoClients.find((client) => client.name.startsWith('web-cashier'))).toMatchObject({ id: cashier.id, key: null, revokedAt: expect.any(Date) });
        expect(second.keys).toEqual({ webCashier: '', mobileCashier: expect.stringMatching(/^gw_/), admin });
        expect(second.keys.mobileCashier).not.toBe(mobileCashier);
        expect((await execute(second.gateway.graphqlUrl, ViewerQuery, {}, { key: second.keys.mobileCashier })).data?.viewer.id).toBe(mobile.id);
        expect((await execute(second.gateway.graphqlUrl, ViewerQuery, {}, { key: mobileCashier })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        expect((await execute(second.gateway.graphqlUrl, ViewerQuery, {}, { key: first.keys.webCashier })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        // Its deposit is still there for the admin.
        const read = await execute(second.gateway.graphqlUrl, DepositQuery, { id: depositId }, { key: admin });
        expect(read.data?.deposit?.id).toBe(depositId);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
