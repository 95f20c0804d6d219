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
