// A transaction's BEGIN goes to PostgreSQL with its first statement (src/db/pg-patches.ts): one round
// trip fewer per transaction, the same statements on the server in the same order, the same
// outcome on failure. PostgreSQL only: PGlite runs in the process, with no wire.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { openWireDatabase, type RoundTrip, type WireDatabase } from '../support/wire.js';

let wire: WireDatabase | undefined;
let db: Database;
beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  wire = await openWireDatabase('create table wire_scratch (x int primary key)');
  db = wire.db;
});
afterAll(async () => {
  await wire?.close();
});

/** The round trips the pg connections made while `work` ran. */
async function recorded(work: () => Promise<unknown>): Promise<RoundTrip[]> {
  return (await wire!.recorded(work)).wire;
}

/** Round trips of one simple-protocol query each. */
function simpleQueries(...texts: string[]): RoundTrip[] {
  return texts.map((text) => [{ query: text }]);
}

async function rows(): Promise<number[]> {
  return (await db.fork().execute<Array<{ x: number }>>('select x from wire_scratch order by x')).map((row) => row.x);
}

describe.skipIf(!process.env.DATABASE_URL)('a transaction on the wire', () => {
  it('sends BEGIN in one query with its first statement, then the others and COMMIT', async () => {
    const wire = await recorded(() =>
      inTransaction(db.fork(), async (tx) => {
        await tx.execute('insert into wire_scratch values (1)');
        await tx.execute('insert into wire_scratch values (2)');
      }),
    );
    expect(wire).toEqual(simpleQueries('begin; insert into wire_scratch values (1)', 'insert into wire_scratch values (2)', 'commit'));
    expect(await rows()).toEqual([1, 2]);
  });

  it('answers the first statement with its own rows', async () => {
    const answer = await inTransaction(db.fork(), (tx) => tx.execute<Array<{ x: number }>>('select x from wire_scratch where x = 2'));
    expect(answer).toEqual([{ x: 2 }]);
  });

  it('a failing first statement: the transaction rolls back and the connection serves the next one', async () => {
    await expect(inTransaction(db.fork(), (tx) => tx.execute('insert into wire_scratch values (1)'))).rejects.toThrow(/duplicate key/);
    // Every pooled connection is used again: none is left inside a transaction.
    await Promise.all(Array.from({ length: 12 }, (_, i) => inTransaction(db.fork(), (tx) => tx.execute(`insert into wire_scratch values (${100 + i})`))));
    const idle = await db.fork().execute<Array<{ n: number }>>("select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'");
    expect(idle[0]!.n).toBe(0);
    expect((await rows()).filter((x) => x < 100)).toEqual([1, 2]);
  });

  it('a failing later statement rolls back what the first one wrote', async () => {
    await expect(
      inTransaction(db.fork(), async (tx) => {
        await tx.execute('insert into wire_scratch values (3)');
        await tx.execute('insert into wire_scratch values (1)');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await rows()).filter((x) => x < 100)).toEqual([1, 2]);
  });

  it('a transaction that ends before any statement sends nothing', async () => {
    const wire = await recorded(() => inTransaction(db.fork(), async () => undefined));
    expect(wire).toEqual([]);
  });
});
