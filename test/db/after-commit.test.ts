// Work this process runs after a commit (`onCommitted`: the event log handing its events to the
// live fan-out) cannot make a committed transaction look failed: a callback that throws is logged,
// the others still run, the commit's wake-ups still go out, and the caller gets its answer. On
// PostgreSQL the wake-ups for the other instances are on the wire before that work starts.

import { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onCommitted, signalOnCommit } from '../../src/db/commit-signals.js';
import { inTransaction } from '../../src/db/transaction.js';
import type { TestDatabase } from '../support/database.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const CHANNEL = 'after_commit_test';
const FAILED = 'work after a commit failed; the transaction stands';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.db.fork().execute('create table after_commit_scratch (x int primary key)');
});
afterAll(() => t?.close());

async function rows(): Promise<number[]> {
  return (await t.gateway.db.fork().execute<Array<{ x: number }>>('select x from after_commit_scratch order by x')).map((row) => row.x);
}

/** The error lines the database logged for failed after-commit work, by their error's message. */
function failures(): string[] {
  return t.logs
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } })
    .filter((line) => line.msg === FAILED && line.level === 50)
    .map((line) => line.err?.message ?? '');
}

describe('work after a commit', () => {
  it('that throws leaves the transaction committed and answered; the other callbacks run, its wake-ups go out, the error is logged', async () => {
    const heard: string[] = [];
    const unlisten = await t.gateway.db.listen(CHANNEL, (payload) => heard.push(payload));
    const ran: string[] = [];
    try {
      const answer = await inTransaction(t.gateway.db.fork(), async (tx) => {
        await tx.execute('insert into after_commit_scratch values (1)');
        signalOnCommit(tx, CHANNEL, 'committed-1');
        onCommitted(tx, () => {
          throw new Error('fan-out failed after commit 1');
        });
        onCommitted(tx, () => ran.push('after the failed one'));
        return 'answered';
      });

      expect(answer).toBe('answered');
      expect(await rows()).toEqual([1]);
      expect(ran).toEqual(['after the failed one']);
      await expect.poll(() => heard).toContain('committed-1');
      expect(failures()).toContain('fan-out failed after commit 1');
    } finally {
      await unlisten();
    }
  });

  it('of a statement run on its own, which has committed when it returns: the error is logged, not thrown at the caller', async () => {
    const em = t.gateway.db.fork();
    await em.execute('insert into after_commit_scratch values (2)');
    expect(() =>
      onCommitted(em, () => {
        throw new Error('fan-out failed after statement 2');
      }),
    ).not.toThrow();
    expect(await rows()).toEqual([1, 2]);
    expect(failures()).toContain('fan-out failed after statement 2');
  });

  it('never runs after a rollback', async () => {
    const ran: string[] = [];
    await expect(
      inTransaction(t.gateway.db.fork(), async (tx) => {
        await tx.execute('insert into after_commit_scratch values (3)');
        onCommitted(tx, () => ran.push('rolled back'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(ran).toEqual([]);
    expect(await rows()).toEqual([1, 2]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('wake-ups for the other instances (PostgreSQL)', () => {
  it('are written to PostgreSQL before the work this process does at the commit, which they do not wait for', async () => {
    // given: another session listening on the channel, as another instance's does, and the relay's session open (a first wake-up heard)
    const other = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
    await other.connect();
    const heard: string[] = [];
    other.on('notification', (message) => heard.push(message.payload ?? ''));
    await other.query(`LISTEN ${CHANNEL}`);
    try {
      await inTransaction(t.gateway.db.fork(), async (tx) => signalOnCommit(tx, CHANNEL, 'first'));
      await expect.poll(() => heard).toContain('first');

      // when: a transaction signals the channel, and work registered for its commit looks at what
      // this process has written to its sockets by then
      const writes = vi.spyOn(Socket.prototype, 'write');
      let wokenFirst: boolean | undefined;
      try {
        await inTransaction(t.gateway.db.fork(), async (tx) => {
          signalOnCommit(tx, CHANNEL, 'ahead-of-the-work');
          onCommitted(tx, () => {
            wokenFirst = writes.mock.calls.some(([chunk]) => Buffer.isBuffer(chunk) && chunk.includes('ahead-of-the-work'));
          });
        });
      } finally {
        writes.mockRestore();
      }

      // then: the wake-up was on its way already, and the other session hears it
      expect(wokenFirst).toBe(true);
      await expect.poll(() => heard).toContain('ahead-of-the-work');
    } finally {
      await other.end();
    }
  });
});
