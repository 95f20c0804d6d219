// Runs the reconciler on a timer on every instance (the claims keep instances apart) and stops it cleanly before the database closes.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { Reconciler } from './reconciler.js';

export class ReconcilerWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly reconciler: Reconciler,
    private readonly fork: () => SqlEntityManager,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** The first pass runs one interval after start; passes never overlap (the next is scheduled when one ends). */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops scheduling and waits for a running pass, so nothing touches the database after this resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass now (tests and admin tooling); resolves when it is done. */
  async runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runOnce().finally(() => this.schedule());
    }, this.intervalMs);
    // A pending pass must not keep the process alive on its own.
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      const result = await this.reconciler.runOnce(this.fork);
      if (result.checked > 0 || result.payouts?.applied) this.logger.debug({ ...result }, 'reconciler pass');
    } catch (error) {
      // A database or provider outage: the next pass tries again.
      this.logger.error({ err: error }, 'reconciler pass failed');
    }
  }
}
