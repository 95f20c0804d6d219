// The late commit a lock-free event log must never skip, as a scenario two test files run: two
// transactions of the gateway's database interleave the way that once broke a cursor. B draws a
// lower position while A (whose transaction id is older) draws a higher one and commits first;
// neither `events(after:)` paging nor a live subscriber may see A's event before B's ends.

import pg from 'pg';
import { expect } from 'vitest';
import { EVENT_BUS_SQL_MARK } from '../../src/kernel/events/event-bus.js';
import { MARK_SQL } from '../../src/kernel/events/event-log.js';
import type { TestDatabase } from '../support/database.js';
import type { TestGateway } from '../support/gateway.js';
import { collectNotifications } from '../support/notifications.js';
import { insertDeposit } from '../webhooks/support.js';

/** Inserts an event as any writer does (the trigger draws its position) and returns the position. */
export async function appendRaw(session: pg.Client, subjectId: string, clientId: string): Promise<bigint> {
  const { rows } = await session.query<{ position: string }>(
    `insert into payment_event (id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at)
     values ('evt_' || substr(md5(random()::text), 1, 24), 'deposit', $1, $2, 'dg-test', false, 'deposit.status_changed', 'PENDING', 'PENDING', '{}', now())
     returning position::text`,
    [subjectId, clientId],
  );
  return BigInt(rows[0]!.position);
}

export interface LateCommitOptions {
  /** Told A's transaction id once A has one (before B begins). */
  onFirstTransaction?(xid: bigint): void;
  /** Run at the end, after both events were read in order (e.g. what else must still hold). */
  afterward?(): Promise<void>;
}

/** Runs the scenario against a gateway on PostgreSQL, asserting every step. */
export async function lateCommitIsNeverSkipped(t: TestGateway & { database: TestDatabase }, options: LateCommitOptions = {}): Promise<void> {
  const deposits = [await insertDeposit(t), await insertDeposit(t)];
  const [a, b] = deposits as [(typeof deposits)[0], (typeof deposits)[0]];
  const events = t.gateway.services.events;
  const cursor = (await events.page(t.gateway.db.fork(), { limit: 10_000 })).at(-1)?.position;
  const live = await collectNotifications(t.gateway.services.pubsub);
  const sessionA = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
  const sessionB = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
  await sessionA.connect();
  await sessionB.connect();
  try {
    // given: A has its transaction id first, B then draws a position, then A draws a higher one and commits
    await sessionA.query('begin');
    const { rows } = await sessionA.query<{ xid: string }>('select pg_current_xact_id()::text as xid');
    options.onFirstTransaction?.(BigInt(rows[0]!.xid));
    await sessionB.query('begin');
    const positionB = await appendRaw(sessionB, b.id, b.clientId);
    const positionA = await appendRaw(sessionA, a.id, a.clientId);
    expect(positionA).toBeGreaterThan(positionB);
    await sessionA.query('commit');

    // when: readers look while B is still open: the live subscriber's bus reads the log (woken,
    // as by any commit) and has published what it found once it starts a read after that one
    // (its reads never overlap) ...
    const busReads: string[] = [];
    const unwatch = t.gateway.db.watchQueries((sql) => {
      if (sql.includes(EVENT_BUS_SQL_MARK)) busReads.push(sql);
    });
    try {
      t.gateway.eventBus.wake();
      await expect.poll(() => busReads.length, { interval: 5 }).toBeGreaterThanOrEqual(1);
      t.gateway.eventBus.wake();
      await expect.poll(() => busReads.length, { interval: 5 }).toBeGreaterThanOrEqual(2);
    } finally {
      unwatch();
    }
    // ... and a page is read (a mark written now covers both positions, as the relay or a bus would write it)
    await t.gateway.db.fork().execute(`with mark as (${MARK_SQL}) select 1`);
    const whileOpen = await events.page(t.gateway.db.fork(), { after: cursor, limit: 10 });

    // then: A's committed event is held back, since B's lower position could still commit
    expect(whileOpen.map((event) => event.subjectId)).not.toContain(a.id);
    expect(live.seen.map((event) => event.subjectId)).not.toContain(a.id);

    // when: B commits
    await sessionB.query('commit');

    // then: both, in position order, for the pager and for the live subscriber
    await expect
      .poll(async () => (await events.page(t.gateway.db.fork(), { after: cursor, limit: 10 })).map((event) => event.subjectId))
      .toEqual([b.id, a.id]);
    await expect.poll(() => live.seen.filter((event) => event.subjectId === a.id || event.subjectId === b.id).map((event) => event.subjectId)).toEqual([b.id, a.id]);
    await options.afterward?.();
  } finally {
    live.stop();
    await sessionA.query('rollback').catch(() => undefined);
    await sessionB.query('rollback').catch(() => undefined);
    await sessionA.end();
    await sessionB.end();
  }
}
