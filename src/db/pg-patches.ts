// The only three changes made to `pg`'s own client, applied to each client of the ORM's pool as the
// pool connects it (the database's dedicated sessions, for LISTEN, the relay and `markThenRead`,
// are plain clients). Each wraps `client.query`:
//
// - `runPreparedStatements`: a statement text from src/db/prepared.ts is prepared once per session.
// - `sendBeginWithFirstStatement`: a transaction's BEGIN shares a round trip with its first
//   statement, a round trip fewer per transaction.
// - `discardOnReadTimeout`: a client whose answer did not come in time (`query_timeout`) goes back
//   to the pool as broken, instead of staying out of step with its next borrower or, after a
//   `begin`, checked out for good.
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
//
// No value is ever written into a statement's text here: the ORM's own statements come with their
// values already inlined (MikroORM's doing), and every statement with values of its own goes to
// the server with them bound, in the extended protocol.

import pg from 'pg';
import { PREPARED_MARK, preparedName } from './prepared.js';

/** Applies the patches to a client of the ORM's pool: the `connect` listener of its `pg.Pool`. */
export function patchPooledClient(client: pg.PoolClient): void {
  runPreparedStatements(client);
  sendBeginWithFirstStatement(client);
  discardOnReadTimeout(client);
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
 * Outermost of the patches, so it sees every answer the ORM's driver waits for, whichever way
 * `sendBeginWithFirstStatement` sent it.
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
 * A transaction's BEGIN goes on the wire with its first statement, in one round trip: a round trip
 * fewer for every transaction, on the hot paths (a webhook, a job's write, a deposit under an
 * idempotency key) as everywhere. The ORM's statements, whose values MikroORM has inlined, go as
 * one simple-protocol query `begin; <statement>`. A statement with values of its own (a prepared
 * statement of src/db/prepared.ts) goes as BEGIN and itself in the extended protocol, before one
 * Sync (`BeginThenStatement`): its values stay bound and a named statement keeps the plan this
 * session made for it. Anything else (a query config, a submittable, a callback) has the BEGIN sent
 * just before it. A transaction that ends before any statement (COMMIT or ROLLBACK right after
 * BEGIN) sends nothing at all. The server runs the same statements in the same order: only the
 * packets change.
 */
function sendBeginWithFirstStatement(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let beginHeld = false;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const simple = typeof text === 'string' && args.length <= 2 && (values === undefined || (Array.isArray(values) && values.length === 0));
    if (simple && isBare(text, 'begin') && !beginHeld) {
      beginHeld = true;
      return Promise.resolve(emptyResult('BEGIN'));
    }
    if (!beginHeld) return query(...args);
    if (simple && (isBare(text, 'commit') || isBare(text, 'rollback'))) {
      beginHeld = false;
      return Promise.resolve(emptyResult(text.trim().toUpperCase()));
    }
    if (typeof text === 'string' && args.length === 2 && Array.isArray(values) && (values.length > 0 || text.startsWith(PREPARED_MARK))) {
      // Its values are turned into their wire form here, before anything is sent: a value pg
      // cannot send rejects the statement with the BEGIN still held, so the ROLLBACK that follows
      // sends nothing either.
      let statement: BeginThenStatement;
      try {
        statement = new BeginThenStatement(text, values as unknown[]);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      beginHeld = false;
      return new Promise((resolve, reject) => {
        query(statement, (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result)));
      });
    }
    beginHeld = false;
    if (simple) {
      // pg answers a query of several statements with one result each: the caller gets what its
      // own text would have given (one result, or the list for a text of several).
      return (query(`begin; ${text}`) as Promise<pg.QueryResult[]>).then((results) => (results.length === 2 ? results[1]! : results.slice(1)));
    }
    return (query('begin') as Promise<unknown>).then(() => query(...args));
  }) as typeof client.query;
}

/** `pg`'s conversion of a value to its wire form (lib/utils.js), which pg.Query and pg-cursor use for theirs. */
const prepareValue = (pg as unknown as { utils: { prepareValue: (value: unknown) => Buffer | string | null } }).utils.prepareValue;

/** What `BeginThenStatement` writes to: pg's Connection (lib/connection.js), as pg.Query writes to it. */
interface WireConnection {
  readonly stream: { cork?(): void; uncork?(): void };
  /** The named statements parsed on this session and their texts, which pg.Query reads to skip a Parse. */
  readonly parsedStatements: Readonly<Record<string, string>>;
  parse(message: { name?: string; text: string }): void;
  bind(message: { statement?: string; values?: ReadonlyArray<Buffer | string | null>; binary?: boolean }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
}

/** pg's Result (lib/result.js), as pg.Query fills it: rows parsed by the client's type parsers. */
interface ResultBuilder extends pg.QueryResult {
  addFields(fields: readonly unknown[]): void;
  parseRow(fields: readonly unknown[]): Record<string, unknown>;
  addRow(row: Record<string, unknown>): void;
  addCommandComplete(message: unknown): void;
}

/**
 * BEGIN and a transaction's first statement in one round trip of the extended protocol: BEGIN's
 * Parse, Bind and Execute, then the statement's Parse (unless this session has parsed it), Bind,
 * Describe and Execute, then a single Sync. Its values are bound, never written into a text.
 *
 * A `pg` Submittable, as pg-cursor is: `client.query(submittable, callback)` queues it like any
 * query (and `query_timeout` wraps its callback), calls `submit` with the connection when its turn
 * comes, then hands it each message of the answer up to ReadyForQuery. Not a subclass of pg.Query,
 * whose `submit`, parse bookkeeping and results of several statements would each have to be undone;
 * what it shares with pg.Query is pg's own: the Result that parses rows with the client's type
 * parsers, the conversion of values, the connection's writers and its record of parsed statements.
 *
 * The answer: ParseComplete, BindComplete and CommandComplete for BEGIN, then the statement's
 * ParseComplete (if parsed), BindComplete, RowDescription or NoData, its rows and CommandComplete,
 * then ReadyForQuery. The caller gets the statement's result alone, as pg.Query would have given it.
 * An error in either part rejects the caller once; the server skips the rest up to the Sync and
 * answers ReadyForQuery, the connection serves the next query, and a transaction aborted after its
 * BEGIN is the ORM's to roll back, as after any failed statement.
 */
class BeginThenStatement implements pg.Submittable {
  /** Set by the client: the caller's callback, wrapped by `query_timeout`'s timer, which replaces it once it has fired. */
  callback: ((error: Error | null, result?: pg.QueryResult) => void) | undefined;
  /** Set by the client when it reads results in binary. */
  binary = false;
  /** The statement's result. The client gives it its type parsers (`_types`) before `submit`, as it does pg.Query's and pg-cursor's. */
  readonly _result = new (pg.Result as unknown as new (rowMode: undefined, types: undefined) => ResultBuilder)(undefined, undefined);
  /** The statement's values in their wire form. */
  private readonly values: ReadonlyArray<Buffer | string | null>;
  private readonly statementName: string | undefined;
  /** BEGIN's CommandComplete has come: what follows answers the statement. */
  private begun = false;
  /** A row the type parsers refused: reported at ReadyForQuery, once the answer is whole (as pg.Query does). */
  private rowError: Error | undefined;
  private settled = false;

  constructor(
    readonly text: string,
    values: readonly unknown[],
  ) {
    this.values = values.map((value) => prepareValue(value));
    this.statementName = text.startsWith(PREPARED_MARK) ? preparedName(text) : undefined;
  }

  /**
   * The statement's name as pg's client reads it on every ParseComplete, to record `text` as
   * parsed under that name on this session (client.js `_handleParseComplete`). Undefined until
   * BEGIN's CommandComplete: BEGIN's own ParseComplete comes first and must not record the
   * statement as parsed, whereas the statement's comes after it, and only if its Parse succeeded.
   */
  get name(): string | undefined {
    return this.begun ? this.statementName : undefined;
  }

  submit(connection: pg.Connection): void {
    const wire = connection as unknown as WireConnection;
    const name = this.statementName;
    // One write for all the messages, as pg.Query corks its own.
    wire.stream.cork?.();
    try {
      wire.parse({ text: 'begin' });
      wire.bind({});
      wire.execute({ portal: '' });
      if (name === undefined || wire.parsedStatements[name] === undefined) wire.parse({ name, text: this.text });
      wire.bind({ statement: name, values: this.values, binary: this.binary });
      wire.describe({ type: 'P', name: '' });
      wire.execute({ portal: '' });
      wire.sync();
    } finally {
      wire.stream.uncork?.();
    }
  }

  handleCommandComplete(message: unknown): void {
    if (!this.begun) {
      this.begun = true;
      return;
    }
    this._result.addCommandComplete(message);
  }

  handleRowDescription(message: { fields: readonly unknown[] }): void {
    this._result.addFields(message.fields);
  }

  handleDataRow(message: { fields: readonly unknown[] }): void {
    if (this.rowError) return;
    try {
      this._result.addRow(this._result.parseRow(message.fields));
    } catch (error) {
      this.rowError = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** An empty statement answers EmptyQueryResponse instead of CommandComplete: nothing to record. */
  handleEmptyQuery(): void {}

  /** The server's ErrorResponse (the client then routes nothing more here), `query_timeout`, or the connection's end. */
  handleError(error: Error): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(this.rowError ?? null, this._result);
  }

  private settle(error: Error | null, result?: pg.QueryResult): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(error, result);
  }
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
