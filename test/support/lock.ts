// A lock the run's workers share: a directory in the run's folder (mkdir is atomic), removed to
// release it. For work that one worker does for all (the build of dist/, the PGlite template).

import { watch } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Takes a lock made of a directory (mkdir is atomic). While another worker holds it, tries again
 * each time the run's folder changes (the holder removing the lock is such a change), not on a timer.
 */
export async function acquire(lock: string): Promise<void> {
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
