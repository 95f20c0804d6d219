// Opens the gateway's database: PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite
// persisted under the data directory. Applies committed migrations at start, and offers one
// EntityManager fork per unit of work, LISTEN for wake-ups across instances, and the relay that
// announces committed work (events, jobs, idempotency releases) without a NOTIFY in the transaction.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PostgreSqlMikroORM, type SqlEntityManager } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/core';
import pg from 'pg';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { CommitSignalSubscriber } from './commit-signals.js';
import { lockDataDir } from './data-dir-lock.js';
import { patchPooledClient } from './pg-patches.js';
import { pgTimeoutOptions } from './pg-timeouts.js';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export type DatabaseKind = 'postgresql' | 'pglite';

export interface DatabaseOptions {
  /** PostgreSQL connection string; absent selects PGlite. */
  databaseUrl?: string;
  /** Directory holding the PGlite cluster (used only without `databaseUrl`). */
  dataDir: string;
  logger: Logger;
  /** PostgreSQL only (PGlite runs in this process and cannot hang on a network); defaults to `DEFAULT_DATABASE_TIMEOUTS`. */
  timeouts?: DatabaseTimeouts;
}

type NotificationHandler = (payload: string) => void;

/** What a listener is told besides the notifications themselves. */
export interface ListenOptions {
  /**
   * Called each time the LISTEN connection has been re-established after it dropped, before any
   * notification received on the new connection reaches the handler. Whatever was NOTIFYed while
   * it was down is lost for good, so a listener that must miss nothing reads it back from the table
   * the notifications describe. Never called on PGlite, whose in-process LISTEN cannot drop.
   */
  onReconnect?: () => void;
}

/** The database and everything the rest of the gateway needs from it. */
export interface Database {
  readonly kind: DatabaseKind;
  /** A fresh EntityManager fork: one per request, webhook or job, never shared. */
  fork(): SqlEntityManager;
  /** Migrations applied by this start (empty when the schema was current). */
  readonly appliedMigrations: string[];
  /** SQL statements issued through the ORM so far (lets a test prove a list costs constant queries). */
  queryCount(): number;
  /** Calls `listener` with the text of every SQL statement issued through the ORM until the returned function is called (tests). */
  watchQueries(listener: (sql: string) => void): () => void;
  /** True when a trivial query succeeds within `PING_DEADLINE_MS` (readiness); never waits longer. */
  ping(): Promise<boolean>;
  /**
   * Subscribes to a channel: called for every `signalOnCommit` of this instance right after its
   * commit, and for every NOTIFY on the channel from another instance. The returned function
   * unsubscribes.
   */
  listen(channel: string, handler: NotificationHandler, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * A statement (autocommit, outside every money transaction) the relay runs after each commit
   * that signalled `channel`, coalesced with the other instances' wake-up into one statement on
   * PostgreSQL (there, this instance's listeners are called at the commit, without waiting for
   * it). The event log's mark is one (src/modules/events/event.service.ts MARK_SQL).
   */
  afterCommitSql(channel: string, sql: string): void;
  /**
   * Runs `mark` as a transaction of its own (committed asynchronously: nothing money depends on),
   * then `read`, which starts after that commit, and returns `read`'s rows. On PostgreSQL both go
   * in one round trip, as one simple-protocol query on a session of their own, so neither text
   * may hold parameters; on PGlite, in process, as two statements. Outside every transaction of
   * the caller. For the event bus: a read that can count on a mark written just before it
   * (src/modules/events/event.service.ts FINAL_POSITION_SQL) without a round trip between.
   */
  markThenRead<T extends Record<string, unknown>>(mark: string, read: string): Promise<T[]>;
  close(): Promise<void>;
}

const PGLITE_DATABASE = 'gateway';
/** Longest wait for the connection pool to close before shutdown goes on without it. */
const CLOSE_DEADLINE_MS = 5_000;
/**
 * Longest wait for the readiness query. A hung server must make /readyz answer 503 promptly (a
 * probe that times out says nothing about why), and a healthy one answers `select 1` in far less.
 */
const PING_DEADLINE_MS = 1_000;
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.logger.child({ component: 'database' });
  let queries = 0;
  const watchers = new Set<(sql: string) => void>();
  const observe = (sql: string) => {
    queries += 1;
    for (const watcher of watchers) watcher(sql);
  };
  const signals = new CommitSignalSubscriber(observe);
  const common = {
    entities,
    subscribers: [signals],
    extensions: [Migrator],
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    debug: false,
    onQuery: (sql: string) => {
      observe(sql);
      return sql;
    },
    // MikroORM's own messages (migrations applied, warnings) into our structured log.
    logger: (message: string) => log.debug({ orm: true }, message),
    // Entities are defined with defineEntity: no reflection, no discovery of files.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  };

  let orm: MikroORM;
  let kind: DatabaseKind;
  let releaseLock = (): void => undefined;
  if (options.databaseUrl) {
    kind = 'postgresql';
    orm = await PostgreSqlMikroORM.init({
      ...common,
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: 10 },
      // Handed to pg's Pool (and so to each of its clients) by MikroORM's PostgreSQL connection.
      driverOptions: {
        ...pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS),
        onPoolCreated: (pool: pg.Pool) => pool.on('connect', patchPooledClient),
      },
    });
  } else {
    kind = 'pglite';
    const dataDir = path.join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
    try {
      orm = await PgliteMikroORM.init({ ...common, dbName: PGLITE_DATABASE, driverOptions: { dataDir } });
    } catch (error) {
      releaseLock();
      throw error;
    }
  }

  await orm.schema.ensureDatabase();
  const pending = await orm.migrator.getPending();
  await orm.migrator.up();
  const appliedMigrations = pending.map((migration) => migration.name);
  log.info({ kind, applied: appliedMigrations }, appliedMigrations.length ? 'database migrated' : 'database schema is current');

  const marking = kind === 'postgresql' ? new MarkingSession(options.databaseUrl!, pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS), log) : undefined;
  const notifications = kind === 'postgresql'
    ? new PostgresNotifications(options.databaseUrl!, pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS), log)
    : new PgliteNotifications(orm as unknown as PgliteMikroORM, log, (sql) => (orm.em.fork() as SqlEntityManager).execute(sql).then(() => undefined));
  signals.relay = (committed) => notifications.relay(committed);

  let closed = false;
  return {
    kind,
    appliedMigrations,
    queryCount: () => queries,
    watchQueries: (listener) => {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    fork: () => {
      // MikroORM would quietly reconnect a closed ORM (and PGlite would reopen its directory).
      if (closed) throw new Error('The database has been closed');
      return orm.em.fork() as SqlEntityManager;
    },
    async ping() {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        // The query itself is left to the pool's own time-outs; only the answer to the probe is bounded here.
        await Promise.race([
          (orm.em.fork() as SqlEntityManager).execute('select 1'),
          new Promise((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${PING_DEADLINE_MS} ms`)), PING_DEADLINE_MS);
          }),
        ]);
        return true;
      } catch (error) {
        log.warn({ err: error }, 'database ping failed');
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    listen: (channel, handler, listenOptions) => notifications.listen(channel, handler, listenOptions),
    afterCommitSql: (channel, sql) => notifications.afterCommit.set(channel, sql),
    async markThenRead<T extends Record<string, unknown>>(mark: string, read: string): Promise<T[]> {
      if (closed) throw new Error('The database has been closed');
      if (marking) {
        const text = `begin; set local synchronous_commit to off; ${mark}; commit; ${read}`;
        observe(text);
        return marking.run<T>(text);
      }
      const em = orm.em.fork() as SqlEntityManager;
      await em.execute(mark);
      return em.execute<T[]>(read);
    },
    async close() {
      if (closed) return;
      closed = true;
      await marking?.close();
      await notifications.close();
      // A connection the server killed during an outage can stay checked out of the pool (the
      // driver's error path does not always return it), and closing the pool would then wait
      // forever. Its backend is gone; after a deadline, shut down without it.
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        orm.close(true).then(() => 'closed' as const),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), CLOSE_DEADLINE_MS);
        }),
      ]);
      clearTimeout(timer);
      if (outcome === 'timeout') log.warn({ deadlineMs: CLOSE_DEADLINE_MS }, 'database pool did not close in time (a connection lost in an outage is still checked out); shutting down without it');
      releaseLock();
    },
  };
}

/** Channel names are SQL identifiers we choose; this keeps them so. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid NOTIFY channel name ${channel}`);
}

/**
 * PostgreSQL: one dedicated connection LISTENs for every channel (a pooled connection would
 * lose its LISTEN when returned), and another is the relay's session: the signals of committed
 * transactions go out from it as NOTIFYs, many in one autocommit statement, outside every money
 * transaction. Notifications it sent that come back are skipped: this instance's listeners had
 * them in-process already.
 */
class PostgresNotifications {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private reconnecting: Promise<void> | undefined;
  /** Notifications received on a restored connection before its listeners were told of the reconnect. */
  private held: pg.Notification[] | undefined;
  private readonly handlers = new Map<string, Set<Listener>>();
  private closed = false;
  /** Signals waiting for the relay's next NOTIFY statement (coalesced: one per channel and payload). */
  private outbox = new Map<string, Set<string>>();
  /** The relay's statements, one after the other. */
  private sending: Promise<void> = Promise.resolve();
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
   * After a commit: this instance's listeners at once, then the other instances through one NOTIFY
   * statement, which also runs the channels' after-commit statements. A local listener that needs
   * what such a statement writes writes it itself (the event bus: `markThenRead`), a round trip
   * sooner than waiting for it here.
   */
  relay(signals: Map<string, Set<string>>): Promise<void> {
    for (const [channel, payloads] of signals) {
      for (const payload of payloads) deliver(this.handlers, channel, payload, this.log);
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
   * Sends what the outbox holds, one statement at a time: signals that arrive while one is on the
   * wire wait for the next, so a burst of commits costs a few statements, not one each. Resolves
   * once the outbox as it stood has been sent. Without a connection the signals are dropped: the
   * other instances' polls catch up, and the event buses write the marks themselves.
   */
  private flushOutbox(): Promise<void> {
    this.sending = this.sending.then(async () => {
      if (this.outbox.size === 0 || this.closed) return;
      const batch = this.outbox;
      this.outbox = new Map();
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
      try {
        const client = await this.notifierClient();
        await client.query(`${ctes.length > 0 ? `with ${ctes.join(', ')} ` : ''}select pg_notify(c, p) from unnest($1::text[], $2::text[]) as n(c, p)`, [channels, payloads]);
      } catch (error) {
        this.log.warn({ err: error }, 'wake-up NOTIFY not sent; the other instances catch up by polling');
        const failed = this.notifier;
        this.notifier = undefined;
        await failed?.end().catch(() => undefined);
      }
    });
    return this.sending;
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
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    await this.notifier?.end().catch(() => undefined);
  }
}

/**
 * `Database.markThenRead` on PostgreSQL: one session of its own, opened at the first use and again
 * after a failure, that sends a mark's transaction and the read after it as one simple-protocol
 * query (its statements run one after the other, the read after the mark's COMMIT). Its callers
 * never overlap their reads; were they to, `pg` queues them on the session.
 */
class MarkingSession {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly clientOptions: Omit<pg.ClientConfig, 'connectionString'>,
    private readonly log: Logger,
  ) {}

  async run<T>(text: string): Promise<T[]> {
    const client = await this.connect();
    try {
      // Several statements in one query text: pg answers with one result per statement.
      const results = (await client.query(text)) as unknown as pg.QueryResult[];
      return (results[results.length - 1]?.rows ?? []) as T[];
    } catch (error) {
      // Whatever state the session is in (an aborted transaction, a connection gone), the next
      // read starts on a fresh one.
      this.drop(client);
      throw error;
    }
  }

  private connect(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('The database has been closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...this.clientOptions, connectionString: this.url, application_name: 'gateway-event-bus', types: ormTypes() });
      client.on('error', (error) => {
        this.log.warn({ err: error }, 'event log session failed; it reopens at the next read');
        this.drop(client);
      });
      try {
        await client.connect();
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      } finally {
        this.connecting = undefined;
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = undefined;
    client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Dates, times and intervals as text, as the ORM's own pool reads them (MikroORM's PostgreSQL
 * connection sets the same parsers): rows read outside the ORM then map through `em.map` alike.
 */
function ormTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (text: string) => text);
  return types;
}

interface Listener {
  handler: NotificationHandler;
  onReconnect: (() => void) | undefined;
}

/**
 * PGlite runs in this process, with no other instance: the relay only calls the listeners here.
 * Its native `listen` is kept for a NOTIFY sent by SQL (after-commit delivery, like PostgreSQL).
 */
class PgliteNotifications {
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

  async relay(signals: Map<string, Set<string>>): Promise<void> {
    for (const [channel, payloads] of signals) {
      const sql = this.afterCommit.get(channel);
      if (sql) {
        try {
          await this.run(`/* relay */ with after_commit as (${sql}) select 1`);
        } catch (error) {
          this.log.warn({ err: error, channel }, 'after-commit statement failed; the listeners catch up by polling');
        }
      }
      for (const payload of payloads) deliver(this.handlers, channel, payload, this.log);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.unsubscribes.map((unsubscribe) => unsubscribe()));
  }
}

/** Calls every listener of `channel`; one that throws is logged and does not stop the others. */
function deliver(handlers: Map<string, Set<Listener>>, channel: string, payload: string, log: Logger): void {
  for (const listener of handlers.get(channel) ?? []) {
    try {
      listener.handler(payload);
    } catch (error) {
      log.error({ err: error, channel }, 'a wake-up listener failed');
    }
  }
}
