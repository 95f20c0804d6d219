// Notifications on embedded PGlite: one process, so only this instance's listeners to call.

import type { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import type { CommitRelay } from '../commit-signals.js';
import type { Logger } from '../../lib/logger.js';
import { assertChannel, deliverSignals, type Listener, type NotificationHandler } from './listeners.js';

/**
 * PGlite runs in this process, with no other instance: the relay runs the after-commit statements
 * and calls the listeners here. Its native `listen` is kept for a NOTIFY sent by SQL (after-commit
 * delivery, like PostgreSQL).
 */
export class PgliteNotifications implements CommitRelay {
  private readonly unsubscribes: Array<() => Promise<void>> = [];
  private readonly handlers = new Map<string, Set<Listener>>();
  readonly afterCommit = new Map<string, string>();

  constructor(
    private readonly orm: PgliteMikroORM,
    private readonly log: Logger,
    /** Runs an after-commit statement through the ORM, which keeps it out of any open transaction on the one session. */
    private readonly run: (sql: string) => Promise<void>,
  ) {}

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    assertChannel(channel);
    const native = await this.orm.em.getConnection().getNativeClient();
    const unlistenNative = await native.listen(channel, handler);
    const listener: Listener = { handler, onReconnect: undefined };
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(listener);
    const unsubscribe = async () => {
      set.delete(listener);
      await unlistenNative();
    };
    this.unsubscribes.push(unsubscribe);
    return unsubscribe;
  }

  /** No other instance to wake: only the channels' after-commit statements, queued on the one session at once. */
  async send(signals: Map<string, Set<string>>): Promise<void> {
    await Promise.all(
      [...signals.keys()].map(async (channel) => {
        const sql = this.afterCommit.get(channel);
        if (!sql) return;
        try {
          await this.run(`/* relay */ with after_commit as (${sql}) select 1`);
        } catch (error) {
          this.log.warn({ err: error, channel }, 'after-commit statement failed; the listeners catch up by polling');
        }
      }),
    );
  }

  /** This instance's listeners, as on PostgreSQL: one that needs an after-commit statement's write makes it itself. */
  deliver(signals: Map<string, Set<string>>): void {
    deliverSignals(this.handlers, signals, this.log);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.unsubscribes.map((unsubscribe) => unsubscribe()));
  }
}
