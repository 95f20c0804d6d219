// Unit spec of the job queue's arithmetic and decisions (jobs.ts), with no database: retry delays
// (exponential from the base, capped, jittered down by at most a tenth), what follows a failed run
// (retried or failed for good once its attempts are spent), the error text a row keeps, and the
// worker's statements against a fake database (jobs.fixture.ts): the claim and its lease, each
// run's outcome (succeeded, retried, superseded, failed), abandoned leases failed by the sweep,
// recurring kinds, enqueues, and the time-outs of `runUntilIdle` and `stop`.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { SqlPart } from './events/event-log.js';
import { RELEASE_DEFERRED_DELIVERIES } from './inbox/deferred.js';
import { row, setup, statement } from './jobs.fixture.js';
import { afterFailedRun, errorText, JOB_SUCCEEDED, JOBS_CHANNEL, RECURRING_KEY, retryDelayMs, type JobInfo } from './jobs.js';

const settings = { backoffBaseMs: 1_000, backoffMaxMs: 60_000 };

describe('retryDelayMs', () => {
  it('doubles from the base with each attempt', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, settings, () => 0))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('stops at the maximum, however many attempts', () => {
    expect(retryDelayMs(7, settings, () => 0)).toBe(60_000);
    expect(retryDelayMs(500, settings, () => 0)).toBe(60_000);
  });

  it('takes off at most a tenth at random, so failures that came together do not retry together', () => {
    expect(retryDelayMs(1, settings, () => 0.999_999)).toBe(900);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(3_800);
  });

  it('reads attempt 0 (and below) as the first: the base delay', () => {
    expect(retryDelayMs(0, settings, () => 0)).toBe(1_000);
    expect(retryDelayMs(-3, settings, () => 0)).toBe(1_000);
  });

  it('stays a finite number for any attempt count, even with a maximum beyond 2^30 bases', () => {
    const huge = { backoffBaseMs: 1_000, backoffMaxMs: Number.MAX_SAFE_INTEGER };
    expect(retryDelayMs(31, huge, () => 0)).toBe(1_000 * 2 ** 30);
    expect(retryDelayMs(1_000_000, huge, () => 0)).toBe(1_000 * 2 ** 30);
    expect(retryDelayMs(Number.MAX_SAFE_INTEGER, settings, () => 0)).toBe(60_000);
  });

  it('keeps every jittered delay within (0.9 · nominal, nominal], over the whole random range', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const nominal = Math.min(1_000 * 2 ** (attempt - 1), 60_000);
      for (const random of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999_999]) {
        const delay = retryDelayMs(attempt, settings, () => random);
        expect(delay).toBeLessThanOrEqual(nominal);
        expect(delay).toBeGreaterThanOrEqual(Math.round(nominal * 0.9));
      }
    }
  });

  it('uses the default settings\' curve: one second, doubling, five minutes at most', () => {
    const defaults = { backoffBaseMs: 1_000, backoffMaxMs: 300_000 };
    expect([1, 9, 10, 11].map((attempt) => retryDelayMs(attempt, defaults, () => 0))).toEqual([1_000, 256_000, 300_000, 300_000]);
  });
});

describe('afterFailedRun: retried or failed for good', () => {
  it('retries every run before the last, after its back-off', () => {
    expect(afterFailedRun(1, 3, settings, () => 0)).toEqual({ kind: 'retry', delayMs: 1_000 });
    expect(afterFailedRun(2, 3, settings, () => 0)).toEqual({ kind: 'retry', delayMs: 2_000 });
  });

  it('keeps the job failed once its last attempt failed, or when it somehow ran more', () => {
    expect(afterFailedRun(3, 3, settings)).toEqual({ kind: 'failed' });
    expect(afterFailedRun(4, 3, settings)).toEqual({ kind: 'failed' });
    expect(afterFailedRun(1, 1, settings)).toEqual({ kind: 'failed' });
  });
});

describe('errorText: what a failed run leaves on its row', () => {
  it('is the message, named when the error is not a plain Error', () => {
    expect(errorText(new Error('provider timed out'))).toBe('provider timed out');
    expect(errorText(new TypeError('x is not a function'))).toBe('TypeError: x is not a function');
    expect(errorText('a thrown string')).toBe('a thrown string');
    expect(errorText(undefined)).toBe('undefined');
  });

  it('is cut to 2,000 characters, the last one an ellipsis', () => {
    const text = errorText(new Error('x'.repeat(5_000)));
    expect(text).toHaveLength(2_000);
    expect(text.endsWith('x…')).toBe(true);
    expect(errorText(new Error('y'.repeat(2_000)))).toBe('y'.repeat(2_000));
  });
});


describe('JobQueue: a claim and its lease', () => {
  it('claims due jobs and expired leases with attempts left, at most `concurrency`, leased for `leaseMs` under a lock id of its own', async () => {
    const { queue, of } = setup();
    await expect(queue.runDue()).resolves.toBe(0);
    const [claim] = of(statement.claim);
    expect(claim?.sql).toContain('attempts = attempts + 1');
    expect(claim?.sql).toContain('locked_until = now() + make_interval(secs => ?)');
    expect(claim?.sql).toContain("(status = 'pending' and run_at <= now())");
    expect(claim?.sql).toContain("(status = 'running' and locked_until <= now() and attempts < max_attempts)");
    expect(claim?.sql).toContain('for update skip locked');
    expect(claim?.params).toEqual([expect.stringMatching(/^[0-9a-f]{8}:[0-9a-f-]{36}$/), 30, 2]);
  });

  it('fails for good, with LEASE_EXPIRED, a job whose worker died during its last attempt (the claim would never take it again)', async () => {
    const { queue, of, results, logs } = setup({ abandoned: [{ id: 'job_9', kind: RELEASE_DEFERRED_DELIVERIES, attempts: 5 }] });
    await queue.runDue();
    const [sweep] = of(statement.sweep);
    expect(sweep?.sql).toContain("where status = 'running' and locked_until <= now() and attempts >= max_attempts");
    expect(sweep?.sql).toContain("'LEASE_EXPIRED: the worker stopped during the last attempt' || coalesce('; before: ' || last_error, '')");
    expect(results).toEqual([{ kind: RELEASE_DEFERRED_DELIVERIES, outcome: 'failed', attempt: 5 }]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 50, jobId: 'job_9', reason: 'LEASE_EXPIRED', msg: 'job failed for good: its attempts are exhausted; kept as failed' }));
  });

  it('prunes succeeded and superseded rows older than the retention, at most once an hour', async () => {
    const { queue, of } = setup();
    await queue.runDue();
    await queue.runDue();
    expect(of(statement.prune)).toEqual([
      { sql: "delete from job where status in ('succeeded', 'superseded') and finished_at < now() - make_interval(secs => ?)", params: [86_400] },
    ]);
  });
});

describe('JobQueue: what becomes of a run', () => {
  it('records a run that returned as succeeded, if its lease still holds', async () => {
    const seen: Array<{ payload: unknown; job: Omit<JobInfo, 'succeededStatement'> }> = [];
    const { queue, of, results, handlers } = setup({ claimed: [row(1)] });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, (_em, payload, job) => {
      seen.push({ payload, job: { id: job.id, kind: job.kind, attempt: job.attempt, maxAttempts: job.maxAttempts } });
      return Promise.resolve();
    });
    await expect(queue.runDue()).resolves.toBe(1);
    expect(seen).toEqual([{ payload: { subjectType: 'deposit', subjectId: 'dep_1' }, job: { id: 'job_1', kind: RELEASE_DEFERRED_DELIVERIES, attempt: 1, maxAttempts: 5 } }]);
    const lockedBy = of(statement.claim)[0]?.params[0];
    expect(of(statement.succeed)).toEqual([
      { sql: expect.stringContaining("where id = ? and locked_by = ? and status = 'running' returning id"), params: ['job_1', lockedBy] },
    ]);
    expect(results).toEqual([{ kind: RELEASE_DEFERRED_DELIVERIES, outcome: 'succeeded', attempt: 1 }]);
  });

  it('warns when the lease ran out before the run was recorded: another worker took the job', async () => {
    const { queue, results, logs, handlers } = setup({ claimed: [row(1)], answers: { succeed: [] } });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.resolve());
    await queue.runDue();
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'job finished after its lease ran out; another worker took it again' }));
    expect(results.map((event) => event.outcome)).toEqual(['succeeded']);
  });

  it('records nothing more for a handler whose own transaction recorded it (JOB_SUCCEEDED), and gives it that statement', async () => {
    let given: { sql: string; params: unknown[] } | undefined;
    const { queue, of, results, handlers } = setup({ claimed: [row(2)] });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, (_em, _payload, job) => {
      given = job.succeededStatement('exists (select from change)');
      return Promise.resolve(JOB_SUCCEEDED);
    });
    await queue.runDue();
    expect(given?.sql).toMatch(/^update job set status = 'succeeded'.* and \(exists \(select from change\)\) returning id$/s);
    expect(given?.params).toEqual(['job_1', of(statement.claim)[0]?.params[0]]);
    expect(of(statement.succeed)).toEqual([]);
    expect(results).toEqual([{ kind: RELEASE_DEFERRED_DELIVERIES, outcome: 'succeeded', attempt: 2 }]);
  });

  it('puts a failed run back to pending after its back-off, with its error, while attempts are left', async () => {
    const { queue, of, results, handlers } = setup({ claimed: [row(3)] });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.reject(new TypeError('provider said no')));
    await queue.runDue();
    const [retry] = of(statement.retry);
    // Attempt 3: 4 s nominal, less up to a tenth.
    const seconds = retry?.params[0] as number;
    expect(seconds).toBeGreaterThanOrEqual(3.6);
    expect(seconds).toBeLessThanOrEqual(4);
    expect(retry?.params.slice(1)).toEqual(['TypeError: provider said no', 'job_1', of(statement.claim)[0]?.params[0]]);
    // Unless a newer waiting job of the same kind and key covers the work.
    expect(retry?.sql).toContain('not exists (select 1 from job waiting where waiting.kind = job.kind and waiting.dedupe_key = job.dedupe_key and waiting.status = \'pending\')');
    expect(results).toEqual([{ kind: RELEASE_DEFERRED_DELIVERIES, outcome: 'retried', attempt: 3 }]);
  });

  it('supersedes a failed run that a newer waiting job covers', async () => {
    const { queue, of, results, handlers } = setup({ claimed: [row(1)], answers: { retry: [] } });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.reject(new Error('boom')));
    await queue.runDue();
    expect(of(statement.supersede)[0]?.params).toEqual(['boom', 'job_1', of(statement.claim)[0]?.params[0]]);
    expect(results.map((event) => event.outcome)).toEqual(['superseded']);
  });

  it('emits nothing when neither matches: the lease ran out and another worker has the job', async () => {
    const { queue, results, logs, handlers } = setup({ claimed: [row(1)], answers: { retry: [], supersede: [] } });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.reject(new Error('boom')));
    await queue.runDue();
    expect(results).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'job failed after its lease ran out; another worker took it again' }));
  });

  it('keeps a job failed for good when its last attempt fails', async () => {
    const { queue, of, results, handlers } = setup({ claimed: [row(5)] });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.reject(new Error('still down')));
    await queue.runDue();
    expect(of(statement.fail)[0]?.params).toEqual(['still down', 'job_1', of(statement.claim)[0]?.params[0]]);
    expect(of(statement.retry)).toEqual([]);
    expect(results).toEqual([{ kind: RELEASE_DEFERRED_DELIVERIES, outcome: 'failed', attempt: 5 }]);
  });

  it('retries a job of a kind this instance has no handler for (an older release): another instance will', async () => {
    const { queue, of } = setup({ claimed: [row(1, { kind: 'newer.kind' })] });
    await queue.runDue();
    expect(of(statement.retry)[0]?.params[1]).toBe('NO_HANDLER: no handler for job kind newer.kind on this instance');
  });

  it('reads a payload that comes back as JSON text', async () => {
    const payloads: unknown[] = [];
    const { queue, handlers } = setup({ claimed: [row(1, { payload: '{"subjectType":"refund","subjectId":"rfd_1"}' })] });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, (_em, payload) => (payloads.push(payload), Promise.resolve()));
    await queue.runDue();
    expect(payloads).toEqual([{ subjectType: 'refund', subjectId: 'rfd_1' }]);
  });

  it('logs, and does not throw, when a run\'s outcome cannot be recorded: its lease runs out and it runs again', async () => {
    const { queue, results, logs, handlers } = setup({ claimed: [row(1)], answers: { succeed: new Error('connection lost') } });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.resolve());
    await expect(queue.runDue()).resolves.toBe(1);
    expect(results).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 50, msg: 'job outcome could not be recorded; it will run again' }));
  });
});

/** A payload of the sample kind these cases enqueue. */
const SAMPLE = { subjectType: 'deposit', subjectId: 'dep_1' };

describe('JobQueue: registration and enqueues', () => {
  it('refuses a second handler for one kind', () => {
    const { handlers } = setup();
    handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.resolve());
    expect(() => handlers.register(RELEASE_DEFERRED_DELIVERIES, () => Promise.resolve())).toThrow(`A handler for job kind ${RELEASE_DEFERRED_DELIVERIES} is already registered`);
  });

  it('refuses an enqueue outside the transaction of the change that needs the job', async () => {
    const { queue } = setup();
    const tx = { isInTransaction: () => false } as unknown as SqlEntityManager;
    expect(() => queue.enqueueStatement(tx, RELEASE_DEFERRED_DELIVERIES, SAMPLE)).toThrow('JobQueue.enqueue must run inside the transaction of the change that needs the job');
    await expect(queue.enqueueMany(tx, RELEASE_DEFERRED_DELIVERIES, [])).rejects.toThrow('JobQueue.enqueueMany must run inside the transaction of the change that needs the jobs');
  });

  it('writes one job with its run time, key and attempts, pending, one waiting per kind and key', () => {
    const { queue } = setup();
    const tx = { isInTransaction: () => true, getTransactionContext: () => ({}) } as unknown as SqlEntityManager;
    const runAt = new Date('2026-01-02T00:00:00.000Z');
    const insert = queue.enqueueStatement(tx, RELEASE_DEFERRED_DELIVERIES, { subjectType: 'deposit', subjectId: 'dep_1' }, { runAt, dedupeKey: 'deposit:dep_1', maxAttempts: 2 });
    expect(insert.sql).toMatch(/values \(\?, \?, cast\(\? as jsonb\), 'pending', 0, \?, coalesce\(\?, now\(\)\), \?, \?, \?, \?, \?\)\s+on conflict \(kind, dedupe_key\) where status = 'pending' do nothing$/);
    expect(insert.params.slice(1, 6)).toEqual([RELEASE_DEFERRED_DELIVERIES, '{"subjectType":"deposit","subjectId":"dep_1"}', 2, runAt, 'deposit:dep_1']);
    // The queue's own maximum, without one; no run time is now.
    expect(queue.enqueueStatement(tx, RELEASE_DEFERRED_DELIVERIES, SAMPLE).params.slice(3, 6)).toEqual([5, null, null]);
  });

  it('writes a job under conditions given as data, and an append hook\'s job only when the append\'s own condition holds too', () => {
    const { queue } = setup();
    const tx = { isInTransaction: () => true, getTransactionContext: () => ({}) } as unknown as SqlEntityManager;
    const onlyIf = [{ exists: { table: 'webhook_delivery', where: { outcome: 'deferred' } } }];
    const insert = queue.enqueueStatement(tx, RELEASE_DEFERRED_DELIVERIES, SAMPLE, { onlyIf });
    expect(insert.sql).toMatch(/select \?, \?, cast\(\? as jsonb\), .* where exists \(select from webhook_delivery where outcome = \?\)\s+on conflict/s);
    expect(insert.params.at(-1)).toBe('deferred');
    const hook = queue.appendHook(RELEASE_DEFERRED_DELIVERIES, SAMPLE, { onlyIf });
    expect(hook.channel).toBe(JOBS_CHANNEL);
    expect(hook.statement('exists (select from change)').sql).toMatch(/where exists \(select from webhook_delivery where outcome = \?\) and exists \(select from change\)\s.*returning id$/s);
    expect(hook.statement(undefined).sql).toMatch(/where exists \(select from webhook_delivery where outcome = \?\)\s.*returning id$/s);
  });

  it('writes many jobs of one kind in one statement, and nothing for none', async () => {
    const executed: SqlPart[] = [];
    const tx = {
      isInTransaction: () => true,
      getTransactionContext: () => ({}),
      execute: (sql: string, params: unknown[]) => (executed.push({ sql, params }), Promise.resolve([])),
    } as unknown as SqlEntityManager;
    const { queue } = setup();
    await queue.enqueueMany(tx, RELEASE_DEFERRED_DELIVERIES, []);
    expect(executed).toEqual([]);
    await queue.enqueueMany(tx, RELEASE_DEFERRED_DELIVERIES, [{ payload: { subjectType: 'deposit', subjectId: 'a' }, dedupeKey: 'a', subject: { type: 'deposit', id: 'a' } }, { payload: { subjectType: 'deposit', subjectId: 'b' } }]);
    expect(executed).toHaveLength(1);
    expect(executed[0]?.params).toHaveLength(20);
    expect([executed[0]?.params[5], executed[0]?.params[15]]).toEqual(['a', null]);
    // The payment each job is about, where it is about one.
    expect([executed[0]?.params.slice(8, 10), executed[0]?.params.slice(18, 20)]).toEqual([['deposit', 'a'], [null, null]]);
  });

  it('runs a recurring kind\'s occurrence after enqueuing the next one `everyMs` later, under the recurring key', async () => {
    const { queue, of, handlers } = setup({ claimed: [row(1)] });
    const order: string[] = [];
    handlers.recurring(RELEASE_DEFERRED_DELIVERIES, { everyMs: 60_000, payload: SAMPLE }, () => (order.push('handler'), Promise.resolve()));
    const before = Date.now();
    await queue.runDue();
    const inserts = of(statement.insert);
    // The schedule's own occurrence (none waited yet), then the next one, enqueued by the occurrence itself.
    expect(inserts).toHaveLength(2);
    for (const insert of inserts) {
      expect(insert.params[5]).toBe(RECURRING_KEY);
      expect((insert.params[4] as Date).getTime()).toBeGreaterThanOrEqual(before + 60_000);
    }
    expect(order).toEqual(['handler']);
  });
});

describe('JobQueue: time-outs', () => {
  it('gives up runUntilIdle after two leases by default, while jobs stay due elsewhere', async () => {
    const { queue, of } = setup({ settings: { leaseMs: 25 }, answers: { count: [{ open: '1' }] } });
    const started = Date.now();
    await expect(queue.runUntilIdle([RELEASE_DEFERRED_DELIVERIES])).rejects.toThrow(`jobs of ${RELEASE_DEFERRED_DELIVERIES} still due or running after 50 ms`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect(of(statement.count)[0]?.params).toEqual([RELEASE_DEFERRED_DELIVERIES]);
  });

  it('returns from runUntilIdle once nothing of its kinds is due or running', async () => {
    const { queue } = setup({ answers: { count: [{ open: 0 }] } });
    await expect(queue.runUntilIdle([RELEASE_DEFERRED_DELIVERIES], 1_000)).resolves.toBeUndefined();
  });

  it('stops after at most `timeoutMs`, leaving a job still running to its lease', async () => {
    const { queue, logs, handlers } = setup({ claimed: [row(1)], settings: { pollIntervalMs: 60_000 } });
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const claimed = new Promise<void>((resolve) => {
      started = resolve;
    });
    handlers.register(RELEASE_DEFERRED_DELIVERIES, async () => {
      started();
      await running;
    });
    await queue.start();
    await claimed;
    const before = Date.now();
    await queue.stop(30);
    expect(Date.now() - before).toBeGreaterThanOrEqual(25);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, timeoutMs: 30, msg: 'jobs still running at shutdown are left to their lease; they will run again' }));
    release();
  });
});
