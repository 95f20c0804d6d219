// Live updates follow the gateway's own database only. A write transaction held open in another
// database on the same PostgreSQL server (a long migration, a batch job) holds the server-wide
// snapshot xmin back for as long as it runs; it must change nothing for subscribers and
// `events(after:)`, while a late commit in the gateway's own database is still never skipped.
// PostgreSQL only: PGlite is one database inside the process.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositUpdatedSubscription } from '../deposits/operations.js';
import { collect, eventsAfter, subscribed } from '../deposits/support.js';
import { dropDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { lateCommitIsNeverSkipped } from './late-commit.js';

interface HeldTransaction {
  /** Its transaction id (64-bit, as text). */
  xid: string;
  /** Whether it is still open, with the same id. */
  stillOpen(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * A database of its own on the gateway's server, with a transaction in it that has written (so it
 * has a transaction id) and stays open until `release`.
 */
async function holdWriteInAnotherDatabase(): Promise<HeldTransaction> {
  const name = `gw_other_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const session = new pg.Client({ connectionString: url.toString() });
  await session.connect();
  await session.query('begin');
  await session.query('create table batch_job (id int)');
  await session.query('insert into batch_job values (1)');
  const { rows } = await session.query<{ xid: string; pid: number }>('select pg_current_xact_id()::text as xid, pg_backend_pid() as pid');
  const { xid, pid } = rows[0]!;
  return {
    xid,
    async stillOpen() {
      const { rows: found } = await admin.query<{ xid: string | null }>('select backend_xid::text as xid from pg_stat_activity where pid = $1', [pid]);
      // backend_xid is the 32-bit form of the id.
      return found[0]?.xid === String(BigInt(xid) % 2n ** 32n);
    },
    async release() {
      await session.query('rollback').catch(() => undefined);
      await session.end();
      await dropDatabase(admin, name);
      await admin.end();
    },
  };
}

describe.skipIf(!process.env.DATABASE_URL)('a write transaction held open in another database on the same server', () => {
  let t: TestGateway & { database: TestDatabase };
  let held: HeldTransaction;
  beforeAll(async () => {
    t = await startTestGateway();
    held = await holdWriteInAnotherDatabase();
  });
  afterAll(async () => {
    await held?.release();
    await t?.close();
  });

  it('holds back neither subscribers nor events(after:): a deposit and its provider webhooks arrive live and in the log', async () => {
    // given: the other database's transaction holds back the snapshot xmin of the whole server,
    // as seen from the gateway's database (what finality followed before)
    const probe = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
    await probe.connect();
    try {
      await probe.query('select pg_current_xact_id()');
      const { rows } = await probe.query<{ xmin: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin');
      expect(BigInt(rows[0]!.xmin)).toBeLessThanOrEqual(BigInt(held.xid));
    } finally {
      await probe.end();
    }
    const { cursor } = await eventsAfter(t.gateway.graphqlUrl, t.keys.webCashier);
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));

    try {
      // when: a cashier creates a deposit; the sandbox approves it and delivers its signed webhook
      const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
      expect(created.errors).toBeUndefined();
      expect(created.data!.createDeposit.userErrors).toEqual([]);
      const id = created.data!.createDeposit.deposit!.id;

      // then: the subscriber sees the approval and the fee and net fetched after it ...
      await updates.until((update) => update.id === id && update.status === 'SUCCEEDED');
      await updates.until((update) => update.id === id && update.fee !== null);
      // ... and a client catching up reads every change of the deposit, in order. A page may stop
      // short while a transaction of the gateway's own database that may still commit a lower
      // position is open past the page's settle wait, as on a busy machine; the client reads again.
      const changesOfDeposit = async () => {
        const { nodes } = await eventsAfter(t.gateway.graphqlUrl, t.keys.webCashier, { after: cursor });
        return nodes.filter((node) => node.subjectId === id).map((node) => [node.type, node.toStatus]);
      };
      await expect.poll(changesOfDeposit).toEqual([
        ['deposit.created', 'PENDING'],
        ['deposit.status_changed', 'SUCCEEDED'],
        ['deposit.details_updated', 'SUCCEEDED'],
      ]);
      // all while the other database's transaction was open
      expect(await held.stillOpen()).toBe(true);
    } finally {
      updates.stop();
      await ws.dispose();
    }
  });

  it("still holds back an event while a lower position of the gateway's own database may commit, and reads both once it has", async () => {
    // All younger than the other database's transaction, which stays open throughout.
    await lateCommitIsNeverSkipped(t, {
      onFirstTransaction: (xid) => expect(xid).toBeGreaterThan(BigInt(held.xid)),
      afterward: async () => expect(await held.stillOpen()).toBe(true),
    });
  });
});
