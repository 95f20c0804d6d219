// Notifications across PostgreSQL instances: the LISTEN connection and the relay's NOTIFY session.

import pg from 'pg';
import type { CommitRelay } from '../commit-signals.js';
import { backoffDelayMs, type Backoff } from '../../lib/backoff.js';
import type { Logger } from '../../lib/logger.js';
import { assertChannel, deliver, deliverSignals, type ListenOptions, type Listener, type NotificationHandler } from './listeners.js';
import { preparedName } from '../prepared.js';

/** The pauses between attempts to restore the LISTEN connection: 200 ms, doubling, 5 s at most. */
const RECONNECT_BACKOFF: Backoff = { baseMs: 200, maxMs: 5_000 };

/**
 * PostgreSQL: one dedicated connection LISTENs for every channel (a pooled connection would
 * lose its LISTEN when returned), and another is the relay's session: the signals of committed
 * transactions go out from it as NOTIFYs, many in one autocommit statement, outside every money
 * transaction. Notifications it sent that come back are skipped: this instance's listeners had
 * them in-process already.
 */
export class PostgresNotifications implements CommitRelay {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private reconnecting: Promise<void> | undefined;
  /** Notifications received on a restored connection before its listeners were told of the reconnect. */
  private held: pg.Notification[] | undefined;
  private readonly handlers = new Map<string, Set<Listener>>();
  private closed = false;
  /** Signals waiting for the relay's next NOTIFY statement (coalesced: one per channel and payload). */
  private outbox = new Map<string, Set<string>>();
  /** The relay's statement on the wire, if one is. */
  private sending: Promise<void> | undefined;
  /** The statement after it, for the signals that arrive meanwhile. */
  private following: Promise<void> | undefined;
  /** After-commit statements by channel (`Database.afterCommitSql`). */
  readonly afterCommit = new Map<string, string>();
  /** The relay's session, opened at the first signal and again after it fails. */
  private notifier: pg.Client | undefined;

  constructor(
    private readonly url: string,
    private readonly clientOptions: Omit<pg.ClientConfig, 'connectionString'>,
    private readonly log: Logger,
  ) {}

  async listen(channel: string, handler: NotificationHandler, options: ListenOptions = {}): Promise<() => Promise<void>> {
    assertChannel(channel);
    const client = await this.connect();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN ${channel}`);
    }
    const listener: Listener = { handler, onReconnect: options.onReconnect };
    set.add(listener);
    return async () => {
      set.delete(listener);
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...this.clientOptions, connectionString: this.url });
      client.on('notification', (message) => {
        // Sent by this very session: the relay delivered it to this instance's listeners at commit.
        if (this.notifier && message.processId === (this.notifier as pg.Client & { processID?: number }).processID) return;
        if (this.held) this.held.push(message);
        else this.dispatch(message);
      });
      client.on('error', (error) => {
        // A dead connection can report more than one error: the first one starts the only reconnect.
        if (this.client !== client) return;
        this.log.error({ err: error }, 'LISTEN connection failed; reconnecting');
        this.client = undefined;
        this.connecting = undefined;
        client.end().catch(() => undefined);
        if (!this.closed) this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = undefined));
      });
      await client.connect();
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private dispatch(message: pg.Notification): void {
    deliver(this.handlers, message.channel, message.payload ?? '', this.log);
  }

  /**
   * After a commit, first: the other instances through one NOTIFY statement, which also runs the
   * channels' after-commit statements. When the relay's session is idle the statement is written
   * before this returns, ahead of whatever else the commit does in this process.
   */
  send(signals: Map<string, Set<string>>): Promise<void> {
    for (const [channel, payloads] of signals) {
      let queued = this.outbox.get(channel);
      if (!queued) {
        queued = new Set();
        this.outbox.set(channel, queued);
      }
      for (const payload of payloads) queued.add(payload);
    }
    return this.flushOutbox();
  }

  /**
   * After a commit, last: this instance's listeners, in-process. One that needs what an
   * after-commit statement writes writes it itself (`Database.markThenRead`), a round trip sooner
   * than waiting for the relay's statement.
   */
  deliver(signals: Map<string, Set<string>>): void {
    deliverSignals(this.handlers, signals, this.log);
  }

  /**
   * Sends what the outbox holds, one statement at a time: at once when none is on the wire, else
   * right after it, with every signal that arrived meanwhile, so a burst of commits costs a few
   * statements, not one each. Resolves once the outbox as it stood has been sent. Without a
   * connection the signals are dropped: the other instances' polls catch up, and a local listener
   * that needs an after-commit statement's write makes it itself.
   */
  private flushOutbox(): Promise<void> {
    if (this.sending) {
      this.following ??= this.sending.then(() => {
        this.following = undefined;
        return this.flushOutbox();
      });
      return this.following;
    }
    const sending = this.sendOutbox().finally(() => {
      if (this.sending === sending) this.sending = undefined;
    });
    this.sending = sending;
    return sending;
  }

  /**
   * One statement with the whole outbox, written before the first `await` when the session is
   * open. Never rejects: a failure is logged, and the next statement waits on this one.
   */
  private async sendOutbox(): Promise<void> {
    if (this.outbox.size === 0 || this.closed) return;
    const batch = this.outbox;
    this.outbox = new Map();
    try {
      const channels: string[] = [];
      const payloads: string[] = [];
      const before: string[] = [];
      for (const [channel, set] of batch) {
        const sql = this.afterCommit.get(channel);
        if (sql) before.push(sql);
        for (const payload of set) {
          channels.push(channel);
          payloads.push(payload);
        }
      }
      const ctes = before.map((sql, index) => `after_commit_${index} as (${sql})`);
      const text = `${ctes.length > 0 ? `with ${ctes.join(', ')} ` : ''}select pg_notify(c, p) from unnest($1::text[], $2::text[]) as n(c, p)`;
      const client = this.notifier ?? (await this.notifierClient());
      // Prepared (one text per set of after-commit statements a batch carries): it runs after
      // nearly every commit, and parsing and planning it each time cost the database more than
      // running it (about 0.6 of 0.8 ms).
      const name = preparedName(text);
      await client.query(name === undefined ? { text, values: [channels, payloads] } : { name, text, values: [channels, payloads] });
    } catch (error) {
      this.log.warn({ err: error }, 'wake-up NOTIFY not sent; the other instances catch up by polling');
      const failed = this.notifier;
      this.notifier = undefined;
      await failed?.end().catch(() => undefined);
    }
  }

  private async notifierClient(): Promise<pg.Client> {
    if (this.notifier) return this.notifier;
    // Asynchronous commit: the relay writes marks and sends wake-ups, nothing money depends on, and
    // waiting for its WAL flush would hold every live update back by a disk sync. A mark lost in a
    // database crash goes with what it said; readers keep events' positions (durable commits) as
    // cursors, never a mark's, so positions handed out again after the crash are still read.
    const client = new pg.Client({ ...this.clientOptions, connectionString: this.url, application_name: 'gateway-relay', options: '-c synchronous_commit=off' });
    client.on('error', (error) => {
      if (this.notifier !== client) return;
      this.log.warn({ err: error }, 'relay connection failed; it reopens at the next signal');
      this.notifier = undefined;
      client.end().catch(() => undefined);
    });
    await client.connect();
    this.notifier = client;
    return client;
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      try {
        // Held back until the listeners know of the reconnect, so that what they read back is
        // handled before anything newer.
        this.held = [];
        const client = await this.connect();
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
        this.log.info({ attempt }, 'LISTEN connection restored');
        // Only now, listening again: anything committed from here on is notified, so a listener
        // reading back "everything after what I saw" misses nothing between the two.
        for (const set of this.handlers.values()) {
          for (const listener of set) listener.onReconnect?.();
        }
        const held = this.held;
        this.held = undefined;
        for (const message of held) this.dispatch(message);
        return;
      } catch (error) {
        this.log.warn({ err: error, attempt }, 'LISTEN connection not restored yet');
        const failed = this.client;
        this.client = undefined;
        this.connecting = undefined;
        await failed?.end().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(attempt, RECONNECT_BACKOFF)));
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    await this.notifier?.end().catch(() => undefined);
  }
}
