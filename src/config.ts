// The gateway's configuration: the only reader of process.env. Parsed and validated once at
// start-up; a bad value stops the process with a message naming the variable.
//
// This file is the configuration's face: `loadConfig` and the checks that span variables. What it
// composes lives in src/config/: the typed object and its defaults (gateway-config.ts), the
// gateway's own variables (env-schema.ts), secrets given as files (secret-settings.ts), merchant
// accounts (merchant-accounts.ts) and the providers' own variables (provider-settings.ts).

import path from 'node:path';
import { parseAllowEntry, type OutboundPolicy } from './lib/outbound-http.js';
import type { SecretsKeyring } from './lib/sealed-secrets.js';
import { tracingSettings, type TracingSettings } from './lib/tracing/settings.js';
import { providerRegistry } from './providers/index.js';
import type { ProviderDefinition } from './providers/registry.js';
import { envSchema, type Env, type ParsedEnv } from './config/env-schema.js';
import { DEFAULT_PRODUCTION_METRICS_PORT, type GatewayConfig, type MerchantAccountConfig, type SandboxPort } from './config/gateway-config.js';
import { defaultSandboxAccounts, parseMerchantAccounts } from './config/merchant-accounts.js';
import { readProviderSettings, variablesOf, type ProviderVariable, type ReadProviderSettings } from './config/provider-settings.js';
import { parseSecretsKey, readFileSettings } from './config/secret-settings.js';

export {
  DEFAULT_CLIENT_LIMITS,
  DEFAULT_DATABASE_TIMEOUTS,
  DEFAULT_GRAPHQL_WS_LIMITS,
  DEFAULT_RETENTION,
  MAX_CLIENT_LIMIT,
  type ClientLimits,
  type DatabaseTimeouts,
  type GatewayConfig,
  type MerchantAccountConfig,
  type NotificationsConfig,
} from './config/gateway-config.js';
export type { ProviderVariable } from './config/provider-settings.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** What `loadConfig` is told besides the environment. */
export interface LoadConfigOptions {
  /** Providers registered besides the built-in ones: their accounts and their settings may then be configured. */
  providers?: readonly ProviderDefinition[];
}

/**
 * Every variable the registered providers read, in registration order: each setting their
 * definitions declare, and the port of each one's sandbox (docs/configuration.md lists them).
 */
export function providerVariables(options: LoadConfigOptions = {}): ProviderVariable[] {
  return variablesOf(providerRegistry(options.providers));
}

/** What `loadConfig` works out from more than one variable, or from a variable's content, for `gatewayConfig`. */
interface Composed {
  production: boolean;
  demoClients: boolean;
  merchantAccounts: MerchantAccountConfig[];
  secretsKeyring: SecretsKeyring | undefined;
  sandboxPorts: Record<string, SandboxPort>;
  providerSettings: ReadProviderSettings;
  metricsPort: number | 'shared';
  allowedDestinations: string[];
  tracing: TracingSettings | undefined;
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
  const named = readFileSettings(cleaned, problems);
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
  if (production) productionProblems(e, cleaned, merchantAccounts, demoClients, problems);
  const { sandboxPorts, fixedPorts } = assignSandboxPorts(e, providerSettings, problems);
  const metricsPort = chooseMetricsPort(e, production, fixedPorts, problems);
  orderProblems(e, problems);
  const allowedDestinations = parseAllowedDestinations(e.NOTIFICATION_ALLOWED_DESTINATIONS, problems);
  const tracing = tracingSettings(cleaned, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return gatewayConfig(e, { production, demoClients, merchantAccounts, secretsKeyring, sandboxPorts, providerSettings, metricsPort, allowedDestinations, tracing });
}

/** What production refuses: the embedded database, sandbox accounts and demo clients, a missing secrets key or public URL. */
function productionProblems(e: ParsedEnv, cleaned: Env, merchantAccounts: MerchantAccountConfig[], demoClients: boolean, problems: string[]): void {
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

/** Each sandbox's port, and those of them that are fixed (not 0), refusing a port two listeners would share. */
function assignSandboxPorts(e: ParsedEnv, providerSettings: ReadProviderSettings, problems: string[]): { sandboxPorts: Record<string, SandboxPort>; fixedPorts: SandboxPort[] } {
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
  return { sandboxPorts, fixedPorts };
}

/** Where `/metrics` is served: its own port, or `shared` with the API's; refused where anyone could read it, or on a taken port. */
function chooseMetricsPort(e: ParsedEnv, production: boolean, fixedPorts: SandboxPort[], problems: string[]): number | 'shared' {
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
  return metricsPort;
}

/** Settings that must keep an order between them: a back-off cap above its base, retention windows that outlive the idempotency keys. */
function orderProblems(e: ParsedEnv, problems: string[]): void {
  if (e.JOBS_BACKOFF_MAX_MS < e.JOBS_BACKOFF_BASE_MS) problems.push('JOBS_BACKOFF_MAX_MS: must be at least JOBS_BACKOFF_BASE_MS');
  if (e.IDEMPOTENCY_IN_DOUBT_WINDOW_MS < e.IDEMPOTENCY_KEY_WINDOW_MS) problems.push('IDEMPOTENCY_IN_DOUBT_WINDOW_MS: must be at least IDEMPOTENCY_KEY_WINDOW_MS (a key in doubt outlives a settled one)');
  if (e.PERSONAL_DATA_RETENTION_MS < Math.max(e.IDEMPOTENCY_KEY_WINDOW_MS, e.IDEMPOTENCY_IN_DOUBT_WINDOW_MS)) {
    problems.push('PERSONAL_DATA_RETENTION_MS: must be at least IDEMPOTENCY_IN_DOUBT_WINDOW_MS and IDEMPOTENCY_KEY_WINDOW_MS (an idempotency key that may still answer or resume a payment must not outlive its personal data)');
  }
  if (e.NOTIFICATION_PROBE_INTERVAL_MS > e.NOTIFICATION_BACKOFF_MAX_MS) {
    problems.push('NOTIFICATION_PROBE_INTERVAL_MS: must be at most NOTIFICATION_BACKOFF_MAX_MS (a probe is what comes sooner than a lane\'s longest wait)');
  }
}

/** The typed configuration from the parsed variables and what was composed from them. */
function gatewayConfig(e: ParsedEnv, composed: Composed): GatewayConfig {
  const { production, demoClients, merchantAccounts, secretsKeyring, sandboxPorts, providerSettings, metricsPort, allowedDestinations, tracing } = composed;
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
