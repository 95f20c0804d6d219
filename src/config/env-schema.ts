// The gateway's own environment variables: the zod schema that parses and checks each one, with
// its default. The providers' own variables are read by src/config/provider-settings.ts, and the
// checks that span variables are src/config.ts's.

import { z } from 'zod';
import { booleanString, nonNegativeInt, portNumber, positiveInt } from '../lib/env-values.js';
import {
  DAY_MS,
  DEFAULT_CLIENT_LIMITS,
  DEFAULT_DATABASE_TIMEOUTS,
  DEFAULT_GRAPHQL_WS_LIMITS,
  DEFAULT_GRAPHQL_WS_TIMINGS,
  DEFAULT_RETENTION,
  HOUR_MS,
  MAX_CLIENT_LIMIT,
} from './gateway-config.js';

/** The environment as `loadConfig` reads it. */
export type Env = Record<string, string | undefined>;

/** A retention window in milliseconds: one hour to 365 days. */
const windowMs = () =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .pipe(z.number().int().min(3_600_000, 'must be at least 3600000 (one hour)').max(31_536_000_000, 'must be at most 31536000000 (365 days)'));

/** An http(s) address: PUBLIC_URL, and a merchant account's `baseUrl`. */
export const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  // Loopback unless told otherwise: a development gateway with demo keys is not for the network.
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z
    .string()
    .regex(/^[0-9]+$/, 'must be a port number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535))
    .default(4000),
  PUBLIC_URL: httpUrl.optional(),
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

/** The gateway's own variables, parsed. */
export type ParsedEnv = z.infer<typeof envSchema>;
