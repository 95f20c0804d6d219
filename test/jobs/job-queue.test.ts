// The job queue on a real database: a job enqueued outside a transaction is refused, a waiting job
// is not enqueued twice under one dedupe key, a job whose worker died is taken again once its
// lease runs out (and the late worker cannot complete it), a commit's wake-up waits its delay and
// the commits within it share one claim, stop waits for running jobs, and a recurring kind keeps
// one occurrence waiting across instances.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JOB_SUCCEEDED, JobHandlers, JobQueue, RECURRING_KEY, type JobHandler, type JobQueueSettings, type JobResultEvent } from '../../src/kernel/jobs.js';
import { createLogger } from '../../src/lib/logger.js';
import { databaseForFile } from '../support/database.js';

declare module '../../src/kernel/jobs.js' {
  interface JobKinds {
    'test.record': { name: string };
    'test.recurring': { name: string };
  }
}

const file = databaseForFile();

/** A queue on the test database whose `test.record` handler is `handler`. */
function queue(handler: (name: string) => Promise<void>, settings: Partial<JobQueueSettings> = {}): JobQueue {
  return queueWith((_em, payload) => handler(payload.name), settings);
}

/** A queue whose handler is `handler`; with `logs`, what it logs at warn and above goes there; `onResult` hears every run. */
function queueWith(handler: JobHandler<'test.record'>, settings: Partial<JobQueueSettings> = {}, logs?: string[], onResult?: (event: JobResultEvent) => void): JobQueue {
  const destination = logs && new Writable({ write: (chunk: Buffer, _encoding, done) => (logs.push(...chunk.toString('utf8').split('\n').filter(Boolean)), done()) });
  const handlers = new JobHandlers();
  handlers.register('test.record', handler);
  return new JobQueue({
    logger: destination ? createLogger({ level: 'warn', destination }) : createLogger({ level: 'silent' }),
    db: file.db,
    handlers,
    settings: { backoffBaseMs: 10, pollIntervalMs: 60_000, ...settings },
    onResult,
  });
}

async function enqueue(jobs: JobQueue, name: string, dedupeKey?: string): Promise<void> {
  await file.db.fork().transactional((tx) => jobs.enqueue(tx, 'test.record', { name }, dedupeKey ? { dedupeKey } : {}));
}

async function rows(name: string) {
  return file.db.fork().execute<Array<{ status: string; attempts: number }>>("select status, attempts from job where kind = 'test.record' and payload->>'name' = ? order by created_at, id", [name]);
}

/** How many job completions (`update job set status = 'succeeded' …`) any worker sends while `work` runs. */
async function completionsDuring(work: () => Promise<unknown>): Promise<number> {
  let sent = 0;
  const unwatch = file.db.watchQueries((sql) => {
    if (sql.trimStart().startsWith("update job set status = 'succeeded'")) sent += 1;
  });
  try {
    await work();
  } finally {
    unwatch();
  }
  return sent;
}

/** The rows as an admin sees them, with who holds each and when it last changed. */
async function fullRows(name: string) {
  return file.db.fork().execute("select status, attempts, locked_by, locked_until, run_at, finished_at, updated_at, last_error from job where kind = 'test.record' and payload->>'name' = ? order by created_at, id", [name]);
}

function gate(): { wait: Promise<void>; open(): void; entered: Promise<void>; enter(): void } {
  let open!: () => void;
  let enter!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  return { wait, open, entered, enter };
}

describe('the job queue', () => {
  it('refuses a job outside a transaction: it must commit with the change that needs it', async () => {
    const jobs = queue(async () => undefined);
    await expect(jobs.enqueue(file.db.fork(), 'test.record', { name: 'outside' })).rejects.toThrow(/inside the transaction/);
    expect(await rows('outside')).toEqual([]);
  });

  it('keeps one waiting job per dedupe key, and takes a new one while the first runs', async () => {
    const running = gate();
    const ran: string[] = [];
    const jobs = queue(async (name) => {
      ran.push(name);
      running.enter();
      await running.wait;
    });
    await enqueue(jobs, 'dedupe', 'key-1');
    await enqueue(jobs, 'dedupe', 'key-1');
    expect(await rows('dedupe')).toEqual([{ status: 'pending', attempts: 0 }]);

    const first = jobs.runDue();
    await running.entered;
    await enqueue(jobs, 'dedupe', 'key-1');
    expect(await rows('dedupe')).toEqual([
      { status: 'running', attempts: 1 },
      { status: 'pending', attempts: 0 },
    ]);
    running.open();
    await first;
    await jobs.runDue();
    expect(ran).toEqual(['dedupe', 'dedupe']);
    expect(await rows('dedupe')).toEqual([
      { status: 'succeeded', attempts: 1 },
      { status: 'succeeded', attempts: 1 },
    ]);
  });

  it('moves a waiting job up when one of its key is asked for sooner, never later, and leaves it alone otherwise', async () => {
    const jobs = queue(async () => undefined);
    const runAt = async () => Number((await file.db.fork().execute<Array<{ at: string }>>("select (extract(epoch from run_at) * 1000)::bigint::text as at from job where kind = 'test.record' and dedupe_key = 'key-sooner' and status = 'pending'"))[0]!.at);
    const inAnHour = new Date(Date.now() + 3_600_000);
    const enqueueAt = (at: Date | undefined, sooner: boolean) =>
      file.db.fork().transactional((tx) => jobs.enqueue(tx, 'test.record', { name: 'sooner' }, { dedupeKey: 'key-sooner', ...(at ? { runAt: at } : {}), ...(sooner ? { sooner } : {}) }));

    await enqueueAt(inAnHour, false);
    expect(await runAt()).toBe(inAnHour.getTime());
    // Without `sooner`, an equal job asked for now is covered by the one waiting: nothing moves.
    await enqueueAt(undefined, false);
    expect(await runAt()).toBe(inAnHour.getTime());
    // Asked for later, even with `sooner`: nothing moves.
    await enqueueAt(new Date(inAnHour.getTime() + 60_000), true);
    expect(await runAt()).toBe(inAnHour.getTime());
    // Asked for now with `sooner`: the waiting job is due now, and is still the only one.
    await enqueueAt(undefined, true);
    expect(await runAt()).toBeLessThanOrEqual(Date.now());
    expect(await rows('sooner')).toEqual([{ status: 'pending', attempts: 0 }]);
    await jobs.runDue();
    expect(await rows('sooner')).toEqual([{ status: 'succeeded', attempts: 1 }]);
  });

  it('takes a job again once the lease of the worker running it has run out, and the late worker cannot complete it', async () => {
    // given: worker A claims the job and hangs (as a dead process would, its lease is all that is left)
    const hung = gate();
    const ranOn: string[] = [];
    const a = queue(
      async () => {
        ranOn.push('a');
        hung.enter();
        await hung.wait;
        throw new Error('A gave up');
      },
      { leaseMs: 300 },
    );
    const b = queue(async () => void ranOn.push('b'), { leaseMs: 300 });
    await enqueue(a, 'lease');
    const stuck = a.runDue();
    await hung.entered;

    // when / then: B takes it only once the lease has run out
    expect(await b.runDue()).toBe(0);
    await expect.poll(() => b.runDue(), { interval: 50 }).toBe(1);
    expect(await rows('lease')).toEqual([{ status: 'succeeded', attempts: 2 }]);

    // A's late failure changes nothing: the job is B's now.
    hung.open();
    await stuck;
    expect(ranOn).toEqual(['a', 'b']);
    expect(await rows('lease')).toEqual([{ status: 'succeeded', attempts: 2 }]);
  });

  it('a handler that records its own success does so only while its lease holds, and a late run is logged', async () => {
    // A handler whose work commits in one transaction writes the job's completion in it.
    const completingInOwnStatement = (gateOf: ReturnType<typeof gate> | undefined, matched: number[]): JobHandler<'test.record'> =>
      async (em, _payload, job) => {
        gateOf?.enter();
        await gateOf?.wait;
        const { sql, params } = job.succeededStatement();
        const rowsMatched = (await em.execute<Array<{ id: string }>>(sql, params)).length;
        matched.push(rowsMatched);
        return rowsMatched > 0 ? JOB_SUCCEEDED : undefined;
      };

    // in time: the statement matches the job, which is done; the queue records nothing more (so it
    // has no late run to report), and reports the run once, as succeeded
    const onTime: number[] = [];
    const reported: JobResultEvent[] = [];
    const prompt = queueWith(completingInOwnStatement(undefined, onTime), {}, undefined, (result) => reported.push(result));
    await enqueue(prompt, 'own-completion');
    let ran = 0;
    const sentOnTime = await completionsDuring(async () => (ran = await prompt.runDue()));
    expect(ran).toBe(1);
    expect(onTime).toEqual([1]);
    expect(sentOnTime).toBe(1);
    expect(await rows('own-completion')).toEqual([{ status: 'succeeded', attempts: 1 }]);
    expect(reported).toEqual([{ kind: 'test.record', outcome: 'succeeded', attempt: 1 }]);

    // late: worker A finishes after its lease ran out and B took the job
    const hung = gate();
    const late: number[] = [];
    const logsOfA: string[] = [];
    const a = queueWith(completingInOwnStatement(hung, late), { leaseMs: 300 }, logsOfA);
    const b = queue(async () => undefined, { leaseMs: 300 });
    await enqueue(a, 'late-own-completion');
    const running = a.runDue();
    await hung.entered;
    await expect.poll(() => b.runDue(), { interval: 50 }).toBe(1);
    const asBLeftIt = await fullRows('late-own-completion');
    const sentLate = await completionsDuring(async () => {
      hung.open();
      await running;
    });

    // A's completion matched nothing, and neither did the queue's own completion of A's run, which
    // it then tried (and found the job taken): the job stays B's, exactly as B left it
    expect(late).toEqual([0]);
    expect(sentLate).toBe(2);
    expect(await rows('late-own-completion')).toEqual([{ status: 'succeeded', attempts: 2 }]);
    expect(await fullRows('late-own-completion')).toEqual(asBLeftIt);
    // and worker A says so, once: the late run is what an operator reads of it (no metric tells it apart)
    expect(logsOfA.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['job finished after its lease ran out; another worker took it again']);
  });

  it("claims a commit's work wakeDelayMs after the commit, the work of the commits within the delay in one claim", async () => {
    const wakeDelayMs = 1_000;
    const ran: string[] = [];
    const jobs = queue(async (name) => void ran.push(name), { wakeDelayMs, concurrency: 8 });
    /** When each claim was sent (`performance.now()`). */
    const claims: number[] = [];
    const unwatch = file.db.watchQueries((sql) => {
      if (sql.trimStart().startsWith("update job set status = 'running'")) claims.push(performance.now());
    });
    try {
      // The pass a start runs at once (work left by a stopped instance) is over before anything is enqueued.
      await jobs.start();
      await expect.poll(() => claims.length).toBe(1);
      claims.length = 0;

      // Nothing else wakes this worker (its poll is a minute away): only the commits' wake-up.
      const firstCommitStarted = performance.now();
      await enqueue(jobs, 'woken-1');
      await enqueue(jobs, 'woken-2');
      await enqueue(jobs, 'woken-3');

      await expect.poll(() => ran.length).toBe(3);
      expect(ran.sort()).toEqual(['woken-1', 'woken-2', 'woken-3']);
      // One claim took all three, and it waited out the delay from the first commit's wake-up:
      // however busy the machine, a claim can only come later than that, never sooner. (The
      // timer counts from the event loop's cached time, which can trail the clock read before
      // the first commit by the moment the loop took to reach it: a little slack for that.)
      expect(claims).toHaveLength(1);
      expect(claims[0]! - firstCommitStarted).toBeGreaterThanOrEqual(wakeDelayMs - 50);
    } finally {
      unwatch();
      await jobs.stop();
    }
  });

  it('keeps its slots full: a slow run holds back no job claimed with it, and the runs that return are recorded with the next claim', async () => {
    // given: a worker of two slots, a slow job and six quick ones behind it
    const slow = gate();
    const ran: string[] = [];
    const jobs = queue(
      async (name) => {
        ran.push(name);
        if (name !== 'slots-slow') return;
        slow.enter();
        await slow.wait;
      },
      { concurrency: 2, wakeDelayMs: 0 },
    );
    await enqueue(jobs, 'slots-slow');
    const quick = ['slots-1', 'slots-2', 'slots-3', 'slots-4', 'slots-5', 'slots-6'];
    for (const name of quick) await enqueue(jobs, name);

    try {
      // when: it starts, and the slow run hangs
      const completions = await completionsDuring(async () => {
        await jobs.start();
        await slow.entered;
        // then: the quick ones all run in the other slot meanwhile, each recorded as succeeded,
        await expect.poll(() => ran.filter((name) => name !== 'slots-slow').sort()).toEqual(quick);
        for (const name of quick) await expect.poll(() => rows(name)).toEqual([{ status: 'succeeded', attempts: 1 }]);
      });
      // by the worker's claims: not one completion statement of their own
      expect(completions).toBe(0);
      expect(await rows('slots-slow')).toEqual([{ status: 'running', attempts: 1 }]);

      // and the slow one is recorded once it returns
      slow.open();
      await expect.poll(() => rows('slots-slow')).toEqual([{ status: 'succeeded', attempts: 1 }]);
    } finally {
      slow.open();
      await jobs.stop();
    }
  });

  it('stop waits for the running job before it resolves, and takes no more', async () => {
    const running = gate();
    const ran: string[] = [];
    const jobs = queue(async (name) => {
      ran.push(name);
      running.enter();
      await running.wait;
    });
    await enqueue(jobs, 'stop-1');
    await jobs.start();
    await running.entered;
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await enqueue(jobs, 'stop-2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);

    running.open();
    await stopping;
    expect(await rows('stop-1')).toEqual([{ status: 'succeeded', attempts: 1 }]);
    expect(await rows('stop-2')).toEqual([{ status: 'pending', attempts: 0 }]);
    expect(ran).toEqual(['stop-1']);
  });

  it('a recurring kind keeps one occurrence waiting across instances; a failed one is superseded by the next, and a lost schedule comes back', async () => {
    const occurrences = () =>
      file.db.fork().execute<Array<{ status: string; due: boolean }>>("select status, run_at <= now() as due from job where kind = 'test.recurring' and dedupe_key = ? order by created_at, id", [RECURRING_KEY]);
    let failing = false;
    const ran: string[] = [];
    const recurring = () => {
      const handlers = new JobHandlers();
      handlers.recurring('test.recurring', { everyMs: 1_000, payload: { name: 'tick' } }, async (_em, { name }) => {
        ran.push(name);
        if (failing) throw new Error('this occurrence fails');
      });
      return new JobQueue({ logger: createLogger({ level: 'silent' }), db: file.db, handlers, settings: { backoffBaseMs: 10, pollIntervalMs: 60_000 } });
    };

    // given: two instances that run the kind, each starting its worker (a first pass)
    const a = recurring();
    const b = recurring();
    await a.runDue();
    await b.runDue();
    const statuses = async () => (await occurrences()).map((row) => row.status);
    const waiting = async () => (await occurrences()).filter((row) => row.status === 'pending');

    // then: one occurrence waits, not yet due (both instances made sure of it: still one)
    expect(await waiting()).toEqual([{ status: 'pending', due: false }]);
    expect(ran).toEqual([]);

    // when: it comes due and an instance runs it, it has enqueued the next one, which waits
    // (Jobs of other kinds left by earlier tests may be due too: what counts is what ran.)
    await expect.poll(async () => (await a.runDue(), ran.length), { interval: 20 }).toBeGreaterThanOrEqual(1);
    expect(await waiting()).toHaveLength(1);
    expect(new Set((await statuses()).slice(0, -1))).toEqual(new Set(['succeeded']));

    // when: an occurrence fails, it is not retried: the next one, already waiting, does its work
    failing = true;
    const before = ran.length;
    await expect.poll(async () => (await b.runDue(), ran.length), { interval: 20 }).toBeGreaterThan(before);
    failing = false;
    expect((await statuses()).at(-2)).toBe('superseded');
    expect(await waiting()).toHaveLength(1);

    // when: the waiting occurrence is lost (an instance that does not run the kind ended it)
    await file.db.fork().execute("update job set status = 'succeeded', finished_at = now() where kind = 'test.recurring' and status = 'pending'");
    expect(await waiting()).toEqual([]);

    // then: a worker that runs the kind enqueues the next one within an interval, and one only
    await expect.poll(async () => (await Promise.all([a.runDue(), b.runDue()]), (await waiting()).length), { interval: 20 }).toBe(1);
    expect(new Set(await statuses())).toEqual(new Set(['succeeded', 'superseded', 'pending']));
    expect(new Set(ran)).toEqual(new Set(['tick']));
  });
});
