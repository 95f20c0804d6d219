// What the write path costs the database, counted rather than timed: the statements of
// createDeposit and of one signed webhook, and that no money-moving transaction takes a
// database-wide lock or sends a NOTIFY (their commits would otherwise serialize server-wide).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { statementsIssued } from '../support/statements.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/**
 * Left out: the job worker's polling and the event bus's reads (both run on timers and wake-ups
 * whatever the request does), the relay's statement after a commit (on PostgreSQL it runs on its own
 * session, which the ORM does not see; on PGlite through the ORM), and the API key lookup and its
 * last-used write (cached elsewhere). A job the request enqueues (`insert into job`) is counted.
 */
const UNRELATED = /\b(from|update)\s+"?(job|api_client)"?\b|\/\* (event-bus|relay) \*\//i;

/** Every statement issued while `action` runs, but the job worker's polling and the API key's. */
function recorded(action: () => Promise<void>): Promise<string[]> {
  return statementsIssued(t, action, UNRELATED);
}

const BEGIN = /^\s*begin\b/i;
const END = /^\s*(commit|rollback)\b/i;

/** The statements issued between a BEGIN and its COMMIT or ROLLBACK, transaction by transaction. */
function transactions(statements: string[]): string[][] {
  const found: string[][] = [];
  let open: string[] | undefined;
  for (const sql of statements) {
    if (BEGIN.test(sql)) open = [];
    else if (END.test(sql)) {
      if (open) found.push(open);
      open = undefined;
    } else open?.push(sql);
  }
  return found;
}

function expectNoGlobalLockOrNotify(statements: string[]): void {
  expect(statements.some((sql) => /pg_advisory/i.test(sql))).toBe(false);
  for (const transaction of transactions(statements)) {
    for (const sql of transaction) {
      expect(sql).not.toMatch(/pg_advisory/i);
      expect(sql).not.toMatch(/pg_notify|\bnotify\b/i);
      expect(sql).not.toMatch(/\block\s+table\b/i);
    }
  }
}

describe(`the write path (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('createDeposit without an idempotency key: at most 4 statements, BEGIN and COMMIT included', async () => {
    // The provider's own webhooks about these deposits are another request's statements.
    t.gateway.sandboxes.depositGateway!.controls.webhooks({ dropNext: 10 });
    await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier }); // warm
    let id: string | undefined;
    const statements = await recorded(async () => {
      const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
      id = response.data!.createDeposit.deposit!.id;
    });
    expect(id).toMatch(/^dep_/);
    // BEGIN, the deposit and its creation event in one statement, COMMIT; then the provider's answer.
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(4);
    expect(transactions(statements)).toHaveLength(1);
    expectNoGlobalLockOrNotify(statements);
  });

  it('one signed webhook applying a status: at most 7 statements (it used to cost 19)', async () => {
    const deposit = await insertDeposit(t);
    await sendWebhook(t, paymentEnvelope(await insertDeposit(t), 'approved')); // warm
    // The detail fetch the webhook enqueues is follow-up work, not the webhook's: held until counted.
    await t.gateway.services.jobs.stop();
    let statements: string[];
    try {
      statements = await recorded(async () => {
        const sent = await sendWebhook(t, paymentEnvelope(deposit, 'approved'));
        expect(sent.body.outcome).toBe('applied');
      });
    } finally {
      await t.gateway.services.jobs.start();
    }
    // BEGIN, the inbox row, the deposit found and locked, its status with its event, the detail
    // job with the deferred deliveries' read, the inbox outcome, COMMIT.
    expect(statements!.length, statements!.join('\n---\n')).toBeLessThanOrEqual(7);
    expect(transactions(statements!)).toHaveLength(1);
    expectNoGlobalLockOrNotify(statements!);
  });
});
