// Once per test run: an embedded (PGlite) database with every migration applied, which each PGlite
// test database starts as a copy of. A fresh PGlite directory costs seconds of initdb and
// migrations on every start; a copy of this one costs a fraction of a second.

import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { createLogger } from '../src/lib/logger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory holding a closed PGlite database with every migration applied. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-test-template-'));
  const db = await openDatabase({ dataDir, logger: createLogger({ level: 'silent' }) });
  await db.close();
  project.provide('pgliteTemplate', dataDir);
  return () => rm(dataDir, { recursive: true, force: true });
}
