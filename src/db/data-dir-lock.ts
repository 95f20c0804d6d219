// The embedded database's directory lock: one process at a time opens a PGlite cluster.

import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Another running process holds the embedded database: its message is one line saying what to do. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
  constructor(
    readonly dataDir: string,
    /** The process that holds it. */
    readonly holder: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder} (a running gateway?). ` +
        'Stop it first, or use PostgreSQL by setting DATABASE_URL. With a gateway running, create clients through the createApiClient mutation.',
    );
  }
}

/**
 * PGlite is a single-process database: a second process opening the same directory (a second
 * `npm start`, or the client CLI beside a running gateway) would corrupt it. A pid file refuses
 * that with a clear message; a lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUse(dataDir, holder);
      }
      if (holder === process.pid) {
        throw new Error(`The embedded database in ${dataDir} is already open in this process`, { cause: error });
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
