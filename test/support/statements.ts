// Counts the SQL statements a request costs, as a test of constant-cost lists needs: background
// work (webhooks, detail fetches after approvals) is waited out first, and the job worker's own
// polling of its table and the event bus's reads of the log, which run on timers and wake-ups
// whatever the request does, are left out.

import { expect } from 'vitest';
import type { TestGateway } from './gateway.js';

const JOB_WORKER = /\b(from|update|into)\s+"?job"?\b|\/\* (event-bus|relay) \*\//i;

/** Marks the statements `quiet` itself sends to see whether work is left, so that it does not count them as work. */
const QUIET_MARK = '/* test:quiet */';

/** Statements issued while `action` runs, apart from the job worker's. */
export async function statementsOf(t: TestGateway, action: () => Promise<void>): Promise<number> {
  return (await statementsIssued(t, action)).length;
}

/**
 * The text of every statement issued while `action` runs, once the gateway is quiet, leaving out
 * those `unrelated` matches (by default the job worker's and the event bus's).
 */
export async function statementsIssued(t: TestGateway, action: () => Promise<void>, unrelated: RegExp = JOB_WORKER): Promise<string[]> {
  await quiet(t, unrelated);
  const statements: string[] = [];
  const unwatch = t.gateway.db.watchQueries((sql) => {
    if (!unrelated.test(sql)) statements.push(sql);
  });
  try {
    await action();
  } finally {
    unwatch();
  }
  return statements;
}

/**
 * Resolves once the work earlier steps started is over, as its own records show: no webhook
 * delivery, retry or simulated timer pending at either sandbox, no job due or running (due ones are
 * run now, so a stopped worker does not hold this up), and the event bus caught up with the log
 * while it follows it. One piece of work can start another (a webhook enqueues a job, a job calls a
 * sandbox), so the round is repeated until one sees no statement but the unrelated ones.
 */
async function quiet(t: TestGateway, unrelated: RegExp): Promise<void> {
  let issued = 0;
  const unwatch = t.gateway.db.watchQueries((sql) => {
    if (!unrelated.test(sql) && !sql.includes(QUIET_MARK)) issued += 1;
  });
  try {
    for (;;) {
      const before = issued;
      await t.gateway.sandboxes.depositGateway?.controls.idle();
      await t.gateway.sandboxes.qrGateway?.controls.idle();
      await jobsDone(t);
      await busCaughtUp(t);
      if (issued === before) return;
    }
  } finally {
    unwatch();
  }
}

/** Runs the jobs that are due (whether or not the worker runs) and waits for the running ones. */
async function jobsDone(t: TestGateway): Promise<void> {
  const open = async () => {
    const [row] = await t.gateway.db
      .fork()
      .execute<Array<{ pending: string | number; running: string | number }>>(
        `${QUIET_MARK} select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'running') as running from job where status in ('pending', 'running') and run_at <= now()`,
      );
    return { pending: Number(row?.pending ?? 0), running: Number(row?.running ?? 0) };
  };
  await expect
    .poll(
      async () => {
        const before = await open();
        if (before.pending === 0) return before.running;
        await t.gateway.services.jobs.runDue();
        const after = await open();
        return after.pending + after.running;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(0);
}

/** While the event bus follows the log (someone subscribes), waits until it has published every event committed so far. */
async function busCaughtUp(t: TestGateway): Promise<void> {
  const bus = t.gateway.eventBus;
  if (!bus.following) return;
  const rows = await t.gateway.db.fork().execute<Array<{ head: string | null }>>(`${QUIET_MARK} select max(position)::text as head from payment_event`);
  const head = BigInt(rows[0]?.head ?? 0);
  await expect.poll(() => !bus.following || (bus.publishedThrough ?? -1n) >= head, { timeout: 10_000, interval: 20 }).toBe(true);
}
