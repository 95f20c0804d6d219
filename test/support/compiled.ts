// The compiled gateway (dist/), for tests that run it as `npm start` does, in a process of its own.
// Built at most once per run and only when a source changed since the last build (CI builds before
// the tests, so there it is never built here). Workers take turns through a lock in the run's
// folder, so no gateway starts from a dist/ that another worker is rewriting.

import { execFile } from 'node:child_process';
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { acquire } from './lock.js';

const root = path.resolve(import.meta.dirname, '../..');

let built: Promise<string> | undefined;

/** The project's dist/ folder, current with the sources; `npm start`'s own build step makes it. */
export function compiledDist(): Promise<string> {
  built ??= (async () => {
    const lock = path.join(inject('runDir'), 'build.lock');
    await acquire(lock);
    try {
      // Emitted without a second type-check (the typecheck and CI's compile give that verdict).
      await promisify(execFile)(process.execPath, [path.join(root, 'src/cli/build-if-stale.mjs'), '--no-check'], { cwd: root });
    } finally {
      await rmdir(lock);
    }
    return path.join(root, 'dist');
  })();
  return built;
}
