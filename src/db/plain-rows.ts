// Reads of hot lists written as SQL text once, instead of through the query builder: building a
// statement there costs more CPU than running it. Rows come back as plain objects keyed by
// property, converted exactly as the query builder's results are (the entity's own result mapper),
// or, for reads that only ever write their dates out as ISO text, with those dates as that text.

import type { EntityName } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { isoString } from '../lib/iso-time.js';
import { executePrepared } from './prepared.js';

/**
 * Runs `sql` (with `?` placeholders) in `em`'s context (its transaction, if any) and maps each row
 * from column names to the properties of `entity`, no entity made or tracked.
 *
 * @example plainRows<RefundFacts>(em, Refund, 'select id, deposit_id from refund where id = ?', [id])
 */
export async function plainRows<T>(em: SqlEntityManager, entity: EntityName<object>, sql: string, params: readonly unknown[]): Promise<T[]> {
  const rows = await em.execute<Array<Record<string, unknown>>>(sql, [...params], 'all');
  if (rows.length === 0) return [];
  const meta = em.getMetadata().get(entity);
  const driver = em.getDriver();
  return rows.map((row) => driver.mapResult(row, meta) as T);
}

/**
 * One row another statement returned (`em.execute`), keyed by column, mapped to the properties of
 * `entity` as `plainRows` maps its rows: for reads that are part of a larger statement.
 */
export function plainRow<T>(em: SqlEntityManager, entity: EntityName<object>, row: Record<string, unknown>): T {
  return em.getDriver().mapResult(row, em.getMetadata().get(entity)) as T;
}

/** A row as one statement read or returned it, and that row version's `xmin` (`ROW_VERSION`, src/kernel/sql-intents.ts). */
export interface Versioned<T> {
  row: T;
  version: string;
}

/**
 * The column values of `data`, keyed by column name: each of its properties that is one of
 * `entity`'s stored scalar columns, as given (undefined ones left out). For a row a statement
 * writes from an entity's values (a creation the kernel renders as `RowInsert`).
 *
 * @example columnValues(em, Payout, created) // { id: 'pay_…', client_id: 'cli_…', merchant_account: …, … }
 */
export function columnValues(em: SqlEntityManager, entity: EntityName<object>, data: object): Record<string, unknown> {
  const byName = em.getMetadata().get(entity).properties as Record<string, { fieldNames?: string[]; kind?: string; persist?: boolean } | undefined>;
  const values: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(data)) {
    const prop = byName[property];
    if (value === undefined || !prop || prop.kind !== 'scalar' || prop.persist === false || prop.fieldNames?.length !== 1) continue;
    values[prop.fieldNames[0]!] = value;
  }
  return values;
}

/**
 * How `isoDateRows` reads the properties of one list: the select list, each column named by its
 * property, and the properties the entity's result mapper would convert.
 */
interface IsoDateRead {
  selectList: string;
  dates: string[];
  booleans: string[];
}

const isoDateReads = new WeakMap<readonly string[], IsoDateRead>();

function isoDateRead(em: SqlEntityManager, entity: EntityName<object>, properties: readonly string[]): IsoDateRead {
  let read = isoDateReads.get(properties);
  if (read === undefined) {
    const meta = em.getMetadata().get(entity);
    const byName = meta.properties as Record<string, { fieldNames?: string[]; runtimeType?: string; kind?: string } | undefined>;
    read = { selectList: '', dates: [], booleans: [] };
    const columns: string[] = [];
    for (const property of properties) {
      const prop = byName[property];
      const column = prop?.fieldNames?.length === 1 ? prop.fieldNames[0] : undefined;
      // Only scalars, which the result mapper passes through or converts as below.
      if (!prop || !column || prop.kind !== 'scalar') throw new Error(`${meta.className}.${property} cannot be read by isoDateRows`);
      if (prop.runtimeType === 'Date') read.dates.push(property);
      else if (prop.runtimeType === 'boolean') read.booleans.push(property);
      columns.push(column === property ? column : `${column} as "${property}"`);
    }
    read.selectList = columns.join(', ');
    isoDateReads.set(properties, read);
  }
  return read;
}

/**
 * Like `plainRows`, for reads whose dates are only ever written out as ISO text (snapshots, API
 * objects): runs `select <properties> <rest>` with each column named by its property, so each row
 * is the driver's own object, and gives each date property as the text `isoString` writes for the
 * Date the entity's result mapper would have made of it (`isoTimestamp`), booleans as it gives
 * them (`!!`, which leaves the drivers' own booleans as they are). No second object per row and no Date per date: a page of deposits with their refunds and
 * events has hundreds of each.
 *
 * @example isoDateRows<RefundRow>(em, Refund, ['id', 'createdAt'], 'from refund where id = ?', [id])
 */
export async function isoDateRows<T>(em: SqlEntityManager, entity: EntityName<object>, properties: readonly string[], rest: string, params: readonly unknown[]): Promise<T[]> {
  const read = isoDateRead(em, entity, properties);
  // Prepared (prepared.ts): the reads of every page of deposits, their refunds and their events.
  const rows = await executePrepared<Record<string, unknown>>(em, `select ${read.selectList} ${rest}`, params);
  if (rows.length === 0) return [];
  const platform = em.getPlatform();
  const { dates, booleans } = read;
  for (const row of rows) {
    for (const property of dates) row[property] = isoTimestamp(row[property], platform);
    for (const property of booleans) {
      const value = row[property];
      if (value != null && typeof value !== 'boolean') row[property] = !!value;
    }
  }
  return rows as T[];
}

/**
 * PostgreSQL's text for a timestamp in UTC with a day every month has, as the `timestamptz`
 * columns come back when the session's time zone is UTC: `2026-11-27 15:06:31.123456+00`, the
 * fraction cut by the server to what it holds. Its ISO form is a rewrite of the same digits, the
 * fraction cut to milliseconds as the ORM's parser (postgres-date) cuts it. Any other text (another
 * zone or date style, a year before 1000, a day past the 28th) is parsed and written as before.
 */
const UTC_TIMESTAMP_TEXT = /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8]) (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?\+00$/;

/** `.` and three digits, by how many digits of the fraction there are (0 to 2; 3 and more are cut). */
const MILLISECOND_PADDING = ['.000', '00', '0'];

/**
 * A timestamp as the ORM's pools give it (text: they parse no dates; null stays null) written as
 * `isoString(platform.parseDate(value))`, the text a snapshot made from the mapped entity carries,
 * without making the Date when the text is PostgreSQL's own form in UTC.
 */
export function isoTimestamp(value: unknown, platform: { parseDate(value: string | number): Date }): string | null {
  if (value == null) return null;
  if (typeof value === 'string' && UTC_TIMESTAMP_TEXT.test(value)) {
    // `yyyy-mm-dd hh:mm:ss` is 19 characters; the fraction's digits follow its dot, then `+00`.
    const digits = value.length - 23;
    const fraction = digits <= 0 ? MILLISECOND_PADDING[0] : digits < 3 ? value.slice(19, 20 + digits) + MILLISECOND_PADDING[digits] : value.slice(19, 23);
    return `${value.slice(0, 10)}T${value.slice(11, 19)}${fraction}Z`;
  }
  if (value instanceof Date) return isoString(value);
  return isoString(platform.parseDate(typeof value === 'bigint' ? Number(value) : (value as string)));
}

const columnLists = new WeakMap<readonly string[], string>();

/**
 * The columns of `properties` of `entity`, comma-separated, in their order: the select list of a
 * plain read, worked out once per list from the entity's metadata.
 */
export function columnList(em: SqlEntityManager, entity: EntityName<object>, properties: readonly string[]): string {
  let list = columnLists.get(properties);
  if (list === undefined) {
    const meta = em.getMetadata().get(entity);
    const byName = meta.properties as Record<string, { fieldNames?: string[] } | undefined>;
    list = properties
      .map((property) => {
        const column = byName[property]?.fieldNames?.[0];
        if (!column) throw new Error(`${meta.className} has no column for ${property}`);
        return column;
      })
      .join(', ');
    columnLists.set(properties, list);
  }
  return list;
}

/** `?, ?, ?` for a list of `count` values (an `in (…)` list; callers never pass an empty one). */
export function placeholders(count: number): string {
  return count === 1 ? '?' : `?${', ?'.repeat(count - 1)}`;
}

/**
 * A condition of the visibility policy (src/kernel/visibility.ts, `visibleWhere` and
 * `visibleEventsWhere`) as SQL over the given columns. Only the shapes the policy produces are
 * known: `{}` (everything), `{ $or: [...] }` of conditions on equal values, `$in` lists and
 * booleans; anything else throws, so a change of the policy cannot be read as "no restriction".
 */
export function visibilitySql(where: Record<string, unknown>, columns: Readonly<Record<string, string>>): { sql: string; params: unknown[] } {
  const keys = Object.keys(where);
  if (keys.length === 0) return { sql: 'true', params: [] };
  const alternatives = where.$or;
  if (keys.length !== 1 || !Array.isArray(alternatives)) throw new Error(`Unsupported visibility condition: ${JSON.stringify(where)}`);
  if (alternatives.length === 0) return { sql: 'false', params: [] };
  const params: unknown[] = [];
  const parts = alternatives.map((alternative: Record<string, unknown>) => {
    const conditions = Object.entries(alternative).map(([property, value]) => {
      const column = columns[property];
      if (!column) throw new Error(`Unsupported visibility property: ${property}`);
      if (typeof value === 'string' || typeof value === 'boolean') {
        params.push(value);
        return `${column} = ?`;
      }
      const list = (value as { $in?: unknown } | null)?.$in;
      if (Array.isArray(list) && list.length > 0 && Object.keys(value as object).length === 1) {
        params.push(...(list as unknown[]));
        return `${column} in (${placeholders(list.length)})`;
      }
      throw new Error(`Unsupported visibility condition on ${property}: ${JSON.stringify(value)}`);
    });
    return conditions.length === 0 ? 'true' : `(${conditions.join(' and ')})`;
  });
  return { sql: `(${parts.join(' or ')})`, params };
}
