// A deposit's details (fee, net) are written without a transaction or a row lock: read, then one
// statement that applies only to the row as it was read. A change committed in between (a status
// report landing) makes that statement write nothing; the details are read and written again, so
// neither the change nor the details are lost, and the details' event tells the status the row
// really had. Real gateway, real database, the deposit sandbox over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { FETCH_DEPOSIT_DETAILS } from '../../src/modules/deposits/deposit-transitions.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { approvedWithWebhookLost, paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
  // Only the fetches this file makes: the worker would otherwise run the one a card's answer enqueues.
  await t.gateway.services.jobs.stop();
});
afterAll(() => t?.close());

interface DepositRow {
  status: string;
  status_reason: string | null;
  fee: string | null;
  net: string | null;
}

async function depositRow(id: string): Promise<DepositRow> {
  const rows = await t.gateway.db.fork().execute<DepositRow[]>('select status, status_reason, fee, net from deposit where id = ?', [id]);
  return rows[0]!;
}

async function detailEvents(id: string): Promise<Array<{ from_status: string; to_status: string; status: string; status_reason: string | null }>> {
  return t.gateway.db
    .fork()
    .execute(
      "select from_status, to_status, data->>'status' as status, data->>'statusReason' as status_reason from payment_event where subject_id = ? and type = 'deposit.details_updated' order by position",
      [id],
    );
}

/** Where the deposits of this file are held, as a fetch job's payload says. */
const HELD_AT = { provider: 'deposit-gateway', merchantAccount: 'dg-test' } as const;

interface DetailWriteHooks {
  /** Before the `n`th statement that writes this deposit's details (1 for the first). */
  before?: (n: number) => Promise<void>;
  /** After it. */
  after?: (n: number) => Promise<void>;
}

/**
 * Runs `action` with `hooks` around each statement that writes deposit `id`'s details (the
 * event log's append of the change, one statement, whichever EntityManager the job queue forked
 * for the run): the moment between the read and the write where a webhook's status change can
 * land. Returns how many such statements ran.
 */
async function aroundDetailWrites(id: string, hooks: DetailWriteHooks, action: () => Promise<unknown>): Promise<number> {
  const events = t.gateway.services.events;
  // Kept to be called with apply(events, …) and put back afterwards.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const appendWith = events.appendWith;
  let writes = 0;
  events.appendWith = (async (...args: Parameters<typeof appendWith>) => {
    const [, change] = args;
    const ours = /^update deposit set fee/.test(change.sql) && change.params.includes(id);
    if (!ours) return appendWith.apply(events, args);
    const n = ++writes;
    await hooks.before?.(n);
    const result = await appendWith.apply(events, args);
    await hooks.after?.(n);
    return result;
  }) as typeof events.appendWith;
  try {
    await action();
  } finally {
    events.appendWith = appendWith;
  }
  return writes;
}

/** The deposit's details fetched as its job would, with `hooks` around their writes; how many writes ran. */
function fetchDetails(id: string, reference: string, hooks: DetailWriteHooks): Promise<number> {
  return aroundDetailWrites(id, hooks, () => t.gateway.services.deposits.fetchDetails(t.gateway.db.fork(), id, reference, { heldAt: HELD_AT }));
}

/** The deposit reads detail fetches make (unlocked or locked) while `action` runs. */
async function detailReads(action: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const unwatch = t.gateway.db.watchQueries((sql) => {
    if (/^select [^]* from deposit where id = \? and provider = \? and merchant_account = \?/.test(sql)) reads += 1;
  });
  try {
    await action();
  } finally {
    unwatch();
  }
  return reads;
}

/** A deposit approved by a signed webhook to this gateway, its detail fetch job pending. */
async function approvedByWebhook(): Promise<{ id: string; reference: string }> {
  const approved = await approvedWithWebhookLost(t);
  const sent = await sendWebhook(t, paymentEnvelope(await readDeposit(t, approved.id), 'approved'));
  expect(sent.body.outcome).toBe('applied');
  return approved;
}

/** Commits `sql` on a connection of its own, as another request would. */
async function meanwhile(sql: string, params: unknown[]): Promise<void> {
  await t.gateway.db.fork().execute(sql, params);
}

describe(`a deposit's details fetched while its status changes (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('keep the change committed between their read and their write, and their event tells the status it made', async () => {
    const { id, reference } = await approvedWithWebhookLost(t);
    expect((await depositRow(id)).fee).toBeNull();
    const writes = await fetchDetails(id, reference, {
      // What a status report applies, committed on its own: a new status and its reason.
      before: (n) => (n === 1 ? meanwhile("update deposit set status = 'SUCCEEDED', status_reason = 'approved meanwhile', updated_at = now() where id = ?", [id]) : Promise.resolve()),
    });

    // The first write found the row changed and wrote nothing; the second read it again.
    expect(writes).toBe(2);
    const after = await depositRow(id);
    expect(after).toMatchObject({ status: 'SUCCEEDED', status_reason: 'approved meanwhile' });
    expect(after.fee).not.toBeNull();
    expect(after.net).not.toBeNull();
    // One event for the details, describing the row as it now is.
    expect(await detailEvents(id)).toEqual([{ from_status: 'SUCCEEDED', to_status: 'SUCCEEDED', status: 'SUCCEEDED', status_reason: 'approved meanwhile' }]);
  });

  it('are written under the row lock when the row changes between every read and write', async () => {
    const { id, reference } = await approvedWithWebhookLost(t);
    const writes = await fetchDetails(id, reference, {
      // Not before the fourth: that one holds the row lock, and a change would wait for it.
      before: (n) => (n <= 3 ? meanwhile('update deposit set status_reason = ?, updated_at = now() where id = ?', [`change ${n}`, id]) : Promise.resolve()),
    });

    // Three reads each overtaken by a change, then a read and write under the row lock.
    expect(writes).toBe(4);
    const after = await depositRow(id);
    expect(after.status_reason).toBe('change 3');
    expect(after.fee).not.toBeNull();
    expect(await detailEvents(id)).toHaveLength(1);
  });

  it('start from the row the webhook wrote, without reading it, when nothing changed it since', async () => {
    const { id } = await approvedByWebhook();
    let writes = 0;
    const reads = await detailReads(async () => {
      writes = await aroundDetailWrites(id, {}, () => t.gateway.services.jobs.runUntilIdle([FETCH_DEPOSIT_DETAILS]));
    });

    expect({ reads, writes }).toEqual({ reads: 0, writes: 1 });
    const after = await depositRow(id);
    expect(after).toMatchObject({ status: 'SUCCEEDED' });
    expect(after.fee).not.toBeNull();
    expect(await detailEvents(id)).toEqual([{ from_status: 'SUCCEEDED', to_status: 'SUCCEEDED', status: 'SUCCEEDED', status_reason: null }]);
  });

  it('read the row again when it changed after the webhook wrote it, and keep that change', async () => {
    const { id } = await approvedByWebhook();
    let writes = 0;
    const reads = await detailReads(async () => {
      writes = await aroundDetailWrites(
        id,
        { before: (n) => (n === 1 ? meanwhile("update deposit set status_reason = 'changed after the webhook', updated_at = now() where id = ?", [id]) : Promise.resolve()) },
        () => t.gateway.services.jobs.runUntilIdle([FETCH_DEPOSIT_DETAILS]),
      );
    });

    // The write from the webhook's row matched nothing; the second read the row and wrote.
    expect({ reads, writes }).toEqual({ reads: 1, writes: 2 });
    const after = await depositRow(id);
    expect(after.status_reason).toBe('changed after the webhook');
    expect(after.fee).not.toBeNull();
    expect(await detailEvents(id)).toEqual([{ from_status: 'SUCCEEDED', to_status: 'SUCCEEDED', status: 'SUCCEEDED', status_reason: 'changed after the webhook' }]);
  });

  it('complete their job only with the write that stored them', async () => {
    const { id, reference } = await approvedWithWebhookLost(t);
    const { jobs } = t.gateway.services;
    // The deposit's fetch job, pending (the card's answer may have enqueued it already: one per deposit).
    await inTransaction(t.gateway.db.fork(), (tx) => jobs.enqueue(tx, FETCH_DEPOSIT_DETAILS, { depositId: id, reference, ...HELD_AT }, { dedupeKey: id }));
    const jobStatus = async () =>
      (await t.gateway.db.fork().execute<Array<{ status: string }>>("select status from job where kind = ? and payload->>'depositId' = ? order by created_at desc limit 1", [FETCH_DEPOSIT_DETAILS, id]))[0]!.status;
    const seen: string[] = [];
    await aroundDetailWrites(
      id,
      {
        before: (n) => (n === 1 ? meanwhile("update deposit set status_reason = 'changed meanwhile', updated_at = now() where id = ?", [id]) : Promise.resolve()),
        after: async () => void seen.push(await jobStatus()),
      },
      () => jobs.runDue(),
    );

    // The write that found the row changed left the job running; the one that stored the details completed it.
    expect(seen).toEqual(['running', 'succeeded']);
    expect(await jobStatus()).toBe('succeeded');
    const after = await depositRow(id);
    expect(after.status_reason).toBe('changed meanwhile');
    expect(after.fee).not.toBeNull();
  });
});
