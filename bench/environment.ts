// What a bench run owns and must give back: a database of its own (a fresh PostgreSQL database when
// DATABASE_URL is set, else a temp dir for PGlite), temp dirs, and child processes. Cleanup runs
// on success, on failure and on Ctrl-C, in that order: children first (they hold connections),
// then the database, then the files.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BenchChild } from './ipc.js';

export interface BenchDatabase {
  kind: 'postgresql' | 'pglite';
  /** The bench's own database (PostgreSQL only). */
  url: string | undefined;
  /** Its name, for the report (PostgreSQL only). */
  name: string | undefined;
}

/** Something the run started outside the BenchChild protocol (pgbench). */
export interface Killable {
  kill(signal?: NodeJS.Signals): boolean;
}

export class BenchEnvironment {
  readonly children = new Set<BenchChild>();
  readonly others = new Set<Killable>();
  private readonly dirs: string[] = [];
  private dropDatabase: (() => Promise<void>) | undefined;
  private cleaning: Promise<void> | undefined;

  /** A temp dir removed at cleanup. */
  async tempDir(prefix: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /**
   * Never the caller's own database: the bench writes thousands of rows, so it gets a fresh
   * `gw_bench_<hex>` beside the one DATABASE_URL names, dropped at cleanup.
   */
  async database(databaseUrl: string | undefined): Promise<BenchDatabase> {
    if (!databaseUrl) return { kind: 'pglite', url: undefined, name: undefined };
    const name = `gw_bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(databaseUrl, `CREATE DATABASE ${name}`);
    this.dropDatabase = () => adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    return { kind: 'postgresql', url: url.toString(), name };
  }

  /** Stops every child (asking first), drops the database, removes the temp dirs. Safe to call twice. */
  cleanup(): Promise<void> {
    this.cleaning ??= (async () => {
      const problems: string[] = [];
      await Promise.all([...this.children].map((child) => child.stop().catch((error: unknown) => problems.push(`${child.name}: ${String(error)}`))));
      for (const other of this.others) other.kill('SIGKILL');
      try {
        await this.dropDatabase?.();
      } catch (error) {
        problems.push(`dropping the bench database: ${String(error)}`);
      }
      for (const dir of this.dirs) await rm(dir, { recursive: true, force: true }).catch((error: unknown) => problems.push(`removing ${dir}: ${String(error)}`));
      if (problems.length > 0) process.stderr.write(`bench cleanup: ${problems.join('; ')}\n`);
    })();
    return this.cleaning;
  }

  /** For a second Ctrl-C: kill what is left without waiting. */
  killAll(): void {
    for (const child of this.children) child.kill();
    for (const other of this.others) other.kill('SIGKILL');
  }
}

/**
 * Brings the bench database's planner statistics up to date (ANALYZE), after the harness has
 * written its fixtures in bulk: a production database has statistics that autovacuum keeps, but a
 * fresh one filled seconds ago often has none yet, and whether autovacuum's next pass (once a
 * minute) falls before or during a round then decided some statements' plans, and a third of the
 * database's CPU per webhook. Every side reads the same tables. Nothing to do on PGlite.
 */
export async function analyzeFixtures(database: BenchDatabase): Promise<void> {
  if (database.kind === 'postgresql' && database.url) await adminQuery(database.url, 'ANALYZE');
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
