// The gateway's configuration: the only reader of process.env. Parsed and validated once at
// start-up; a bad value stops the process with a message naming the variable.

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { booleanString, nonNegativeInt, portNumber, positiveInt } from './lib/env-values.js';
import { parseAllowEntry, type OutboundPolicy } from './lib/outbound-http.js';
import { SecretsKeyring } from './lib/sealed-secrets.js';
import { tracingSettings, type TracingSettings } from './lib/tracing/settings.js';
import type { MerchantAccount, ProviderName } from './providers/provider.js';
import { providerRegistry } from './providers/index.js';
import type { ConfiguredProviderSettings, ProviderDefinition, ProviderRegistry } from './providers/registry.js';
import { SANDBOX_PORT_KEY, settingVariable } from './providers/settings.js';

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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A retention window in milliseconds: one hour to 365 days. */
const windowMs = () =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .pipe(z.number().int().min(3_600_000, 'must be at least 3600000 (one hour)').max(31_536_000_000, 'must be at most 31536000000 (365 days)'));

const url = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

const merchantAccountSchema = z.object({
  code: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'code must be lower-case letters, digits and dashes'),
  /** A registered provider's name (src/providers/index.ts); checked against the registry below. */
  provider: z.string().min(1, 'provider is required'),
  /**
   * Test or live. Optional where a key says it (its prefix), and then it must agree; needed for a
   * key that does not say, unless the publishable key does.
   */
  livemode: z.boolean().optional(),
  /** The account's publishable (client-side) key, for providers that mark test or live on it alone: read for its mode, never sent. */
  publishableKey: z.string().min(8, 'publishableKey is too short').optional(),
  /** Served by the in-process sandbox (development and tests only); then `baseUrl` is not given. */
  sandbox: z.boolean().default(false),
  baseUrl: url.optional(),
  apiKey: z.string().min(8, 'apiKey is too short'),
  webhookSecrets: z.array(z.string().min(8, 'webhook secrets need at least 8 characters')).min(1),
  /** Players go to the provider's own checkout host, not the acquirer's page, where the provider offers it. */
  whiteLabel: z.boolean().optional(),
});

/**
 * Settings that hold secrets and may be given as a file instead (`<NAME>_FILE`, as Docker and
 * Kubernetes secrets are mounted): one or the other, never both.
 */
export const FILE_SETTINGS = ['DATABASE_URL', 'MERCHANT_ACCOUNTS', 'METRICS_TOKEN', 'GATEWAY_SECRETS_KEY'] as const;

/** Largest file a `*_FILE` setting reads: a secret, or a JSON list of accounts, is far smaller. */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  // Loopback unless told otherwise: a development gateway with demo keys is not for the network.
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z
    .string()
    .regex(/^[0-9]+$/, 'must be a port number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535))
    .default(4000),
  PUBLIC_URL: url.optional(),
  METRICS_PORT: z.union([z.literal('shared'), portNumber], { message: 'must be a port number or "shared"' }).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(600_000).default(DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs),
  // Below the deposit gateway's 10 s webhook acknowledgement (spec: Webhook acknowledgement), so a
  // delivery stuck on a lock is answered 5xx and retried rather than timed out by the provider.
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(3_600_000).default(DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: positiveInt(3_600_000).default(DEFAULT_DATABASE_TIMEOUTS.idleInTransactionTimeoutMs),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_CLIENTS: booleanString.optional(),
  MERCHANT_ACCOUNTS: z.string().optional(),
  GATEWAY_SECRETS_KEY: z.string().optional(),
  SANDBOX_TIME_SCALE: z
    .string()
    .regex(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/, 'must be a positive decimal such as 1 or 0.01')
    .transform(Number)
    .pipe(z.number().positive().max(1000))
    .default(1),
  SANDBOX_AUTO_COMPLETE: booleanString.default(true),
  SANDBOX_PERSIST: booleanString.optional(),
  PROVIDER_TIMEOUT_MS: positiveInt(120_000).default(10_000),
  PROVIDER_MAX_RETRIES: z
    .string()
    .regex(/^[0-9]$/, 'must be 0 to 9')
    .transform(Number)
    .default(2),
  GRAPHQL_MAX_DEPTH: positiveInt(100).default(12),
  GRAPHQL_MAX_ALIASES: positiveInt(1000).default(15),
  GRAPHQL_MAX_COST: positiveInt(1_000_000).default(5000),
  GRAPHQL_MAX_TOKENS: positiveInt(1_000_000).default(2000),
  GRAPHQL_MAX_QUERY_CHARS: positiveInt(10_000_000).default(20_000),
  GRAPHQL_MAX_MONEY_FIELDS: positiveInt(100).default(1),
  GRAPHIQL: booleanString.optional(),
  GRAPHQL_COMPILE_AFTER: nonNegativeInt(1_000_000).default(2),
  GRAPHQL_COMPILED_DOCUMENTS: positiveInt(100_000).default(1000),
  GRAPHQL_WS_CONNECTION_INIT_TIMEOUT_MS: positiveInt(600_000).default(DEFAULT_GRAPHQL_WS_TIMINGS.connectionInitTimeoutMs),
  GRAPHQL_WS_KEEP_ALIVE_MS: positiveInt(3_600_000).default(DEFAULT_GRAPHQL_WS_TIMINGS.keepAliveMs),
  GRAPHQL_WS_MESSAGES_PER_SECOND: positiveInt(100_000).default(DEFAULT_GRAPHQL_WS_LIMITS.messagesPerSecond),
  GRAPHQL_WS_MESSAGE_BURST: positiveInt(100_000).default(DEFAULT_GRAPHQL_WS_LIMITS.messageBurst),
  GRAPHQL_WS_MAX_SUBSCRIPTIONS: positiveInt(100_000).default(DEFAULT_GRAPHQL_WS_LIMITS.maxOperations),
  CLIENT_REQUESTS_PER_SECOND: positiveInt(MAX_CLIENT_LIMIT).default(DEFAULT_CLIENT_LIMITS.requestsPerSecond),
  CLIENT_REQUEST_BURST: positiveInt(MAX_CLIENT_LIMIT).default(DEFAULT_CLIENT_LIMITS.burst),
  CLIENT_MAX_SUBSCRIPTIONS: positiveInt(MAX_CLIENT_LIMIT).default(DEFAULT_CLIENT_LIMITS.maxSubscriptions),
  TRUSTED_DOCUMENTS_FILE: z.string().min(1).default('client/generated/persisted-documents.json'),
  HTTP_BODY_LIMIT_BYTES: positiveInt(50_000_000).default(102_400),
  WEBHOOK_BODY_LIMIT_BYTES: positiveInt(10_000_000).default(65_536),
  WEBHOOK_REJECTED_KEEP: positiveInt(10_000_000).default(1000),
  RECONCILER_ENABLED: booleanString.default(true),
  RECONCILE_INTERVAL_MS: positiveInt(86_400_000).default(60_000),
  RECONCILE_AFTER_MS: nonNegativeInt(2_592_000_000).default(300_000),
  RECONCILE_BATCH_SIZE: positiveInt(1000).default(50),
  EVENT_LOG_STALLED_AFTER_MS: nonNegativeInt(86_400_000).default(30_000),
  JOBS_ENABLED: booleanString.default(true),
  JOBS_POLL_INTERVAL_MS: positiveInt(3_600_000).default(1_000),
  JOBS_WAKE_DELAY_MS: nonNegativeInt(10_000).default(20),
  JOBS_CONCURRENCY: positiveInt(100).default(4),
  JOBS_BACKOFF_BASE_MS: positiveInt(3_600_000).default(1_000),
  JOBS_BACKOFF_MAX_MS: positiveInt(86_400_000).default(300_000),
  JOBS_MAX_ATTEMPTS: positiveInt(1000).default(10),
  PAYOUT_MISSING_AFTER_CHECKS: positiveInt(1000).default(5),
  PAYOUT_REVERT_WINDOW_MS: nonNegativeInt(7_776_000_000).default(604_800_000),
  // Retention (docs/operations.md "Retention"). Windows shorter than an hour would cut a key's lease or a
  // provider's retries short; longer than a year would keep personal data without a reason.
  RETENTION_ENABLED: booleanString.default(DEFAULT_RETENTION.enabled),
  RETENTION_INTERVAL_MS: positiveInt(DAY_MS).default(DEFAULT_RETENTION.intervalMs),
  RETENTION_BATCH_SIZE: positiveInt(10_000).default(DEFAULT_RETENTION.batchSize),
  IDEMPOTENCY_KEY_WINDOW_MS: windowMs().default(DEFAULT_RETENTION.idempotencyKeyWindowMs),
  IDEMPOTENCY_IN_DOUBT_WINDOW_MS: windowMs().default(DEFAULT_RETENTION.idempotencyInDoubtWindowMs),
  WEBHOOK_BODY_RETENTION_MS: windowMs().default(DEFAULT_RETENTION.webhookBodyMs),
  PERSONAL_DATA_RETENTION_MS: windowMs().default(DEFAULT_RETENTION.personalDataMs),
  SUBSCRIPTION_RESUME_WINDOW_MS: windowMs().default(DEFAULT_RETENTION.subscriptionResumeMs),
  // Back-office notifications (docs/notifications.md).
  NOTIFICATION_ALLOWED_DESTINATIONS: z.string().optional(),
  NOTIFICATION_TIMEOUT_MS: positiveInt(60_000).default(10_000),
  NOTIFICATION_RETRY_FOR_MS: positiveInt(30 * DAY_MS).default(3 * DAY_MS),
  NOTIFICATION_SECRET_OVERLAP_MS: positiveInt(30 * DAY_MS).default(DAY_MS),
  NOTIFICATION_BACKOFF_BASE_MS: positiveInt(HOUR_MS).default(5_000),
  NOTIFICATION_BACKOFF_MAX_MS: positiveInt(DAY_MS).default(HOUR_MS),
  NOTIFICATION_SWEEP_INTERVAL_MS: positiveInt(HOUR_MS).default(10_000),
  NOTIFICATION_PROBE_INTERVAL_MS: positiveInt(HOUR_MS).default(60_000),
});

type Env = Record<string, string | undefined>;

/** What `loadConfig` is told besides the environment. */
export interface LoadConfigOptions {
  /** Providers registered besides the built-in ones: their accounts and their settings may then be configured. */
  providers?: readonly ProviderDefinition[];
}

/** One variable of a provider's own settings. */
export interface ProviderVariable {
  provider: string;
  /** Its key in the provider's settings; `SANDBOX_PORT` for the port of its sandbox. */
  key: string;
  /** `<PROVIDER>_<KEY>`. */
  variable: string;
  /** An older name still read, when it has one. */
  alias: string | undefined;
}

/**
 * Every variable the registered providers read, in registration order: each setting their
 * definitions declare, and the port of each one's sandbox (docs/configuration.md lists them).
 */
export function providerVariables(options: LoadConfigOptions = {}): ProviderVariable[] {
  return variablesOf(providerRegistry(options.providers));
}

function variablesOf(registry: ProviderRegistry): ProviderVariable[] {
  const variables = registry.definitions().flatMap((definition) => {
    const keys = [...(definition.settings?.keys ?? [])];
    if (definition.sandbox) {
      if (keys.includes(SANDBOX_PORT_KEY)) throw new Error(`Provider "${definition.name}" declares a ${SANDBOX_PORT_KEY} setting: that is its sandbox's port, which the configuration reads itself`);
      keys.push(SANDBOX_PORT_KEY);
    }
    return keys.map((key) => ({
      provider: definition.name,
      key,
      variable: settingVariable(definition.name, key),
      alias: key === SANDBOX_PORT_KEY ? definition.sandbox?.portAlias : definition.settings?.aliases[key],
    }));
  });
  // A name read twice is a bug of the definitions: two providers whose names meet (`acme` with
  // `PAY_MODE`, `acme-pay` with `MODE`), or a provider's variable that is one of the gateway's own.
  const seen = new Set<string>([...Object.keys(envSchema.shape), ...FILE_SETTINGS.map((name) => `${name}_FILE`)]);
  for (const name of variables.flatMap(({ variable, alias }) => (alias === undefined ? [variable] : [variable, alias]))) {
    if (seen.has(name)) throw new Error(`${name} would be read for two settings: rename a provider's setting or its alias`);
    seen.add(name);
  }
  return variables;
}

/** The provider settings read before the gateway's own are parsed: each provider's own, and its sandbox's port when set. */
interface ReadProviderSettings {
  byProvider: Record<string, object>;
  sandboxes: Array<{ provider: string; port: number | undefined; defaultPort: number; variable: string }>;
}

/**
 * Each registered provider's variables read and parsed by its definition's schema: a variable under
 * its older name counts as under its own (not both, unless alike), and each problem names the
 * variable as it was given.
 */
function readProviderSettings(registry: ProviderRegistry, env: Env, problems: string[]): ReadProviderSettings {
  const read: ReadProviderSettings = { byProvider: {}, sandboxes: [] };
  const variables = variablesOf(registry);
  for (const definition of registry.definitions()) {
    const given: Record<string, string> = {};
    const names: Record<string, string> = {};
    for (const { key, variable, alias } of variables.filter((candidate) => candidate.provider === definition.name)) {
      names[key] = variable;
      const value = env[variable];
      const older = alias === undefined ? undefined : env[alias];
      if (value !== undefined && older !== undefined && value !== older) {
        problems.push(`${alias}: ${variable} is set too, to another value; give one of them (${alias} is its older name)`);
      } else if (value !== undefined) {
        given[key] = value;
      } else if (older !== undefined) {
        given[key] = older;
        names[key] = alias!;
      }
    }
    const { [SANDBOX_PORT_KEY]: portText, ...values } = given;
    if (definition.sandbox) {
      const port = portText === undefined ? undefined : portNumber.safeParse(portText);
      if (port?.success === false) problems.push(...port.error.issues.map((issue) => `${names[SANDBOX_PORT_KEY]}: ${issue.message}`));
      read.sandboxes.push({ provider: definition.name, port: port?.data, defaultPort: definition.sandbox.defaultPort ?? 0, variable: names[SANDBOX_PORT_KEY]! });
    }
    if (!definition.settings) {
      read.byProvider[definition.name] = {};
      continue;
    }
    const parsed = definition.settings.parse(values);
    if (parsed.ok) read.byProvider[definition.name] = parsed.settings;
    else problems.push(...parsed.problems.map((problem) => `${names[problem.key] ?? settingVariable(definition.name, problem.key)}: ${problem.message}`));
  }
  return read;
}

/**
 * Reads and validates the configuration, with merchant accounts checked against the provider
 * registry. Throws `ConfigError` naming every bad variable.
 *
 * @example loadConfig({ PORT: '0', DATA_DIR: '/tmp/gw' })
 */
export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): GatewayConfig {
  const registry = providerRegistry(options.providers);
  // Empty strings are treated as unset, as in most twelve-factor tooling.
  const cleaned: Env = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const problems: string[] = [];
  // A setting given as a file is read here, and its problems name the *_FILE variable.
  const fromFile = new Set<string>();
  for (const name of FILE_SETTINGS) {
    const file = cleaned[`${name}_FILE`];
    if (file === undefined) continue;
    if (cleaned[name] !== undefined) {
      problems.push(`${name}_FILE: ${name} is set too; give the value or the file, not both`);
      continue;
    }
    const content = readSecretFile(file, `${name}_FILE`, problems);
    if (content !== undefined) {
      cleaned[name] = content;
      fromFile.add(name);
    }
  }
  const named = (name: string) => (fromFile.has(name) ? `${name}_FILE` : name);
  const providerSettings = readProviderSettings(registry, cleaned, problems);
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError([...problems, ...parsed.error.issues.map((issue) => `${[named(String(issue.path[0])), ...issue.path.slice(1)].join('.')}: ${issue.message}`)]);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';

  const merchantAccounts = e.MERCHANT_ACCOUNTS ? parseMerchantAccounts(e.MERCHANT_ACCOUNTS, named('MERCHANT_ACCOUNTS'), registry, problems) : defaultSandboxAccounts(registry);
  const demoClients = e.DEMO_CLIENTS ?? !production;
  const secretsKeyring = parseSecretsKey(e.GATEWAY_SECRETS_KEY, named('GATEWAY_SECRETS_KEY'), problems);

  if (production) {
    // A *_FILE that could not be read is a problem of its own already.
    if (!e.DATABASE_URL && !cleaned.DATABASE_URL_FILE) problems.push('DATABASE_URL: required when NODE_ENV=production, or DATABASE_URL_FILE (the embedded database is for development)');
    if (!e.MERCHANT_ACCOUNTS && !cleaned.MERCHANT_ACCOUNTS_FILE) problems.push('MERCHANT_ACCOUNTS: required when NODE_ENV=production, or MERCHANT_ACCOUNTS_FILE (the provider sandboxes are for development)');
    if (!e.GATEWAY_SECRETS_KEY && !cleaned.GATEWAY_SECRETS_KEY_FILE) {
      problems.push('GATEWAY_SECRETS_KEY: required when NODE_ENV=production, or GATEWAY_SECRETS_KEY_FILE: it seals the signing secrets the database holds (a new key: `node dist/src/cli/secrets.js new-key`; docs/secrets.md)');
    }
    for (const account of merchantAccounts.filter((candidate) => candidate.sandbox && e.MERCHANT_ACCOUNTS)) {
      problems.push(`MERCHANT_ACCOUNTS[${account.code}].sandbox: sandbox accounts are refused when NODE_ENV=production`);
    }
    if (demoClients) problems.push('DEMO_CLIENTS: demo clients are refused when NODE_ENV=production');
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: required when NODE_ENV=production (providers must reach the webhook routes)');
  }
  // Tests (and a gateway on an ephemeral port) take ephemeral sandbox ports and keep no sandbox
  // state, so runs never share a port or a file; a development gateway keeps both fixed.
  const ephemeral = e.NODE_ENV === 'test' || e.PORT === 0;
  const sandboxPorts: Record<string, SandboxPort> = {};
  const fixedPorts: SandboxPort[] = [];
  for (const sandbox of providerSettings.sandboxes) {
    const port = sandbox.port ?? (ephemeral ? 0 : sandbox.defaultPort);
    sandboxPorts[sandbox.provider] = { port, variable: sandbox.variable };
    if (port === 0) continue;
    const other = fixedPorts.find((candidate) => candidate.port === port);
    if (other) problems.push(`${sandbox.variable}: ${port} is ${other.variable} too; the sandboxes need a port each`);
    if (port === e.PORT) problems.push(`${sandbox.variable}: ${port} is the gateway's PORT too`);
    fixedPorts.push({ port, variable: sandbox.variable });
  }
  // Production keeps metrics off the API's port unless a token guards them; elsewhere they stay
  // on it, at hand for a developer and the tests.
  const metricsPort = e.METRICS_PORT ?? (production ? DEFAULT_PRODUCTION_METRICS_PORT : 'shared');
  if (metricsPort === 'shared' && production && !e.METRICS_TOKEN) {
    problems.push('METRICS_PORT: "shared" serves /metrics on the API\'s port, to anyone who reaches it; set METRICS_TOKEN too, or give metrics a port of their own');
  }
  if (metricsPort !== 'shared' && metricsPort !== 0) {
    for (const { variable, port } of [{ variable: 'PORT', port: e.PORT }, ...fixedPorts]) {
      if (port === metricsPort) problems.push(`METRICS_PORT: ${metricsPort} is ${variable} too; metrics need a port of their own`);
    }
  }
  if (e.JOBS_BACKOFF_MAX_MS < e.JOBS_BACKOFF_BASE_MS) problems.push('JOBS_BACKOFF_MAX_MS: must be at least JOBS_BACKOFF_BASE_MS');
  if (e.IDEMPOTENCY_IN_DOUBT_WINDOW_MS < e.IDEMPOTENCY_KEY_WINDOW_MS) problems.push('IDEMPOTENCY_IN_DOUBT_WINDOW_MS: must be at least IDEMPOTENCY_KEY_WINDOW_MS (a key in doubt outlives a settled one)');
  if (e.PERSONAL_DATA_RETENTION_MS < Math.max(e.IDEMPOTENCY_KEY_WINDOW_MS, e.IDEMPOTENCY_IN_DOUBT_WINDOW_MS)) {
    problems.push('PERSONAL_DATA_RETENTION_MS: must be at least IDEMPOTENCY_IN_DOUBT_WINDOW_MS and IDEMPOTENCY_KEY_WINDOW_MS (an idempotency key that may still answer or resume a payment must not outlive its personal data)');
  }
  if (e.NOTIFICATION_PROBE_INTERVAL_MS > e.NOTIFICATION_BACKOFF_MAX_MS) {
    problems.push('NOTIFICATION_PROBE_INTERVAL_MS: must be at most NOTIFICATION_BACKOFF_MAX_MS (a probe is what comes sooner than a lane\'s longest wait)');
  }
  const allowedDestinations = parseAllowedDestinations(e.NOTIFICATION_ALLOWED_DESTINATIONS, problems);
  const tracing = tracingSettings(cleaned, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    tracing,
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    database: {
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    logLevel: e.LOG_LEVEL,
    demoClients,
    merchantAccounts,
    sandbox: {
      timeScale: e.SANDBOX_TIME_SCALE,
      autoComplete: e.SANDBOX_AUTO_COMPLETE,
      ports: sandboxPorts,
      stateDir: (e.SANDBOX_PERSIST ?? e.NODE_ENV !== 'test') ? path.join(path.resolve(e.DATA_DIR), 'sandboxes') : undefined,
    },
    providers: { timeoutMs: e.PROVIDER_TIMEOUT_MS, maxRetries: e.PROVIDER_MAX_RETRIES, byProvider: providerSettings.byProvider },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxCost: e.GRAPHQL_MAX_COST,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxQueryChars: e.GRAPHQL_MAX_QUERY_CHARS,
      maxMoneyFields: e.GRAPHQL_MAX_MONEY_FIELDS,
      graphiql: e.GRAPHIQL ?? !production,
      compileAfter: e.GRAPHQL_COMPILE_AFTER,
      compiledDocuments: e.GRAPHQL_COMPILED_DOCUMENTS,
      wsConnectionInitTimeoutMs: e.GRAPHQL_WS_CONNECTION_INIT_TIMEOUT_MS,
      wsKeepAliveMs: e.GRAPHQL_WS_KEEP_ALIVE_MS,
      wsLimits: { messagesPerSecond: e.GRAPHQL_WS_MESSAGES_PER_SECOND, messageBurst: e.GRAPHQL_WS_MESSAGE_BURST, maxOperations: e.GRAPHQL_WS_MAX_SUBSCRIPTIONS },
      clientLimits: { requestsPerSecond: e.CLIENT_REQUESTS_PER_SECOND, burst: e.CLIENT_REQUEST_BURST, maxSubscriptions: e.CLIENT_MAX_SUBSCRIPTIONS },
      trustedDocumentsFile: path.resolve(e.TRUSTED_DOCUMENTS_FILE),
    },
    metrics: { listener: metricsPort === 'shared' ? undefined : { host: e.METRICS_HOST, port: metricsPort }, token: e.METRICS_TOKEN },
    http: { bodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES, webhookBodyLimitBytes: e.WEBHOOK_BODY_LIMIT_BYTES, webhookRejectedKeep: e.WEBHOOK_REJECTED_KEEP },
    reconciler: {
      enabled: e.RECONCILER_ENABLED,
      intervalMs: e.RECONCILE_INTERVAL_MS,
      afterMs: e.RECONCILE_AFTER_MS,
      batchSize: e.RECONCILE_BATCH_SIZE,
      payoutMissingAfterChecks: e.PAYOUT_MISSING_AFTER_CHECKS,
      payoutRevertWindowMs: e.PAYOUT_REVERT_WINDOW_MS,
    },
    events: { stalledAfterMs: e.EVENT_LOG_STALLED_AFTER_MS },
    jobs: {
      enabled: e.JOBS_ENABLED,
      pollIntervalMs: e.JOBS_POLL_INTERVAL_MS,
      wakeDelayMs: e.JOBS_WAKE_DELAY_MS,
      concurrency: e.JOBS_CONCURRENCY,
      backoffBaseMs: e.JOBS_BACKOFF_BASE_MS,
      backoffMaxMs: e.JOBS_BACKOFF_MAX_MS,
      maxAttempts: e.JOBS_MAX_ATTEMPTS,
    },
    retention: {
      enabled: e.RETENTION_ENABLED,
      intervalMs: e.RETENTION_INTERVAL_MS,
      batchSize: e.RETENTION_BATCH_SIZE,
      idempotencyKeyWindowMs: e.IDEMPOTENCY_KEY_WINDOW_MS,
      idempotencyInDoubtWindowMs: e.IDEMPOTENCY_IN_DOUBT_WINDOW_MS,
      webhookBodyMs: e.WEBHOOK_BODY_RETENTION_MS,
      personalDataMs: e.PERSONAL_DATA_RETENTION_MS,
      subscriptionResumeMs: e.SUBSCRIPTION_RESUME_WINDOW_MS,
    },
    notifications: {
      allowedDestinations,
      timeoutMs: e.NOTIFICATION_TIMEOUT_MS,
      retryForMs: e.NOTIFICATION_RETRY_FOR_MS,
      secretOverlapMs: e.NOTIFICATION_SECRET_OVERLAP_MS,
      backoffBaseMs: e.NOTIFICATION_BACKOFF_BASE_MS,
      backoffMaxMs: e.NOTIFICATION_BACKOFF_MAX_MS,
      sweepIntervalMs: e.NOTIFICATION_SWEEP_INTERVAL_MS,
      probeIntervalMs: e.NOTIFICATION_PROBE_INTERVAL_MS,
    },
    secretsKeyring,
  };
}

/** The configured keyring, or undefined when none is configured; a bad entry is a problem naming it (never its key). */
function parseSecretsKey(setting: string | undefined, name: string, problems: string[]): SecretsKeyring | undefined {
  if (setting === undefined) return undefined;
  const parsed = SecretsKeyring.parse(setting);
  if (parsed.ok) return parsed.keyring;
  problems.push(...parsed.problems.map((problem) => `${name}: ${problem}`));
  return undefined;
}

/**
 * The content of a file that holds a secret, trimmed (a mounted secret often ends in a newline),
 * or undefined after a problem naming `name` and the path. Never the content in a problem.
 */
function readSecretFile(file: string, name: string, problems: string[]): string | undefined {
  let content: string;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) {
      problems.push(`${name}: ${JSON.stringify(file)} is not a file`);
      return undefined;
    }
    if (stat.size > MAX_SECRET_FILE_BYTES) {
      problems.push(`${name}: ${JSON.stringify(file)} is larger than ${MAX_SECRET_FILE_BYTES} bytes`);
      return undefined;
    }
    content = readFileSync(file, 'utf8').trim();
  } catch (error) {
    problems.push(`${name}: cannot read ${JSON.stringify(file)} (${fileErrorReason(error)})`);
    return undefined;
  }
  if (content === '') {
    problems.push(`${name}: ${JSON.stringify(file)} is empty`);
    return undefined;
  }
  return content;
}

/** Why a file could not be read, in a few words from its system error code (the message could name more than the path). */
function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'a directory', ENOTDIR: 'a part of the path is not a directory', ELOOP: 'too many symbolic links' };
  return (code && reasons[code]) ?? code ?? 'unreadable';
}

/** Comma-separated CIDRs and host names; each bad entry is a problem naming it. */
function parseAllowedDestinations(setting: string | undefined, problems: string[]): string[] {
  const entries = (setting ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const parsed = parseAllowEntry(entry);
    if (!parsed.ok) problems.push(`NOTIFICATION_ALLOWED_DESTINATIONS: "${entry}" ${parsed.reason}`);
  }
  return entries;
}

/**
 * Where back-office notifications may go, from the configuration: https only and no loopback in
 * production, and the private destinations `NOTIFICATION_ALLOWED_DESTINATIONS` names.
 */
export function outboundPolicy(config: Pick<GatewayConfig, 'env' | 'notifications'>): OutboundPolicy {
  return { production: config.env === 'production', allow: config.notifications.allowedDestinations };
}

/**
 * For an entry point: the configuration, or the process ends with exit code 78 (EX_CONFIG) after
 * printing every bad variable, so a supervisor does not restart a process that cannot start.
 */
export function loadConfigOrExit(env: Env = process.env): GatewayConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

function parseMerchantAccounts(json: string, name: string, registry: ProviderRegistry, problems: string[]): MerchantAccountConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    problems.push(`${name}: must be a JSON array of merchant accounts`);
    return [];
  }
  if (Array.isArray(raw)) {
    const before = problems.length;
    raw = raw.map((entry: unknown, index) => readAccountFiles(entry, index, problems));
    if (problems.length > before) return [];
  }
  const parsed = z.array(merchantAccountSchema).min(1, 'must list at least one account').safeParse(raw);
  if (!parsed.success) {
    // Messages name the account index and field, never the value: it may be a secret.
    problems.push(...parsed.error.issues.map((issue) => `MERCHANT_ACCOUNTS[${issue.path.join('.')}]: ${issue.message}`));
    return [];
  }
  const codes = new Set<string>();
  const accounts: MerchantAccountConfig[] = [];
  for (const account of parsed.data) {
    if (!account.sandbox && !account.baseUrl) problems.push(`MERCHANT_ACCOUNTS[${account.code}].baseUrl: required unless the account is a sandbox account`);
    if (codes.has(account.code)) problems.push(`MERCHANT_ACCOUNTS: duplicate account code ${account.code}`);
    codes.add(account.code);
    const checked = registry.checkAccount(account);
    if (!checked.ok) {
      problems.push(`MERCHANT_ACCOUNTS[${account.code}].${checked.field}: ${checked.message}`);
      continue;
    }
    const { publishableKey: _publishable, ...rest } = account;
    accounts.push({
      ...rest,
      provider: account.provider as ProviderName,
      livemode: checked.mode === 'live',
      baseUrl: account.sandbox ? '' : (account.baseUrl ?? '').replace(/\/+$/, ''),
    });
  }
  return accounts;
}

/**
 * An account's `apiKeyFile` (the key) and `webhookSecretsFile` (one secret a line, the current
 * one first) read into `apiKey` and `webhookSecrets`: each given as a value or as a file, not both.
 */
function readAccountFiles(entry: unknown, index: number, problems: string[]): unknown {
  if (typeof entry !== 'object' || entry === null) return entry;
  const { apiKeyFile, webhookSecretsFile, ...account } = entry as Record<string, unknown>;
  const label = `MERCHANT_ACCOUNTS[${typeof account.code === 'string' ? account.code : index}]`;
  const read = (field: string, file: unknown, valueField: string): string | undefined => {
    if (file === undefined) return undefined;
    if (typeof file !== 'string' || file === '') {
      problems.push(`${label}.${field}: must be a file path`);
      return undefined;
    }
    if (account[valueField] !== undefined) {
      problems.push(`${label}.${field}: ${valueField} is given too; give the value or the file, not both`);
      return undefined;
    }
    return readSecretFile(file, `${label}.${field}`, problems);
  };
  const apiKey = read('apiKeyFile', apiKeyFile, 'apiKey');
  const secrets = read('webhookSecretsFile', webhookSecretsFile, 'webhookSecrets');
  return {
    ...account,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(secrets !== undefined ? { webhookSecrets: secrets.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '') } : {}),
  };
}

/**
 * With no MERCHANT_ACCOUNTS, the accounts each provider's sandbox declares (a test-mode one, and
 * for the deposit gateway a live-mode one too, so that hosted checkout can be tried), all served by
 * the in-process sandboxes: `sandbox: true`, so their `baseUrl` is the local sandbox's and never a
 * provider's. Their keys and secrets are fixed values that only the local sandbox accepts.
 */
function defaultSandboxAccounts(registry: ProviderRegistry): MerchantAccountConfig[] {
  return registry.defaultSandboxAccounts().map((account) => ({ ...account, baseUrl: '' }));
}
