// What the write path costs the database, counted rather than timed: the statements of
// createDeposit, createPayout and one signed webhook, and that no money-moving transaction takes a
// database-wide lock or sends a NOTIFY (their commits would otherwise serialize server-wide).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_EVENTS_CHANNEL } from '../../src/kernel/events/event-notification.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { statementsIssued } from '../support/statements.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { CHILE_INPUT, payoutsClient } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { approvedWithWebhookLost, insertDeposit, paymentEnvelope, sendWebhook, webhookAndFollowUpStatements } from '../webhooks/support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/**
 * Left out: the job worker's polling and the event bus's reads (both run on timers and wake-ups
 * whatever the request does), the instances' sharing of client limits (a timer while a client is
 * active), the relay's statement after a commit (on PostgreSQL it runs on its own
 * session, which the ORM does not see; on PGlite through the ORM), the provider call records
 * (written after the calls, group-committed, outside the payment's statements), and the API key lookup and its
 * last-used write (cached elsewhere), each known by how its statement begins. A job the request
 * enqueues (`insert into job`) is counted, and so is a change whose statement reads the job table
 * inside (an event's append asks whether a fan-out job waits).
 */
const UNRELATED = /^\s*(update\s+"?(job|api_client)"?\b|delete\s+from\s+"?job"?\b|select\s+(count\(\*\)\s+as\s+open|[^(]*?)\s+from\s+"?(job|api_client)"?\b)|\/\* (event-bus|relay|client-limits|call-records) \*\//i;

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
  it('createDeposit without an idempotency key: 2 statements and no transaction (it used to cost 4, BEGIN and COMMIT included)', async () => {
    // The provider's own webhooks about these deposits are another request's statements.
    t.gateway.sandboxes.get('deposit-gateway')!.controls.webhooks({ dropNext: 10 });
    await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier }); // warm
    let id: string | undefined;
    const statements = await recorded(async () => {
      const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
      id = response.data!.createDeposit.deposit!.id;
    });
    expect(id).toMatch(/^dep_/);
    // The deposit and its creation event in one statement, atomic on its own; then the provider's answer.
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(2);
    expect(statements.filter((sql) => BEGIN.test(sql))).toHaveLength(0);
    expectNoGlobalLockOrNotify(statements);
  });

  it('createPayout without an idempotency key: the payout and its creation event are one statement, outside a transaction', async () => {
    t.gateway.sandboxes.get('deposit-gateway')!.controls.webhooks({ dropNext: 10 });
    const key = await payoutsClient(t, `write-path-payouts-${Date.now()}`);
    await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key }); // warm
    let id: string | undefined;
    const statements = await recorded(async () => {
      const response = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key });
      id = response.data!.createPayout.payout!.id;
    });
    expect(id).toMatch(/^pay_/);
    const recording = statements.filter((sql) => /\binsert into payout\b/.test(sql));
    expect(recording).toHaveLength(1);
    expect(recording[0]).toMatch(/\binsert into payment_event\b/);
    // Nothing before it opens a transaction: it commits on its own, before the provider call.
    expect(statements.slice(0, statements.indexOf(recording[0]!)).filter((sql) => BEGIN.test(sql))).toEqual([]);
    expectNoGlobalLockOrNotify(statements);
  });

  it('createDeposit with nobody subscribed: no read of the event log after its commits, so 4 statements in all', async () => {
    t.gateway.sandboxes.get('deposit-gateway')!.controls.webhooks({ dropNext: 10 });
    const busReads: string[] = [];
    const unwatch = t.gateway.db.watchQueries((sql) => {
      if (sql.includes('/* event-bus */')) busReads.push(sql);
    });
    // Told of every commit that appended events, after the event bus (a channel's listeners are
    // called in the order they were added, the bus's at start-up).
    let wakeUps = 0;
    const unlisten = await t.gateway.db.listen(PAYMENT_EVENTS_CHANNEL, () => void (wakeUps += 1));
    try {
      await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier }); // warm
      await expect.poll(() => wakeUps, { interval: 5 }).toBeGreaterThanOrEqual(1);
      const warmed = wakeUps;
      const statements = await recorded(async () => {
        const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
        expect(response.data!.createDeposit.deposit!.id).toMatch(/^dep_/);
      });
      // The wake-up of the commit that appended its creation event comes right after it, to the bus
      // first; a read the bus started on it would be sent before a statement sent afterwards has
      // come back.
      await expect.poll(() => wakeUps, { interval: 5 }).toBeGreaterThan(warmed);
      await t.gateway.db.fork().execute('select 1');
      expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(4);
      expect(busReads).toEqual([]);
    } finally {
      await unlisten();
      unwatch();
    }
  });

  it('one signed webhook applying a status: at most 4 statements (it used to cost 19, then 7)', async () => {
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
    // BEGIN, the inbox row with the deposit found and locked, its status with its event, the
    // detail job, the release job (only if deliveries wait for the deposit) and the inbox
    // outcome, COMMIT.
    expect(statements!.length, statements!.join('\n---\n')).toBeLessThanOrEqual(4);
    expect(transactions(statements!)).toHaveLength(1);
    expectNoGlobalLockOrNotify(statements!);
  });

  it('a signed webhook and its fee/net follow-up job together: at most 5 statements, the job worker\'s claim aside (they used to cost 11, then 8, then 6)', async () => {
    // A deposit the provider approved with its own webhook lost: the follow-up's lookup finds it.
    const { id } = await approvedWithWebhookLost(t);
    // Only the worker's own statements are left out: its claim of due jobs (and its sweep of
    // abandoned leases); a job's completion written with its work is counted.
    const statements = await webhookAndFollowUpStatements(t, id);
    // The webhook: BEGIN, inbox row with its deposit locked, status with its event, job and
    // outcome, COMMIT. The follow-up, after the provider's answer, without a transaction and
    // without reading the deposit (its status change returned the row, with its version, to this
    // instance): fee and net with their event and the job's completion in one statement that
    // applies only to the row as it was written (test/deposits/details-race.test.ts).
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(5);
    expect(statements.filter((sql) => /^\s*select\b[^]*\bfrom deposit\b/i.test(sql)), 'the follow-up reads no deposit').toEqual([]);
    expect(transactions(statements)).toHaveLength(1);
    expectNoGlobalLockOrNotify(statements);
  });
});
