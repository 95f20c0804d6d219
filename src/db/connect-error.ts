// Turns the PostgreSQL server's or the network's refusal at start-up into one line for whoever set
// DATABASE_URL: where it tried (host, port, database, never the password), what failed and what
// to change. Errors that are not about reaching the database are left as they are.

/** What went wrong when opening the first connection. */
export type DatabaseConnectFailure = 'connection-refused' | 'timed-out' | 'host-not-found' | 'unreachable' | 'authentication-failed' | 'database-missing';

/** Where DATABASE_URL points, without its password. */
export interface DatabaseTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Host, port, database and user of a PostgreSQL connection string; never its password. */
export function databaseTarget(databaseUrl: string): DatabaseTarget {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return { host: '(unparsable)', port: 5432, database: '', user: '' };
  }
  // libpq's `?host=` (a socket directory, say) wins over the authority, as pg reads it too.
  const host = url.searchParams.get('host') ?? (decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1') || 'localhost');
  const port = Number(url.searchParams.get('port') ?? url.port) || 5432;
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  return { host, port, database, user };
}

/**
 * The database named by DATABASE_URL could not be opened: nothing listens, no answer in time, an
 * unknown host, a refused login or a database that does not exist. `message` is one line naming
 * the setting, the place, the failure and the fix; `code` is what the log line carries.
 */
export class DatabaseConnectError extends Error {
  override name = 'DatabaseConnectError';
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor(
    readonly target: DatabaseTarget,
    readonly failure: DatabaseConnectFailure,
    /** The driver's own words (a system error code or PostgreSQL's message), for the log. */
    readonly detail: string,
    connectTimeoutMs: number,
  ) {
    const where = `${target.host}:${target.port}`;
    const what: Record<DatabaseConnectFailure, string> = {
      'connection-refused': `connection refused: no PostgreSQL listens on ${where}. Start PostgreSQL there, or correct the host and port in DATABASE_URL`,
      'timed-out': `no answer from ${where} within ${connectTimeoutMs} ms (DATABASE_CONNECT_TIMEOUT_MS). Check the host, the port and any firewall between, or raise DATABASE_CONNECT_TIMEOUT_MS`,
      'host-not-found': `host ${target.host} not found (${detail}). Correct the host in DATABASE_URL`,
      unreachable: `${where} cannot be reached (${detail}). Check the host, the port and the network`,
      'authentication-failed': `authentication failed for user ${target.user || '(none)'} (${detail}). Correct the user and password in DATABASE_URL, or the server's pg_hba.conf`,
      'database-missing': `database ${target.database} does not exist (${detail}). Create it (createdb -O ${target.user || '<role>'} ${target.database}) or name an existing one in DATABASE_URL`,
    };
    super(`DATABASE_URL (${where}, database ${target.database}): ${what[failure]}; unset DATABASE_URL to use the embedded database instead.`);
  }

  /** The structured fields of the start-up's log line (no password, no stack). */
  get logFields(): Record<string, unknown> {
    return { code: this.code, setting: 'DATABASE_URL', host: this.target.host, port: this.target.port, database: this.target.database, failure: this.failure };
  }
}

const SYSTEM_FAILURES: Record<string, DatabaseConnectFailure> = {
  ECONNREFUSED: 'connection-refused',
  ETIMEDOUT: 'timed-out',
  ENOTFOUND: 'host-not-found',
  EAI_AGAIN: 'host-not-found',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ECONNRESET: 'unreachable',
};

/**
 * A `DatabaseConnectError` for an error that says the database could not be reached or refused
 * the login, or undefined for any other error (which start-up reports as it is).
 */
export function asConnectError(error: unknown, databaseUrl: string, connectTimeoutMs: number, elapsedMs = 0): DatabaseConnectError | undefined {
  if (!(error instanceof Error)) return undefined;
  // pg-pool and kysely may wrap the cause; an AggregateError (every address of a host refused) has the reasons inside.
  const causes: Error[] = [error];
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) causes.push(cause);
  if (error instanceof AggregateError) causes.push(...error.errors.filter((inner): inner is Error => inner instanceof Error));
  for (const candidate of causes) {
    let failure = failureOf(candidate);
    // pg's own connection timer closes the socket, and the client then reports only the closed
    // connection: after waiting out the time-out, that is the time-out.
    if (!failure && /connection terminated unexpectedly/i.test(candidate.message)) failure = elapsedMs >= connectTimeoutMs ? 'timed-out' : 'unreachable';
    if (failure) return new DatabaseConnectError(databaseTarget(databaseUrl), failure, detailOf(candidate), connectTimeoutMs);
  }
  return undefined;
}

function failureOf(error: Error): DatabaseConnectFailure | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code in SYSTEM_FAILURES) return SYSTEM_FAILURES[code];
    // SQLSTATE 28P01 invalid_password, 28000 invalid_authorization_specification (no pg_hba.conf entry, unknown role).
    if (code === '28P01' || code === '28000') return 'authentication-failed';
    if (code === '3D000') return 'database-missing';
    // The database was missing and the role may not create it (the ORM tries, as its owner would).
    if (code === '42501' && /permission denied to create database/i.test(error.message)) return 'database-missing';
  }
  // pg's own time-outs carry no code: the pool's wait and the client's connection timer.
  if (/timeout exceeded when trying to connect|connection terminated due to connection timeout/i.test(error.message)) return 'timed-out';
  return undefined;
}

function detailOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in SYSTEM_FAILURES) return code;
  if (/connection terminated unexpectedly/i.test(error.message)) return 'the connection closed before the server answered';
  // PostgreSQL's own messages name the role or database, never the password.
  return error.message.split('\n')[0]!;
}
