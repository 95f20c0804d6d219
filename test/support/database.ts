// Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL is set
// (as in CI), else a fresh PGlite directory, so files run in parallel without sharing state.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL (PostgreSQL) and DATA_DIR. */
  env: Record<string, string>;
  kind: 'postgresql' | 'pglite';
  drop(): Promise<void>;
}

/** A fresh database: PostgreSQL when DATABASE_URL is set (or `kind` asks for it), else PGlite. */
export async function createTestDatabase(kind?: 'postgresql' | 'pglite'): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-test-'));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl || kind === 'pglite') {
    return { env: { DATA_DIR: dataDir }, kind: 'pglite', drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    kind: 'postgresql',
    async drop() {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes the gateway's database unreachable until `end()`. PostgreSQL: refuse new connections to
 * the test database and cut the open ones, as a failover would. PGlite lives in the process:
 * closing it is the only way it becomes unreachable (and it stays closed).
 */
export async function databaseOutage(database: TestDatabase, closeEmbedded: () => Promise<void>): Promise<{ end(): Promise<void> }> {
  const url = database.env.DATABASE_URL;
  if (!url) {
    await closeEmbedded();
    return { end: async () => undefined };
  }
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  return {
    async end() {
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    },
  };
}
