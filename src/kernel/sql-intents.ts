// Conditions as data: the part that needs one states what must hold (an enabled notification
// endpoint exists; no fan-out job waits), and the kernel writes the SQL into the statement that
// reads it. No SQL text travels between modules and the kernel.

/** Column values a row must have, by column name. */
export type RowMatch = Readonly<Record<string, string | number | boolean | null>>;

/** A row of `table` matching `where` exists (`exists`), or none does (`none`). */
export type RowCondition = { readonly exists: RowsOf } | { readonly none: RowsOf };

export interface RowsOf {
  readonly table: string;
  readonly where: RowMatch;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** A table or column name as SQL: only plain lower-case names, so data can never carry SQL. */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL name: ${JSON.stringify(name)}`);
  return name;
}

/** Every condition, joined by `and`, as SQL with its `?` parameters (`true` for none). */
export function renderConditions(conditions: readonly RowCondition[]): { sql: string; params: unknown[] } {
  if (conditions.length === 0) return { sql: 'true', params: [] };
  const params: unknown[] = [];
  const parts = conditions.map((condition) => {
    const [negated, rows] = 'exists' in condition ? ['', condition.exists] : ['not ', condition.none];
    const where = Object.entries(rows.where).map(([column, value]) => {
      if (value === null) return `${identifier(column)} is null`;
      params.push(value);
      return `${identifier(column)} = ?`;
    });
    return `${negated}exists (select from ${identifier(rows.table)}${where.length > 0 ? ` where ${where.join(' and ')}` : ''})`;
  });
  return { sql: parts.join(' and '), params };
}

/** The column a returned row carries its version in (`xmin`, which every update of the row renews). */
export const ROW_VERSION = 'row_version';

/**
 * A change of one row, as data: the columns to set, by column name, and what the statement
 * returns: every column, or these columns and (with `version`) the row's version as `ROW_VERSION`.
 * With `ifVersion` (a `ROW_VERSION` read before), only the row as it was then: a change committed
 * since makes the update match nothing (an optimistic write, no row lock held meanwhile). With
 * `only`, only while the row has these column values (a state it must still be in).
 */
export interface RowUpdate {
  readonly set: Readonly<Record<string, unknown>>;
  readonly returning: '*' | { readonly columns: readonly string[]; readonly version?: boolean };
  readonly ifVersion?: string;
  readonly only?: RowMatch;
}

/** `update` of the row of `table` with this id, as SQL with its parameters (returning nothing without `returning`). */
export function renderUpdate(table: string, id: string, update: Omit<RowUpdate, 'returning'> & { readonly returning?: RowUpdate['returning'] }): { sql: string; params: unknown[] } {
  const columns = Object.keys(update.set);
  if (columns.length === 0) throw new Error(`An update of ${table} ${id} sets no column`);
  const { returning } = update;
  const returned = returning === undefined || returning === '*' ? returning : [...returning.columns.map(identifier), ...(returning.version ? [`xmin::text as ${ROW_VERSION}`] : [])].join(', ');
  const guarded = update.ifVersion !== undefined;
  const only = Object.entries(update.only ?? {});
  const holds = only.map(([column, value]) => (value === null ? ` and ${identifier(column)} is null` : ` and ${identifier(column)} = ?`)).join('');
  return {
    sql: `update ${identifier(table)} set ${columns.map((column) => `${identifier(column)} = ?`).join(', ')} where id = ?${holds}${guarded ? ' and xmin = cast(? as xid)' : ''}${returned ? ` returning ${returned}` : ''}`,
    params: [...columns.map((column) => update.set[column]), id, ...only.filter(([, value]) => value !== null).map(([, value]) => value), ...(guarded ? [update.ifVersion] : [])],
  };
}

/** A change of the row of `table` with this `id` that returns nothing, as data: what a statement writes beside another (a delivery's outcome). */
export interface RowWrite {
  readonly table: string;
  readonly id: string;
  readonly set: Readonly<Record<string, unknown>>;
}

/**
 * A new row, as data: its values by column name (the columns named in `json` hold JSON values,
 * stored as `jsonb`; null stays null) and the columns the statement returns (`*`: every one).
 * With `ifAbsent` (the columns of a unique key), a row already holding those values is kept and
 * nothing is inserted: the statement returns no row.
 */
export interface RowInsert {
  readonly values: Readonly<Record<string, unknown>>;
  readonly json?: readonly string[];
  readonly returning: '*' | readonly string[];
  readonly ifAbsent?: readonly string[];
}

/** `insert` of one row into `table`, as SQL with its parameters. */
export function renderInsert(table: string, insert: RowInsert): { sql: string; params: unknown[] } {
  const columns = Object.keys(insert.values);
  if (columns.length === 0) throw new Error(`An insert into ${table} names no column`);
  if (insert.returning.length === 0) throw new Error(`An insert into ${table} returns no column`);
  if (insert.ifAbsent?.length === 0) throw new Error(`An insert into ${table} if absent names no key`);
  const json = new Set(insert.json ?? []);
  for (const column of json) if (!columns.includes(column)) throw new Error(`An insert into ${table} has no value for its JSON column ${column}`);
  const returning = insert.returning === '*' ? '*' : insert.returning.map(identifier).join(', ');
  const conflict = insert.ifAbsent ? ` on conflict (${insert.ifAbsent.map(identifier).join(', ')}) do nothing` : '';
  return {
    sql: `insert into ${identifier(table)} (${columns.map(identifier).join(', ')}) values (${columns.map((column) => (json.has(column) ? 'cast(? as jsonb)' : '?')).join(', ')})${conflict} returning ${returning}`,
    params: columns.map((column) => {
      const value = insert.values[column] ?? null;
      return json.has(column) && value !== null ? JSON.stringify(value) : value;
    }),
  };
}

/**
 * The one row a report is about, as data: among the rows of `table` matching `scope`, one where
 * any of `anyOf` matches, preferring the earlier ones; `columns` selected, with its row lock when
 * `lock`. A null value matches nothing.
 */
export interface RowLookup {
  readonly table: string;
  readonly columns: readonly string[];
  readonly anyOf: ReadonlyArray<readonly [column: string, value: string | null]>;
  readonly scope: RowMatch;
  readonly lock: boolean;
}

/**
 * `lookup` as one SELECT with its parameters. `withTraceContext` also selects the row's stored
 * trace context as `payment_trace_context` (a payment's table, docs/tracing.md), so a span can link
 * to it with no statement more.
 */
export function renderLookup(lookup: RowLookup, withTraceContext = false): { sql: string; params: unknown[] } {
  if (lookup.anyOf.length === 0) throw new Error(`A lookup of ${lookup.table} names no column to find it by`);
  const scope = Object.entries(lookup.scope);
  const where = [`(${lookup.anyOf.map(([column]) => `${identifier(column)} = ?`).join(' or ')})`, ...scope.map(([column]) => `${identifier(column)} = ?`)];
  // The last candidate needs no rank: a row that matched none of the others matched it.
  const ranked = lookup.anyOf.slice(0, -1);
  const order = ranked.length > 0 ? ` order by ${ranked.map(([column]) => `(${identifier(column)} = ?) desc nulls last`).join(', ')}` : '';
  return {
    sql: `select ${lookup.columns.map(identifier).join(', ')}${withTraceContext ? ', trace_context as payment_trace_context' : ''} from ${identifier(lookup.table)}
      where ${where.join(' and ')}${order} limit 1${lookup.lock ? ' for update' : ''}`,
    params: [...lookup.anyOf.map(([, value]) => value), ...scope.map(([, value]) => value), ...ranked.map(([, value]) => value)],
  };
}
