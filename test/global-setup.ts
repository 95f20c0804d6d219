// Once per test run: where the run's migrated PGlite template goes (test/support/database.ts
// builds it on first use, so a run without a PGlite test pays nothing for it), removed at the end.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's PGlite template is (or will be): a data directory with every migration applied. */
    pgliteTemplate: string;
    /** The run's own folder, removed at its end: locks and files the run's workers share. */
    runDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The same scratch folder the tests use (vitest.config.ts: a tmpfs where there is one).
  const runDir = await mkdtemp(path.join(project.config.env.TMPDIR ?? tmpdir(), 'gateway-test-run-'));
  project.provide('runDir', runDir);
  project.provide('pgliteTemplate', path.join(runDir, 'pglite-template'));
  return () => rm(runDir, { recursive: true, force: true });
}
