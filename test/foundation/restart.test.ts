// A restart on the same data keeps clients, and the migration is applied exactly once, on
// embedded PGlite always and on PostgreSQL when DATABASE_URL is set.

import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase } from '../support/database.js';
import { execute, startTestGateway } from '../support/gateway.js';
import { CreateApiClientMutation, ViewerQuery } from './operations.js';

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
      await first.close();

      const second = await startTestGateway({ database });
      try {
        expect(second.gateway.db.appliedMigrations).toEqual([]);
        expect(second.keys).toEqual(demoKeys);
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
});
