// What becomes of a run: the statement that records it as succeeded, retried, superseded or failed
// for good, its log line, and its report to metrics. Apart from the worker loop (job-worker.ts) that
// claims and runs jobs.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import { settingTraceId } from '../../lib/tracing/trace-context.js';
import type { JobQueueSettings, JobResultEvent } from './job-kinds.js';
import { afterFailedRun, errorText, SUCCEED_SQL, type ClaimedRow } from './job-statements.js';

/** Records the outcome of each run the worker finishes, and tells metrics of it. */
export class JobOutcomes {
  constructor(
    private readonly logger: Logger,
    private readonly settings: Pick<JobQueueSettings, 'backoffBaseMs' | 'backoffMaxMs'>,
    private readonly onResult: ((event: JobResultEvent) => void) | undefined,
  ) {}

  /** A run that returned, recorded as succeeded unless its lease ran out and another worker took the job. */
  async succeed(em: SqlEntityManager, row: ClaimedRow, lockedBy: string, log: () => Logger): Promise<void> {
    const succeeded = settingTraceId({ sql: `${SUCCEED_SQL} returning id`, params: [row.id, lockedBy] });
    const done = await em.execute<Array<{ id: string }>>(succeeded.sql, succeeded.params);
    this.recorded(row, done.length > 0, log);
  }

  /** A run that returned, after the statement that recorded it as succeeded: `matched` unless its lease ran out and another worker took the job. */
  recorded(row: Pick<ClaimedRow, 'kind' | 'attempts'>, matched: boolean, log: () => Logger): void {
    if (!matched) log().warn('job finished after its lease ran out; another worker took it again');
    else if (this.logger.isLevelEnabled('debug')) log().debug('job succeeded');
    this.emit({ kind: row.kind, outcome: 'succeeded', attempt: row.attempts });
  }

  /** A run that threw: back to pending after its back-off, superseded by a newer waiting job, or failed for good. */
  async retryOrFail(em: SqlEntityManager, row: ClaimedRow, lockedBy: string, error: unknown, log: () => Logger): Promise<void> {
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
  failed(job: { id: string; kind: string; attempts: number }, reason: string): void {
    this.logger.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, reason }, 'job failed for good: its attempts are exhausted; kept as failed');
    this.emit({ kind: job.kind, outcome: 'failed', attempt: job.attempts });
  }

  /** Tells metrics of a finished run. */
  emit(event: JobResultEvent): void {
    this.onResult?.(event);
  }
}
