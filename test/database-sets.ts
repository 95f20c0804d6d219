// Which test files CI runs on both databases. `npm test` runs every file on the database it is
// given (embedded PGlite by default); CI runs every file once on PostgreSQL, then again on PGlite
// only the files whose behaviour can differ between the two. A test needing no database runs once.
//
// Each entry is a file or a folder (ending in '/'); the longest entry that matches a file decides.
// test/database-sets.test.ts checks the lists: every file that opens a database is decided by one
// entry, with its reason, and every entry still matches a file.

/** What can differ between PostgreSQL and PGlite, by file: CI runs these on both. */
export const ON_BOTH_DATABASES: Readonly<Record<string, string>> = {
  'test/db/': "the database layer itself: schema, migrations, transactions on the wire; what a plain PostgreSQL role sees of other roles' sessions is PostgreSQL's and skips itself on PGlite",
  'src/kernel/visibility.spec.ts': "the visibility policy's SQL filters, run on the real event log table",
  'test/foundation/restart.test.ts': 'a restart: an empty data folder migrated once, data kept',
  'test/foundation/health.test.ts': 'readiness follows the database',
  'test/foundation/database-timeouts.test.ts': 'statement timeouts and a database that is cut or never answers',
  'test/sandbox/gateway-restart.test.ts': "a restart of a gateway that hosts the sandboxes, on the database's kept state",
  'test/jobs/': 'the job queue: leases, row locks and back-off in SQL',
  'test/reconciliation/reconciler.test.ts': "reconciliation as jobs: the recurring sweep's one occurrence, its pass over due records and the checks' job leases, in SQL",
  'test/events/': "the event bus (LISTEN/NOTIFY, each database's own client), the event log's order and catch-up, and subscriptions resumed from a cursor (across instances and a restart); what needs a second session or a second database on the server (late commits, another database's open transaction, a stalled log) is PostgreSQL's and skips itself on PGlite",
  'test/idempotency/': 'idempotency waits: advisory locks and notifications',
  'test/deposits/idempotency.test.ts': 'idempotency keys per rail: unique constraints and a stored response',
  'test/webhooks/webhook-inbox.test.ts': 'the webhook inbox: duplicates and order decided by unique constraints',
  'test/hardening/unstorable-text.test.ts': 'what text each database can store (NUL, lone surrogates)',
  'test/hardening/retention.test.ts': "retention's batched deletes and erasures (SKIP LOCKED, sha256() in SQL, partial index) and the key window in the idempotency claim",
  'test/hardening/personal-data-retention.test.ts': "retention of payments' personal data: jsonb rewritten in SQL (jsonb_set, jsonb_to_recordset), a data-modifying CTE over payouts and their events, SKIP LOCKED, partial indexes",
  'test/deposits/details-race.test.ts': "a write guarded on the row's version (xmin)",
  'test/performance/write-path.test.ts': "statements per write, counted on each database's own driver (PGlite's transactions differ)",
  'test/performance/subject-webhooks.test.ts': "statements per refund, payout and withdrawal webhook, counted on each database's own driver (PGlite's transactions differ)",
  'test/deposits/flow.test.ts': 'the card deposit flow end to end, with offline catch-up',
  'test/deposits/provider-fields.test.ts': "a deposit's metadata, a jsonb column written (or left null) in the deposit's insert and read back through snapshots",
  'test/refunds/refunds.test.ts': 'the refund flow end to end',
  'test/payouts/flow.test.ts': 'the payout flow end to end',
  'test/qr/qr.test.ts': 'the QR code flow end to end',
  'test/timeline/': "a payment's timeline: keyset reads merged across sources with row_number() windows, microsecond times as text, the provider call recorder's group-committed inserts and retention's deletes",
  'test/tracing/traces.test.ts': "traces of a deposit's story: its stored trace context, a column written in the deposit's insert and read by later work; statement spans are PostgreSQL's driver's and absent on PGlite",
  'test/notifications/': 'back-office notifications: the fan-out in the append\'s statement, delivery claims and leases, keyset reads and text[] columns in SQL',
};

/** Files that open a database whose behaviour cannot differ by database: CI runs them on PostgreSQL only. */
export const ON_ONE_DATABASE: Readonly<Record<string, string>> = {
  'test/card-form/': "the card form's tokens and redirects; its writes are the deposit flow's, run on both",
  'test/client/': 'typed client operations against the schema, nothing of the database',
  'test/deposits/': "deposit rules, statuses and provider answers above the database; the deposit flow, its idempotency and the details race run on both",
  'test/examples/': "the example cashier in a browser; its calls are the API's",
  'test/foundation/': "the API's edges (auth, limits, masking, logs, graphql-ws, GraphiQL, the CLI): HTTP and GraphQL above the database; restart, health and timeouts run on both",
  'test/foundation/process.test.ts': 'npm start, which runs on PGlite whatever DATABASE_URL says: the PostgreSQL step already runs it on PGlite',
  'test/hardening/fuzz.test.ts': "input checks answer before any write; what reaches storage is unstorable-text.test.ts's, run on both",
  'test/hardening/envelope.test.ts': 'malformed envelopes are refused before anything reads or writes the database',
  'test/hardening/client-limits.test.ts': "per-client limits are held in memory above the database; their sharing between instances runs on PostgreSQL only (two instances need one server), in this file's PostgreSQL run",
  'test/hardening/ws-flood.test.ts': "per-socket limits and the memory of failed keys, above the database; the lookups they spare are the clients' plain reads",
  'test/payouts/': 'payout rules, modes and provider answers above the database; the payout flow runs on both',
  'test/performance/': 'read paths, fan-out and compiled execution of the same queries above the database; the write path runs on both',
  'test/providers/provider-calls.test.ts': "provider calls counted and logged by the transport, above the database; the flows whose writes they serve run on both",
  'test/providers/third-provider.test.ts': "a provider registered from test/: its deposits take the kernel's paths, whose SQL the built-in providers' flows run on both",
  'test/qr/': 'QR rules and provider events above the database; the QR flow runs on both',
  'test/reconciliation/': "decisions from the provider's answers; the reconciler's sweep and its jobs run on both",
  'test/tracing/sdk-loading.test.ts': 'npm start with and without OTEL settings, which runs on PGlite whatever DATABASE_URL says: what it loads does not depend on the database',
  'test/recovery/crash.test.ts': 'kill -9 of the gateway process: PostgreSQL only, since PGlite lives in the process that is killed',
  'test/reference/': "the examples of the README and docs/ through the API",
  'test/refunds/': 'refund rules, partial and deferred refunds and chargebacks above the database; the refund flow runs on both',
  'test/sandbox/default-accounts.test.ts': "the default setup's accounts through the API and the sandbox's hosted page; its writes are the hosted checkout flow's, above the database",
  'test/visibility/': 'the visibility policy through the API; its SQL runs on both in src/kernel/visibility.spec.ts',
  'test/webhooks/': 'admin views of webhooks and the cap on rejected ones; the inbox runs on both',
};

/** The entry that decides `file` (a path from the project root): the longest that matches it. */
export function decidingEntry(file: string, entries: readonly string[]): string | undefined {
  return entries
    .filter((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry))
    .sort((a, b) => b.length - a.length)[0];
}

/** The files CI runs on both databases, as vitest `include` globs. */
export function bothDatabasesGlobs(): string[] {
  return Object.keys(ON_BOTH_DATABASES).map((entry) => (entry.endsWith('/') ? `${entry}**/*.{test,spec}.ts` : entry));
}
