// The payment event log and its live fan-out on a real database: NOTIFY delivered once per commit
// and never after a rollback (PGlite included), ordered catch-up paging, and two instances.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { PAYMENT_EVENTS_CHANNEL } from '../../src/modules/events/payment-event.types.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { collectNotifications } from '../support/notifications.js';
import type { TestDatabase } from '../support/database.js';
import { eventsOf, insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());


const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Appends a status event for `deposit` in its own transaction; `inside` runs before commit. */
async function appendEvent(deposit: Deposit, inside: () => Promise<void> = async () => undefined): Promise<void> {
  await t.gateway.db.fork().transactional(async (tx) => {
    const locked = await tx.findOneOrFail(Deposit, { id: deposit.id });
    await t.gateway.services.events.append(tx, {
      subjectType: 'deposit',
      subjectId: locked.id,
      clientId: locked.clientId,
      type: 'deposit.status_changed',
      fromStatus: 'PENDING',
      toStatus: 'PENDING',
      deposit: locked,
    });
    await inside();
  });
}

describe(`the event bus (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('delivers a notification after commit, not before, exactly once', async () => {
    // given
    const deposit = await insertDeposit(t);
    const live = collectNotifications(t.gateway.services.pubsub);

    // when / then: nothing while the transaction is open
    await appendEvent(deposit, async () => {
      await pause(200);
      expect(live.seen.filter((n) => n.subjectId === deposit.id)).toEqual([]);
    });

    // then: one after commit, carrying the snapshot
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await pause(200);
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
      deposit: expect.objectContaining({ id: deposit.id, amount: '10.00', currency: 'EUR', status: 'PENDING' }),
    });
  });

  it('a rolled-back transaction notifies nobody and leaves no row', async () => {
    const deposit = await insertDeposit(t);
    const live = collectNotifications(t.gateway.services.pubsub);
    await expect(
      appendEvent(deposit, async () => {
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    // A later committed event proves the channel is live, so silence above was not a dead bus.
    const other = await insertDeposit(t);
    await appendEvent(other);
    await expect.poll(() => live.seen.some((n) => n.subjectId === other.id)).toBe(true);
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
    const live = collectNotifications(t.gateway.services.pubsub);
    await appendEvent(deposit);
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    live.stop();
    expect(live.seen.find((n) => n.subjectId === deposit.id)!.deposit).toMatchObject({ id: deposit.id, redirectUrl: loaded.redirectUrl });
  });

  it('drops a malformed notification and keeps delivering', async () => {
    const live = collectNotifications(t.gateway.services.pubsub);
    await t.gateway.db.fork().execute('select pg_notify(?, ?)', [PAYMENT_EVENTS_CHANNEL, '{"not":"an event"}']);
    const deposit = await insertDeposit(t);
    await appendEvent(deposit);
    await expect.poll(() => live.seen.some((n) => n.subjectId === deposit.id)).toBe(true);
    live.stop();
    expect(live.seen.every((n) => typeof n.position === 'string')).toBe(true);
    expect(t.logs.some((line) => line.includes('ignored a malformed payment event notification'))).toBe(true);
  });
});

describe('the event log', () => {
  it('pages in position order, strictly after the cursor, for one viewer or for every client', async () => {
    // given: events for two clients, interleaved
    const [first, second] = t.gateway.demoClients;
    const mine = [await insertDeposit(t, { clientId: first!.id }), await insertDeposit(t, { clientId: first!.id })];
    const theirs = await insertDeposit(t, { clientId: second!.id });
    const start = await t.gateway.services.events.page(t.gateway.db.fork(), { limit: 1_000 });
    const cursor = start.at(-1)?.position;
    for (const deposit of [mine[0]!, theirs, mine[1]!]) {
      expect((await sendWebhook(t, paymentEnvelope(deposit, 'approved'))).body.outcome).toBe('applied');
    }
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
    const onA = collectNotifications(t.gateway.services.pubsub);
    const onB = collectNotifications(b.gateway.services.pubsub);

    // when: the same webhook twice to A and once to B (a provider retry landing elsewhere)
    const envelope = paymentEnvelope(deposit, 'approved');
    const bytes = JSON.stringify(envelope);
    const outcomes = [(await sendWebhook(t, bytes)).body.outcome, (await sendWebhook(b, bytes)).body.outcome, (await sendWebhook(t, bytes)).body.outcome];

    // then
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    await expect.poll(() => onB.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await expect.poll(() => onA.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await pause(300);
    onA.stop();
    onB.stop();
    for (const seen of [onA.seen, onB.seen]) {
      const mine = seen.filter((n) => n.subjectId === deposit.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ toStatus: 'SUCCEEDED', deposit: { status: 'SUCCEEDED' } });
    }
  });
});
