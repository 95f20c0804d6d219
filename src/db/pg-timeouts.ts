// The bounds on every wait a `pg` client makes on the server, for the ORM's pool and for the
// database's own sessions alike.

import type { DatabaseTimeouts } from '../config.js';

/** How much longer than the server's own statement time-out the client waits for any answer. */
const READ_TIMEOUT_MARGIN_MS = 1_000;

/**
 * `pg` client options bounding every wait on the server: the connection (and, in the pool, the wait
 * for a free one), each statement on the server, a session left idle in a transaction, and the wait
 * for an answer, for a server that is gone or hung and so cannot enforce its own time-outs.
 */
export function pgTimeoutOptions(timeouts: DatabaseTimeouts) {
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
  };
}
