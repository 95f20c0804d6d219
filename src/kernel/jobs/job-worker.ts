// This instance's worker: it claims due jobs with SKIP LOCKED and a lease, runs each with its
// handler (and the next occurrence of a recurring kind), sweeps abandoned leases and old rows, and
// wakes on polls and on the commits that enqueued work. The queue (job-queue.ts) owns one.

import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/prepared.js';
import { lazyChild, type Logger } from '../../lib/logger.js';
import { tracingOn } from '../../lib/tracing/sdk.js';
import { inSpan, SpanStatusCode } from '../../lib/tracing/spans.js';
import { currentTraceId, linkToStoredTrace, settingTraceId } from '../../lib/tracing/trace-context.js';
import type { JobHandlers } from './job-handlers.js';
import { JOB_SUCCEEDED, JOBS_CHANNEL, RECURRING_KEY, type JobDatabase, type JobInfo, type JobKind, type JobQueueSettings, type JobResultEvent } from './job-kinds.js';
import { JobOutcomes } from './job-outcomes.js';
import { claimAndCompleteSql, claimSql, insertStatement, RENEW_LEASE_SQL, SUCCEED_SQL, type ClaimedOrCompleted, type ClaimedRow } from './job-statements.js';

/** How often one instance deletes old finished rows. */
const PRUNE_EVERY_MS = 3_600_000;

/** A run that returned, its success recorded with the pass's next claim (`claimAndComplete`). */
interface Finished {
  row: ClaimedRow;
  lockedBy: string;
  /** The run's trace, kept on the row as its own completion would (docs/timeline.md). */
  traceId: string | undefined;
  log: () => Logger;
}

/** Claims and runs due jobs on this instance, polling and on wake-ups, one pass at a time. */
export class JobWorker {
  private readonly outcomes: JobOutcomes;
  private readonly instance = randomUUID().slice(0, 8);
  private started = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  /** A commit's wake-up waiting out `wakeDelayMs` (see `wakeSoon`). */
  private wakeTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** The pass now running, if any; passes never overlap on one instance. */
  private pass: Promise<void> | undefined;
  /** A kick arrived during a pass: the pass claims again (or another runs right after it). */
  private again = false;
  /** Wakes the running pass waiting for a run to finish (`drain`). */
  private wakePass: (() => void) | undefined;
  private lastPrune = 0;
  private lastSweep = 0;
  /** When this instance last made sure an occurrence of each recurring kind waits (`Date.now()`). */
  private readonly ensuredAt = new Map<string, number>();

  constructor(
    private readonly logger: Logger,
    private readonly db: JobDatabase,
    private readonly handlers: JobHandlers,
    private readonly settings: JobQueueSettings,
    onResult: ((event: JobResultEvent) => void) | undefined,
  ) {
    this.outcomes = new JobOutcomes(logger, settings, onResult);
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
      this.wakePass?.();
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
   * Claims and runs one batch of due jobs (up to `concurrency`) and resolves when they are done and
   * recorded, with how many ran. For tests and admin tooling; the worker's passes keep their slots
   * full instead (`drain`).
   */
  async runDue(): Promise<number> {
    const { db } = this;
    this.lastSweep = Date.now();
    await this.sweep(db.fork());
    await this.ensureSchedules(db.fork());
    const lockedBy = `${this.instance}:${randomUUID()}`;
    const claimed = await this.claim(db.fork(), lockedBy);
    await Promise.all(claimed.map((row) => this.run(db, row, lockedBy, false)));
    return claimed.length;
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

  private schedule(): void {
    if (!this.started || this.stopping) return;
    this.timer = setTimeout(() => this.kick(), this.settings.pollIntervalMs);
    // A pending poll must not keep the process alive on its own.
    this.timer.unref();
  }

  /**
   * Keeps up to `concurrency` jobs running until nothing more is due and none runs, or shutdown
   * begins. The pass claims up to `concurrency` jobs ahead of those running, so a run that returns
   * leaves its slot to the next claimed job at once, not after the slowest run of its batch nor
   * a claim's round trip; the next claim, once those ahead have started, records the runs that
   * returned meanwhile as succeeded. A run that recorded its own success leaves its slot to the
   * next batch, as before. A job that waited ahead long enough gets a fresh lease before it runs.
   * Shutdown stops claiming; the jobs claimed ahead still run.
   */
  private async drain(): Promise<void> {
    const { db } = this;
    const { concurrency } = this.settings;
    const running = new Set<Promise<void>>();
    const ahead: Array<{ row: ClaimedRow; lockedBy: string; claimedAt: number }> = [];
    let finished: Finished[] = [];
    /** The last claim found fewer jobs than it asked for: nothing else was due. */
    let short = false;
    const start = (): void => {
      while (running.size < concurrency && ahead.length > 0) {
        const { row, lockedBy, claimedAt } = ahead.shift()!;
        const run: Promise<void> = this.runClaimed(db, row, lockedBy, claimedAt).then((done) => {
          running.delete(run);
          if (done) finished.push(done);
          // A run that recorded its own success (a webhook's follow-up) frees its slot for the next batch.
          if (done || running.size === 0) start();
          this.wakePass?.();
        });
        running.add(run);
      }
    };
    try {
      for (;;) {
        if (this.again) {
          // A commit enqueued work (or a poll came) during the pass: it may be due now.
          this.again = false;
          short = false;
        }
        // Abandoned leases swept, and each recurring kind's occurrence made sure of, at most once
        // per poll interval (a lease runs out after `leaseMs`, far longer), not before every claim.
        if (!this.stopping && Date.now() - this.lastSweep >= this.settings.pollIntervalMs) {
          this.lastSweep = Date.now();
          await this.sweep(db.fork());
          await this.ensureSchedules(db.fork());
        }
        const wanted = this.stopping ? 0 : 2 * concurrency - running.size - ahead.length;
        // More is due while the last claim was not short: claimed once every job ahead has started
        // and a run's success waits to be recorded (or none runs). Nothing more due: each run's
        // success is recorded as it returns, with a claim (of work that came due meanwhile).
        const refill = !short && wanted > 0 && ahead.length === 0 && (running.size === 0 || finished.length > 0);
        if (refill || (finished.length > 0 && (short || this.stopping || running.size === 0))) {
          const completing = finished;
          finished = [];
          const lockedBy = `${this.instance}:${randomUUID()}`;
          const claimed = await this.claimAndComplete(db.fork(), lockedBy, wanted, completing);
          short = claimed.length < wanted;
          const claimedAt = Date.now();
          for (const row of claimed) ahead.push({ row, lockedBy, claimedAt });
          start();
          continue;
        }
        if (running.size === 0) break;
        // Until a run returns (or a kick asks for another claim).
        await new Promise<void>((resolve) => (this.wakePass = resolve));
        this.wakePass = undefined;
      }
    } catch (error) {
      // A database outage: the next poll tries again. Runs still going finish first (passes never
      // overlap); a success not recorded, and a job claimed ahead, are left to their lease, and run again.
      this.logger.error({ err: error }, 'job worker pass failed');
      ahead.length = 0;
      while (running.size > 0) await Promise.all(running);
      this.wakePass = undefined;
      for (const run of finished) run.log().error('job outcome could not be recorded; it will run again');
    }
  }

  /**
   * Runs a job the pass claimed (`run`, its success deferred to the next claim), after renewing its
   * lease if it waited long enough to have used a tenth of it: no run starts with less of its
   * lease than a tenth short. A lease lost meanwhile (another worker took the job) skips the run.
   */
  private async runClaimed(db: JobDatabase, row: ClaimedRow, lockedBy: string, claimedAt: number): Promise<Finished | undefined> {
    try {
      if (Date.now() - claimedAt > this.settings.leaseMs / 10) {
        const renewed = await db.fork().execute<Array<{ id: string }>>(RENEW_LEASE_SQL, [this.settings.leaseMs / 1000, row.id, lockedBy]);
        if (renewed.length === 0) {
          this.logger.warn({ jobId: row.id, kind: row.kind, attempt: row.attempts }, 'job claimed ahead lost its lease before it ran; another worker took it');
          return undefined;
        }
      }
    } catch (error) {
      this.logger.error({ err: error, jobId: row.id, kind: row.kind }, 'job claimed ahead could not renew its lease; left to its lease, it runs again');
      return undefined;
    }
    return this.run(db, row, lockedBy, true);
  }

  /**
   * Records `completing` as succeeded (each only while its lease holds) and claims up to `limit`
   * due jobs, in one statement; returns the jobs claimed.
   */
  private async claimAndComplete(em: SqlEntityManager, lockedBy: string, limit: number, completing: readonly Finished[]): Promise<ClaimedRow[]> {
    if (completing.length === 0) return limit > 0 ? this.claim(em, lockedBy, limit) : [];
    const rows = await executePrepared<ClaimedOrCompleted>(em, claimAndCompleteSql(tracingOn()), [
      JSON.stringify(completing.map((run) => ({ id: run.row.id, locked_by: run.lockedBy, trace_id: run.traceId ?? null }))),
      lockedBy,
      this.settings.leaseMs / 1000,
      limit,
    ]);
    const completed = new Set<string>();
    const claimed: ClaimedRow[] = [];
    for (const row of rows) {
      if (row.completed) completed.add(row.id);
      else {
        const { completed: _, ...job } = row;
        claimed.push(job);
      }
    }
    for (const run of completing) this.outcomes.recorded(run.row, completed.has(run.row.id), run.log);
    return claimed;
  }

  /** Claims up to `limit` due jobs (`claimSql`), prepared (src/db/prepared.ts): every instance sends it after nearly every commit that adds a job. */
  private claim(em: SqlEntityManager, lockedBy: string, limit = this.settings.concurrency): Promise<ClaimedRow[]> {
    return executePrepared<ClaimedRow>(em, claimSql(tracingOn()), [lockedBy, this.settings.leaseMs / 1000, limit]);
  }

  /** Jobs whose worker died during their last attempt are failed; old finished rows are pruned. */
  private async sweep(em: SqlEntityManager): Promise<void> {
    const abandoned = await em.execute<Array<{ id: string; kind: string; attempts: number }>>(
      `update job set status = 'failed', finished_at = now(), updated_at = now(), locked_until = null,
         last_error = 'LEASE_EXPIRED: the worker stopped during the last attempt' || coalesce('; before: ' || last_error, '')
       where status = 'running' and locked_until <= now() and attempts >= max_attempts
       returning id, kind, attempts`,
    );
    for (const job of abandoned) this.outcomes.failed(job, 'LEASE_EXPIRED');
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
      const insert = insertStatement(schedule.kind, schedule.payload, { dedupeKey: RECURRING_KEY, runAt: new Date(now + schedule.everyMs) }, this.settings.maxAttempts);
      await em.execute(insert.sql, insert.params);
    }
  }

  /**
   * Runs one claimed job and records its outcome. With `defer`, a run that returned is not
   * recorded here but returned, for the pass's next claim to record (`claimAndComplete`).
   */
  private run(db: JobDatabase, row: ClaimedRow, lockedBy: string, defer: boolean): Promise<Finished | undefined> {
    if (!tracingOn()) return this.runJob(db, row, lockedBy, defer);
    // A trace of its own (no request waits on a job), linked to the trace of the request that made
    // the payment it is about (docs/tracing.md).
    const attributes = { 'payments.job.kind': row.kind, 'payments.job.id': row.id, 'payments.job.attempt': row.attempts };
    return inSpan(`job ${row.kind}`, { root: true, attributes }, async (span) => {
      try {
        if (row.subject_type !== null) linkToStoredTrace(row.payment_trace_context, { 'payments.subject.type': row.subject_type });
      } catch {
        // A span without its link: the run itself goes on (and reports a payload it cannot read).
      }
      const error = await this.runJob(db, row, lockedBy, defer, (caught) => {
        if (!span) return;
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', caught instanceof Error ? caught.name : 'Error');
      });
      return error;
    });
  }

  /** Runs one claimed job and records its outcome (`run`); tells `failedWith` what it failed with, if it did. */
  private async runJob(db: JobDatabase, row: ClaimedRow, lockedBy: string, defer: boolean, failedWith?: (error: unknown) => void): Promise<Finished | undefined> {
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
        const next = insertStatement(row.kind, payload, { dedupeKey: RECURRING_KEY, runAt: new Date(Date.now() + handler.recurs.everyMs) }, this.settings.maxAttempts);
        await em.execute(next.sql, next.params);
      }
      recorded = (await handler.run(em, payload as never, info)) === JOB_SUCCEEDED;
    } catch (caught) {
      error = caught ?? new Error('job failed');
    }
    try {
      if (error === undefined && recorded) {
        if (this.logger.isLevelEnabled('debug')) log().debug('job succeeded');
        this.outcomes.emit({ kind: row.kind, outcome: 'succeeded', attempt: row.attempts });
      } else if (error === undefined && defer) return { row, lockedBy, traceId: currentTraceId(), log };
      else if (error === undefined) await this.outcomes.succeed(db.fork(), row, lockedBy, log);
      else await this.outcomes.retryOrFail(db.fork(), row, lockedBy, error, log);
    } catch (recordError) {
      // The lease runs out and another worker takes the job again: handlers are idempotent.
      log().error({ err: recordError }, 'job outcome could not be recorded; it will run again');
    }
    if (error !== undefined) failedWith?.(error);
    return undefined;
  }
}
