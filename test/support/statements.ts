// Counts the SQL statements a request costs, as a test of constant-cost lists needs: background
// work (detail fetches after approvals) is waited out first, and the job worker's own polling of
// its table and the event bus's reads of the log, which run on timers and wake-ups whatever the
// request does, are left out.

import type { TestGateway } from './gateway.js';

const JOB_WORKER = /\b(from|update|into)\s+"?job"?\b|\/\* (event-bus|relay) \*\//i;

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

/** Resolves once no statement but the unrelated ones has been issued for 300 ms. */
async function quiet(t: TestGateway, unrelated: RegExp): Promise<void> {
  let last = -1;
  let count = 0;
  const unwatch = t.gateway.db.watchQueries((sql) => {
    if (!unrelated.test(sql)) count += 1;
  });
  try {
    while (last !== count) {
      last = count;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    unwatch();
  }
}
