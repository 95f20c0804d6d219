// Reads of hot lists written as SQL text once, instead of through the query builder: building a
// statement there costs more CPU than running it. Rows come back as plain objects keyed by
// property, converted exactly as the query builder's results are (the entity's own result mapper).

import type { EntityName } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

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
        params.push(...list);
        return `${column} in (${placeholders(list.length)})`;
      }
      throw new Error(`Unsupported visibility condition on ${property}: ${JSON.stringify(value)}`);
    });
    return conditions.length === 0 ? 'true' : `(${conditions.join(' and ')})`;
  });
  return { sql: `(${parts.join(' or ')})`, params };
}
