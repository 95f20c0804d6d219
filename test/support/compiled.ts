// The compiled gateway (dist/), for tests that run it as `npm start` does, in a process of its own.
// Built at most once per run and only when a source changed since the last build (CI builds before
// the tests, so there it is never built here). Workers take turns through a lock in the run's
// folder, so no gateway starts from a dist/ that another worker is rewriting.

import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

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

/**
 * Takes a lock made of a directory (mkdir is atomic). While another worker holds it, tries again
 * each time the run's folder changes (the holder removing the lock is such a change), not on a timer.
 */
async function acquire(lock: string): Promise<void> {
  const folder: { changed: () => void; error: Error | undefined } = { changed: () => undefined, error: undefined };
  // Watched before the first try: a release between a failed try and the wait is not missed.
  const watcher = watch(path.dirname(lock), () => folder.changed());
  watcher.on('error', (error) => {
    folder.error = error;
    folder.changed();
  });
  try {
    for (;;) {
      const change = new Promise<void>((resolve) => {
        folder.changed = resolve;
      });
      try {
        await mkdir(lock);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      await change;
      if (folder.error) throw folder.error;
    }
  } finally {
    watcher.close();
  }
}
