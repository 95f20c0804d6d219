// The gateway's configuration as the rest of the code receives it: the typed object `loadConfig`
// (src/config.ts) returns, and the sections and defaults that other parts take on their own
// (database time-outs, client limits, retention, metrics). Types and defaults only: nothing here
// reads the environment.

import type { SecretsKeyring } from '../lib/sealed-secrets.js';
import type { TracingSettings } from '../lib/tracing/settings.js';
import type { MerchantAccount } from '../providers/provider.js';
import type { ConfiguredProviderSettings } from '../providers/registry.js';

export type Environment = 'development' | 'test' | 'production';

/** A merchant account as configured, plus which sandbox hosts it when the gateway runs one. */
export interface MerchantAccountConfig extends MerchantAccount {
  /** Set for accounts served by an in-process sandbox: `baseUrl` is filled in once it listens. */
  sandbox: boolean;
}

export interface GatewayConfig {
  env: Environment;
  host: string;
  port: number;
  /** Address at which providers reach this gateway's webhook routes. */
  publicUrl: string | undefined;
  /** PostgreSQL connection string; absent means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Time-outs that keep a hung or unreachable PostgreSQL from hanging requests (PGlite ignores them). */
  database: DatabaseTimeouts;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Create and print the three demo clients (development only). */
  demoClients: boolean;
  merchantAccounts: MerchantAccountConfig[];
  sandbox: {
    /** Multiplier for the sandboxes' clocks (webhook retry back-off, ack time-outs). 1 = real time. */
    timeScale: number;
    /** Test-mode payments approve (or decline, for `.13`) at once instead of waiting for a click. */
    autoComplete: boolean;
    /**
     * Each provider sandbox's port (`<PROVIDER>_SANDBOX_PORT`), by provider name: fixed by default so
     * the addresses a sandbox gave out outlive a restart; 0: any free port.
     */
    ports: Readonly<Record<string, SandboxPort>>;
    /** Where the sandboxes keep their state across restarts (`<dataDir>/sandboxes`); undefined: memory only. */
    stateDir: string | undefined;
  };
  /** `PROVIDER_TIMEOUT_MS` and `PROVIDER_MAX_RETRIES`, and each registered provider's own settings (`<PROVIDER>_<SETTING>`). */
  providers: ConfiguredProviderSettings;
  graphql: {
    maxDepth: number;
    maxAliases: number;
    maxCost: number;
    maxTokens: number;
    /** Longest query text, in characters, refused before it is parsed. */
    maxQueryChars: number;
    /** Root fields that move money or call a provider, aliases included, per operation. */
    maxMoneyFields: number;
    /** Serve GraphiQL on GET /graphql (always on in development). */
    graphiql: boolean;
    /** Runs of a query document through graphql-js before it runs compiled (0: compiled from the first). */
    compileAfter: number;
    /** Compiled query documents kept in memory; the least recently used beyond it are dropped. */
    compiledDocuments: number;
    /** A graphql-ws socket that has not sent `connection_init` this long after opening is closed with 4408. */
    wsConnectionInitTimeoutMs: number;
    /** Every graphql-ws socket is pinged this often, and closed if the previous ping got no pong. */
    wsKeepAliveMs: number;
    /** Per graphql-ws socket: messages a second and at once (over them: closed with 4429), and operations held at once. */
    wsLimits: { messagesPerSecond: number; messageBurst: number; maxOperations: number };
    /** Per client, unless an admin set its own (setApiClientLimits): requests a second and at once, subscriptions held at once. */
    clientLimits: ClientLimits;
    /** The persisted-documents manifest (hash -> document) codegen writes for the cashier apps, read at start. */
    trustedDocumentsFile: string;
  };
  /** Where and to whom `GET /metrics` answers (docs/operations.md "Metrics, start-up failures and the client CLI"). */
  metrics: MetricsConfig;
  http: {
    bodyLimitBytes: number;
    /** Largest provider webhook body read; a larger one is refused with 413 before it is buffered. */
    webhookBodyLimitBytes: number;
    /** Rejected (unverified) webhook deliveries kept per merchant account; older ones are deleted. */
    webhookRejectedKeep: number;
  };
  /** Reconciliation, which asks providers about deposits, refunds and payouts whose webhooks may have been lost: jobs of the job queue. */
  reconciler: {
    /** This instance keeps the recurring sweep scheduled; off, a sweep its worker takes ends the schedule. */
    enabled: boolean;
    /** Pause between two sweeps, and so between two checks of one still-open deposit. */
    intervalMs: number;
    /** A deposit is checked once it has been open this long (0: at once). */
    afterMs: number;
    /** Deposit (and refund) checks a sweep keeps in the job queue at most, those already there counted. */
    batchSize: number;
    /** Conclusive checks in which the provider's payout list does not show a payout before it is reported missing. */
    payoutMissingAfterChecks: number;
    /** How long after it became PAID a payout is still checked for a reversal. */
    payoutRevertWindowMs: number;
  };
  /** The payment event log that feeds live updates and `events(after:)`. */
  events: {
    /**
     * How long the oldest committed event may wait to become final (a transaction of this database
     * that started before it is still open) before /readyz reports the log as stalled.
     */
    stalledAfterMs: number;
  };
  /** The worker that runs durable follow-up jobs (src/kernel/jobs.ts) on this instance. */
  jobs: {
    /** Off: this instance enqueues jobs but runs none (another instance, or a later start, does). */
    enabled: boolean;
    /** Pause between two polls; a commit that enqueues work wakes the workers sooner. */
    pollIntervalMs: number;
    /** How long after such a commit the workers claim its work (0: at once); its live updates go out first. */
    wakeDelayMs: number;
    /** Jobs this instance runs at once. */
    concurrency: number;
    /** First retry delay of a failed job; each later one doubles, up to `backoffMaxMs`. */
    backoffBaseMs: number;
    backoffMaxMs: number;
    /** Runs of one job before it is kept as failed. */
    maxAttempts: number;
  };
  /** How long idempotency keys, webhook bodies and payments' personal data are kept, and the recurring job that removes them (docs/operations.md "Retention"). */
  retention: RetentionConfig;
  /** Back-office notifications (docs/notifications.md). */
  notifications: NotificationsConfig;
  /**
   * The keys that seal the secrets the database holds (`GATEWAY_SECRETS_KEY` or
   * `GATEWAY_SECRETS_KEY_FILE`; docs/secrets.md). Undefined outside production when neither is
   * set: the gateway then uses the key file in `dataDir`, generated on first start.
   */
  secretsKeyring: SecretsKeyring | undefined;
  /** OpenTelemetry traces, from the standard OTEL_* variables (docs/tracing.md); undefined when off, the default. */
  tracing: TracingSettings | undefined;
}

/** A sandbox's port, and the variable that set it (or would), for a message about it. */
export interface SandboxPort {
  port: number;
  variable: string;
}

/** Back-office notifications: time-out, retries, secret rotation, sweep, destinations (docs/notifications.md). */
export interface NotificationsConfig {
  /**
   * Destinations allowed although private, loopback (in production) or link-local: CIDRs and
   * exact host names, validated (`NOTIFICATION_ALLOWED_DESTINATIONS`; docs/security.md "Outbound requests").
   */
  allowedDestinations: readonly string[];
  /** A 2xx within this long counts as delivered (`NOTIFICATION_TIMEOUT_MS`, 10 s). */
  timeoutMs: number;
  /** A delivery is retried this long after its first failed attempt, then given up (`NOTIFICATION_RETRY_FOR_MS`, 3 days). */
  retryForMs: number;
  /** After a rotation the previous secret signs too, this long (`NOTIFICATION_SECRET_OVERLAP_MS`, 24 h). */
  secretOverlapMs: number;
  /** First retry delay; each later one doubles, up to `backoffMaxMs`, with jitter (`NOTIFICATION_BACKOFF_BASE_MS`, `NOTIFICATION_BACKOFF_MAX_MS`). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** The safety-net sweep's period (`NOTIFICATION_SWEEP_INTERVAL_MS`): due lanes and a fan-out left behind. */
  sweepIntervalMs: number;
  /**
   * While an endpoint's receiver fails every attempt, its lanes wait and one probe (its delivery
   * waiting longest) goes this often; the first success wakes them all (`NOTIFICATION_PROBE_INTERVAL_MS`, 1 min).
   */
  probeIntervalMs: number;
}

/** Retention windows and the sweep that applies them. Every window is measured on the gateway's clock. */
export interface RetentionConfig {
  /** This instance keeps the recurring sweep scheduled (`RETENTION_ENABLED`). */
  enabled: boolean;
  /** Pause between two sweeps (`RETENTION_INTERVAL_MS`). */
  intervalMs: number;
  /** Rows one statement of a sweep deletes or erases (`RETENTION_BATCH_SIZE`). */
  batchSize: number;
  /** An idempotency key answers its first request this long after its first use; then it starts a new one (`IDEMPOTENCY_KEY_WINDOW_MS`). */
  idempotencyKeyWindowMs: number;
  /** A key in doubt (outcome at the provider never answered for good) keeps resuming its subject this long (`IDEMPOTENCY_IN_DOUBT_WINDOW_MS`). */
  idempotencyInDoubtWindowMs: number;
  /** A verified webhook body, with the personal data in it, is erased this long after it was received (`WEBHOOK_BODY_RETENTION_MS`). */
  webhookBodyMs: number;
  /**
   * A final deposit's payer details and a final payout's beneficiary name and full account, CCI
   * and document numbers are erased this long after the payment last changed
   * (`PERSONAL_DATA_RETENTION_MS`). At least `idempotencyInDoubtWindowMs`: no idempotency key that
   * may still answer or resume a payment outlives its personal data.
   */
  personalDataMs: number;
  /**
   * A subscription resumes (`after:`) from a cursor this recent; an older one is refused with
   * CURSOR_EXPIRED and the client reloads (`SUBSCRIPTION_RESUME_WINDOW_MS`). Bounds a replay's length.
   */
  subscriptionResumeMs: number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The defaults of `RetentionConfig`, also used by callers of `createServices` that give none. */
export const DEFAULT_RETENTION: RetentionConfig = {
  enabled: true,
  intervalMs: HOUR_MS,
  batchSize: 500,
  idempotencyKeyWindowMs: DAY_MS,
  idempotencyInDoubtWindowMs: 30 * DAY_MS,
  webhookBodyMs: 30 * DAY_MS,
  // A quarter after the payment's last change: support questions and statement reconciliation
  // about a payment come within it; disputes are answered from what stays (docs/operations.md "Retention").
  personalDataMs: 90 * DAY_MS,
  subscriptionResumeMs: DAY_MS,
};

/**
 * Where Prometheus reads `/metrics`. Metrics tell anyone who reads them the traffic, the error rate
 * and the providers' health, so in production they are not on the API's port by default.
 */
export interface MetricsConfig {
  /**
   * A listener of their own (`METRICS_PORT` on `METRICS_HOST`, loopback by default), in which case
   * the API's port does not serve `/metrics`; undefined: served on the API's port (`METRICS_PORT=shared`).
   */
  listener: { host: string; port: number } | undefined;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (`METRICS_TOKEN`). */
  token: string | undefined;
}

/** The metrics listener's port in production when `METRICS_PORT` is not set (the Prometheus exporters' customary 9464). */
export const DEFAULT_PRODUCTION_METRICS_PORT = 9464;

/**
 * How long the gateway waits on PostgreSQL. Each bounds a different way of hanging: a server that
 * does not complete the connection, a statement that runs or waits on a lock too long, and a
 * session of ours left idle inside an open transaction (holding its locks).
 */
export interface DatabaseTimeouts {
  /** Opening a connection, and waiting for a free one from the pool (`DATABASE_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs: number;
  /**
   * One statement on the server (`statement_timeout`, `DATABASE_STATEMENT_TIMEOUT_MS`). The client
   * also stops waiting for an answer a second later, for a server that cannot even cancel it.
   */
  statementTimeoutMs: number;
  /** A session idle inside a transaction is ended by the server (`DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`). */
  idleInTransactionTimeoutMs: number;
}

/** The defaults of `DatabaseTimeouts`, also used by callers of `openDatabase` that give none. */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 30_000 };

/** graphql-ws's own timings (its server's `connectionInitWaitTimeout` and keep-alive), the defaults of the `GRAPHQL_WS_*` settings. */
export const DEFAULT_GRAPHQL_WS_TIMINGS = { connectionInitTimeoutMs: 3_000, keepAliveMs: 12_000 } as const;

/** Per-client limits (docs/clients.md "Client limits"), held across every instance (src/modules/clients/client-limits.ts). */
export interface ClientLimits {
  /** Requests a second, over HTTP and graphql-ws `subscribe` messages alike, sustained. */
  requestsPerSecond: number;
  /** Requests a client may send at once above its rate, after a quiet spell. */
  burst: number;
  /** Subscriptions a client may hold open at once, over every socket and instance. */
  maxSubscriptions: number;
}

/** Generous: a cashier serving thousands of players stays far below them (docs/clients.md "Client limits"). */
export const DEFAULT_CLIENT_LIMITS: Readonly<ClientLimits> = Object.freeze({ requestsPerSecond: 100, burst: 200, maxSubscriptions: 1_000 });

/** The largest value a limit may be set to (the columns are integers). */
export const MAX_CLIENT_LIMIT = 1_000_000;

/**
 * What one graphql-ws socket may ask: a client sends a few messages a second (a subscription, its
 * completion, pings), so 100 a second with bursts of 200 is far above any honest use and far below
 * what would slow the gateway for others; 100 operations held at once is more than any cashier runs.
 */
export const DEFAULT_GRAPHQL_WS_LIMITS = { messagesPerSecond: 100, messageBurst: 200, maxOperations: 100 } as const;
