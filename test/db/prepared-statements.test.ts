// The hot writes as prepared statements (src/db/prepared.ts, pg-patches.ts): parsed once per
// session, their values bound, the same rows as the ORM's inlined text gives; the first statement
// of a transaction goes with its BEGIN as text instead, still one round trip. PostgreSQL only:
// PGlite runs them through the ORM as before.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { executePrepared, PREPARED_MARK } from '../../src/db/prepared.js';
import { inTransaction } from '../../src/db/transaction.js';
import { openWireDatabase, type WireDatabase, type WireEntry } from '../support/wire.js';

let wire: WireDatabase | undefined;
let db: Database;
beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  wire = await openWireDatabase('create table prepared_scratch (id int primary key, note text, at timestamptz, flag boolean, amount numeric)');
  db = wire.db;
});
afterAll(async () => {
  await wire?.close();
});

function recorded<T>(work: () => Promise<T>): Promise<{ result: T; wire: WireEntry[] }> {
  return wire!.recorded(work);
}

/** Values a prepared statement's bound form and its inlined form must both carry exactly. */
const AWKWARD = { note: "it's $1 -- not a comment; ? neither", at: new Date('2026-11-27T19:25:54.297Z'), flag: false, amount: -12.5 };
const COLUMNS = 'id, note, at, flag, amount::text as amount';
const INSERT = `insert into prepared_scratch (id, note, at, flag, amount) values (?, ?, ?, ?, ?) returning ${COLUMNS}`;

/** Row `id` as the ORM's own statement reads it: what a prepared statement's rows must equal. */
async function readByOrm(id: number): Promise<Array<Record<string, unknown>>> {
  return db.fork().execute(`select ${COLUMNS} from prepared_scratch where id = ?`, [id]);
}

/** The awkward values came back whole: the text as given, the instant, the sign. */
function expectAwkward(row: Record<string, unknown> | undefined, id: number): void {
  expect(row).toMatchObject({ id, note: AWKWARD.note, flag: false, amount: '-12.5' });
  expect(new Date(String(row!.at)).getTime()).toBe(AWKWARD.at.getTime());
}

describe.skipIf(!process.env.DATABASE_URL)('the hot writes as prepared statements', () => {
  it('binds the values of a statement that is not the first of its transaction, and parses it once per session', async () => {
    const { result, wire } = await recorded(() =>
      inTransaction(db.fork(), async (tx) => {
        await tx.execute('select 1');
        const first = await executePrepared<Record<string, unknown>>(tx, INSERT, [1, AWKWARD.note, AWKWARD.at, AWKWARD.flag, AWKWARD.amount]);
        const second = await executePrepared<Record<string, unknown>>(tx, INSERT, [2, null, null, true, 3]);
        const prepared = await tx.execute<Array<{ statement: string }>>('select statement from pg_prepared_statements where statement like ?', [`${PREPARED_MARK}insert into prepared_scratch%`]);
        return { first, second, prepared };
      }),
    );
    expectAwkward(result.first[0], 1);
    expect(result.first).toEqual(await readByOrm(1));
    expect(result.second).toEqual([{ id: 2, note: null, at: null, flag: true, amount: '3' }]);
    expect(result.second).toEqual(await readByOrm(2));
    // One statement prepared on this session for the two runs, its values bound.
    expect(result.prepared).toHaveLength(1);
    const named = wire.filter((entry): entry is { name: string; text: string } => typeof entry === 'object' && entry.name !== undefined);
    expect(named).toHaveLength(2);
    expect(named[0]!.name).toBe(named[1]!.name);
    expect(named[0]!.text).toBe(`${PREPARED_MARK}insert into prepared_scratch (id, note, at, flag, amount) values ($1, $2, $3, $4, $5) returning id, note, at, flag, amount::text as amount`);
  });

  it('sends the first statement of a transaction with its BEGIN, as an EXECUTE of a copy the session prepared once, and gets the same rows', async () => {
    const first = await recorded(() =>
      inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, INSERT, [3, AWKWARD.note, AWKWARD.at, AWKWARD.flag, AWKWARD.amount])),
    );
    expectAwkward(first.result[0], 3);
    expect(first.result).toEqual(await readByOrm(3));
    // The first time on this session: the copy is prepared in a round trip of its own, outside the transaction.
    expect(first.wire).toHaveLength(3);
    const [, name] = /^prepare (\S+) as \/\* prepared \*\/ insert into prepared_scratch /.exec(first.wire[0] as string) ?? [];
    expect(name).toMatch(/^gateway_\d+_opening$/);
    expect(first.wire[1]).toBe(`begin; execute ${name}(3, ${pg.escapeLiteral(AWKWARD.note)}, '2026-11-27T19:25:54.297Z', false, (-12.5))`);
    expect(first.wire[2]).toBe('commit');

    // The next transaction the pool gives this session (its last released) executes the copy at once.
    const second = await recorded(() => inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, INSERT, [6, null, null, true, 7])));
    expect(second.result).toEqual([{ id: 6, note: null, at: null, flag: true, amount: '7' }]);
    expect(second.wire).toEqual([`begin; execute ${name}(6, null, null, true, 7)`, 'commit']);
  });

  it('sends a first statement whose text PostgreSQL will not prepare as its text, values written in', async () => {
    // `? is null`: PREPARE cannot tell the parameter's type, where the text with its literal can.
    const { result, wire } = await recorded(() => inTransaction(db.fork(), (tx) => executePrepared<{ missing: boolean }>(tx, 'select ? is null as missing', ['plain'])));
    expect(result).toEqual([{ missing: false }]);
    expect(wire.filter((entry) => typeof entry === 'string' && entry.startsWith('begin; '))).toEqual([`begin; ${PREPARED_MARK}select 'plain' is null as missing`]);
  });

  it('plans a prepared statement once, generically, on the sessions of the pool', async () => {
    const plans = await inTransaction(db.fork(), async (tx) => {
      await tx.execute('select 1');
      for (let id = 10; id < 20; id++) await executePrepared(tx, 'update prepared_scratch set note = ? where id = ?', ['planned', id]);
      return tx.execute<Array<{ generic_plans: string; custom_plans: string }>>(
        'select generic_plans, custom_plans from pg_prepared_statements where statement = ?',
        [`${PREPARED_MARK}update prepared_scratch set note = $1 where id = $2`],
      );
    });
    expect(plans).toEqual([{ generic_plans: '10', custom_plans: '0' }]);
  });

  it('runs on its own, outside a transaction, and commits', async () => {
    await executePrepared(db.fork(), INSERT, [4, 'alone', null, null, 0]);
    const [row] = await db.fork().execute<Array<{ note: string }>>('select note from prepared_scratch where id = 4');
    expect(row).toEqual({ note: 'alone' });
  });

  it('rolls back with its transaction when a later statement fails', async () => {
    await expect(
      inTransaction(db.fork(), async (tx) => {
        await tx.execute('select 1');
        await executePrepared(tx, INSERT, [5, 'rolled back', null, null, 0]);
        await tx.execute('insert into prepared_scratch (id) values (1)');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await db.fork().execute('select id from prepared_scratch where id = 5')).toEqual([]);
  });

  it('is seen by the query watchers as the text it was given', async () => {
    const seen: string[] = [];
    const unwatch = db.watchQueries((sql) => seen.push(sql));
    try {
      await executePrepared(db.fork(), 'select ?::int + ?::int as n', [1, 2]);
    } finally {
      unwatch();
    }
    expect(seen).toEqual(['select ?::int + ?::int as n']);
  });
});
