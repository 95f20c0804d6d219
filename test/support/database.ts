// Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL is set
// (as in CI), else a PGlite directory of its own, so files run in parallel without sharing state.
// Either starts as a copy of the run's migrated template (test/global-setup.ts): a PGlite directory
// copied, a PostgreSQL database created with the template database as its TEMPLATE.

import { createHash, randomBytes } from 'node:crypto';
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { createLogger } from '../../src/lib/logger.js';
import { postgresTemplateName } from '../global-setup.js';
import { acquire } from './lock.js';

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL (PostgreSQL) and DATA_DIR. */
  env: Record<string, string>;
  kind: 'postgresql' | 'pglite';
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /**
   * No database yet (PostgreSQL) or an empty directory (PGlite), as a first start finds, instead of
   * a copy of the run's migrated template: for a test of what the first start does.
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
  // Empty: the gateway's first start creates the database and applies every migration.
  if (!options.empty) await createFromTemplate(baseUrl, name);
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
 * Drops a database and ends its sessions. A plain role (CI's, docs/operations.md "The database role") may end
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

/** The shared buffers of a PGlite test database (the template's, and so every copy's). */
const PGLITE_TEST_SHARED_BUFFERS = '16MB';

let template: Promise<string> | undefined;

/**
 * The run's migrated PGlite data directory (test/global-setup.ts names it), made by the first
 * worker that needs it while the others wait for it (a lock in the run's folder): a copy of the one
 * an earlier run kept (`keptTemplate`), or else built, which costs some 13 s of CPU (initdb and every
 * migration in WebAssembly) that every worker of a PGlite run would wait out.
 */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const target = inject('pgliteTemplate');
    if (await stat(target).catch(() => undefined)) return target;
    const lock = path.join(inject('runDir'), 'pglite-template.lock');
    await acquire(lock);
    try {
      if (await stat(target).catch(() => undefined)) return target;
      // Made aside and renamed into place: a worker never copies a half-made template.
      const building = await mkdtemp(`${target}-building-`);
      const kept = await keptTemplate();
      if (kept.found) {
        await copyTree(kept.path, building);
      } else {
        await buildPgliteTemplate(building);
        await keepTemplate(building, kept.path);
      }
      await rename(building, target);
    } finally {
      await rmdir(lock);
    }
    return target;
  })();
  return template;
}

/** Migrates an empty PGlite data directory as the gateway's first start does, with the test databases' shared buffers. */
async function buildPgliteTemplate(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, logger: createLogger({ level: 'silent' }), entities });
  await db.close();
  // initdb gives a PGlite cluster PostgreSQL's 128 MB of shared buffers, which every start
  // allocates and clears in WebAssembly: about 0.5 s of CPU per open, on a test database of a
  // few megabytes that never fills 16 MB. Copies of the template start with 16 MB
  // (postgresql.auto.conf is read after postgresql.conf); a first start on an empty directory,
  // as in the tests of one, keeps initdb's choice.
  await appendFile(path.join(dataDir, 'pglite', 'postgresql.auto.conf'), `shared_buffers = '${PGLITE_TEST_SHARED_BUFFERS}'\n`);
}

const root = path.resolve(import.meta.dirname, '../..');
/** Templates kept from one run to the next, in the scratch folder (a tmpfs where there is one, vitest.config.ts). */
const keptTemplates = path.join(tmpdir(), 'gateway-test-templates');
/** A kept template nobody used for this long is removed when another is kept. */
const KEPT_TEMPLATE_UNUSED_MS = 24 * 3600_000;

/**
 * Where the template of this tree is kept between runs (CI's PostgreSQL run builds it for its few
 * PGlite tests, and its PGlite run then copies it), and whether it is there. Its name is a hash of
 * everything the built directory depends on: the database code and migrations (src/db/), the
 * entities, this file, and every package's version (package-lock.json, PGlite's own among them).
 * A change to any of them makes a new one; a first start on an empty directory is still what
 * test/foundation/restart.test.ts runs every time.
 */
async function keptTemplate(): Promise<{ path: string; found: boolean }> {
  const database = await readdir(path.join(root, 'src/db'), { recursive: true, withFileTypes: true });
  const inputs = [
    'package-lock.json',
    'src/entities.ts',
    'test/support/database.ts',
    ...database.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))),
  ].sort();
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(`${input}\0`).update(await readFile(path.join(root, input))).update('\0');
  const kept = path.join(keptTemplates, `pglite-${hash.digest('hex').slice(0, 16)}`);
  if (!(await stat(kept).catch(() => undefined))) return { path: kept, found: false };
  // Used now: kept from removal (its time says when it was last used).
  const now = new Date();
  await utimes(kept, now, now);
  return { path: kept, found: true };
}

/**
 * Keeps a copy of a template just built for the next run, copied aside and renamed into place (two
 * runs keeping the same one at once: the first stays), and removes the kept templates nobody used
 * for a day.
 */
async function keepTemplate(built: string, kept: string): Promise<void> {
  await mkdir(keptTemplates, { recursive: true });
  const aside = await mkdtemp(`${kept}-keeping-`);
  await copyTree(built, aside);
  await rename(aside, kept).catch(() => rm(aside, { recursive: true, force: true }));
  for (const entry of await readdir(keptTemplates)) {
    const other = path.join(keptTemplates, entry);
    const used = await stat(other).catch(() => undefined);
    if (used && Date.now() - used.mtimeMs > KEPT_TEMPLATE_UNUSED_MS) await rm(other, { recursive: true, force: true });
  }
}

const postgresTemplates = new Map<string, Promise<string>>();

/**
 * Creates database `name` on the server of `baseUrl` as a copy of the run's migrated template
 * there: a file copy in the server, where applying every migration to a new database took most of a
 * test file's start. The first worker that needs the template on a server builds it aside, migrated
 * as the gateway migrates, and renames it into place; a worker that loses that race drops its own.
 */
async function createFromTemplate(baseUrl: string, name: string): Promise<void> {
  const server = new URL(baseUrl).host;
  let template = postgresTemplates.get(server);
  if (!template) {
    template = buildPostgresTemplate(baseUrl);
    postgresTemplates.set(server, template);
  }
  const from = await template;
  await withAdmin(baseUrl, async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`);
        return;
      } catch (error) {
        // 55006: the template is in use: another session on it, for a moment (the rename of a
        // losing build, an autovacuum worker). Nothing else connects to it.
        if ((error as { code?: string }).code !== '55006' || attempt >= 40) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  });
}

async function buildPostgresTemplate(baseUrl: string): Promise<string> {
  const target = postgresTemplateName(inject('runDir'));
  const building = `${target}_${randomBytes(4).toString('hex')}`;
  const exists = (admin: pg.Client) => admin.query('select 1 from pg_database where datname = $1', [target]).then((result) => (result.rowCount ?? 0) > 0);
  if (await withAdmin(baseUrl, exists)) return target;
  const url = new URL(baseUrl);
  url.pathname = `/${building}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-template-'));
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir, logger: createLogger({ level: 'silent' }), entities });
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
  await withAdmin(baseUrl, async (admin) => {
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${target}`);
    } catch (error) {
      // 42P04: another worker's template is in place.
      if ((error as { code?: string }).code !== '42P04') throw error;
      await dropDatabase(admin, building);
    }
  });
  return target;
}

async function withAdmin<T>(baseUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
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
  // Clients only: an autovacuum worker on the database is a superuser process, which a plain role
  // may not terminate (and which the gateway's connections do not depend on).
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'", [name]);
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
