// The event log without a lock: positions are drawn in one order and committed in another, and
// still no reader skips an event. Two transactions interleave the way that broke a cursor before:
// B draws a lower position while A (whose transaction id is older) draws a higher one and commits
// first. Neither `events(after:)` paging nor a live subscriber may see A's event before B's ends.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { insertDeposit } from '../webhooks/support.js';
import { appendRaw, lateCommitIsNeverSkipped } from './late-commit.js';
import { toDepositSnapshot } from '../../src/modules/deposits/deposit-snapshot.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe.skipIf(!process.env.DATABASE_URL)('event positions drawn out of commit order (PostgreSQL)', () => {
  it('an event is read only once every lower position has committed or rolled back', async () => {
    await lateCommitIsNeverSkipped(t);
  });

  it('a rolled-back lower position holds nothing back once its transaction has ended', async () => {
    const deposit = await insertDeposit(t);
    const events = t.gateway.services.events;
    const cursor = (await events.page(t.gateway.db.fork(), { limit: 10_000 })).at(-1)?.position;
    const session = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
    await session.connect();
    try {
      await session.query('begin');
      await appendRaw(session, deposit.id, deposit.clientId);
      const other = await insertDeposit(t);
      await t.gateway.db.fork().transactional((tx) =>
        events.append(tx, { subjectType: 'deposit', subjectId: other.id, clientId: other.clientId, type: 'deposit.status_changed', fromStatus: 'PENDING', toStatus: 'PENDING', merchantAccount: other.merchantAccount, snapshot: toDepositSnapshot(other) }),
      );
      expect((await events.page(t.gateway.db.fork(), { after: cursor, limit: 10 })).map((event) => event.subjectId)).toEqual([]);
      await session.query('rollback');
      await expect.poll(async () => (await events.page(t.gateway.db.fork(), { after: cursor, limit: 10 })).map((event) => event.subjectId)).toEqual([other.id]);
    } finally {
      await session.end();
    }
  });
});
