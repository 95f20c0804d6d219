// The queue's vocabulary: the job kinds and their payloads (filled by each module), what a handler
// is given and returns, the options of an enqueue, and the queue's settings, channel and keys. Apart
// from the queue so that every part of it (statements, worker, registry) reads them without a cycle.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { RowCondition } from '../sql-intents.js';

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
   * work found nothing to write (e.g. that the statement's change matched its row). Kernel use
   * only: a module hands its job to `TransitionPath.record` (`completes`), which writes this.
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

/** One job of `enqueueMany`. */
export interface ManyJob<K extends JobKind> {
  payload: JobKinds[K];
  dedupeKey?: string;
  /** The one payment this job is about (`EnqueueOptions.subject`). */
  subject?: JobSubject;
}
