// The race the fan-out's last look closes (src/modules/notifications/notification-fanout.ts `fanout`): an
// append sees a fan-out job waiting and adds none of its own; that job then runs while the append's
// transaction is still open, and cannot see its event. The fan-out must come back for it, which it
// knows to do from pg_stat_activity (WRITER_RUNNING_SQL); CI runs this as a plain role. The sweep is
// set an hour apart, so nothing else would send the event in time. PostgreSQL only: it needs a
// transaction held open beside the gateway's worker, which one PGlite connection cannot give.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppendEventInput } from '../../src/kernel/events/event-log.js';
import { toDepositSnapshot } from '../../src/modules/deposits/deposit-snapshot.js';
import { NOTIFICATIONS_FANOUT } from '../../src/modules/notifications/notification-jobs.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { insertDeposit } from '../webhooks/support.js';
import { clientId, createEndpoint, FAST_NOTIFICATIONS, startReceiver, type Receiver } from './support.js';

const HOUR_MS = 3_600_000;

describe.skipIf(!process.env.DATABASE_URL)('an event appended while the fan-out that it counted on runs', () => {
  let t: TestGateway;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestGateway({ env: { ...FAST_NOTIFICATIONS, NOTIFICATION_SWEEP_INTERVAL_MS: String(HOUR_MS) } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** The fan-out jobs waiting or running, as the job table shows them. */
  const fanouts = async (statuses: string[]) =>
    t.gateway.db.fork().execute<Array<{ id: string; dedupe_key: string | null; status: string }>>(
      `select id, dedupe_key, status from job where kind = ? and status in (${statuses.map(() => '?').join(', ')}) order by created_at`,
      [NOTIFICATIONS_FANOUT, ...statuses],
    );

  it('is sent once its transaction commits: the fan-out looks again while a writer runs', async () => {
    // given: an admin's endpoint, nothing left to fan out, and a fan-out job waiting (due in an hour)
    await createEndpoint(t, receiver, clientId(t, 'admin'));
    const deposit = await insertDeposit(t);
    await expect.poll(() => fanouts(['pending', 'running'])).toEqual([]);
    const startedAt = new Date();
    await t.gateway.db.fork().transactional((tx) => t.gateway.services.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: 'fanout', runAt: new Date(Date.now() + HOUR_MS) }));
    const [waiting] = await fanouts(['pending']);

    // ... and a transaction that appends an event through the log, so its hook sees that job
    // waiting and adds none; the transaction stays open
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let appended!: (eventId: string) => void;
    const eventId = new Promise<string>((resolve) => (appended = resolve));
    const input: AppendEventInput = {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      merchantAccount: deposit.merchantAccount,
      type: 'deposit.status_changed',
      fromStatus: 'PENDING',
      toStatus: 'PENDING',
      snapshot: toDepositSnapshot(deposit),
    };
    const writing = t.gateway.db.fork().transactional(async (tx) => {
      const event = await t.gateway.services.events.append(tx, input);
      appended(event.id);
      await released;
    });
    const id = await eventId;

    try {
      // when: the waiting fan-out runs now, while the append is still open
      await t.gateway.db.fork().execute('update job set run_at = now() where id = ?', [waiting!.id]);
      await t.gateway.services.jobs.runDue();
      await expect.poll(async () => (await t.gateway.db.fork().execute<Array<{ status: string }>>('select status from job where id = ?', [waiting!.id]))[0]?.status).toBe('succeeded');

      // then: it could not send the event, and it left a fan-out to look again
      expect(receiver.delivered.map((received) => received.id)).not.toContain(id);
      expect((await fanouts(['pending', 'running'])).length).toBeGreaterThan(0);
    } finally {
      // when: the append commits
      release();
      await writing;
    }

    // then: the event is sent, an hour before the sweep would have looked
    await expect.poll(() => receiver.delivered.map((received) => received.id)).toContain(id);
    // ... and it was the fan-out's looking again that sent it: the append's hook added no job of its own
    const addedByHooks = await t.gateway.db.fork().execute<Array<{ id: string }>>(
      'select id from job where kind = ? and dedupe_key is null and created_at >= ?',
      [NOTIFICATIONS_FANOUT, startedAt],
    );
    expect(addedByHooks).toEqual([]);
  });
});
