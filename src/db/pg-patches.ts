// The only three changes made to `pg`'s own client, applied to each client of the ORM's pool as the
// pool connects it (the database's dedicated sessions, for LISTEN, the relay and `markThenRead`,
// are plain clients). Each wraps `client.query`:
//
// - `discardOnReadTimeout`: a client whose answer did not come in time (`query_timeout`) goes back
//   to the pool as broken, instead of staying out of step with its next borrower or, after a
//   `begin`, checked out for good.
// - `sendBeginWithFirstStatement`: a transaction's BEGIN shares a packet with its first statement,
//   a round trip fewer per transaction.
// - `runPreparedStatements`: a statement text from src/db/prepared.ts is prepared once per session.
//
// Neither library offers a hook that serves. MikroORM 7's `onQuery` rewrites the text of the
// ORM's statements but never sees BEGIN, COMMIT or ROLLBACK, which its Kysely driver sends as
// queries of their own; its `onCreateConnection` and `onReserveConnection` receive Kysely's
// connection wrapper (whose `pg` client is private), once per connection or per checkout, and
// cannot change how a statement is sent. `pg` has no per-query hook; on `query_timeout` it rejects
// the query and leaves the client checked out and usable, and `pg-pool` keeps a released client
// unless the release is given an error, which the ORM's driver never gives. `pg-pool`'s `Client`
// option would take a subclass overriding the same `query` (and Kysely would build its
// query-cancelling control client from that class too): the same patch, moved.

import pg from 'pg';
import { PREPARED_MARK, preparedName } from './prepared.js';

/** Applies the patches to a client of the ORM's pool: the `connect` listener of its `pg.Pool`. */
export function patchPooledClient(client: pg.PoolClient): void {
  runPreparedStatements(client);
  discardOnReadTimeout(client);
  sendBeginWithFirstStatement(client);
}

/**
 * A text marked by src/db/prepared.ts goes out as a named statement: pg parses it on this session
 * the first time and binds its values every time after (PostgreSQL plans it once, generically:
 * the pool's sessions run with `plan_cache_mode = force_generic_plan`, database.ts). Innermost of
 * the patches, so the others see the query as the ORM's driver gave it.
 */
function runPreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && text.startsWith(PREPARED_MARK)) {
      const name = preparedName(text);
      return query(name === undefined ? { text, values } : { name, text, values });
    }
    return query(...args);
  }) as typeof client.query;
}

/**
 * When `pg` stops waiting for an answer (`query_timeout`), the statement is still on the wire and
 * its answer may come later: the connection is out of step with whoever borrows it next (a `begin`
 * given up on could still open a transaction under them). And when that statement was a `begin`,
 * the ORM's query builder never hands the connection back at all, so each one would hold a pool
 * slot for good and a few seconds of silence would leave the pool empty after the database is back.
 * Such a connection is therefore returned to the pool at once as broken: the pool closes it (which
 * destroys the socket of a client with a query in flight, and the server rolls back what it had
 * open) and opens a fresh one when needed; the borrower's own release, if it comes, does nothing.
 */
function discardOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'Query read timeout')) return;
        // pg-pool gives each checked-out client its own release, a closure that needs no `this`.
        // eslint-disable-next-line @typescript-eslint/unbound-method
        const release = client.release;
        client.release = () => undefined;
        release(error);
      });
    }
    return result;
  }) as typeof client.query;
}

/**
 * A transaction's BEGIN goes on the wire with its first statement, as one simple-protocol query
 * (`begin; <statement>`): a round trip fewer for every transaction, on the hot paths (a webhook,
 * a job's write, a deposit under an idempotency key) as everywhere. The ORM's statements carry
 * their values inlined (simple protocol), which allows it. A prepared statement of
 * src/db/prepared.ts goes as `begin; execute <name>(<values>)` of a copy this session prepared by
 * SQL the first time it opened a transaction (a round trip of its own, once), so it keeps its plan;
 * any other statement with bound values, which cannot share its query, has the BEGIN sent just
 * before it. A transaction that ends before any
 * statement (COMMIT or ROLLBACK right after BEGIN) sends nothing at all. The server runs the same
 * statements in the same order: only the packets change.
 */
function sendBeginWithFirstStatement(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let beginHeld = false;
  /** The prepared texts that open transactions, prepared on this session by SQL (`PREPARE`) under their own names. */
  const opening = new Map<string, Promise<string | undefined>>();
  /**
   * The SQL name under which this session has prepared `text`, for a transaction's first statement
   * (`begin; execute <name>(<values>)`: one round trip, and the plan kept). Prepared the first time,
   * in a round trip of its own outside any transaction; undefined, for good, when the text has no
   * name (past the limit) or PostgreSQL refused to prepare it, and the statement goes as text.
   */
  const openingName = (text: string): Promise<string | undefined> => {
    let name = opening.get(text);
    if (!name) {
      const protocolName = preparedName(text);
      name = protocolName === undefined
        ? Promise.resolve(undefined)
        : (query(`prepare ${protocolName}_opening as ${text}`) as Promise<unknown>).then(
            () => `${protocolName}_opening`,
            () => undefined,
          );
      opening.set(text, name);
    }
    return name;
  };
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const simple = typeof text === 'string' && args.length <= 2 && (values === undefined || (Array.isArray(values) && values.length === 0));
    if (simple && isBare(text, 'begin') && !beginHeld) {
      beginHeld = true;
      return Promise.resolve(emptyResult('BEGIN'));
    }
    if (!beginHeld) return query(...args);
    beginHeld = false;
    if (simple && (isBare(text, 'commit') || isBare(text, 'rollback'))) return Promise.resolve(emptyResult(text.trim().toUpperCase()));
    // A prepared statement's first run in a transaction goes with its BEGIN, as the ORM's own
    // statements do, rather than a round trip later: as `execute <name>(<values>)` of the session's
    // SQL-prepared copy, or else as its text with its values written in.
    const literals = !simple && typeof text === 'string' && text.startsWith(PREPARED_MARK) && Array.isArray(values) ? literalsOf(values) : undefined;
    if (literals !== undefined) {
      return openingName(text as string).then((name) => {
        const statement = name === undefined ? withLiterals(text as string, literals) : `execute ${name}${literals.length > 0 ? `(${literals.join(', ')})` : ''}`;
        return (query(`begin; ${statement}`) as Promise<pg.QueryResult[]>).then((results) => results[1]!);
      });
    }
    if (simple) {
      // pg answers a query of several statements with one result each: the caller gets what its
      // own text would have given (one result, or the list for a text of several).
      return (query(`begin; ${text}`) as Promise<pg.QueryResult[]>).then((results) => (results.length === 2 ? results[1]! : results.slice(1)));
    }
    return (query('begin') as Promise<unknown>).then(() => query(...args));
  }) as typeof client.query;
}

/**
 * A prepared statement's values as SQL literals, for its text or an EXECUTE, or undefined when a
 * value has no literal written here (anything but text, numbers, booleans, dates and null).
 */
function literalsOf(values: readonly unknown[]): string[] | undefined {
  const literals: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) literals.push('null');
    else if (typeof value === 'string') literals.push(pg.escapeLiteral(value));
    // In brackets when negative: `- $1` must not become the comment `--1`.
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') literals.push(value < 0 ? `(${value})` : String(value));
    else if (typeof value === 'boolean') literals.push(value ? 'true' : 'false');
    else if (value instanceof Date && Number.isFinite(value.getTime())) literals.push(pg.escapeLiteral(value.toISOString()));
    else return undefined;
  }
  return literals;
}

/**
 * A prepared statement's text with each `$n` replaced by its value's literal (`literalsOf`): its
 * placeholders were numbered by src/db/prepared.ts, which sends no text holding any other `$`.
 */
function withLiterals(text: string, literals: readonly string[]): string {
  return text.replace(/\$([0-9]+)/g, (_match, n: string) => literals[Number(n) - 1]!);
}

/** The texts `isBare` recognizes, as anchored patterns: each fails at the first character of any other statement. */
const BARE: Record<string, RegExp> = { begin: /^\s*begin\s*$/i, commit: /^\s*commit\s*$/i, rollback: /^\s*rollback\s*$/i };

function isBare(text: string, keyword: 'begin' | 'commit' | 'rollback'): boolean {
  // Not `text.trim().toLowerCase()`: that copied every statement (a webhook's are kilobytes) twice
  // to compare it with a word, two or three times per statement.
  return BARE[keyword]!.test(text);
}

function emptyResult(command: string): pg.QueryResult {
  return { command, rowCount: null, oid: 0, rows: [], fields: [] };
}
