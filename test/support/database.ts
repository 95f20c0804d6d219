// Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL is set
// (as in CI), else a PGlite directory of its own, so files run in parallel without sharing state.
// A PGlite directory starts as a copy of the run's migrated template (test/global-setup.ts).

import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { createLogger } from '../../src/lib/logger.js';

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL (PostgreSQL) and DATA_DIR. */
  env: Record<string, string>;
  kind: 'postgresql' | 'pglite';
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /**
   * PGlite: an empty directory, as a first start on a laptop finds, instead of a copy of the
   * migrated template (for a test of what the first start does).
   */
  empty?: boolean;
}

/** A fresh database: PostgreSQL when DATABASE_URL is set (or `kind` asks for it), else PGlite. */
export async function createTestDatabase(kind?: 'postgresql' | 'pglite', options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-test-'));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl || kind === 'pglite') {
    if (!options.empty) await copyTree(await pgliteTemplate(), dataDir);
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
        await dropDatabase(admin, name);
      } finally {
        await admin.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Drops a database and ends its sessions. A plain role (CI's, README "The database role") may end
 * its own sessions only: an autovacuum worker that happens to be in the database belongs to no
 * role, and PostgreSQL refuses the FORCE while it runs (insufficient_privilege). The worker is
 * done within moments, so the drop is tried again for up to ten seconds.
 */
export async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Copies a directory tree, every file at once. node:fs's `cp` copies one entry after another and
 * takes about a second for a PGlite directory's 1,400 files; this takes well under a tenth of that.
 */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? copyTree(path.join(from, entry.name), path.join(to, entry.name)) : copyFile(path.join(from, entry.name), path.join(to, entry.name)),
    ),
  );
}

let template: Promise<string> | undefined;

/**
 * The run's migrated PGlite data directory (test/global-setup.ts names it), built by the first
 * worker that needs it: a fresh directory costs seconds of initdb and migrations, a copy of this
 * one a fraction of a second. Workers that build at once each build aside and rename into place;
 * the first rename wins and the others discard theirs.
 */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const target = inject('pgliteTemplate');
    if (await stat(target).catch(() => undefined)) return target;
    const building = await mkdtemp(`${target}-building-`);
    const db = await openDatabase({ dataDir: building, logger: createLogger({ level: 'silent' }), entities });
    await db.close();
    try {
      await rename(building, target);
    } catch (error) {
      // Another worker's template is in place (a directory is renamed onto a full one never).
      if (!(await stat(target).catch(() => undefined))) throw error;
      await rm(building, { recursive: true, force: true });
    }
    return target;
  })();
  return template;
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

/**
 * A fresh database of the file's own, opened before its tests (migrated, as the gateway opens it)
 * and closed and dropped after them: for tests of the kernel's parts below a running gateway.
 * `file.db` is the open database once the tests run.
 */
export function databaseForFile(): { readonly db: Database; readonly database: TestDatabase } {
  let testDb: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openDatabase({ databaseUrl: testDb.env.DATABASE_URL, dataDir: testDb.env.DATA_DIR!, logger: createLogger({ level: 'silent' }), entities });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });
  return {
    get db(): Database {
      if (!db) throw new Error('databaseForFile: the database opens in beforeAll, before the tests run');
      return db;
    },
    /** Where it is (DATABASE_URL on PostgreSQL), for a test that opens sessions of its own. */
    get database(): TestDatabase {
      if (!testDb) throw new Error('databaseForFile: the database is made in beforeAll, before the tests run');
      return testDb;
    },
  };
}
