// This process's liveness, as every instance on the database can read it: what lets a request take
// over an idempotency key whose holder died at once, instead of waiting out the holder's lease.
//
// On PostgreSQL each instance holds a session advisory lock, keyed by a number of its own, on a
// connection of its own for as long as it runs. When the process dies (kill -9, a crash, a lost
// host) its connection ends and PostgreSQL releases the lock at once: an instance that can take the
// lock, even for an instant, knows its holder is gone. Advisory locks need no privilege beyond
// connecting. On PGlite the database lives inside one process, and only one process opens a data
// directory at a time (src/db/data-dir-lock.ts): a holder that is not this process is a past one.

import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../lib/logger.js';

/**
 * The first key of the two-key advisory locks an instance holds (`pg_advisory_lock(int, int)`), so
 * they never meet another user's single-key locks: "gw" and a version, as a 32-bit integer.
 */
export const INSTANCE_LOCK_CLASS = 0x6777_0001;

/** How a holder's liveness is read: its session lock (PostgreSQL), or being this very process (PGlite). */
export type HolderLiveness = 'session-lock' | 'this-process';

/** This process as a holder of leases: its number, and how the others tell whether it still runs. */
export interface InstanceIdentity {
  /** A positive 32-bit integer, unique among the running instances on the database. */
  readonly id: number;
  readonly liveness: HolderLiveness;
}

/** Waits between attempts to take the lock back after the connection was lost. */
const RECONNECT_DELAY_MS = 1_000;

/** Holds this instance's session lock on PostgreSQL, taking it back after a lost connection. */
export class InstanceLock implements InstanceIdentity {
  readonly liveness = 'session-lock' as const;
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  private constructor(
    readonly id: number,
    private readonly url: string,
    private readonly clientOptions: Omit<pg.ClientConfig, 'connectionString'>,
    private readonly log: Logger,
  ) {}

  /** Takes a lock under a number no running instance holds (a new number on the rare clash). */
  static async acquire(url: string, clientOptions: Omit<pg.ClientConfig, 'connectionString'>, log: Logger): Promise<InstanceLock> {
    for (;;) {
      const lock = new InstanceLock(randomInt(1, 2 ** 31 - 1), url, clientOptions, log);
      if (await lock.take()) return lock;
    }
  }

  /** Connects and tries the lock; true when this instance now holds it. */
  private async take(): Promise<boolean> {
    const client = new pg.Client({ ...this.clientOptions, connectionString: this.url });
    client.on('error', (error) => this.lost(client, error));
    await client.connect();
    const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1, $2) as held', [INSTANCE_LOCK_CLASS, this.id]);
    if (!rows[0]?.held) {
      await client.end();
      return false;
    }
    this.client = client;
    return true;
  }

  /**
   * The connection ended under the lock. Until it is taken back, other instances see this one's
   * keys as abandoned and may take them over; an attempt of ours that was working on one then
   * finds it taken over and stores nothing (src/kernel/idempotency.ts), as after a lease that ran out.
   */
  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.log.error({ err: error, instance: this.id }, 'instance lock connection lost; its idempotency keys may be taken over until it is back');
    this.scheduleRetake();
  }

  private scheduleRetake(): void {
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed) return;
      this.take().then(
        (held) => {
          if (held) this.log.info({ instance: this.id }, 'instance lock taken back');
          else this.log.error({ instance: this.id }, 'instance lock is held by another session; retrying');
          if (!held) this.scheduleRetake();
        },
        (error: unknown) => {
          this.log.warn({ err: error, instance: this.id }, 'instance lock not taken back yet; retrying');
          this.scheduleRetake();
        },
      );
    }, RECONNECT_DELAY_MS);
  }

  /** Ends the session, which releases the lock. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/** PGlite: this process is the only one that can hold anything in its database. */
export function thisProcessIdentity(): InstanceIdentity {
  return { id: randomInt(1, 2 ** 31 - 1), liveness: 'this-process' };
}
