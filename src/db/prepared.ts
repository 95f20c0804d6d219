// The hot statements sent as prepared statements on PostgreSQL: the event log's change with its
// event, jobs and records (EventLog.appendWith, after nearly every webhook and job), the webhook
// inbox's first statement, a deposit's provider answer, the job claim and the deposits page's
// reads. PostgreSQL spent more CPU planning such a statement than running it when it came as text
// with its values inlined, which is how the ORM sends every statement. Here its values are bound
// ($1, $2…), and the pg patch (`runPreparedStatements` in pg-patches.ts) prepares each such text
// once per session, so the database parses it once and plans it once: the pool's sessions run
// with `plan_cache_mode = force_generic_plan` (database.ts), as PostgreSQL's own choice kept
// planning these statements anew each time. So a statement sent here must be one whose best plan
// does not depend on its values: rows found by key, inserts, updates by id.
//
// Through the ORM's own Kysely instance, so the statement runs on the transaction's connection
// (or the pool's, outside one) and is counted by the query watchers like any other. On PGlite,
// and for a text this module cannot number safely, the statement goes through `em.execute` as
// before.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

/** Starts every statement text this module sends: the pg patch prepares the texts that carry it. */
export const PREPARED_MARK = '/* prepared */ ';

/** Most statement texts given a name; any further one is sent unnamed (parsed each time), so no text can grow the map for good. */
const MOST_PREPARED_TEXTS = 1_000;
/** The name of each prepared text, the same on every session (pg refuses one name for two texts). */
const preparedNames = new Map<string, string>();

/**
 * The name a statement text is prepared under on any session (the pool's, through pg-patches.ts,
 * and the relay's), or undefined past the limit of names, when it goes unnamed.
 */
export function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MOST_PREPARED_TEXTS) {
    name = `gateway_${preparedNames.size}`;
    preparedNames.set(text, name);
  }
  return name;
}

/** The ORM configurations (one per database) whose driver is `pg`, where statements may be prepared. */
const preparable = new WeakSet<object>();

/** Lets `executePrepared` prepare statements on the database of this ORM configuration (PostgreSQL's, at start-up). */
export function allowPreparedStatements(config: object): void {
  preparable.add(config);
}

/**
 * Runs `sql` (with `?` placeholders, as `em.execute` takes it) on `em`'s transaction or, outside
 * one, in autocommit, as a prepared statement where the database allows it; returns its rows.
 */
export async function executePrepared<T extends object>(em: SqlEntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const text = preparable.has(em.config) ? numbered(sql, params.length) : undefined;
  if (text === undefined) return em.execute<T[]>(sql, [...params]);
  // What the ORM does with every statement before it sends it: the query watchers see it.
  em.config.get('onQuery')(sql, [...params]);
  const result = await em.getKysely().executeQuery<T>(CompiledQuery.raw(`${PREPARED_MARK}${text}`, [...params]));
  return result.rows;
}

/**
 * `sql` with its `?` placeholders numbered `$1`, `$2`… in order, or undefined when that could change
 * its meaning: a `$` already in the text (a dollar-quoted string, a positional parameter), the
 * ORM's `??` (an identifier), or a count of placeholders other than `count`. As in the ORM's own
 * formatting of the same text, every other `?` is a placeholder.
 */
export function numbered(sql: string, count: number): string | undefined {
  let found = numberedTexts.get(sql);
  if (found === undefined) {
    found = numberedOnce(sql);
    // The same texts come again and again (a page's reads, with one `?` per id of an `in` list).
    if (numberedTexts.size < MOST_PREPARED_TEXTS) numberedTexts.set(sql, found);
  }
  return found !== null && found.placeholders === count ? found.text : undefined;
}

/** `numbered`'s work by text, the count aside: as many texts as are given names, at most. */
const numberedTexts = new Map<string, { text: string; placeholders: number } | null>();

function numberedOnce(sql: string): { text: string; placeholders: number } | null {
  if (sql.includes('$') || sql.includes('??')) return null;
  let next = 0;
  const text = sql.replace(/\?/g, (_match, offset: number) => {
    next += 1;
    // `select?` would become the identifier `select$1`: a placeholder after a word gets a space.
    return /[A-Za-z0-9_]/.test(sql[offset - 1] ?? '') ? ` $${next}` : `$${next}`;
  });
  return { text, placeholders: next };
}
