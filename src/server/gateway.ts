// The composition root of one gateway instance: every part built once, in dependency order, each
// with what it needs (the database, the services with their job handlers, the event bus, the
// provider sandboxes when no provider URLs are configured, Apollo Server and graphql-ws on one HTTP
// server, health, metrics, GraphiQL), and one close sequence for every way out. Used by `main.ts`
// and by the tests, which start real instances on real databases.

import { createServer, type Server } from 'node:http';
import type { GatewayConfig, MerchantAccountConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { sealAtStart } from '../db/sealed-columns.js';
import { secretsKeyring } from '../db/secrets-key.js';
import { entities } from '../entities.js';
import { buildGatewaySchema } from '../graphql/schema/schema.js';
import { TrustedDocuments } from '../graphql/trusted-documents.js';
import { EventBus } from '../kernel/events/event-bus.js';
import type { Clock } from '../lib/clock.js';
import { listenAs } from '../lib/http.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { startTracing } from '../lib/tracing/sdk.js';
import { ClientLimitsSync } from '../modules/clients/client-limits.js';
import { ensureDemoClients, type DemoClient } from '../modules/clients/demo-clients.js';
import type { ReconciliationSchedule } from '../modules/reconciliation/reconciliation-jobs.js';
import type { RetentionSchedule } from '../kernel/retention.js';
import { providerRegistry } from '../providers/index.js';
import type { ProviderDefinition, ProviderRegistry } from '../providers/registry.js';
import type { SandboxHost } from '../sandbox/host.js';
import { createServices, SEALED_COLUMNS, type GatewayServices, type ServiceObservers } from '../services.js';
import { graphqlHttpHandler, graphqlLimits, startApollo } from './apollo.js';
import { CloseSequence } from './close-sequence.js';
import { attachGraphqlWs } from './graphql-ws.js';
import { HostedSandboxes } from './hosted-sandboxes.js';
import { httpRoutes } from './http-routes.js';
import { GatewayMetrics, metricsServer } from './metrics.js';
import { eventLogLag } from './probes.js';

export interface Gateway {
  /** Base HTTP address, e.g. http://127.0.0.1:4000 */
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  /** Where Prometheus reads `GET /metrics`: the metrics listener's, or the API's when they share a port. */
  metricsUrl: string;
  config: GatewayConfig;
  db: Database;
  services: GatewayServices;
  /** The in-process provider sandboxes, when the gateway runs them. */
  sandboxes: SandboxHost;
  demoClients: DemoClient[];
  logger: Logger;
  /** Reconciliation's recurring sweep (jobs of the job queue), unless RECONCILER_ENABLED=false. */
  reconciler: ReconciliationSchedule | undefined;
  /** The retention sweep (a recurring job) on demand. */
  retention: RetentionSchedule;
  /** Reads committed payment events in log order and publishes them to this instance's subscribers. */
  eventBus: EventBus;
  /** The unstated provider rules in force for the configured accounts, one line each (the start banner shows them). */
  providerAssumptions: string[];
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  config: GatewayConfig;
  /** Defaults to a pino logger on stdout at the configured level. */
  logger?: Logger;
  /**
   * Providers registered besides the built-in ones (src/providers/index.ts); the configuration
   * must have been loaded with the same ones (`loadConfig(env, { providers })`).
   */
  providers?: readonly ProviderDefinition[];
  /** Measures retention ages (idempotency keys, webhook bodies, payments' personal data); default: the system clock. Tests move theirs forward. */
  clock?: Clock;
}

/** How long the close waits for the jobs still running: one still running then runs again once its lease runs out. */
const JOBS_STOP_DEADLINE_MS = 10_000;

export async function startGateway({ config, logger: givenLogger, providers = [], clock }: StartGatewayOptions): Promise<Gateway> {
  const logger = givenLogger ?? createLogger({ level: config.logLevel });
  // Before anything opens: a key file that cannot be used stops the start here.
  const keyring = secretsKeyring(config, logger);
  const closing = new CloseSequence(logger);
  try {
    // Before the database: its driver is instrumented before the pool's first connection
    // (docs/tracing.md). Nothing is loaded without OTEL settings.
    if (config.tracing) closing.add('tracing', await startTracing(config.tracing, logger));
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, entities, timeouts: config.database });
    closing.add('database', () => db.close());
    await sealAtStart(() => db.fork(), keyring, SEALED_COLUMNS, logger);
    const registry = providerRegistry(providers);
    // Built before the parts that call them; started once this gateway's address is known.
    const sandboxes = new HostedSandboxes({ accounts: config.merchantAccounts.filter((account) => account.sandbox), config, registry, logger });
    closing.add('sandboxes', () => sandboxes.close());
    // The event log's gauges read the log, which is built with the services below, which report
    // to these metrics: read at each scrape, when the services exist.
    const metrics = new GatewayMetrics(() => eventLogLag(db, services.events));
    // Where shoppers come back from the card form: known once the API's server listens.
    let publicUrl: string | undefined;
    const composed = createServices({ config, db, registry, logger, secrets: keyring, returnBaseUrl: () => publicUrl, observers: metricsObservers(metrics), ...(clock ? { clock } : {}) });
    const { services } = composed;
    // The last calls' records, written before the database closes.
    closing.add('provider call records', () => services.callRecords.close());
    // Closed after the API's server: no request can enqueue work then. Running jobs finish with the
    // database and the providers; what is still pending stays in the table for the next start.
    closing.add('job worker', () => services.jobs.stop(JOBS_STOP_DEADLINE_MS));
    const { eventBus } = await startListeners(db, services, metrics, logger, closing);
    const demoClients = config.demoClients ? await ensureDemoClients(db.fork(), services.clients, config.dataDir) : [];

    let ready = false;
    const httpServer = await apiServer({ config, db, services, registry, metrics, logger, demoClients, sandboxes, started: () => ready }, closing);
    const { port } = await listenAs(httpServer, config.port, config.host, { portVariable: 'PORT', hostVariable: 'HOST' });
    const url = `http://${loopbackFor(config.host)}:${port}`;
    const metricsUrl = (await listenMetrics(config, metrics, closing)) ?? `${url}/metrics`;
    publicUrl = config.publicUrl ?? url;
    const sandboxHost = await sandboxes.start(publicUrl);
    await registerWebhooks(config, registry, services, db, sandboxHost, publicUrl);
    // Once the sandboxes listen: jobs (reconciliation's among them) call the providers. Jobs left by
    // a stopped instance run now.
    if (config.jobs.enabled) await services.jobs.start();
    ready = true;
    // First of all on the way out: /readyz answers 503 while the rest closes.
    closing.add('readiness', () => {
      ready = false;
    });

    return {
      url,
      graphqlUrl: `${url}/graphql`,
      wsUrl: `ws://${loopbackFor(config.host)}:${port}/graphql`,
      metricsUrl,
      config,
      db,
      services,
      sandboxes: sandboxHost,
      demoClients,
      logger,
      reconciler: composed.reconciliation,
      retention: composed.retentionSweep,
      eventBus,
      providerAssumptions: providerAssumptions(config, registry),
      close: () => closing.run(),
    };
  } catch (error) {
    // Nothing is served: release what start-up opened (the embedded database's lock among it), so
    // the caller can report the failure in one line and start again. A close that fails is logged.
    await closing.run().catch(() => undefined);
    throw error;
  }
}

/** What the parts tell the metrics. */
function metricsObservers(metrics: GatewayMetrics): ServiceObservers {
  return {
    providerCall: (report) => metrics.recordProviderCall(report),
    reconciliation: (event) => metrics.recordReconciliation(event),
    job: (event) => metrics.recordJob(event),
    retention: (result) => metrics.recordRetention(result),
    notificationAttempt: (outcome) => metrics.notificationAttempts.inc({ outcome }),
    subscriptionResumes: { resumed: (outcome) => metrics.subscriptionResumes.inc({ outcome }), replayed: (count) => metrics.subscriptionReplayedEvents.inc(count) },
  };
}

/** The parts that listen to the database for what other instances commit, each started, with its close. */
async function startListeners(db: Database, services: GatewayServices, metrics: GatewayMetrics, logger: Logger, closing: CloseSequence): Promise<{ eventBus: EventBus }> {
  // Subscriptions are fed only by committed events, whichever instance committed them (DESIGN.md: live updates across instances).
  const eventBus = new EventBus(db, services.events, services.pubsub, logger.child({ component: 'event-bus' }), () => metrics.eventBusCatchUps.inc());
  await eventBus.start();
  closing.add('event bus', () => eventBus.stop());
  // A duplicate request waiting on an idempotency key is woken by the holder's release, whichever
  // instance holds it, and takes the key over at once if the holder's process is gone.
  await services.idempotency.start((channel, handler) => db.listen(channel, handler), db.instance);
  closing.add('idempotency keys', () => services.idempotency.stop());
  // Known keys are authenticated from memory; a revocation (of a client or of one key) committed on any instance empties it.
  await services.clients.start((channel, handler, options) => db.listen(channel, handler, options));
  closing.add('API key cache', () => services.clients.stop());
  // Instances on one PostgreSQL database share each client's limits (the embedded one has one process).
  if (db.kind === 'postgresql') {
    const limitsSync = new ClientLimitsSync({ limiter: services.clients.limiter, instance: String(db.instance.id), fork: () => db.fork(), logger: logger.child({ component: 'client-limits' }) });
    limitsSync.start();
    closing.add('client limits', () => limitsSync.stop());
  }
  return { eventBus };
}

/** What the API's server is built with. */
interface ApiParts {
  config: GatewayConfig;
  db: Database;
  services: GatewayServices;
  registry: ProviderRegistry;
  metrics: GatewayMetrics;
  logger: Logger;
  demoClients: DemoClient[];
  sandboxes: HostedSandboxes;
  /** Whether start-up is over and the close has not begun (/readyz). */
  started: () => boolean;
}

/** The API's HTTP server, with Apollo Server and graphql-ws on it, each with its close; not listening yet. */
async function apiServer(parts: ApiParts, closing: CloseSequence): Promise<Server> {
  const { config, db, services, metrics, logger } = parts;
  // Only NODE_ENV=development opens introspection to every key and shows stack traces; tests
  // run as `test` and so see what production clients see.
  const development = config.env === 'development';
  // Built bare: Apollo's stop drains it, and its request listener is made of Apollo's handler.
  const httpServer = createServer();
  const schema = await buildGatewaySchema(services.pubsub, parts.registry.definitions());
  // The documents the cashier apps ship, by hash: what a trusted-documents-only client may run.
  const trustedDocuments = await TrustedDocuments.load(config.graphql.trustedDocumentsFile);
  const limits = graphqlLimits(config.graphql);
  const apollo = await startApollo({ config, schema, limits, trustedDocuments, httpServer, metrics, logger, development });
  closing.add('Apollo and the API server', () => apollo.stop());
  const serveGraphql = graphqlHttpHandler(apollo, { db, services, trustedDocuments, logger, development });
  const eventLog = () => eventLogLag(db, services.events);
  httpServer.on('request', httpRoutes({ config, db, services, metrics, logger, serveGraphql, demoClients: parts.demoClients, started: parts.started, sandboxes: () => parts.sandboxes.health(), eventLogLag: eventLog }));
  const ws = await attachGraphqlWs({
    httpServer,
    schema,
    services,
    db,
    logger,
    metrics,
    validationRules: limits.validationRules,
    development,
    maxQueryChars: config.graphql.maxQueryChars,
    maxPayloadBytes: config.http.bodyLimitBytes,
    maxTokens: config.graphql.maxTokens,
    trustedDocuments,
    connectionInitTimeoutMs: config.graphql.wsConnectionInitTimeoutMs,
    keepAliveMs: config.graphql.wsKeepAliveMs,
    limits: config.graphql.wsLimits,
  });
  closing.add('graphql-ws', () => ws.close());
  return httpServer;
}

/** The metrics' own listener, when they have one (`METRICS_PORT`): its `/metrics` address, listening. */
async function listenMetrics(config: GatewayConfig, metrics: GatewayMetrics, closing: CloseSequence): Promise<string | undefined> {
  if (!config.metrics.listener) return undefined;
  const { host, port } = config.metrics.listener;
  const server = metricsServer(metrics.handler(config.metrics.token));
  const listening = await listenAs(server, port, host, { portVariable: 'METRICS_PORT', hostVariable: 'METRICS_HOST' });
  closing.add('metrics listener', () => closeNow(server));
  return `http://${loopbackFor(host)}:${listening.port}/metrics`;
}

/** Stops a server and ends its connections at once (a scrape has nothing worth waiting for). */
function closeNow(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return closed;
}

/**
 * A provider with webhook registration sends events only to registered URLs: ours is registered
 * with each of its sandbox accounts and, when its own setting says so, with each real one.
 */
async function registerWebhooks(config: GatewayConfig, registry: ProviderRegistry, services: GatewayServices, db: Database, sandboxes: SandboxHost, publicUrl: string): Promise<void> {
  const registering = (account: MerchantAccountConfig) => {
    const definition = registry.get(account.provider);
    if (!definition || !services.providers.offers(account.provider, 'webhookRegistration')) return false;
    return account.sandbox || definition.registerWebhookAtStart?.(registry.settingsOf(definition, config.providers)) === true;
  };
  for (const account of config.merchantAccounts.filter(registering)) {
    // A sandbox that kept its state across the restart still has our registration: no second one.
    const ours = `${publicUrl}/webhooks/${account.provider}/${account.code}`;
    if (account.sandbox && sandboxes.get(account.provider)?.hasWebhook?.(account.apiKey, ours)) continue;
    await services.qrCodes.registerGatewayWebhook(db.fork(), account, publicUrl, { reuseExisting: !account.sandbox });
  }
}

/** The unstated rules of each provider with a configured account, one line each. */
function providerAssumptions(config: GatewayConfig, registry: ProviderRegistry): string[] {
  return registry
    .definitions()
    .filter((definition) => config.merchantAccounts.some((account) => account.provider === definition.name))
    .flatMap((definition) => definition.assumptionsInForce?.(registry.settingsOf(definition, config.providers)) ?? []);
}

/** The address to reach a listener bound to `host` from this machine. */
function loopbackFor(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}
