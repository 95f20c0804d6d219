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
  /** An SQL condition the job is enqueued under, read by the insert itself (e.g. that work waits for it). */
  onlyIf?: { sql: string; params: unknown[] };
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

/** The dedupe key of every occurrence of a recurring kind (`JobQueue.recurring`): one waits at a time. */
export const RECURRING_KEY = 'recurring';

/** A recurring kind as this instance's worker keeps it scheduled. */
interface RecurringSchedule {
  kind: string;
  everyMs: number;
  payload: unknown;
  /** When this instance last made sure an occurrence waits (`Date.now()`). */
  ensuredAt: number;
}

/** One job of `enqueueMany`. */
export interface ManyJob<K extends JobKind> {
  payload: JobKinds[K];
  dedupeKey?: string;
  /** The one payment this job is about (`EnqueueOptions.subject`). */
  subject?: JobSubject;
}

/** The payment tables whose rows keep the trace context of the request that made them, by a job payload's id field. */
const PAYMENT_ID_FIELDS = { depositId: 'deposit', refundId: 'refund', payoutId: 'payout' } as const;

/** The payment a job's payload names (`depositId`, `refundId`, `payoutId`, or a subject), for its span's link. */
function paymentOf(payload: unknown): { table: string; id: string } | undefined {
  const fields = (typeof payload === 'string' ? JSON.parse(payload) : payload) as Record<string, unknown> | null;
  if (!fields || typeof fields !== 'object') return undefined;
  if (typeof fields.subjectType === 'string' && typeof fields.subjectId === 'string' && Object.values(PAYMENT_ID_FIELDS).includes(fields.subjectType as never)) {
    return { table: fields.subjectType, id: fields.subjectId };
  }
  for (const [field, table] of Object.entries(PAYMENT_ID_FIELDS)) {
    if (typeof fields[field] === 'string') return { table, id: fields[field] };
  }
  return undefined;
}

/** The trace context of the payment a claimed job is about, as `paymentOf` finds it, read by the claim itself while tracing is on. */
const CLAIMED_PAYMENT_TRACE_SQL = paymentTraceContextSql(
  "coalesce(subject_type, payload->>'subjectType', case when payload->>'depositId' is not null then 'deposit' when payload->>'refundId' is not null then 'refund' when payload->>'payoutId' is not null then 'payout' end)",
  "coalesce(subject_id, payload->>'subjectId', payload->>'depositId', payload->>'refundId', payload->>'payoutId')",
);

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
  /** The trace context of the payment the job is about, claimed with it while tracing is on. */
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
 * The job queue and this instance's worker. Modules `register` a handler per kind and `enqueue`
 * inside the transaction of the change that needs the work, so the job exists if and only if the
 * change committed; any instance's worker then runs it.
 *
 * @example
 * await em.transactional(async (tx) => {
 *   await tx.execute('update deposit set merchant_reference = ? where id = ?', [reference, depositId]);
 *   await jobs.enqueue(tx, 'deposit.fetch_details', { depositId, reference }, { dedupeKey: depositId });
 * });
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler<JobKind>>();
  private readonly listeners: Array<(event: JobResultEvent) => void> = [];
  private settings: JobQueueSettings = DEFAULT_JOB_SETTINGS;
  private db: JobDatabase | undefined;
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
  private readonly schedules: RecurringSchedule[] = [];

  constructor(private readonly logger: Logger) {}

  /** Sets the worker's timings (from configuration, at start-up). */
  configure(settings: Partial<JobQueueSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Called after every run (metrics). */
  onResult(listener: (event: JobResultEvent) => void): void {
    this.listeners.push(listener);
  }

  /** The handler of one kind; every instance registers the same ones at start-up. */
  register<K extends JobKind>(kind: K, handler: JobHandler<K>): void {
    if (this.handlers.has(kind)) throw new Error(`A handler for job kind ${kind} is already registered`);
    this.handlers.set(kind, handler as unknown as JobHandler<JobKind>);
  }

  /**
   * Registers the handler of a kind that runs once every `everyMs`, one occurrence at a time across
   * all instances: occurrences carry the dedupe key `RECURRING_KEY`, so at most one waits.
   *
   * - Each occurrence, as it starts, enqueues the next one `everyMs` later (its own statement),
   *   then runs `handler`. An occurrence that fails is not retried: the next one, already waiting,
   *   supersedes it (`superseded`), so a failure never ends the schedule.
   * - This instance's worker enqueues an occurrence when none waits, `everyMs` from then: at its
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
   * jobs.recurring('reconcile.sweep', { everyMs: 60_000, payload: {} }, (em) => reconciler.sweep(em));
   */
  recurring<K extends JobKind>(kind: K, schedule: { everyMs: number; payload: JobKinds[K] }, handler: JobHandler<K>): void {
    this.register(kind, async (em, payload, job) => {
      const next = this.insertStatement(kind, payload, { dedupeKey: RECURRING_KEY, runAt: new Date(Date.now() + schedule.everyMs) });
      await em.execute(next.sql, next.params);
      return handler(em, payload, job);
    });
    this.schedules.push({ kind, everyMs: schedule.everyMs, payload: schedule.payload, ensuredAt: Number.NEGATIVE_INFINITY });
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
   * The insert of one job (with `returning id`) that neither checks for a transaction nor
   * announces a wake-up: for a statement that commits on its own or in its caller's transaction and
   * announces JOBS_CHANNEL itself when the insert wrote a row (an EventLog append hook).
   */
  silentInsertStatement<K extends JobKind>(kind: K, payload: JobKinds[K], options: EnqueueOptions = {}): { sql: string; params: unknown[] } {
    const insert = this.insertStatement(kind, payload, options);
    return { sql: `${insert.sql} returning id`, params: insert.params };
  }

  /** The insert of one job, without its wake-up (`enqueueStatement` announces it; a recurring kind's next occurrence is not due yet). */
  private insertStatement(kind: string, payload: unknown, options: EnqueueOptions): { sql: string; params: unknown[] } {
    const maxAttempts = options.maxAttempts ?? this.settings.maxAttempts;
    const now = new Date();
    return {
      sql: `insert into job (id, kind, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at, subject_type, subject_id)
       ${options.onlyIf ? 'select ' : 'values ('}?, ?, cast(? as jsonb), 'pending', 0, ?, coalesce(?, now()), ?, ?, ?, ?, ?${options.onlyIf ? ` where ${options.onlyIf.sql}` : ')'}
       ${onConflict(options)}`,
      params: [newId('job'), kind, JSON.stringify(payload), maxAttempts, options.runAt ?? null, options.dedupeKey ?? null, now, now, options.subject?.type ?? null, options.subject?.id ?? null, ...(options.onlyIf?.params ?? [])],
    };
  }

  /** Where the worker and `runDue` take their EntityManagers from (at start-up, before `start`). */
  attach(db: JobDatabase): void {
    this.db = db;
  }

  /** Starts polling every `pollIntervalMs` and on every wake-up; a first pass runs at once (jobs left by a stopped instance). */
  async start(): Promise<void> {
    const db = this.database();
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.unlisten = await db.listen(JOBS_CHANNEL, () => this.wakeSoon());
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
    const db = this.database();
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
    const db = this.database();
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

  private database(): JobDatabase {
    if (!this.db) throw new Error('JobQueue has no database: call attach(db) at start-up');
    return this.db;
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
       returning id, kind, payload, attempts, max_attempts${tracingOn() ? `, ${CLAIMED_PAYMENT_TRACE_SQL} as payment_trace_context` : ''}`,
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
    for (const schedule of this.schedules) {
      const now = Date.now();
      if (now - schedule.ensuredAt < schedule.everyMs) continue;
      schedule.ensuredAt = now;
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
        const subject = paymentOf(row.payload);
        if (subject) linkToStoredTrace(row.payment_trace_context, { 'payments.subject.type': subject.table });
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
      recorded = (await handler(db.fork(), payload as never, info)) === JOB_SUCCEEDED;
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
    for (const listener of this.listeners) listener(event);
  }
}

/** The error a row keeps of a failed run: its name (unless a plain Error) and message, at most MAX_ERROR_LENGTH characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
