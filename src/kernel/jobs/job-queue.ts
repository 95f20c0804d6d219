// The job queue as modules use it: enqueues written in the transaction of the change that needs
// them (alone, many at once, as a statement of the caller's, or as a hook of every event append),
// and this instance's worker (job-worker.ts) started, stopped and driven through it.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { signalOnCommit } from '../../db/commit-signals.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { AppendHook } from '../events/event-log.js';
import type { JobHandlers } from './job-handlers.js';
import { DEFAULT_JOB_SETTINGS, JOBS_CHANNEL, type EnqueueOptions, type JobDatabase, type JobKind, type JobKinds, type JobQueueSettings, type JobResultEvent, type ManyJob } from './job-kinds.js';
import { insertStatement, onConflict } from './job-statements.js';
import { JobWorker } from './job-worker.js';

export interface JobQueueOptions {
  logger: Logger;
  /** Where the worker and `runDue` take their EntityManagers from, and hear the enqueues committed on any instance. */
  db: JobDatabase;
  /** The handler of each kind the worker runs (`JobHandlers`). */
  handlers: JobHandlers;
  /** The worker's timings, from configuration; the rest are `DEFAULT_JOB_SETTINGS`. */
  settings?: Partial<JobQueueSettings>;
  /** Told of every finished run (metrics). */
  onResult?: (event: JobResultEvent) => void;
}

/**
 * The job queue and this instance's worker. Modules register a handler per kind (`JobHandlers`)
 * and `enqueue` inside the transaction of the change that needs the work, so the job exists if and
 * only if the change committed; any instance's worker then runs it.
 *
 * @example
 * await em.transactional(async (tx) => {
 *   await tx.execute('update deposit set merchant_reference = ? where id = ?', [reference, depositId]);
 *   await jobs.enqueue(tx, 'deposit.fetch_details', { depositId, reference }, { dedupeKey: depositId });
 * });
 */
export class JobQueue {
  private readonly settings: JobQueueSettings;
  private readonly worker: JobWorker;

  constructor(options: JobQueueOptions) {
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...options.settings };
    this.worker = new JobWorker(options.logger, options.db, options.handlers, this.settings, options.onResult);
  }

  /**
   * Writes a job in the caller's open transaction: it commits, or rolls back, with the change that
   * needs it. Its commit wakes this instance's worker at once and the others through the
   * database's relay (src/db/commit-signals.ts `signalOnCommit`): no NOTIFY inside the transaction.
   */
  async enqueue<K extends JobKind>(tx: SqlEntityManager, kind: K, payload: JobKinds[K], options: EnqueueOptions = {}): Promise<void> {
    const insert = this.enqueueStatement(tx, kind, payload, options);
    await tx.execute(insert.sql, insert.params);
  }

  /**
   * `enqueue` as a statement for the caller to run in its open transaction, alone or as a CTE of
   * a statement that does more (one round trip instead of two). The wake-up is announced for the
   * transaction's commit either way.
   */
  enqueueStatement<K extends JobKind>(tx: SqlEntityManager, kind: K, payload: JobKinds[K], options: EnqueueOptions = {}): { sql: string; params: unknown[] } {
    if (!tx.isInTransaction()) throw new Error('JobQueue.enqueue must run inside the transaction of the change that needs the job');
    // A constant payload: the relay sends one wake-up however many jobs were enqueued.
    signalOnCommit(tx, JOBS_CHANNEL);
    return insertStatement(kind, payload, options, this.settings.maxAttempts);
  }

  /**
   * `enqueue` of many jobs of one kind in one statement, each with its own payload and dedupe key
   * (e.g. one check per row a sweep found due). Nothing is written for an empty list.
   */
  async enqueueMany<K extends JobKind>(tx: SqlEntityManager, kind: K, jobs: ReadonlyArray<ManyJob<K>>, options: Omit<EnqueueOptions, 'dedupeKey' | 'subject'> = {}): Promise<void> {
    if (!tx.isInTransaction()) throw new Error('JobQueue.enqueueMany must run inside the transaction of the change that needs the jobs');
    if (jobs.length === 0) return;
    signalOnCommit(tx, JOBS_CHANNEL);
    const maxAttempts = options.maxAttempts ?? this.settings.maxAttempts;
    const now = new Date();
    const rows = jobs.map(() => "(?, ?, cast(? as jsonb), 'pending', 0, ?, coalesce(?::timestamptz, now()), ?, ?, ?, ?, ?)");
    const params = jobs.flatMap((job) => [newId('job'), kind, JSON.stringify(job.payload), maxAttempts, options.runAt ?? null, job.dedupeKey ?? null, now, now, job.subject?.type ?? null, job.subject?.id ?? null]);
    await tx.execute(
      `insert into job (id, kind, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at, subject_type, subject_id)
       values ${rows.join(', ')}
       ${onConflict(options)}`,
      params,
    );
  }

  /**
   * The dedupe keys of the jobs of `kind` that wait or run now: the work already in the queue,
   * which a sweep leaves out of what it enqueues (so that one row is never checked by two jobs at
   * once, and what waits counts against its batch).
   */
  async queuedKeys(em: SqlEntityManager, kind: JobKind): Promise<Set<string>> {
    const rows = await em.execute<Array<{ dedupe_key: string }>>(
      "select dedupe_key from job where status in ('pending', 'running') and kind = ? and dedupe_key is not null",
      [kind],
    );
    return new Set(rows.map((row) => row.dedupe_key));
  }

  /**
   * A job added by every event append (`EventLog.onAppend`), in the append's own statement, only
   * when `onlyIf` holds (and, for an append with a change, only when the change found its row);
   * the append announces the wake-up when the insert wrote a row.
   */
  appendHook<K extends JobKind>(kind: K, payload: JobKinds[K], options: Pick<EnqueueOptions, 'onlyIf'>): AppendHook {
    return {
      channel: JOBS_CHANNEL,
      statement: (requires) => {
        const insert = insertStatement(kind, payload, options, this.settings.maxAttempts, requires);
        return { sql: `${insert.sql} returning id`, params: insert.params };
      },
    };
  }

  /** Starts this instance's worker (`JobWorker.start`). */
  start(): Promise<void> {
    return this.worker.start();
  }

  /** Wakes this instance's worker now (`JobWorker.kick`). */
  kick(): void {
    this.worker.kick();
  }

  /** Stops this instance's worker and waits for its running jobs, at most `timeoutMs` (`JobWorker.stop`). */
  stop(timeoutMs?: number): Promise<void> {
    return this.worker.stop(timeoutMs);
  }

  /** Claims and runs one batch of due jobs here; for tests and admin tooling (`JobWorker.runDue`). */
  runDue(): Promise<number> {
    return this.worker.runDue();
  }

  /** Runs due jobs here until none of `kinds` is due or running anywhere; for tests and admin tooling (`JobWorker.runUntilIdle`). */
  runUntilIdle(kinds: readonly JobKind[], timeoutMs?: number): Promise<void> {
    return this.worker.runUntilIdle(kinds, timeoutMs);
  }
}
