// Once per test run: where the run's migrated PGlite template goes, and the name of its migrated
// PostgreSQL template database on each server (test/support/database.ts builds them on first use,
// so a run that needs neither pays nothing for them), removed at the end.

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's PGlite template is (or will be): a data directory with every migration applied. */
    pgliteTemplate: string;
    /** The run's own folder, removed at its end: locks and files the run's workers share. */
    runDir: string;
  }
}

/**
 * The name of the run's migrated template database on each PostgreSQL server it uses
 * (test/support/database.ts builds it on first use), dropped at the run's end.
 */
export function postgresTemplateName(runDir: string): string {
  return `gw_template_${createHash('sha256').update(runDir).digest('hex').slice(0, 12)}`;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The same scratch folder the tests use (vitest.config.ts: a tmpfs where there is one).
  const runDir = await mkdtemp(path.join(project.config.env.TMPDIR ?? tmpdir(), 'gateway-test-run-'));
  project.provide('runDir', runDir);
  project.provide('pgliteTemplate', path.join(runDir, 'pglite-template'));
  return async () => {
    await dropPostgresTemplates(postgresTemplateName(runDir));
    await rm(runDir, { recursive: true, force: true });
  };
}

/** Drops the run's template database (and any a worker left half built) on every server the run was given. */
async function dropPostgresTemplates(name: string): Promise<void> {
  const servers = new Set([...(process.env.TEST_DATABASE_URLS ?? '').split(','), process.env.DATABASE_URL ?? ''].filter(Boolean));
  for (const server of servers) {
    const admin = new pg.Client({ connectionString: server });
    try {
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname = $1 or datname like $1 || '\\_%'", [name]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } catch (error) {
      // A template left behind costs disk, not correctness: say so, and let the run's verdict stand.
      console.warn(`Could not drop the test template database ${name} on ${new URL(server).host}: ${(error as Error).message}`);
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
}
