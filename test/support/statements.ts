// Counts the SQL statements a request costs, as a test of constant-cost lists needs: background
// work (webhooks, detail fetches after approvals) is waited out first, and the job worker's own
// polling of its table, the event bus's reads of the log and the instances' sharing of client
// limits, which run on timers and wake-ups whatever the request does, are left out, and so are the
// provider call records written after the calls, outside the payment's statements (group-committed).

import type { TestGateway } from './gateway.js';
import { jobsSettled, TEST_WAIT_MARK } from './jobs.js';

const JOB_WORKER = /\b(from|update|into)\s+"?job"?\b|\/\* (event-bus|relay|client-limits|call-records) \*\//i;

/** Statements issued while `action` runs, apart from the job worker's. */
export async function statementsOf(t: TestGateway, action: () => Promise<void>): Promise<number> {
  return (await statementsIssued(t, action)).length;
}

/**
 * The text of every statement issued while `action` runs, once the gateway is quiet, leaving out
 * those `unrelated` matches (by default the job worker's and the event bus's).
 */
export async function statementsIssued(t: TestGateway, action: () => Promise<void>, unrelated: RegExp = JOB_WORKER): Promise<string[]> {
  return (await statementsWithValues(t, action, unrelated)).map((statement) => statement.sql);
}

/** `statementsIssued`, each statement with the values sent for its `?` placeholders. */
export async function statementsWithValues(t: TestGateway, action: () => Promise<void>, unrelated: RegExp = JOB_WORKER): Promise<Array<{ sql: string; params: readonly unknown[] }>> {
  await quiet(t, unrelated);
  const statements: Array<{ sql: string; params: readonly unknown[] }> = [];
  const unwatch = t.gateway.db.watchQueries((sql, params) => {
    if (!unrelated.test(sql)) statements.push({ sql, params });
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
    if (!unrelated.test(sql) && !sql.includes(TEST_WAIT_MARK)) issued += 1;
  });
  try {
    for (;;) {
      const before = issued;
      await t.gateway.sandboxes.get('deposit-gateway')?.controls.idle();
      await t.gateway.sandboxes.get('qr-gateway')?.controls.idle();
      await jobsSettled(t, { runDue: true });
      if (issued === before) return;
    }
  } finally {
    unwatch();
  }
}
