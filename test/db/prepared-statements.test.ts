// The hot writes as prepared statements (src/db/prepared.ts, pg-patches.ts): parsed once per
// session, their values bound, the same rows as the ORM's inlined text gives. The first statement
// of a transaction goes with its BEGIN in one round trip of the extended protocol, its values bound
// as well: no value is ever written into a statement's text. PostgreSQL only: PGlite runs them
// through the ORM as before.

import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { executePrepared, numbered, PREPARED_MARK } from '../../src/db/prepared.js';
import { inTransaction } from '../../src/db/transaction.js';
import { openWireDatabase, sqlTexts, type RoundTrip, type WireDatabase, type WireMessage } from '../support/wire.js';

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

function recorded<T>(work: () => Promise<T>): Promise<{ result: T; wire: RoundTrip[] }> {
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

/** `sql` with `count` placeholders as src/db/prepared.ts sends it: marked, its placeholders numbered. */
function preparedText(sql: string, count: number): string {
  return `${PREPARED_MARK}${numbered(sql, count)!}`;
}

/** What a transaction's first statement sends before it, in the same round trip: BEGIN's Parse, Bind and Execute. */
const BEGIN: WireMessage[] = [{ parse: 'begin' }, { bind: '', values: [] }, 'execute'];

/** The name a round trip's Parse of `text` gave it. */
function nameParsed(trip: RoundTrip | undefined, text: string): string {
  const parse = trip?.find((message) => typeof message === 'object' && 'parse' in message && message.parse === text);
  const name = parse && typeof parse === 'object' && 'name' in parse ? parse.name : undefined;
  if (name === undefined) throw new Error(`no named Parse of ${text} in ${JSON.stringify(trip)}`);
  return name;
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
    const text = `${PREPARED_MARK}insert into prepared_scratch (id, note, at, flag, amount) values ($1, $2, $3, $4, $5) returning id, note, at, flag, amount::text as amount`;
    const name = nameParsed(wire[1], text);
    expect(wire[1]).toEqual([{ parse: text, name }, { bind: name, values: ['1', AWKWARD.note, expect.any(String), 'false', '-12.5'] }, 'describe', 'execute', 'sync']);
    expect(wire[2]).toEqual([{ bind: name, values: ['2', null, null, 'true', '3'] }, 'describe', 'execute', 'sync']);
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

// The transaction's first statement: BEGIN's Parse, Bind and Execute, then the statement's own
// messages, before one Sync (src/db/pg-patches.ts, `BeginThenStatement`). The tests run one after
// another, so the pool hands each transaction the session the one before released (its last).
describe.skipIf(!process.env.DATABASE_URL)('a prepared statement that opens its transaction', () => {
  /** A text of this block's own: no session has parsed it before. */
  const OPENING = `insert into prepared_scratch (note, id, at, flag, amount) values (?, ?, ?, ?, ?) returning ${COLUMNS}`;

  it('goes in one round trip with its BEGIN, values bound, parsed once per session under the name every run of it shares', async () => {
    const first = await recorded(() =>
      inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, OPENING, [AWKWARD.note, 30, AWKWARD.at, AWKWARD.flag, AWKWARD.amount])),
    );
    expectAwkward(first.result[0], 30);
    expect(first.result).toEqual(await readByOrm(30));
    const text = preparedText(OPENING, 5);
    const name = nameParsed(first.wire[0], text);
    expect(name).toMatch(/^gateway_\d+$/);
    expect(first.wire).toEqual([
      [...BEGIN, { parse: text, name }, { bind: name, values: [AWKWARD.note, '30', expect.any(String), 'false', '-12.5'] }, 'describe', 'execute', 'sync'],
      [{ query: 'commit' }],
    ]);

    // The next transaction on this session binds it at once, and so does pg's own path for a later
    // run in the same transaction: the session knows the statement as parsed, under its one name.
    const second = await recorded(() =>
      inTransaction(db.fork(), async (tx) => ({
        opening: await executePrepared<Record<string, unknown>>(tx, OPENING, [null, 31, null, true, 7]),
        later: await executePrepared<Record<string, unknown>>(tx, OPENING, ['later', 32, null, null, 0]),
      })),
    );
    expect(second.result.opening).toEqual([{ id: 31, note: null, at: null, flag: true, amount: '7' }]);
    expect(second.result.later).toEqual([{ id: 32, note: 'later', at: null, flag: null, amount: '0' }]);
    expect(second.wire).toEqual([
      [...BEGIN, { bind: name, values: [null, '31', null, 'true', '7'] }, 'describe', 'execute', 'sync'],
      [{ bind: name, values: ['later', '32', null, null, '0'] }, 'describe', 'execute', 'sync'],
      [{ query: 'commit' }],
    ]);
  });

  it('opens with a statement pg parsed earlier on the session, binding it under the same name', async () => {
    // INSERT was parsed by pg's own path, outside a transaction, in the block above.
    const { result, wire } = await recorded(() => inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, INSERT, [33, 'known', null, false, 1])));
    expect(result).toEqual([{ id: 33, note: 'known', at: null, flag: false, amount: '1' }]);
    expect(wire).toHaveLength(2);
    const [opening] = wire;
    expect(opening!.slice(0, 3)).toEqual(BEGIN);
    expect(opening!.slice(3)).toEqual([{ bind: expect.stringMatching(/^gateway_\d+$/), values: ['33', 'known', null, 'false', '1'] }, 'describe', 'execute', 'sync']);
  });

  it('runs in the transaction its BEGIN opened: a later failure rolls it back', async () => {
    await expect(
      inTransaction(db.fork(), async (tx) => {
        await executePrepared(tx, OPENING, ['rolled back', 34, null, null, 0]);
        await tx.execute('insert into prepared_scratch (id) values (30)');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await readByOrm(34)).toEqual([]);
  });

  it('carries values that would be hostile as text exactly, and no SQL text sent holds any of them', async () => {
    const hostile = {
      quoted: `it's a 'quote', a "double" and an empty ''`,
      backslashed: String.raw`C:\path\ and \' and E'\n' and \\ and \x00`,
      placeholders: '$1 $2::int ? ?? :name $$ $tag$',
      comment: '-- not a comment\n/* nor this */; commit; drop table prepared_scratch; --',
      long: `${"'\\x-- ".repeat(40_000)}end`,
      unicode: 'zß水🀄 \u2028 \u00a0',
    };
    const sql =
      'select ?::text as quoted, ?::text as backslashed, ?::text as placeholders, ?::text as comment, ?::text as long, ?::text as unicode, ' +
      '5 - ?::int as difference, (?::numeric)::text as amount, ?::timestamptz as at, ?::text as absent, ?::boolean as flag';
    const at = new Date('1999-12-31T23:59:59.999Z');
    const values = [hostile.quoted, hostile.backslashed, hostile.placeholders, hostile.comment, hostile.long, hostile.unicode, -3, -12.5, at, null, false];
    const { result, wire } = await recorded(() => inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, sql, values)));

    // `5 - -3`, with the value written in, would have become `5 --3`: a comment.
    expect(result).toEqual([{ ...hostile, difference: 8, amount: '-12.5', at: expect.any(String), absent: null, flag: false }]);
    expect(new Date(String(result[0]!.at)).getTime()).toBe(at.getTime());
    // Its rows parsed as pg's own path parses them (the client's type parsers: a timestamptz as text here).
    const later = await inTransaction(db.fork(), async (tx) => {
      await tx.execute('select 1');
      return executePrepared<Record<string, unknown>>(tx, sql, values);
    });
    expect(result).toEqual(later);
    expect(wire).toHaveLength(2);
    const texts = sqlTexts(wire);
    expect(texts).toEqual(['begin', preparedText(sql, values.length), 'commit']);
    for (const text of texts) for (const value of Object.values(hostile)) expect(text).not.toContain(value);
  });

  it('a failing statement rejects its caller, and the session serves the next transaction with it parsed', async () => {
    await db.fork().execute("insert into prepared_scratch (id, note) values (40, 'taken')");
    const duplicate = 'insert into prepared_scratch (id, note) values (?, ?) returning id, note';
    const failed = await recorded(() =>
      inTransaction(db.fork(), async (tx) => {
        await executePrepared(tx, duplicate, [40, 'duplicate']);
        return 'committed';
      }).catch((error: unknown) => error),
    );
    expect(failed.result).toMatchObject({ code: '23505', message: expect.stringMatching(/duplicate key/) });
    const text = preparedText(duplicate, 2);
    const name = nameParsed(failed.wire[0], text);
    // The ORM rolls back the transaction the server aborted after BEGIN.
    expect(failed.wire).toEqual([[...BEGIN, { parse: text, name }, { bind: name, values: ['40', 'duplicate'] }, 'describe', 'execute', 'sync'], [{ query: 'rollback' }]]);

    // Its Parse had succeeded before its Execute failed: the session binds it at once, and every
    // statement after it gets its own answer.
    const next = await recorded(() =>
      inTransaction(db.fork(), async (tx) => ({
        inserted: await executePrepared<Record<string, unknown>>(tx, duplicate, [41, 'next']),
        after: await tx.execute<Array<{ wrote: boolean }>>('select txid_current_if_assigned() is not null as wrote'),
      })),
    );
    expect(next.result).toEqual({ inserted: [{ id: 41, note: 'next' }], after: [{ wrote: true }] });
    expect(next.wire[0]).toEqual([...BEGIN, { bind: name, values: ['41', 'next'] }, 'describe', 'execute', 'sync']);
    expect(await db.fork().execute('select id, note from prepared_scratch where id in (40, 41) order by id')).toEqual([
      { id: 40, note: 'taken' },
      { id: 41, note: 'next' },
    ]);
    const idle = await db.fork().execute<Array<{ n: number }>>("select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'");
    expect(idle).toEqual([{ n: 0 }]);
  });

  it('a statement PostgreSQL cannot parse fails each time with its own error, as it does outside a transaction', async () => {
    // `? is null`: PostgreSQL cannot tell the parameter's type. Its Parse fails after BEGIN's has
    // succeeded, and the session must not take the statement for parsed on BEGIN's account: the
    // second run parses it again and fails the same way, not on a statement that does not exist.
    const unparsable = 'select ? is null as missing';
    for (let run = 0; run < 2; run++) {
      const { result, wire } = await recorded(() => inTransaction(db.fork(), (tx) => executePrepared(tx, unparsable, ['plain'])).catch((error: unknown) => error));
      expect(result).toMatchObject({ code: '42P18', message: expect.stringMatching(/could not determine data type of parameter \$1/) });
      expect(wire[0]).toEqual([...BEGIN, { parse: preparedText(unparsable, 1), name: expect.stringMatching(/^gateway_\d+$/) }, { bind: expect.any(String), values: ['plain'] }, 'describe', 'execute', 'sync']);
    }
    await expect(executePrepared(db.fork(), unparsable, ['plain'])).rejects.toMatchObject({ code: '42P18' });
    const served = await inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, INSERT, [42, 'served', null, null, 0]));
    expect(served).toEqual([{ id: 42, note: 'served', at: null, flag: null, amount: '0' }]);
  });

  it('a value pg cannot send rejects the statement before anything goes, BEGIN included', async () => {
    const unsendable = { toPostgres: () => { throw new Error('no wire form for this value'); } };
    const { result, wire } = await recorded(() =>
      inTransaction(db.fork(), (tx) => executePrepared(tx, 'select ?::text as v', [unsendable])).catch((error: unknown) => error),
    );
    expect(result).toMatchObject({ message: 'no wire form for this value' });
    // The ORM's ROLLBACK found the BEGIN still held: neither went.
    expect(wire).toEqual([]);
    const served = await inTransaction(db.fork(), (tx) => executePrepared<Record<string, unknown>>(tx, 'select ?::text as v', ['sent']));
    expect(served).toEqual([{ v: 'sent' }]);
  });

  it('an unnamed statement with bound values goes with its BEGIN too, and answers as itself', async () => {
    // Not marked by src/db/prepared.ts (as a text past its limit of names): parsed unnamed, after
    // BEGIN's own unnamed statement ran. Kysely reads the count of rows it inserted from the answer
    // (`INSERT 0 2`), which BEGIN's (`BEGIN`) must not stand in for.
    const insert = 'insert into prepared_scratch (id, note) values ($1, $2), ($3, $4)';
    const { result, wire } = await recorded(() => inTransaction(db.fork(), (tx) => tx.getKysely().executeQuery(CompiledQuery.raw(insert, [50, 'unnamed', 51, null]))));
    expect(result).toEqual({ rows: [], numAffectedRows: 2n });
    expect(wire).toEqual([[...BEGIN, { parse: insert }, { bind: '', values: ['50', 'unnamed', '51', null] }, 'describe', 'execute', 'sync'], [{ query: 'commit' }]]);
    expect(await db.fork().execute('select id, note from prepared_scratch where id >= 50 order by id')).toEqual([
      { id: 50, note: 'unnamed' },
      { id: 51, note: null },
    ]);
  });
});
