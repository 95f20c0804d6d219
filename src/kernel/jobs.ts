// Durable follow-up work: job rows written in the transaction of the change that needs them, claimed by every instance's worker with SKIP LOCKED and a lease, retried with exponential back-off; and recurring kinds, one occurrence at a time across all instances.

import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { signalOnCommit } from '../db/commit-signals.js';
import { executePrepared } from '../db/prepared.js';
import { backoffDelayMs } from '../lib/backoff.js';
import { newId } from '../lib/ids.js';
import { lazyChild, type Logger } from '../lib/logger.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { inSpan, SpanStatusCode } from '../lib/tracing/spans.js';
import { linkToStoredTrace, settingTraceId } from '../lib/tracing/trace-context.js';
import { paymentTraceContextSql } from './payment-scope.js';
import { renderConditions, type RowCondition } from './sql-intents.js';
import type { AppendHook } from './events/event-log.js';

/**
 * Every job kind and its payload. Each module adds its own kinds by declaration merging, beside
 * the code that handles them, so the queue checks payloads without knowing the modules:
 *
 * @example
 * declare module '../../kernel/jobs.js' {
 *   interface JobKinds { 'deposit.fetch_details': { depositId: string; reference: string } }
 * }
 */
// Empty on purpose, filled by declaration merging (above).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobKinds {}

// `& string` keeps the kind a string whatever a module merges in; today every key is one, hence the finding.
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
export type JobKind = keyof JobKinds & string;

/** The claimed row as its handler sees it. */
export interface JobInfo {
  id: string;
  kind: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /**
   * The UPDATE that records this run as succeeded, for a handler whose work commits in one
   * transaction: run there (alone or as a CTE), it commits with the work, or not at all. It
   * returns the job's id when it matched; when it matched, the handler returns `JOB_SUCCEEDED` and
   * the queue records nothing more. It matches nothing when the lease ran out and another worker
   * took the job: the handler then returns nothing, and the queue's own completion finds the job
   * taken and says so. If the handler throws, the queue retries the job as usual (its work and
   * this statement rolled back together).
   *
   * `when`: an SQL condition the completion also requires, for work written outside a
   * transaction in one statement with it, where nothing would roll the completion back if the
   * work found nothing to write (e.g. that the statement's change matched its row).
   */
  succeededStatement(when?: string): { sql: string; params: unknown[] };
}

/** What a handler returns when its own transaction recorded the run as succeeded (`JobInfo.succeededStatement`). */
export const JOB_SUCCEEDED = Symbol('job succeeded in its handler\'s transaction');

/**
 * Does the work of one job with a fresh EntityManager (outside any transaction: open one if the
 * work needs it). Throwing schedules a retry with back-off, until the attempts run out. A job runs
 * at least once: it may run again after a crash between its work and its completion, so a
 * handler must be idempotent.
 */
export type JobHandler<K extends JobKind> = (em: SqlEntityManager, payload: JobKinds[K], job: JobInfo) => Promise<void | typeof JOB_SUCCEEDED>;

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** While a job of this kind and key waits, enqueuing another is a no-op (e.g. one pending detail fetch per deposit). */
  dedupeKey?: string;
  /**
   * With a dedupe key: a job already waiting under it is moved up to this one's `runAt` when that
   * is sooner, instead of being left as it is (a wake-up that must not wait out a later retry).
   */
  sooner?: boolean;
  /** Conditions the job is enqueued under, read by the insert itself (e.g. that work waits for it). */
  onlyIf?: readonly RowCondition[];
  /** Default: the queue's `maxAttempts`. */
  maxAttempts?: number;
  /** The one payment the job is about, shown on its timeline; absent for work about none (a sweep, a fan-out). */
  subject?: JobSubject;
}

/** The payment a job is about: its subject kind and id (`job.subject_type`, `job.subject_id`). */
export interface JobSubject {
  type: string;
  id: string;
}

/** What an insert does when a job of its kind and dedupe key already waits: nothing, or move it up (`sooner`). */
function onConflict(options: Pick<EnqueueOptions, 'sooner'>): string {
  return options.sooner
    ? "on conflict (kind, dedupe_key) where status = 'pending' do update set run_at = excluded.run_at, updated_at = excluded.updated_at where excluded.run_at < job.run_at"
    : "on conflict (kind, dedupe_key) where status = 'pending' do nothing";
}

export interface JobQueueSettings {
  /** Pause between two polls when nothing wakes the worker sooner. */
  pollIntervalMs: number;
  /**
   * How long after a commit that enqueued work the worker claims it (0: at once). The commit's
   * live updates go out first, and the commits within the delay are claimed together.
   */
  wakeDelayMs: number;
  /** Jobs one instance claims and runs at once. */
  concurrency: number;
  /** How long a claim keeps other instances off a running job; past it the job is taken again. */
  leaseMs: number;
  /** First retry delay; each later one doubles, up to `backoffMaxMs`. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Runs of one job before it is kept as `failed`. */
  maxAttempts: number;
  /** Succeeded and superseded rows are deleted after this long (failed ones are kept). */
  retentionMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobQueueSettings = {
  pollIntervalMs: 1_000,
  wakeDelayMs: 20,
  concurrency: 4,
  leaseMs: 60_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 300_000,
  maxAttempts: 10,
  retentionMs: 7 * 24 * 3_600_000,
};

/** What the queue needs of the database: forks, and the wake-ups of enqueues committed on any instance. */
export interface JobDatabase {
  fork(): SqlEntityManager;
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
}

/** One finished run, for metrics: `retried` (will run again), `succeeded`, `failed` (attempts exhausted), `superseded`. */
export interface JobResultEvent {
  kind: string;
  outcome: 'succeeded' | 'retried' | 'failed' | 'superseded';
  attempt: number;
}

/** Wake-up channel: an enqueue wakes the worker of every instance once its transaction commits. */
export const JOBS_CHANNEL = 'gateway_jobs';

/** The dedupe key of every occurrence of a recurring kind (`JobHandlers.recurring`): one waits at a time. */
export const RECURRING_KEY = 'recurring';

/** A kind's handler as registered, with its schedule when the kind recurs (`JobHandlers.recurring`). */
interface RegisteredHandler {
  run: JobHandler<JobKind>;
  recurs?: { everyMs: number; payload: unknown };
}

/**
 * The handler of each job kind, and which kinds recur; every instance registers the same ones.
 * Apart from the queue because of the one cycle of the gateway's composition: the parts whose
 * jobs the queue runs (deposits, the inbox, the reconciler, retention, notifications) enqueue
 * through the queue, so they are built after it and their handlers cannot be arguments of its
 * constructor. The queue is given this registry when it is built; the composition (src/services.ts)
 * fills it once those parts exist, before the worker starts.
 */
export class JobHandlers {
  private readonly byKind = new Map<string, RegisteredHandler>();

  /** The handler of one kind. */
  register<K extends JobKind>(kind: K, handler: JobHandler<K>): void {
    this.add(kind, { run: handler as unknown as JobHandler<JobKind> });
  }

  /**
   * The handler of a kind that runs once every `everyMs`, one occurrence at a time across all
   * instances: occurrences carry the dedupe key `RECURRING_KEY`, so at most one waits.
   *
   * - Each occurrence, as it starts, enqueues the next one `everyMs` later (its own statement),
   *   then runs `handler`. An occurrence that fails is not retried: the next one, already waiting,
   *   supersedes it (`superseded`), so a failure never ends the schedule.
   * - Each instance's worker enqueues an occurrence when none waits, `everyMs` from then: at its
   *   first pass (the schedule starts with the first instance that runs the kind) and again at
   *   most once per `everyMs`, so a schedule that lost its next occurrence (an occurrence taken by
   *   an instance that ends the schedule, a database failure as it enqueued its next one) resumes.
   *   Two instances doing so at once still make one occurrence (the dedupe key).
   *
   * An instance that must not run the kind registers it with `register` and a handler that does
   * nothing: an occurrence it takes then ends there, until a worker of an instance that runs the
   * kind enqueues the next one.
   *
   * @example
   * handlers.recurring('reconcile.sweep', { everyMs: 60_000, payload: {} }, (em) => reconciler.sweep(em));
   */
  recurring<K extends JobKind>(kind: K, schedule: { everyMs: number; payload: JobKinds[K] }, handler: JobHandler<K>): void {
    this.add(kind, { run: handler as unknown as JobHandler<JobKind>, recurs: { everyMs: schedule.everyMs, payload: schedule.payload } });
  }

  /** The handler of `kind`, if this instance registered one. */
  get(kind: string): RegisteredHandler | undefined {
    return this.byKind.get(kind);
  }

  /** The recurring kinds, in registration order. */
  recurringKinds(): Array<{ kind: string; everyMs: number; payload: unknown }> {
    return [...this.byKind].flatMap(([kind, { recurs }]) => (recurs ? [{ kind, ...recurs }] : []));
  }

  private add(kind: string, handler: RegisteredHandler): void {
    if (this.byKind.has(kind)) throw new Error(`A handler for job kind ${kind} is already registered`);
    this.byKind.set(kind, handler);
  }
}

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

/** One job of `enqueueMany`. */
export interface ManyJob<K extends JobKind> {
  payload: JobKinds[K];
  dedupeKey?: string;
  /** The one payment this job is about (`EnqueueOptions.subject`). */
  subject?: JobSubject;
}

/** Longest error text kept on a row. */
const MAX_ERROR_LENGTH = 2_000;
/** How often one instance deletes old finished rows. */
const PRUNE_EVERY_MS = 3_600_000;

/** Records a run as succeeded, unless its lease ran out and another worker took the job. */
const SUCCEED_SQL = `update job set status = 'succeeded', finished_at = now(), updated_at = now(), locked_until = null
       where id = ? and locked_by = ? and status = 'running'`;

interface ClaimedRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  /** The kind of the payment the job is about (`EnqueueOptions.subject`), if any. */
  subject_type: string | null;
  /** The trace context of that payment, claimed with the job while tracing is on. */
  payment_trace_context?: string | null;
}

/**
 * The delay before retry number `attempt` (1 after the first failure): `base · 2^(attempt-1)`,
 * capped at `max`, minus up to a tenth at random so a burst of failures does not retry in step.
 */
export function retryDelayMs(attempt: number, settings: Pick<JobQueueSettings, 'backoffBaseMs' | 'backoffMaxMs'>, random: () => number = Math.random): number {
  return backoffDelayMs(attempt, { baseMs: settings.backoffBaseMs, maxMs: settings.backoffMaxMs, jitter: 0.1 }, random);
}

/** What follows a failed run: kept as `failed`, or run again after `delayMs`. */
export type AfterFailedRun = { kind: 'failed' } | { kind: 'retry'; delayMs: number };

/**
 * What follows a failed run (`attempt`: the run that failed, 1 for the first): kept as `failed`
 * once the job has had its `maxAttempts` runs, else run again after `retryDelayMs`.
 */
export function afterFailedRun(
  attempt: number,
  maxAttempts: number,
  settings: Pick<JobQueueSettings, 'backoffBaseMs' | 'backoffMaxMs'>,
  random: () => number = Math.random,
): AfterFailedRun {
  if (attempt >= maxAttempts) return { kind: 'failed' };
  return { kind: 'retry', delayMs: retryDelayMs(attempt, settings, random) };
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
  private readonly logger: Logger;
  private readonly db: JobDatabase;
  private readonly handlers: JobHandlers;
  private readonly settings: JobQueueSettings;
  private readonly onResult: ((event: JobResultEvent) => void) | undefined;
  private readonly instance = randomUUID().slice(0, 8);
  private started = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  /** A commit's wake-up waiting out `wakeDelayMs` (see `wakeSoon`). */
  private wakeTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** The pass now running, if any; passes never overlap on one instance. */
  private pass: Promise<void> | undefined;
  /** A kick arrived during a pass: run another one right after it. */
  private again = false;
  private lastPrune = 0;
  private lastSweep = 0;
  /** When this instance last made sure an occurrence of each recurring kind waits (`Date.now()`). */
  private readonly ensuredAt = new Map<string, number>();

  constructor(options: JobQueueOptions) {
    this.logger = options.logger;
    this.db = options.db;
    this.handlers = options.handlers;
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...options.settings };
    this.onResult = options.onResult;
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
    return this.insertStatement(kind, payload, options);
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
        const insert = this.insertStatement(kind, payload, options, requires);
        return { sql: `${insert.sql} returning id`, params: insert.params };
      },
    };
  }

  /** The insert of one job, without its wake-up (`enqueueStatement` announces it; a recurring kind's next occurrence is not due yet). */
  private insertStatement(kind: string, payload: unknown, options: EnqueueOptions, requires?: string): { sql: string; params: unknown[] } {
    const maxAttempts = options.maxAttempts ?? this.settings.maxAttempts;
    const now = new Date();
    const onlyIf = options.onlyIf ? renderConditions(options.onlyIf) : undefined;
    const condition = [...(onlyIf ? [onlyIf.sql] : []), ...(requires !== undefined ? [requires] : [])];
    return {
      sql: `insert into job (id, kind, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at, subject_type, subject_id)
       ${condition.length > 0 ? 'select ' : 'values ('}?, ?, cast(? as jsonb), 'pending', 0, ?, coalesce(?, now()), ?, ?, ?, ?, ?${condition.length > 0 ? ` where ${condition.join(' and ')}` : ')'}
       ${onConflict(options)}`,
      params: [newId('job'), kind, JSON.stringify(payload), maxAttempts, options.runAt ?? null, options.dedupeKey ?? null, now, now, options.subject?.type ?? null, options.subject?.id ?? null, ...(onlyIf?.params ?? [])],
    };
  }

  /** Starts polling every `pollIntervalMs` and on every wake-up; a first pass runs at once (jobs left by a stopped instance). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.unlisten = await this.db.listen(JOBS_CHANNEL, () => this.wakeSoon());
    this.kick();
  }

  /**
   * A commit that enqueued work, on this instance or another: the worker claims it `wakeDelayMs`
   * later rather than at once. Follow-up work is not what a client waits for, live updates are:
   * claimed at once, a webhook's follow-up (its claim, the provider call, its own commit and its
   * update's frames) ran while the subscribers were still reading the webhook's update, and held
   * the slowest of them back (docs/benchmarks.md, "Then: the job claim prepared…"). The wake-ups of
   * the commits within the delay share one pass.
   */
  private wakeSoon(): void {
    if (this.settings.wakeDelayMs <= 0) return this.kick();
    if (this.wakeTimer || !this.started || this.stopping) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.kick();
    }, this.settings.wakeDelayMs);
    // A pending wake-up must not keep the process alive on its own.
    this.wakeTimer.unref();
  }

  /** Wakes this instance's worker now (at start, on a poll, or `wakeDelayMs` after a commit that enqueued work); no-op when it is not started. */
  kick(): void {
    if (!this.started || this.stopping) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.pass = this.drain().finally(() => {
      this.pass = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      } else {
        this.schedule();
      }
    });
  }

  /**
   * Stops taking jobs and waits for the running ones, so nothing touches the database after this
   * resolves. With `timeoutMs`, waits at most that long: a job still running then is abandoned to
   * its lease and runs again on the next start or another instance.
   */
  async stop(timeoutMs?: number): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    let timer: NodeJS.Timeout | undefined;
    const deadline = timeoutMs === undefined ? [] : [new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))];
    const outcome = await Promise.race([(this.pass ?? Promise.resolve()).then(() => 'done' as const), ...deadline]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.logger.warn({ timeoutMs }, 'jobs still running at shutdown are left to their lease; they will run again');
    this.started = false;
  }

  /**
   * Claims and runs one batch of due jobs (up to `concurrency`) and resolves when they are done,
   * with how many ran. For tests and admin tooling; the worker calls it in a loop.
   */
  runDue(): Promise<number> {
    return this.runBatch(true);
  }

  /**
   * Runs due jobs here (`runDue`) until no job of `kinds` is due or running on any instance, e.g.
   * a sweep and the checks it enqueued. For tests and admin tooling. Jobs of `kinds` that wait for
   * a later time (a retry's back-off, a recurring kind's next occurrence) do not hold it up.
   * Throws after `timeoutMs` (default: two leases, after which a dead worker's job runs again).
   */
  async runUntilIdle(kinds: readonly JobKind[], timeoutMs = 2 * this.settings.leaseMs): Promise<void> {
    const { db } = this;
    const deadline = Date.now() + timeoutMs;
    const marks = kinds.map(() => '?').join(', ');
    for (;;) {
      const ran = await this.runDue();
      const rows = await db
        .fork()
        .execute<Array<{ open: string | number }>>(`select count(*) as open from job where status in ('pending', 'running') and run_at <= now() and kind in (${marks})`, [...kinds]);
      if (Number(rows[0]?.open ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs of ${kinds.join(', ')} still due or running after ${timeoutMs} ms`);
      // Another instance runs them: look again shortly.
      if (ran === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * One batch. The worker sweeps abandoned leases, and makes sure each recurring kind has an
   * occurrence waiting, at most once per poll interval (a lease runs out after `leaseMs`, far
   * longer), not before every batch: under load a batch runs per job.
   */
  private async runBatch(sweepAlways: boolean): Promise<number> {
    const { db } = this;
    if (sweepAlways || Date.now() - this.lastSweep >= this.settings.pollIntervalMs) {
      this.lastSweep = Date.now();
      await this.sweep(db.fork());
      await this.ensureSchedules(db.fork());
    }
    const lockedBy = `${this.instance}:${randomUUID()}`;
    const claimed = await this.claim(db.fork(), lockedBy);
    await Promise.all(claimed.map((row) => this.run(db, row, lockedBy)));
    return claimed.length;
  }

  private schedule(): void {
    if (!this.started || this.stopping) return;
    this.timer = setTimeout(() => this.kick(), this.settings.pollIntervalMs);
    // A pending poll must not keep the process alive on its own.
    this.timer.unref();
  }

  /** Batches until one comes back short (nothing more is due) or shutdown begins. */
  private async drain(): Promise<void> {
    try {
      while (!this.stopping) {
        const ran = await this.runBatch(false);
        if (ran < this.settings.concurrency) break;
      }
    } catch (error) {
      // A database outage: the next poll tries again.
      this.logger.error({ err: error }, 'job worker pass failed');
    }
  }

  /**
   * Claims due jobs in one statement: pending ones whose time has come, and running ones whose
   * lease ran out (their worker died). Rows another instance is claiming are skipped, and the new
   * lease keeps every other instance off them while they run. Prepared (src/db/prepared.ts): every
   * instance's worker sends it after nearly every commit that adds a job.
   */
  private claim(em: SqlEntityManager, lockedBy: string): Promise<ClaimedRow[]> {
    return executePrepared<ClaimedRow>(
      em,
      `update job set status = 'running', attempts = attempts + 1, locked_by = ?,
         locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id in (
         select id from job
         where (status = 'pending' and run_at <= now())
            or (status = 'running' and locked_until <= now() and attempts < max_attempts)
         order by run_at, id
         limit ?
         for update skip locked
       )
       returning id, kind, payload, attempts, max_attempts, subject_type${tracingOn() ? `, ${paymentTraceContextSql('subject_type', 'subject_id')} as payment_trace_context` : ''}`,
      [lockedBy, this.settings.leaseMs / 1000, this.settings.concurrency],
    );
  }

  /** Jobs whose worker died during their last attempt are failed; old finished rows are pruned. */
  private async sweep(em: SqlEntityManager): Promise<void> {
    const abandoned = await em.execute<Array<{ id: string; kind: string; attempts: number }>>(
      `update job set status = 'failed', finished_at = now(), updated_at = now(), locked_until = null,
         last_error = 'LEASE_EXPIRED: the worker stopped during the last attempt' || coalesce('; before: ' || last_error, '')
       where status = 'running' and locked_until <= now() and attempts >= max_attempts
       returning id, kind, attempts`,
    );
    for (const job of abandoned) this.failed(job, 'LEASE_EXPIRED');
    if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await em.execute(`delete from job where status in ('succeeded', 'superseded') and finished_at < now() - make_interval(secs => ?)`, [this.settings.retentionMs / 1000]);
    }
  }

  /**
   * Each recurring kind registered here has an occurrence waiting: enqueued, `everyMs` from now,
   * when none waits (the dedupe key makes it a no-op otherwise). At most once per `everyMs`.
   */
  private async ensureSchedules(em: SqlEntityManager): Promise<void> {
    for (const schedule of this.handlers.recurringKinds()) {
      const now = Date.now();
      if (now - (this.ensuredAt.get(schedule.kind) ?? Number.NEGATIVE_INFINITY) < schedule.everyMs) continue;
      this.ensuredAt.set(schedule.kind, now);
      const insert = this.insertStatement(schedule.kind, schedule.payload, { dedupeKey: RECURRING_KEY, runAt: new Date(now + schedule.everyMs) });
      await em.execute(insert.sql, insert.params);
    }
  }

  private run(db: JobDatabase, row: ClaimedRow, lockedBy: string): Promise<unknown> {
    if (!tracingOn()) return this.runJob(db, row, lockedBy);
    // A trace of its own (no request waits on a job), linked to the trace of the request that made
    // the payment it is about (docs/tracing.md).
    const attributes = { 'payments.job.kind': row.kind, 'payments.job.id': row.id, 'payments.job.attempt': row.attempts };
    return inSpan(`job ${row.kind}`, { root: true, attributes }, async (span) => {
      try {
        if (row.subject_type !== null) linkToStoredTrace(row.payment_trace_context, { 'payments.subject.type': row.subject_type });
      } catch {
        // A span without its link: the run itself goes on (and reports a payload it cannot read).
      }
      const error = await this.runJob(db, row, lockedBy);
      if (error !== undefined && span) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
      }
      return error;
    });
  }

  /** Runs one claimed job and records its outcome; returns what it failed with, if it did. */
  private async runJob(db: JobDatabase, row: ClaimedRow, lockedBy: string): Promise<unknown> {
    const info: JobInfo = {
      id: row.id,
      kind: row.kind,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      // Each outcome statement keeps the run's trace, for the payment's timeline (docs/timeline.md).
      succeededStatement: (when) => settingTraceId({ sql: `${SUCCEED_SQL}${when === undefined ? '' : ` and (${when})`} returning id`, params: [row.id, lockedBy] }),
    };
    // A run that succeeds logs at debug, often disabled.
    const log = lazyChild(() => this.logger, { jobId: row.id, kind: row.kind, attempt: row.attempts });
    let error: unknown;
    let recorded = false;
    try {
      const handler = this.handlers.get(row.kind);
      // An instance of an older release may not know a newer kind: another instance will.
      if (!handler) throw new Error(`NO_HANDLER: no handler for job kind ${row.kind} on this instance`);
      const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
      const em = db.fork();
      if (handler.recurs) {
        // A recurring kind's next occurrence, enqueued as this one starts (`JobHandlers.recurring`).
        const next = this.insertStatement(row.kind, payload, { dedupeKey: RECURRING_KEY, runAt: new Date(Date.now() + handler.recurs.everyMs) });
        await em.execute(next.sql, next.params);
      }
      recorded = (await handler.run(em, payload as never, info)) === JOB_SUCCEEDED;
    } catch (caught) {
      error = caught ?? new Error('job failed');
    }
    try {
      if (error === undefined && recorded) {
        if (this.logger.isLevelEnabled('debug')) log().debug('job succeeded');
        this.emit({ kind: row.kind, outcome: 'succeeded', attempt: row.attempts });
      } else if (error === undefined) await this.succeed(db.fork(), row, lockedBy, log);
      else await this.retryOrFail(db.fork(), row, lockedBy, error, log);
    } catch (recordError) {
      // The lease runs out and another worker takes the job again: handlers are idempotent.
      log().error({ err: recordError }, 'job outcome could not be recorded; it will run again');
    }
    return error;
  }

  private async succeed(em: SqlEntityManager, row: ClaimedRow, lockedBy: string, log: () => Logger): Promise<void> {
    const succeeded = settingTraceId({ sql: `${SUCCEED_SQL} returning id`, params: [row.id, lockedBy] });
    const done = await em.execute<Array<{ id: string }>>(succeeded.sql, succeeded.params);
    if (done.length === 0) log().warn('job finished after its lease ran out; another worker took it again');
    else if (this.logger.isLevelEnabled('debug')) log().debug('job succeeded');
    this.emit({ kind: row.kind, outcome: 'succeeded', attempt: row.attempts });
  }

  private async retryOrFail(em: SqlEntityManager, row: ClaimedRow, lockedBy: string, error: unknown, log: () => Logger): Promise<void> {
    const message = errorText(error);
    const next = afterFailedRun(row.attempts, row.max_attempts, this.settings);
    if (next.kind === 'failed') {
      const failed = settingTraceId({
        sql: `update job set status = 'failed', last_error = ?, finished_at = now(), updated_at = now(), locked_until = null
         where id = ? and locked_by = ? and status = 'running'`,
        params: [message, row.id, lockedBy],
      });
      await em.execute(failed.sql, failed.params);
      this.failed({ id: row.id, kind: row.kind, attempts: row.attempts }, message);
      return;
    }
    const { delayMs } = next;
    // Back to pending, unless a newer pending job of the same kind and key already covers the work
    // (the unique index admits one waiting job per key).
    const retry = settingTraceId({
      sql: `update job set status = 'pending', run_at = now() + make_interval(secs => ?), last_error = ?, locked_until = null, locked_by = null, updated_at = now()
       where id = ? and locked_by = ? and status = 'running'
         and (dedupe_key is null or not exists (select 1 from job waiting where waiting.kind = job.kind and waiting.dedupe_key = job.dedupe_key and waiting.status = 'pending'))
       returning id`,
      params: [delayMs / 1000, message, row.id, lockedBy],
    });
    const retried = await em.execute<Array<{ id: string }>>(retry.sql, retry.params);
    if (retried.length > 0) {
      log().warn({ err: error, retryInMs: delayMs }, 'job failed; it will be retried');
      this.emit({ kind: row.kind, outcome: 'retried', attempt: row.attempts });
      return;
    }
    const supersede = settingTraceId({
      sql: `update job set status = 'superseded', last_error = ?, finished_at = now(), updated_at = now(), locked_until = null
       where id = ? and locked_by = ? and status = 'running' returning id`,
      params: [message, row.id, lockedBy],
    });
    const superseded = await em.execute<Array<{ id: string }>>(supersede.sql, supersede.params);
    if (superseded.length > 0) {
      log().info({ err: error }, 'job failed; a newer job of the same kind and key will do the work');
      this.emit({ kind: row.kind, outcome: 'superseded', attempt: row.attempts });
    } else {
      log().warn({ err: error }, 'job failed after its lease ran out; another worker took it again');
    }
  }

  /** Attempts exhausted: logged as an error and counted; the row stays `failed` with its last error. */
  private failed(job: { id: string; kind: string; attempts: number }, reason: string): void {
    this.logger.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, reason }, 'job failed for good: its attempts are exhausted; kept as failed');
    this.emit({ kind: job.kind, outcome: 'failed', attempt: job.attempts });
  }

  private emit(event: JobResultEvent): void {
    this.onResult?.(event);
  }
}

/** The error a row keeps of a failed run: its name (unless a plain Error) and message, at most MAX_ERROR_LENGTH characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
