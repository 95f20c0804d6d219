// The queue's statements and arithmetic, apart from who runs them: the insert of a job, the
// completion of a run, the row a claim returns, the back-off of a retry and the error text a failed
// row keeps. Shared by the enqueues (job-queue.ts) and the worker (job-worker.ts, job-outcomes.ts).

import { backoffDelayMs } from '../../lib/backoff.js';
import { newId } from '../../lib/ids.js';
import { paymentTraceContextSql } from '../payment-scope.js';
import { renderConditions } from '../sql-intents.js';
import type { EnqueueOptions, JobQueueSettings } from './job-kinds.js';

/** What an insert does when a job of its kind and dedupe key already waits: nothing, or move it up (`sooner`). */
export function onConflict(options: Pick<EnqueueOptions, 'sooner'>): string {
  return options.sooner
    ? "on conflict (kind, dedupe_key) where status = 'pending' do update set run_at = excluded.run_at, updated_at = excluded.updated_at where excluded.run_at < job.run_at"
    : "on conflict (kind, dedupe_key) where status = 'pending' do nothing";
}

/**
 * The insert of one job, without its wake-up (`JobQueue.enqueueStatement` announces it; a recurring
 * kind's next occurrence is not due yet). `defaultMaxAttempts`: the queue's, for a job that sets none.
 */
export function insertStatement(kind: string, payload: unknown, options: EnqueueOptions, defaultMaxAttempts: number, requires?: string): { sql: string; params: unknown[] } {
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
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

/** Longest error text kept on a row. */
const MAX_ERROR_LENGTH = 2_000;

/** Records a run as succeeded, unless its lease ran out and another worker took the job. */
export const SUCCEED_SQL = `update job set status = 'succeeded', finished_at = now(), updated_at = now(), locked_until = null
       where id = ? and locked_by = ? and status = 'running'`;

/** A claimed job's lease renewed, only while this worker still holds it. Its parameters: the lease in seconds, the job's id, who locks. */
export const RENEW_LEASE_SQL = `update job set locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id = ? and locked_by = ? and status = 'running' returning id`;

/**
 * The claim: due jobs in one statement, pending ones whose time has come and running ones whose
 * lease ran out (their worker died). Rows another instance is claiming are skipped, and the new
 * lease keeps every other instance off them while they run. Its parameters: who locks, the lease
 * in seconds, how many. With `tracing`, each job's payment's trace context too.
 */
export function claimSql(tracing: boolean): string {
  return `update job set status = 'running', attempts = attempts + 1, locked_by = ?,
         locked_until = now() + make_interval(secs => ?), updated_at = now()
       where id in (
         select id from job
         where (status = 'pending' and run_at <= now())
            or (status = 'running' and locked_until <= now() and attempts < max_attempts)
         order by run_at, id
         limit ?
         for update skip locked
       )
       returning id, kind, payload, attempts, max_attempts, subject_type${tracing ? `, ${paymentTraceContextSql('subject_type', 'subject_id')} as payment_trace_context` : ''}`;
}

/**
 * Runs that returned recorded as succeeded (each only while its lease holds: `SUCCEED_SQL`, with
 * its run's trace), and the claim (`claimSql`), in one statement. Its parameters: the runs as JSON
 * (`[{ id, locked_by, trace_id }]`), then the claim's.
 */
export function claimAndCompleteSql(tracing: boolean): string {
  return `with completed as (
       update job set status = 'succeeded', finished_at = now(), updated_at = now(), locked_until = null, trace_id = coalesce(f.trace_id, job.trace_id)
       from jsonb_to_recordset(cast(? as jsonb)) as f(id text, locked_by text, trace_id text)
       where job.id = f.id and job.locked_by = f.locked_by and job.status = 'running'
       returning job.id),
     claimed as (${claimSql(tracing)})
     select false as completed, c.* from claimed c
     union all
     select true, d.id, null, null, null, null, null${tracing ? ', null' : ''} from completed d`;
}

/** A row of `claimAndCompleteSql`: a job claimed, or (`completed`) the id of a run recorded as succeeded. */
export type ClaimedOrCompleted = (ClaimedRow & { completed: false }) | { completed: true; id: string };

/** A job as the claim returns it. */
export interface ClaimedRow {
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

/** The error a row keeps of a failed run: its name (unless a plain Error) and message, at most MAX_ERROR_LENGTH characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
