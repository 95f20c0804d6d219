// Opens the gateway's database: PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite
// persisted under the data directory. Applies committed migrations at start, and offers one
// EntityManager fork per unit of work, LISTEN for wake-ups across instances, and the relay that
// announces committed work (events, jobs, idempotency releases) without a NOTIFY in the transaction.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { Migrator } from '@mikro-orm/migrations';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema, MikroORM } from '@mikro-orm/core';
import type pg from 'pg';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { CommitSignalSubscriber } from './commit-signals.js';
import { asConnectError } from './connect-error.js';
import { lockDataDir } from './data-dir-lock.js';
import { MarkingSession } from './marking-session.js';
import { InstanceLock, thisProcessIdentity, type InstanceIdentity } from './instance-lock.js';
import type { ListenOptions, NotificationHandler } from './notifications/listeners.js';
import { PgliteNotifications } from './notifications/pglite.js';
import { PostgresNotifications } from './notifications/postgres.js';
import { patchPooledClient } from './pg-patches.js';
import { allowPreparedStatements } from './prepared.js';
import { pgTimeoutOptions } from './pg-timeouts.js';
import { DatabaseRoleError, readRoleStanding, roleNotice } from './role.js';
import { migrations } from './migrations/index.js';

export type DatabaseKind = 'postgresql' | 'pglite';

export interface DatabaseOptions {
  /** PostgreSQL connection string; absent selects PGlite. */
  databaseUrl?: string;
  /** Directory holding the PGlite cluster (used only without `databaseUrl`). */
  dataDir: string;
  logger: Logger;
  /** Every entity the ORM maps (defineEntity schemas: no files are discovered). The modules own them. */
  entities: EntitySchema[];
  /** PostgreSQL only (PGlite runs in this process and cannot hang on a network); defaults to `DEFAULT_DATABASE_TIMEOUTS`. */
  timeouts?: DatabaseTimeouts;
}

/** The database and everything the rest of the gateway needs from it. */
export interface Database {
  readonly kind: DatabaseKind;
  /** A fresh EntityManager fork: one per request, webhook or job, never shared. */
  fork(): SqlEntityManager;
  /** Migrations applied by this start (empty when the schema was current). */
  readonly appliedMigrations: string[];
  /** This process as a holder of leases, and how other instances tell whether it still runs (src/db/instance-lock.ts). */
  readonly instance: InstanceIdentity;
  /** SQL statements issued through the ORM so far (lets a test prove a list costs constant queries). */
  queryCount(): number;
  /** Calls `listener` with the text (`?` placeholders) and the values of every SQL statement issued through the ORM until the returned function is called (tests). */
  watchQueries(listener: (sql: string, params: readonly unknown[]) => void): () => void;
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
   * it). A log that marks how far its committed rows reach registers its mark here.
   */
  afterCommitSql(channel: string, sql: string): void;
  /**
   * Runs `mark` as a transaction of its own (committed asynchronously: nothing money depends on),
   * then `read`, which starts after that commit, and returns `read`'s rows. On PostgreSQL both go
   * in one round trip, as one simple-protocol query on a session of their own, so neither text
   * may hold parameters; on PGlite, in process, as two statements. Outside every transaction of
   * the caller. For a reader of such a log: a read that can count on a mark written just before
   * it without a round trip between.
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

/** Calls `listener` with every SQL statement issued through the ORM (`Database.watchQueries`). */
type QueryWatcher = (sql: string, params: readonly unknown[]) => void;

/** Counts the statements issued through the ORM, and shows each to the watchers. */
function queryObserver() {
  let queries = 0;
  const watchers = new Set<QueryWatcher>();
  return {
    observe: (sql: string, params: readonly unknown[] = []) => {
      queries += 1;
      for (const watcher of watchers) watcher(sql, params);
    },
    count: () => queries,
    watch: (listener: QueryWatcher) => {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
  };
}

/** The ORM settings both drivers share. */
function commonOrmOptions(options: DatabaseOptions, signals: CommitSignalSubscriber, observe: QueryWatcher, log: Logger) {
  return {
    entities: options.entities,
    subscribers: [signals],
    extensions: [Migrator],
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    debug: false,
    onQuery: (sql: string, params: readonly unknown[]) => {
      observe(sql, params);
      return sql;
    },
    // MikroORM's own messages (migrations applied, warnings) into our structured log.
    logger: (message: string) => log.debug({ orm: true }, message),
    // Entities are defined with defineEntity: no reflection, no discovery of files.
    discovery: { warnWhenNoEntities: true },
    allowGlobalContext: false,
  };
}

/** The ORM on the driver the options choose, and how to release the PGlite data directory's lock (nothing to release on PostgreSQL). */
async function startOrm(options: DatabaseOptions, common: ReturnType<typeof commonOrmOptions>): Promise<{ orm: MikroORM; kind: DatabaseKind; releaseLock: () => void }> {
  if (options.databaseUrl) {
    // Each driver is loaded only when chosen: loading both cost a short-lived process (the client
    // CLI) a quarter of its run.
    const { MikroORM: PostgreSqlMikroORM } = await import('@mikro-orm/postgresql');
    const orm = await PostgreSqlMikroORM.init({
      ...common,
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: 10 },
      // Handed to pg's Pool (and so to each of its clients) by MikroORM's PostgreSQL connection.
      driverOptions: {
        ...pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS),
        onPoolCreated: (pool: pg.Pool) => pool.on('connect', patchPooledClient),
        // The hot writes' prepared statements (src/db/prepared.ts) keep one generic plan: left to
        // choose, PostgreSQL planned them again on every run, which cost it more than running them.
        // The ORM's own statements come with their values inlined and are planned as before.
        options: '-c plan_cache_mode=force_generic_plan',
      },
    });
    // Its pool's clients prepare the hot writes' statements (src/db/prepared.ts, pg-patches.ts).
    allowPreparedStatements(orm.config);
    return { orm, kind: 'postgresql', releaseLock: () => undefined };
  }
  const dataDir = path.join(options.dataDir, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const releaseLock = lockDataDir(options.dataDir);
  try {
    const { MikroORM: PgliteMikroORM } = await import('@mikro-orm/pglite');
    const orm = await PgliteMikroORM.init({ ...common, dbName: PGLITE_DATABASE, driverOptions: { dataDir } });
    return { orm, kind: 'pglite', releaseLock };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * Applies the pending migrations and returns their names, after checking on PostgreSQL that the
 * role may apply them. A server that cannot be reached, or a role that may not migrate, closes the
 * ORM and throws an error that says so in one line.
 */
async function migrate(orm: MikroORM, kind: DatabaseKind, options: DatabaseOptions, log: Logger): Promise<string[]> {
  let standing;
  const connecting = Date.now();
  try {
    await orm.schema.ensureDatabase();
    // PostgreSQL: what the role may do, read before the migrator first writes (it creates its own
    // table on a fresh database).
    standing = kind === 'postgresql' ? await readRoleStanding(orm.em.fork() as SqlEntityManager) : undefined;
  } catch (error) {
    // The first connections: a server that is not there or refuses us is the setting's fault, said
    // in one line (src/db/connect-error.ts), not a stack.
    const unreachable = options.databaseUrl ? asConnectError(error, options.databaseUrl, (options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS).connectTimeoutMs, Date.now() - connecting) : undefined;
    if (!unreachable) throw error;
    await orm.close(true).catch(() => undefined);
    throw unreachable;
  }
  const pending = standing && !standing.canCreate && !standing.migrated ? migrations : await orm.migrator.getPending();
  if (standing && !standing.canCreate && pending.length > 0) {
    await orm.close(true);
    throw new DatabaseRoleError(standing, pending.length);
  }
  await orm.migrator.up();
  const appliedMigrations = pending.map((migration) => migration.name);
  log.info({ kind, applied: appliedMigrations }, appliedMigrations.length ? 'database migrated' : 'database schema is current');
  const notice = standing && roleNotice(standing);
  if (notice) log.info(notice.fields, notice.message);
  return appliedMigrations;
}

/** True when `select 1` answers within `PING_DEADLINE_MS`; a failure is logged, never thrown. */
async function answersPing(orm: MikroORM, log: Logger): Promise<boolean> {
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
}

/** Closes the ORM's pool, or gives up on it after `CLOSE_DEADLINE_MS`. */
async function closeOrm(orm: MikroORM, log: Logger): Promise<void> {
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
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.logger.child({ component: 'database' });
  const queries = queryObserver();
  const signals = new CommitSignalSubscriber(queries.observe, (error) => log.error({ err: error }, 'work after a commit failed; the transaction stands'));
  const { orm, kind, releaseLock } = await startOrm(options, commonOrmOptions(options, signals, queries.observe, log));
  const appliedMigrations = await migrate(orm, kind, options, log);

  const instanceLock = kind === 'postgresql' ? await InstanceLock.acquire(options.databaseUrl!, pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS), log) : undefined;
  const instance = instanceLock ?? thisProcessIdentity();
  const marking = kind === 'postgresql' ? new MarkingSession(options.databaseUrl!, pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS), log) : undefined;
  const notifications = kind === 'postgresql'
    ? new PostgresNotifications(options.databaseUrl!, pgTimeoutOptions(options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS), log)
    : new PgliteNotifications(orm as unknown as PgliteMikroORM, log, (sql) => (orm.em.fork() as SqlEntityManager).execute(sql).then(() => undefined));
  signals.relay = notifications;

  let closed = false;
  return {
    kind,
    appliedMigrations,
    instance,
    queryCount: queries.count,
    watchQueries: queries.watch,
    fork: () => {
      // MikroORM would quietly reconnect a closed ORM (and PGlite would reopen its directory).
      if (closed) throw new Error('The database has been closed');
      return orm.em.fork() as SqlEntityManager;
    },
    async ping() {
      if (closed) return false;
      return answersPing(orm, log);
    },
    listen: (channel, handler, listenOptions) => notifications.listen(channel, handler, listenOptions),
    afterCommitSql: (channel, sql) => notifications.afterCommit.set(channel, sql),
    async markThenRead<T extends Record<string, unknown>>(mark: string, read: string): Promise<T[]> {
      if (closed) throw new Error('The database has been closed');
      if (marking) {
        const text = `begin; set local synchronous_commit to off; ${mark}; commit; ${read}`;
        queries.observe(text);
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
      await instanceLock?.close();
      await closeOrm(orm, log);
      releaseLock();
    },
  };
}
