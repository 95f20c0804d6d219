// Small helpers shared by the bench's child processes.

import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * Appended to every SQL statement the harness itself sends through the gateway's connection (job
 * queue checks, the PGlite baseline), so that the statements counted for the gateway are its own.
 */
export const BENCH_SQL_MARK = '/* bench-harness */';

/**
 * `heapUsed` after full collections (the process runs with --expose-gc): a few rounds, with the
 * event loop turning in between so that weak references and finalizers settle.
 */
export async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('this process was started without --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await yieldToLoop();
  }
  return process.memoryUsage().heapUsed;
}

/** CPU time (user + system) this process has used so far, in milliseconds. */
export function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
