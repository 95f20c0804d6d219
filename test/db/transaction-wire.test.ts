// A transaction's BEGIN goes to PostgreSQL with its first statement (src/db/pg-patches.ts): one round
// trip fewer per transaction, the same statements on the server in the same order, the same
// outcome on failure. PostgreSQL only: PGlite runs in the process, with no wire.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { inTransaction } from '../../src/db/transaction.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const originalQuery = pg.Client.prototype.query;
/** Query texts as they leave for the server, while recording. */
let sent: string[] | undefined;

let database: TestDatabase;
let dataDir: string;
let db: Database;
beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  // Every pg client made from here on (the pool's among them) reports what it sends.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (sent && typeof args[0] === 'string') sent.push(args[0]);
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  database = await createTestDatabase('postgresql');
  dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-wire-'));
  db = await openDatabase({ databaseUrl: database.env.DATABASE_URL!, dataDir, logger: createLogger({ level: 'silent' }), entities });
  await db.fork().execute('create table wire_scratch (x int primary key)');
});
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await db?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function recorded(work: () => Promise<unknown>): Promise<string[]> {
  sent = [];
  try {
    await work();
    return sent;
  } finally {
    sent = undefined;
  }
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
    expect(wire).toEqual(['begin; insert into wire_scratch values (1)', 'insert into wire_scratch values (2)', 'commit']);
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
