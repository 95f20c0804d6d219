// The payment event log and its live fan-out on a real database: each event published once after
// its commit and never after a rollback (PGlite included), large snapshots, ordered catch-up
// paging, two instances, no event lost for live subscribers when the LISTEN connection or the bus's
// own session drops, and no reads of the log while nobody subscribes (a subscription then joins at
// the head, missing nothing).

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { toDepositSnapshot } from '../../src/modules/deposits/deposit-snapshot.js';
import { Payout } from '../../src/modules/payouts/payout.entity.js';
import { PAYMENT_EVENTS_CHANNEL, PAYMENT_EVENTS_TOPIC, type EventNotification } from '../../src/kernel/events/event-notification.js';
import { toEventNotification, type AppendEventInput } from '../../src/kernel/events/event-log.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation, PayoutUpdatedSubscription } from '../payouts/operations.js';
import { DepositUpdatedSubscription } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { collectNotifications } from '../support/notifications.js';
import { wsClient } from '../support/ws.js';
import type { TestDatabase } from '../support/database.js';
import { eventsOf, insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** A status event of `deposit` that changes nothing (PENDING to PENDING), with its snapshot. */
function statusEvent(deposit: Deposit): AppendEventInput {
  return {
    subjectType: 'deposit',
    subjectId: deposit.id,
    clientId: deposit.clientId,
    type: 'deposit.status_changed',
    fromStatus: 'PENDING',
    toStatus: 'PENDING',
    merchantAccount: deposit.merchantAccount,
    snapshot: toDepositSnapshot(deposit),
  };
}

/** Appends a status event for `deposit` in its own transaction; `inside` runs before commit. */
async function appendEvent(deposit: Deposit, inside: () => Promise<void> = async () => undefined): Promise<void> {
  await t.gateway.db.fork().transactional(async (tx) => {
    const locked = await tx.findOneOrFail(Deposit, { id: deposit.id });
    await t.gateway.services.events.append(tx, statusEvent(locked));
    await inside();
  });
}

/** Appends a status event for `deposit` in its own transaction; resolves with its position once committed. */
async function appendEventAt(deposit: Deposit): Promise<string> {
  const event = await t.gateway.db.fork().transactional((tx) => t.gateway.services.events.append(tx, statusEvent(deposit)));
  return String(event.position);
}

/**
 * Every notification this instance publishes once the subscription has joined, recorded as
 * `publish` hands it over (no hop through an async iterator, as in collectNotifications): what
 * `seen` holds at any moment is everything published before it.
 */
async function publishedFromNow(): Promise<{ seen: EventNotification[]; stop(): void }> {
  const seen: EventNotification[] = [];
  const subscription = t.gateway.services.pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC);
  expect(subscription.attach({ offer: (notification) => void seen.push(notification), end: () => undefined })).toBe(true);
  await expect.poll(() => subscription.joined, { interval: 5 }).toBe(true);
  return { seen, stop: () => void subscription.return() };
}

/**
 * Commits an event of a new deposit and waits until each of `seen` holds it. The bus publishes in
 * position order, so whatever it still had to publish before that event (a repeat, one out of
 * order) has arrived by then, and a live channel is shown to be live.
 */
async function laterEventSeen(...seen: EventNotification[][]): Promise<void> {
  const later = await insertDeposit(t);
  await appendEvent(later);
  for (const list of seen) await expect.poll(() => list.some((n) => n.subjectId === later.id)).toBe(true);
}

/** Once the earlier tests' subscriptions are gone, one commit the bus leaves unread: it no longer follows the log. */
async function idleBus(deposit: Deposit): Promise<void> {
  await expect.poll(() => t.gateway.services.pubsub.hasSubscribers(PAYMENT_EVENTS_TOPIC)).toBe(false);
  await appendEvent(deposit);
  await expect.poll(() => t.gateway.eventBus.following).toBe(false);
}

describe(`the event bus (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('delivers a notification after commit, not before, exactly once', async () => {
    // given
    const deposit = await insertDeposit(t);
    const live = await publishedFromNow();

    // when / then: nothing published while the transaction is open, up to its last statement
    // (no other session can read its row before it commits: only this process could publish it)
    await appendEvent(deposit, async () => {
      expect(live.seen.filter((n) => n.subjectId === deposit.id)).toEqual([]);
    });

    // then: one after commit, carrying the snapshot, and no repeat before an event committed after
    // it (the bus publishes in position order: a repeat would come before that one)
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await laterEventSeen(live.seen);
    const mine = live.seen.filter((n) => n.subjectId === deposit.id);
    live.stop();
    expect(mine).toHaveLength(1);
    const [row] = await eventsOf(t, deposit.id);
    expect(mine[0]).toEqual({
      position: String(row!.position),
      id: row!.id,
      type: 'deposit.status_changed',
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      merchantAccount: deposit.merchantAccount,
      fromStatus: 'PENDING',
      toStatus: 'PENDING',
      createdAt: row!.createdAt.toISOString(),
      snapshot: expect.objectContaining({ id: deposit.id, amount: '10.00', currency: 'EUR', status: 'PENDING' }),
    });
  });

  it('publishes an event appended under a savepoint only once the whole transaction has committed', async () => {
    // given
    const deposit = await insertDeposit(t);
    const live = await publishedFromNow();

    // when: the append in a nested transaction (a savepoint), released before the outer one commits
    await t.gateway.db.fork().transactional(async (outer) => {
      await outer.transactional(async (inner) => {
        await t.gateway.services.events.append(inner, statusEvent(deposit));
      });
      // then: the savepoint's release committed nothing, and nothing is published
      expect(live.seen.filter((n) => n.subjectId === deposit.id)).toEqual([]);
    });

    // then: once, after the commit
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await laterEventSeen(live.seen);
    live.stop();
    expect(live.seen.filter((n) => n.subjectId === deposit.id)).toHaveLength(1);
  });

  it('a rolled-back transaction notifies nobody and leaves no row', async () => {
    const deposit = await insertDeposit(t);
    const live = await collectNotifications(t.gateway.services.pubsub);
    await expect(
      appendEvent(deposit, async () => {
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    // A later committed event proves the channel is live, so silence above was not a dead bus.
    await laterEventSeen(live.seen);
    live.stop();
    expect(live.seen.filter((n) => n.subjectId === deposit.id)).toEqual([]);
    expect(await eventsOf(t, deposit.id)).toEqual([]);
  });

  it('a snapshot too large for NOTIFY is read back from the committed row', async () => {
    const deposit = await insertDeposit(t);
    const em = t.gateway.db.fork();
    const loaded = await em.findOneOrFail(Deposit, { id: deposit.id });
    loaded.redirectUrl = `https://checkout.example/${'r'.repeat(9000)}`;
    await em.flush();
    const live = await collectNotifications(t.gateway.services.pubsub);
    await appendEvent(deposit);
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    live.stop();
    expect(live.seen.find((n) => n.subjectId === deposit.id)!.snapshot).toMatchObject({ id: deposit.id, redirectUrl: loaded.redirectUrl });
  });

  it('an oversized payout event still reaches its subscriber, with its snapshot', async () => {
    // given: a payout whose provider webhook has not arrived yet, and whose stored beneficiary
    // makes its snapshot too large for NOTIFY (only rows written outside today's input limits
    // can be that large, so the row is enlarged directly, as the deposit test above does)
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    sandbox.webhooks({ dropNext: 1 });
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: t.keys.admin });
    expect(created.errors).toBeUndefined();
    await sandbox.idle();
    const em = t.gateway.db.fork();
    const payout = await em.findOneOrFail(Payout, { id: created.data!.createPayout.payout!.id });
    expect(payout.status).toBe('PENDING');
    payout.beneficiary = { ...payout.beneficiary, name: `Ana ${'Silva '.repeat(1600)}`.trim() };
    await em.flush();
    const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const updates = await subscribed(t, () => collect(client, PayoutUpdatedSubscription, { id: payout.id }));

    // when: the provider says it is paid
    const paid = {
      id: `evt_${randomBytes(10).toString('hex')}`,
      event: 'payout.paid',
      livemode: false,
      created_at: new Date().toISOString(),
      data: { reference: payout.providerReference, merchant_reference: payout.id, status: 'paid', amount: payout.amountMoney().toDecimal(), currency: payout.currency },
    };
    expect((await sendWebhook(t, paid)).body.outcome).toBe('applied');

    // then
    try {
      await updates.until((update) => update.status === 'PAID');
      expect(updates.errors).toEqual([]);
      expect(updates.messages.map((update) => [update.id, update.status])).toEqual([[payout.id, 'PAID']]);
      const [event] = (await t.gateway.services.events.forSubjects(t.gateway.db.fork(), 'payout', [payout.id])).get(payout.id)!.filter((row) => row.toStatus === 'PAID');
      expect(Buffer.byteLength(JSON.stringify(event!.data))).toBeGreaterThan(8000);
    } finally {
      updates.stop();
      await client.dispose();
    }
  });

  it('reads nothing from the log while nobody subscribes on this instance', async () => {
    // given: no subscriber, and a first commit that the bus leaves unread
    const deposit = await insertDeposit(t);
    await idleBus(deposit);
    const reads: string[] = [];
    const unwatch = t.gateway.db.watchQueries((sql) => {
      if (sql.includes('/* event-bus */')) reads.push(sql);
    });
    // Called after the bus's own listener, for the same wake-ups.
    let wakeUps = 0;
    const unlisten = await t.gateway.db.listen(PAYMENT_EVENTS_CHANNEL, () => void (wakeUps += 1));

    // when
    let events: Awaited<ReturnType<typeof eventsOf>>;
    try {
      await appendEvent(deposit);
      await appendEvent(deposit);
      // The bus has been woken by both commits (PGlite wakes it after its after-commit statement) ...
      await expect.poll(() => wakeUps, { interval: 5 }).toBeGreaterThanOrEqual(2);
      // ... and a read it started then would have been sent before a statement sent now is answered.
      events = await eventsOf(t, deposit.id);
    } finally {
      await unlisten();
      unwatch();
    }

    // then
    expect(reads).toEqual([]);
    expect(events).toHaveLength(3);
  });

  it('a subscription made while nobody subscribed gets every event committed after it joined, none committed before it, in order', async () => {
    // given: an idle bus, and two writers appending events all along
    const deposit = await insertDeposit(t);
    await idleBus(deposit);
    const writes: Array<{ position: string; startedAfterJoin: boolean; committedBeforeSubscribe: boolean }> = [];
    let phase: 'before' | 'subscribing' | 'joined' | 'done' = 'before';
    const writer = async () => {
      while (phase !== 'done') {
        const startedAfterJoin = phase === 'joined';
        const position = await appendEventAt(deposit);
        writes.push({ position, startedAfterJoin, committedBeforeSubscribe: phase === 'before' });
        // PGlite answers without leaving the microtask queue: give the timers (and the bus) a turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // PGlite runs one statement at a time: a second writer would only queue behind the first.
    const writers = (process.env.DATABASE_URL ? [writer(), writer()] : [writer()]).map((running) =>
      running.catch((error: unknown) => {
        phase = 'done';
        throw error;
      }),
    );
    let live: Awaited<ReturnType<typeof collectNotifications>>;
    try {
      await expect.poll(() => writes.length).toBeGreaterThanOrEqual(6);

      // when: a subscription is made while the writers run, and they write a few more once it joined
      phase = 'subscribing';
      live = await collectNotifications(t.gateway.services.pubsub);
      phase = 'joined';
      await expect.poll(() => writes.filter((write) => write.startedAfterJoin).length).toBeGreaterThanOrEqual(6);
    } finally {
      phase = 'done';
      await Promise.all(writers);
    }
    const last = writes.map((write) => BigInt(write.position)).reduce((a, b) => (a > b ? a : b));
    await expect.poll(() => live.seen.some((n) => BigInt(n.position) === last)).toBe(true);
    // Published in position order: once an event committed after every write is out, whatever the
    // bus was still to publish of the writes (a repeat, one out of order) has come before it.
    await laterEventSeen(live.seen);
    live.stop();

    // then
    const seen = live.seen.filter((n) => n.subjectId === deposit.id).map((n) => n.position);
    for (const write of writes.filter((w) => w.startedAfterJoin)) expect(seen).toContain(write.position);
    for (const write of writes.filter((w) => w.committedBeforeSubscribe)) expect(seen).not.toContain(write.position);
    const positions = seen.map(BigInt);
    expect(positions).toEqual([...new Set(positions)].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('takes any notification as a wake-up only: what it publishes comes from the log', async () => {
    const live = await collectNotifications(t.gateway.services.pubsub);
    await t.gateway.db.fork().execute('select pg_notify(?, ?)', [PAYMENT_EVENTS_CHANNEL, '{"not":"an event"}']);
    const deposit = await insertDeposit(t);
    await appendEvent(deposit);
    await expect.poll(() => live.seen.some((n) => n.subjectId === deposit.id)).toBe(true);
    live.stop();
    expect(live.seen.every((n) => typeof n.position === 'string' && typeof n.id === 'string')).toBe(true);
    expect(live.seen.some((n) => 'not' in n)).toBe(false);
  });
});

/**
 * Resolves once every committed event is final. A write transaction anywhere on the PostgreSQL
 * server holds the log back while it runs: another test file's, on a busy machine, can outlast the
 * short wait of a page, which then comes back short (and a client pages again). A test that checks
 * a page's exact contents waits for this first.
 */
async function logIsFinal(): Promise<void> {
  await expect.poll(() => t.gateway.services.events.isFinal(t.gateway.db.fork()), { timeout: 30_000, interval: 20 }).toBe(true);
}

describe('the event log', () => {
  it('pages in position order, strictly after the cursor, for one viewer or for every client', async () => {
    // given: events for two clients, interleaved
    const [first, second] = t.gateway.demoClients;
    const mine = [await insertDeposit(t, { clientId: first!.id }), await insertDeposit(t, { clientId: first!.id })];
    const theirs = await insertDeposit(t, { clientId: second!.id });
    await logIsFinal();
    const start = await t.gateway.services.events.page(t.gateway.db.fork(), { limit: 1_000 });
    const cursor = start.at(-1)?.position;
    for (const deposit of [mine[0]!, theirs, mine[1]!]) {
      expect((await sendWebhook(t, paymentEnvelope(deposit, 'approved'))).body.outcome).toBe('applied');
    }
    await logIsFinal();
    const events = t.gateway.services.events;

    // when
    const all = await events.page(t.gateway.db.fork(), { after: cursor, limit: 10 });
    const firstPage = await events.page(t.gateway.db.fork(), { after: cursor, limit: 1, viewer: first! });
    const secondPage = await events.page(t.gateway.db.fork(), { after: firstPage[0]!.position, limit: 10, viewer: first! });

    // then
    expect(all.map((event) => event.subjectId)).toEqual([mine[0]!.id, theirs.id, mine[1]!.id]);
    const positions = all.map((event) => BigInt(event.position));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    expect(firstPage.map((event) => event.subjectId)).toEqual([mine[0]!.id]);
    expect(secondPage.map((event) => event.subjectId)).toEqual([mine[1]!.id]);
    expect(await events.page(t.gateway.db.fork(), { after: all.at(-1)!.position, limit: 10 })).toEqual([]);
    expect(() => events.page(t.gateway.db.fork(), { after: '1; drop table', limit: 1 })).toThrow(RangeError);
  });

  it('reads the events of many subjects in one query, grouped by subject', async () => {
    const a = await insertDeposit(t);
    const b = await insertDeposit(t);
    await sendWebhook(t, paymentEnvelope(a, 'approved'));
    await sendWebhook(t, paymentEnvelope(b, 'declined'));
    const grouped = await t.gateway.services.events.forSubjects(t.gateway.db.fork(), 'deposit', [a.id, b.id, 'dep_none']);
    expect(grouped.get(a.id)!.map((event) => event.toStatus)).toEqual(['SUCCEEDED']);
    expect(grouped.get(b.id)!.map((event) => event.toStatus)).toEqual(['DECLINED']);
    expect(grouped.get('dep_none')).toEqual([]);
  });
});

// Two instances cannot share one PGlite directory: cross-instance fan-out is PostgreSQL's.
describe.skipIf(!process.env.DATABASE_URL)('two gateway instances on one database', () => {
  let b: TestGateway;
  beforeAll(async () => {
    b = await startTestGateway({ database: t.database });
  });
  afterAll(() => b?.close());

  it('a webhook sent to instance A reaches subscribers on A and on B, once each', async () => {
    // given
    const deposit = await insertDeposit(t);
    const onA = await collectNotifications(t.gateway.services.pubsub);
    const onB = await collectNotifications(b.gateway.services.pubsub);

    // when: the same webhook twice to A and once to B (a provider retry landing elsewhere)
    const envelope = paymentEnvelope(deposit, 'approved');
    const bytes = JSON.stringify(envelope);
    const outcomes = [(await sendWebhook(t, bytes)).body.outcome, (await sendWebhook(b, bytes)).body.outcome, (await sendWebhook(t, bytes)).body.outcome];

    // then
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    // (An event is published once final: a write transaction elsewhere on the server can hold it back a while.)
    await expect.poll(() => onB.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await expect.poll(() => onA.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    // A repeat would come before an event committed after it, on each instance (published in position order).
    await laterEventSeen(onA.seen, onB.seen);
    onA.stop();
    onB.stop();
    for (const seen of [onA.seen, onB.seen]) {
      const mine = seen.filter((n) => n.subjectId === deposit.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ toStatus: 'SUCCEEDED', snapshot: { status: 'SUCCEEDED' } });
    }
  });
});

// A second session holding the marks' table is PostgreSQL's.
describe.skipIf(!process.env.DATABASE_URL)('an event this instance commits', () => {
  it('reaches its subscribers at once, while the log cannot even be read, once and as the log holds it', async () => {
    // given: a subscription the bus follows the log for, caught up, with no read in flight (the
    // next one is the safety poll, seconds after the last)
    const deposit = await insertDeposit(t);
    const live = await publishedFromNow();
    await laterEventSeen(live.seen);
    const admin = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
    await admin.connect();
    try {
      // (the bus's own word that its read is over, and that none is due before the safety poll)
      await expect.poll(() => t.gateway.eventBus.idle, { interval: 5 }).toBe(true);
      // and a session holding the marks' table: every read of the log, which writes a mark first, waits
      await admin.query('begin');
      await admin.query('lock table payment_event_horizon in exclusive mode');

      // when: the provider's approval, a transition of this instance
      expect((await sendWebhook(t, JSON.stringify(paymentEnvelope(deposit, 'approved')))).body.outcome).toBe('applied');

      // then: published from the transition's own statement, with no read of the log
      await expect.poll(() => live.seen.some((n) => n.subjectId === deposit.id && n.toStatus === 'SUCCEEDED')).toBe(true);
    } finally {
      await admin.query('rollback');
      await admin.end();
    }

    // and once the log reads again: no repeat (it would come before an event committed later),
    // each one what a read of its row gives
    await laterEventSeen(live.seen);
    live.stop();
    const mine = live.seen.filter((n) => n.subjectId === deposit.id);
    expect(new Set(mine.map((n) => n.position)).size).toBe(mine.length);
    const rows = await eventsOf(t, deposit.id);
    for (const notification of mine) expect(notification).toEqual(toEventNotification(rows.find((row) => String(row.position) === notification.position)!));
  });
});

/**
 * For the tests that cut a connection (PostgreSQL): `count` deposits, a live admin subscriber to
 * every deposit change, and a client of the server to cut connections with.
 */
async function liveSubscriberOf(count: number) {
  const deposits: Deposit[] = [];
  for (let i = 0; i < count; i++) deposits.push(await insertDeposit(t));
  const ours = new Set(deposits.map((deposit) => deposit.id));
  const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
  const updates = await subscribed(t, () => collect(client, DepositUpdatedSubscription, {}));
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  return {
    deposits,
    updates,
    admin,
    database: new URL(t.database.env.DATABASE_URL!).pathname.slice(1),
    /** The updates about these deposits, as [id, status], in the order they arrived. */
    ourUpdates: () => updates.messages.filter((update) => ours.has(update.id)).map((update) => [update.id, update.status]),
    async close() {
      updates.stop();
      await client.dispose();
      await admin.end();
    },
  };
}

// PGlite's LISTEN runs in the process and cannot drop; a connection to cut is PostgreSQL's.
describe.skipIf(!process.env.DATABASE_URL)('the LISTEN connection drops and comes back', () => {
  /** LISTEN backends of the test database (the gateway's notification connection). */
  async function listenBackends(admin: pg.Client, database: string): Promise<number[]> {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN %' AND pid <> pg_backend_pid()",
      [database],
    );
    return rows.map((row) => row.pid);
  }

  it('a subscriber receives every change committed while it was down, once each and in commit order', async () => {
    // given: five deposits, a live admin subscriber, and one change it has already seen
    const live = await liveSubscriberOf(5);
    const { updates, admin, database } = live;
    const [seen, gap1, gap2, gap3, after] = live.deposits as [Deposit, Deposit, Deposit, Deposit, Deposit];
    try {
      expect((await sendWebhook(t, paymentEnvelope(seen, 'approved'))).body.outcome).toBe('applied');
      await updates.until((update) => update.id === seen.id);
      expect(await listenBackends(admin, database)).toHaveLength(1);

      // when: the LISTEN connection is cut and cannot come back (the pool's open connections
      // still serve the webhooks, their follow-up jobs and the bus's reads: a few are opened
      // first, as a busy instance would have them), and three changes commit meanwhile
      await Promise.all(Array.from({ length: 6 }, () => t.gateway.db.fork().execute('select pg_sleep(0.05)')));
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
      try {
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN %'", [database]);
        await expect.poll(() => listenBackends(admin, database)).toEqual([]);
        expect((await sendWebhook(t, paymentEnvelope(gap1, 'approved'))).body.outcome).toBe('applied');
        expect((await sendWebhook(t, paymentEnvelope(gap2, 'declined'))).body.outcome).toBe('applied');
        expect((await sendWebhook(t, paymentEnvelope(gap3, 'approved'))).body.outcome).toBe('applied');
      } finally {
        await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      }
      // ... then it comes back, and one more change commits
      await expect.poll(() => listenBackends(admin, database), { interval: 100 }).toHaveLength(1);
      expect((await sendWebhook(t, paymentEnvelope(after, 'approved'))).body.outcome).toBe('applied');

      // then: every change reached the subscriber once, in the order it was committed; the last
      // one arrives after everything queued before it, so nothing is still on its way
      await updates.until((update) => update.id === after.id, 20_000);
      expect(updates.errors).toEqual([]);
      expect(live.ourUpdates()).toEqual([
        [seen.id, 'SUCCEEDED'],
        [gap1.id, 'SUCCEEDED'],
        [gap2.id, 'DECLINED'],
        [gap3.id, 'SUCCEEDED'],
        [after.id, 'SUCCEEDED'],
      ]);
      // and the catch-up is what delivered them: operators see it counted
      expect(await metric(t, /^gateway_event_bus_catch_ups_total (\d+)/m)).toBeGreaterThan(0);
    } finally {
      await live.close();
    }
  });
});

// The event bus marks and reads on a PostgreSQL session of its own (Database.markThenRead).
describe.skipIf(!process.env.DATABASE_URL)("the event bus's own session is cut", () => {
  it('the next read opens a new one: every change committed since reaches the subscriber, once and in order', async () => {
    // given: a live admin subscriber that has seen one change, so the bus's session is open
    const live = await liveSubscriberOf(4);
    const { updates, admin, database } = live;
    const [seen, next, last, after] = live.deposits as [Deposit, Deposit, Deposit, Deposit];
    const busSessions = async () =>
      (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'gateway-event-bus'", [database])).rows.map((row) => row.pid);
    try {
      expect((await sendWebhook(t, paymentEnvelope(seen, 'approved'))).body.outcome).toBe('applied');
      await updates.until((update) => update.id === seen.id);
      const sessions = await busSessions();
      expect(sessions).toEqual([expect.any(Number)]);
      const [before] = sessions;

      // when: its backend is terminated, and two changes commit
      await admin.query('SELECT pg_terminate_backend($1)', [before]);
      expect((await sendWebhook(t, paymentEnvelope(next, 'declined'))).body.outcome).toBe('applied');
      expect((await sendWebhook(t, paymentEnvelope(last, 'approved'))).body.outcome).toBe('applied');

      // then: both arrive after the first, once each (this instance's own commits need no read)
      await updates.until((update) => update.id === last.id, 20_000);
      // and the bus's next read, which their NOTIFY wakes, opens a new session and publishes nothing again
      await expect.poll(async () => {
        const now = await busSessions();
        return now.length === 1 && now[0] !== before;
      }).toBe(true);
      // A repeat would be published before a change committed after it (position order): once a
      // later change has arrived, every repeat would have too.
      expect((await sendWebhook(t, paymentEnvelope(after, 'approved'))).body.outcome).toBe('applied');
      await updates.until((update) => update.id === after.id, 20_000);
      expect(updates.errors).toEqual([]);
      expect(live.ourUpdates()).toEqual([
        [seen.id, 'SUCCEEDED'],
        [next.id, 'DECLINED'],
        [last.id, 'SUCCEEDED'],
        [after.id, 'SUCCEEDED'],
      ]);
    } finally {
      await live.close();
    }
  });
});
