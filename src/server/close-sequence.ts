// How a gateway stops, written once. Each part that holds something open (a connection, a port, a
// timer, a worker) adds its close as it opens; every way out, a normal close (a signal's among
// them, through main.ts) or a start that failed part-way, runs them in reverse order of opening,
// so no part is closed while one opened after it may still use it.

import type { Logger } from '../lib/logger.js';

export class CloseSequence {
  private readonly steps: Array<{ part: string; close: () => unknown }> = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** The close of a part just opened: it runs before those of the parts opened before it. */
  add(part: string, close: () => unknown): void {
    this.steps.push({ part, close });
  }

  /**
   * Closes every part, last opened first, once however often it is called. A close that fails is
   * logged and the others still run (a database left open would keep the embedded one's lock);
   * the first failure is thrown once all have run.
   */
  run(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    let failure: { error: unknown } | undefined;
    for (const { part, close } of this.steps.toReversed()) {
      try {
        await close();
      } catch (error) {
        this.logger.error({ err: error, part }, 'a part of the gateway failed to close');
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
