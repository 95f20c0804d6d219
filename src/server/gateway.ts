// Assembles one gateway instance: database, services, provider sandboxes (when no provider URLs
// are configured), Apollo Server and graphql-ws on one HTTP server, health, metrics, GraphiQL.
// Used by `main.ts` and by the tests, which start real instances on real databases.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { OperationDefinitionNode } from 'graphql';
import { outboundPolicy, type GatewayConfig, type MerchantAccountConfig } from '../config.js';
import { providerRegistry } from '../providers/index.js';
import type { ProviderDefinition } from '../providers/registry.js';
import { openDatabase, type Database } from '../db/database.js';
import { ClientLimitsSync } from '../modules/clients/client-limits.js';
import { sealAtStart } from '../db/sealed-columns.js';
import { secretsKeyring } from '../db/secrets-key.js';
import { entities } from '../entities.js';
import { compiledExecution } from '../graphql/compiled-execution.js';
import { authenticate, describeOperation, NO_VIEWER, type RequestContext, type RequestLineFields } from '../graphql/context.js';
import { createFormatError, rateLimited } from '../graphql/errors.js';
import { armorLimits, maxMoneyFieldsRule } from '../graphql/limits.js';
import { buildGatewaySchema } from '../graphql/schema/schema.js';
import { documentHashOf, httpDocumentRequest, TrustedDocuments } from '../graphql/trusted-documents.js';
import { listenAs, sendJson } from '../lib/http.js';
import { createLogger, lazyChild, type Logger } from '../lib/logger.js';
import { describeGraphqlSpan, failGraphqlSpan, traceHttpRequest } from '../lib/tracing/request-spans.js';
import { startTracing } from '../lib/tracing/sdk.js';
import { ensureDemoClients, type DemoClient } from '../modules/clients/demo-clients.js';
import { assertDepositTransitionsConsistent } from '../modules/deposits/deposit-status.js';
import { EventBus } from '../kernel/events/event-bus.js';
import type { EventLogLag } from '../kernel/events/event-log.js';
import { registerReconciliationJobs, type ReconciliationSchedule } from '../modules/reconciliation/reconciliation-jobs.js';
import { registerRetentionJobs, type RetentionSchedule } from '../kernel/retention.js';
import { registerNotificationJobs } from '../modules/notifications/notifier.js';
import type { Clock } from '../lib/clock.js';
import { assertPayoutTransitionsConsistent } from '../modules/payouts/payout-status.js';
import { assertRefundTransitionsConsistent } from '../modules/refunds/refund-status.js';
import { assertWithdrawalTransitionsConsistent } from '../modules/withdrawals/withdrawal-status.js';
import { startSandboxes, type SandboxHost } from '../sandbox/host.js';
import { createServices, SEALED_COLUMNS, type Services } from '../services.js';
import { apolloHttpHandler, urlSearch } from './apollo-http.js';
import { drainHttpServer } from './drain.js';
import { envelopePlugin, httpEnvelope, INTERNAL_ERROR_BODY, readUsualGraphqlPost, usualGraphqlPost, type GraphqlHttpRequest } from './envelope.js';
import { examplesRouter } from './examples.js';
import { graphiqlPage } from './graphiql.js';
import { attachGraphqlWs } from './graphql-ws.js';
import { introspectionGuard } from './introspection.js';
import { GatewayMetrics, metricsServer } from './metrics.js';
import { cardFormReturnRouter } from './card-form-return.js';
import { WEBHOOK_ROUTE, webhookHandler, webhookPath, webhookRouter } from './webhooks.js';

export interface Gateway {
  /** Base HTTP address, e.g. http://127.0.0.1:4000 */
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  /** Where Prometheus reads `GET /metrics`: the metrics listener's, or the API's when they share a port. */
  metricsUrl: string;
  config: GatewayConfig;
  db: Database;
  services: Services;
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

export async function startGateway({ config, logger: givenLogger, providers: extraProviders = [], clock }: StartGatewayOptions): Promise<Gateway> {
  const logger = givenLogger ?? createLogger({ level: config.logLevel });
  // Only NODE_ENV=development opens introspection to every key and shows stack traces; tests
  // run as `test` and so see what production clients see.
  const development = config.env === 'development';
  // A bad edit to a transition table must never serve traffic.
  assertDepositTransitionsConsistent();
  assertRefundTransitionsConsistent();
  assertPayoutTransitionsConsistent();
  assertWithdrawalTransitionsConsistent();
  // Before the database: a key file that cannot be used stops the start before anything opens.
  const keyring = secretsKeyring(config, logger);
  // Before the database: its driver is instrumented before the pool's first connection
  // (docs/tracing.md). Nothing is loaded without OTEL settings.
  const stopTracing = config.tracing ? await startTracing(config.tracing, logger) : undefined;
  let db: Database;
  try {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, entities, timeouts: config.database });
  } catch (error) {
    await stopTracing?.();
    throw error;
  }
  try {
    await sealAtStart(() => db.fork(), keyring, SEALED_COLUMNS, logger);
  } catch (error) {
    await db.close();
    await stopTracing?.();
    throw error;
  }
  const registry = providerRegistry(extraProviders);
  const services = createServices({
    merchantAccounts: config.merchantAccounts,
    providers: config.providers,
    registry,
    logger,
    retention: config.retention,
    notifications: { ...config.notifications, policy: outboundPolicy(config) },
    secrets: keyring,
    clientLimits: config.graphql.clientLimits,
    ...(clock ? { clock } : {}),
  });
  const metrics = new GatewayMetrics();
  services.providerTransport.onCall((report) => metrics.recordProviderCall(report));
  // The slowest provider answer: every attempt timing out, plus the back-off between them.
  const slowestAnswerMs = services.providerTransport.longestCallMs() + 5_000;
  services.reconciler.configure({
    afterMs: config.reconciler.afterMs,
    // A row without a provider reference or a recorded failure may still have its first call in flight.
    submitGraceMs: slowestAnswerMs,
    payoutMissingAfterChecks: config.reconciler.payoutMissingAfterChecks,
    payoutRevertWindowMs: config.reconciler.payoutRevertWindowMs,
  });
  services.reconciler.onResult((event) => metrics.recordReconciliation(event));
  services.jobs.configure({
    pollIntervalMs: config.jobs.pollIntervalMs,
    wakeDelayMs: config.jobs.wakeDelayMs,
    concurrency: config.jobs.concurrency,
    backoffBaseMs: config.jobs.backoffBaseMs,
    backoffMaxMs: config.jobs.backoffMaxMs,
    maxAttempts: config.jobs.maxAttempts,
    // A lease outlasts the slowest provider answer, so no other instance takes a job (a
    // reconciliation check, say) while this one still waits on the provider for it.
    leaseMs: Math.max(60_000, slowestAnswerMs),
  });
  services.jobs.attach(db);
  // Provider call and reconciliation check records are written outside every payment's transaction.
  services.callRecords.attach(() => db.fork());
  services.jobs.onResult((event) => metrics.recordJob(event));
  // Reconciliation runs as jobs: registered before the worker starts, which schedules its sweep.
  const reconciler = registerReconciliationJobs(services.jobs, services.reconciler, {
    enabled: config.reconciler.enabled,
    intervalMs: config.reconciler.intervalMs,
    batchSize: config.reconciler.batchSize,
    fork: () => db.fork(),
    logger: logger.child({ component: 'reconciler' }),
  });
  // Retention runs as a recurring job too (docs/operations.md "Retention").
  const retention = registerRetentionJobs(services.jobs, services.retention, { settings: config.retention, fork: () => db.fork(), logger: logger.child({ component: 'retention' }) });
  services.retention.onResult((result) => metrics.recordRetention(result));
  // Back-office notifications: fan-out, one job per lane, and a recurring safety-net sweep.
  registerNotificationJobs(services.jobs, services.notifier, { sweepIntervalMs: config.notifications.sweepIntervalMs });
  services.notifier.onAttempt((outcome) => metrics.notificationAttempts.inc({ outcome }));
  services.events.observeResumes({ resumed: (outcome) => metrics.subscriptionResumes.inc({ outcome }), replayed: (count) => metrics.subscriptionReplayedEvents.inc(count) });
  // Subscriptions are fed only by committed events, whichever instance committed them (DESIGN.md: live updates across instances).
  const eventBus = new EventBus(db, services.events, services.pubsub, logger.child({ component: 'event-bus' }), () => metrics.eventBusCatchUps.inc());
  await eventBus.start();
  // A duplicate request waiting on an idempotency key is woken by the holder's release, whichever
  // instance holds it, and takes the key over at once if the holder's process is gone.
  await services.idempotency.start((channel, handler) => db.listen(channel, handler), db.instance);
  // Known keys are authenticated from memory; a revocation (of a client or of one key) committed on any instance empties it.
  await services.clients.start((channel, handler, options) => db.listen(channel, handler, options));
  // Instances on one PostgreSQL database share each client's limits (the embedded one has one process).
  const limitsSync = db.kind === 'postgresql'
    ? new ClientLimitsSync({ limiter: services.clients.limiter, instance: String(db.instance.id), fork: () => db.fork(), logger: logger.child({ component: 'client-limits' }) })
    : undefined;
  limitsSync?.start();

  const demoClients = config.demoClients ? await ensureDemoClients(db.fork(), services.clients, config.dataDir) : [];
  // Only a demo client with a working key can fill GraphiQL's header or the example cashier.
  const demoAdmin = demoClients.find((client) => client.roles.includes('ADMIN') && client.key !== null);

  const app = express();
  app.disable('x-powered-by');
  // No ETag: every GraphQL answer is no-store, and hashing each body cost CPU on every request.
  app.set('etag', false);
  app.set('trust proxy', false);
  const serveWebhook = webhookHandler({ db, services, metrics, logger, bodyLimitBytes: config.http.webhookBodyLimitBytes, rejectedKeepPerAccount: config.http.webhookRejectedKeep });
  const envelopeOptions = { bodyLimitBytes: config.http.bodyLimitBytes, maxQueryChars: config.graphql.maxQueryChars };
  // What jsonErrors does for a route that throws, for the requests served before Express.
  const unhandled = (res: ServerResponse) => (error: unknown) => {
    logger.error({ err: error }, 'unhandled HTTP error');
    if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR_BODY);
    else res.destroy();
  };
  // The two requests that make most of the traffic, a GraphQL POST and a provider's delivery, are
  // served before Express in their usual form: Express's per-request work (its request and
  // response prototypes, the router's walk past the probes, the body parser) cost more CPU than
  // either needs. They have the same request id, log line, metrics and answers as the rest.
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    if (usualGraphqlPost(req)) {
      startRequestLog(logger, req, res, GRAPHQL_PATH);
      metrics.observeResponse(req, res, () => GRAPHQL_PATH);
      servePost(req, res).catch(unhandled(res));
      return;
    }
    const path = webhookPath(req.method, req.url);
    if (!path) return void app(req, res);
    startRequestLog(logger, req, res, path.pathname);
    metrics.observeResponse(req, res, () => WEBHOOK_ROUTE);
    serveWebhook(req, res, path).catch(unhandled(res));
  };
  // With tracing on, each request in its HTTP server span (the caller's traceparent its parent).
  const httpServer = createServer(config.tracing ? (req, res) => traceHttpRequest(req, res, () => httpRoute(req), () => dispatch(req, res)) : dispatch);
  const servePost = async (req: GraphqlHttpRequest, res: ServerResponse): Promise<void> => {
    if (await readUsualGraphqlPost(req, res, envelopeOptions)) await serveGraphql(req, res);
  };
  let ready = false;
  let sandboxHost: SandboxHost | undefined;

  app.use(requestLogging(logger));
  app.use(metrics.httpMiddleware());

  // How far the event log's final part lags (readiness and the metrics' gauges), or undefined when
  // the database does not answer within the deadline.
  const eventLogLag = async (): Promise<EventLogLag | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        services.events.lag(db.fork()),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), EVENT_LOG_LAG_DEADLINE_MS);
        }),
      ]);
    } catch {
      // The database is failing: the ping reports it.
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  metrics.observeEventLog(eventLogLag);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    // Side by side: a hung database answers within the ping's own deadline, not after the sandboxes.
    const [database, sandboxes, lag] = await Promise.all([db.ping(), sandboxHost?.health(), eventLogLag()]);
    const ok = ready && database;
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ready' : 'not ready',
      database: database ? 'up' : 'down',
      sandboxes,
      eventLog: eventLogReadiness(lag, config.events.stalledAfterMs),
    });
  });
  const serveMetrics = metrics.handler(config.metrics.token);
  if (!config.metrics.listener) app.get('/metrics', serveMetrics);

  const schema = await buildGatewaySchema(services.pubsub, registry.definitions());
  // The documents the cashier apps ship, by hash: what a trusted-documents-only client may run.
  const trustedDocuments = await TrustedDocuments.load(config.graphql.trustedDocumentsFile);
  const armor = new ApolloArmor({
    // Each refusal with a code and message of its own (QUERY_TOO_COSTLY, QUERY_TOO_DEEP, TOO_MANY_ALIASES).
    ...armorLimits(config.graphql),
    // The token limit is graphql-js's own parse option (below): a refusal there is a 400 parse
    // failure, where armor's plugin-based check surfaces as a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: 50 },
    // Suggestions are removed by formatError, over HTTP and graphql-ws alike; armor's own plugin
    // would leave "[Suggestion hidden]?" in HTTP messages only.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  // One list for HTTP and graphql-ws: a limit that holds on one transport holds on both.
  const validationRules = [...armor.validationRules, maxMoneyFieldsRule(config.graphql.maxMoneyFields)];

  const apollo = new ApolloServer<RequestContext>({
    // Queries sent again and again run as compiled code (src/graphql/compiled-execution.ts).
    gateway: compiledExecution(schema, { compileAfter: config.graphql.compileAfter, maxDocuments: config.graphql.compiledDocuments, onExecution: (mode) => metrics.recordExecution(mode) }),
    formatError: createFormatError({ logger, development }),
    includeStacktraceInErrorResponses: development,
    allowBatchedHttpRequests: false,
    // main.ts owns the process's signals; Apollo's own handler would race it and swallow SIGTERM.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: config.graphql.maxTokens },
    csrfPrevention: true,
    // Guarded per caller by introspectionGuard: open in development, ADMIN keys elsewhere.
    introspection: true,
    validationRules,
    plugins: [
      envelopePlugin(),
      // graphql-armor types its plugins for BaseContext; they read nothing of ours.
      ...(armor.plugins as ApolloServerPlugin<RequestContext>[]),
      // Apollo's drainHttpServer, without its listener on every connection (each graphql-ws socket's too).
      drainHttpServer(httpServer),
      introspectionGuard(),
      trustedDocuments.apolloPlugin(),
      metrics.apolloPlugin(),
      requestLineOperation(),
      ...(config.tracing ? [tracingPlugin()] : []),
      // GraphiQL, when on, is served by Express below: whether it carries the demo key depends on the peer address.
      ApolloServerPluginLandingPageDisabled(),
      // The gateway sets no cache hints; Apollo's default cache-control plugin would still wrap
      // every field's resolver to look for them, which is most of the cost of a long list.
      ApolloServerPluginCacheControlDisabled(),
      noStore(),
    ],
  });
  await apollo.start();

  if (config.graphql.graphiql) app.get('/graphql', graphiqlPage({ defaultAuthorization: demoAdmin ? `Bearer ${demoAdmin.key}` : undefined }));
  // The example cashier (examples/cashier/): development aid, never served in production.
  const examples =
    config.env === 'production'
      ? undefined
      : examplesRouter({
          webCashierKey: demoClients.find((client) => client.name.startsWith('web-cashier'))?.key ?? undefined,
          // Read per page: a sandbox account's baseUrl is the sandbox's only once it listens.
          cardFormOrigins: () => config.merchantAccounts.filter((account) => account.baseUrl && services.providers.offers(account.provider, 'cardForm')).map((account) => new URL(account.baseUrl).origin),
        });
  if (examples) app.use('/examples', examples);

  const serveGraphql = apolloHttpHandler(apollo, {
    context: async ({ req }): Promise<RequestContext> => {
      const em = db.fork();
      const { client, apiKey, authFailure } = await authenticate(services, em, req.headers.authorization);
      const { id: requestId, line: requestLine } = req as RequestWithLog;
      if (client) {
        requestLine.clientId = client.id;
        // The client's rate (docs/clients.md "Client limits"), from memory: over it, 429 with Retry-After.
        const admission = services.clients.admit(client);
        if (!admission.ok) throw rateLimited(admission.retryAfterSeconds);
      }
      // Refused before Apollo reads the document (a request hook's error would be a 500).
      const refusal = trustedDocuments.refusalForHttp({ method: req.method!, body: req.body, search: urlSearch(req.url!) }, client);
      if (refusal) throw refusal;
      return new HttpRequestContext(
        {
          requestId,
          requestLine,
          em,
          client,
          ...(apiKey ? { apiKey } : {}),
          authFailure,
          viewer: client ?? NO_VIEWER,
          services,
          introspectionAllowed: development || Boolean(client?.isAdmin()),
          ...(typeof req.headers['idempotency-key'] === 'string' ? { idempotencyKey: req.headers['idempotency-key'] } : {}),
        },
        // Made on first use (the audit line of a mutation, say): a query that logs nothing makes none.
        lazyChild(() => logger, client ? { requestId, clientId: client.id } : { requestId }),
      );
    },
  });
  // Every other request to /graphql (a GET, another content type or charset, an encoded body):
  // method, content types, the JSON body and its fields, checked by Express's handlers.
  app.use(GRAPHQL_PATH, ...httpEnvelope(envelopeOptions), serveGraphql);
  // After /graphql, whose requests then never walk the webhook routes (a cost on every request);
  // only the request forms the server's own dispatch leaves to Express come here (webhookPath).
  // No body parser runs for webhook paths before it: they are verified on the exact bytes received.
  app.use(webhookRouter(serveWebhook));
  // Its result page links back to the example cashier when the gateway serves it.
  app.use(cardFormReturnRouter({ db, services, logger, ...(examples ? { cashierPath: '/examples/cashier' } : {}) }));
  app.use(jsonErrors(logger));

  const ws = await attachGraphqlWs({
    httpServer,
    schema,
    services,
    db,
    logger,
    metrics,
    validationRules,
    development,
    maxQueryChars: config.graphql.maxQueryChars,
    maxPayloadBytes: config.http.bodyLimitBytes,
    maxTokens: config.graphql.maxTokens,
    trustedDocuments,
    connectionInitTimeoutMs: config.graphql.wsConnectionInitTimeoutMs,
    keepAliveMs: config.graphql.wsKeepAliveMs,
    limits: config.graphql.wsLimits,
  });

  const metricsHttp = config.metrics.listener ? metricsServer(serveMetrics) : undefined;
  let port: number;
  let metricsPort: number | undefined;
  try {
    ({ port } = await listenAs(httpServer, config.port, config.host, { portVariable: 'PORT', hostVariable: 'HOST' }));
    if (metricsHttp && config.metrics.listener) {
      ({ port: metricsPort } = await listenAs(metricsHttp, config.metrics.listener.port, config.metrics.listener.host, { portVariable: 'METRICS_PORT', hostVariable: 'METRICS_HOST' }));
    }
  } catch (error) {
    // Nothing is served yet: release what start-up opened (the embedded database's lock among it),
    // so the caller can report the port in one line and start again.
    await ws.close();
    await apollo.stop(); // closes the API's server, if it listens
    await eventBus.stop();
    await services.idempotency.stop();
    await limitsSync?.stop();
    await services.clients.stop();
    await services.callRecords.close();
    await db.close();
    await stopTracing?.();
    throw error;
  }
  const localHost = loopbackFor(config.host);
  const url = `http://${localHost}:${port}`;
  const metricsUrl = config.metrics.listener ? `http://${loopbackFor(config.metrics.listener.host)}:${metricsPort}/metrics` : `${url}/metrics`;
  services.cardForm.useReturnBaseUrl(config.publicUrl ?? url);

  // Sandboxes start once our port is known: they deliver webhooks to it.
  const sandboxes = await startSandboxes({
    accounts: config.merchantAccounts.filter((account) => account.sandbox),
    webhookBaseUrl: config.publicUrl ?? url,
    config,
    registry,
    logger,
  });
  sandboxHost = sandboxes;
  // A provider with webhook registration sends events only to registered URLs: register ours with
  // each of its sandbox accounts and, when its own setting says so, with each real one.
  const registering = (account: MerchantAccountConfig) => {
    const definition = registry.get(account.provider);
    if (!definition || !services.providers.offers(account.provider, 'webhookRegistration')) return false;
    return account.sandbox || definition.registerWebhookAtStart?.(registry.settingsOf(definition, config.providers)) === true;
  };
  for (const account of config.merchantAccounts.filter(registering)) {
    // A sandbox that kept its state across the restart still has our registration: no second one.
    const ours = `${config.publicUrl ?? url}/webhooks/${account.provider}/${account.code}`;
    if (account.sandbox && sandboxes.get(account.provider)?.hasWebhook?.(account.apiKey, ours)) continue;
    await services.qrCodes.registerGatewayWebhook(db.fork(), account, config.publicUrl ?? url, { reuseExisting: !account.sandbox });
  }
  // Once the sandboxes listen: jobs (reconciliation's among them) call the providers. Jobs left by
  // a stopped instance run now.
  if (config.jobs.enabled) await services.jobs.start();
  ready = true;

  let closed = false;
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    wsUrl: `ws://${localHost}:${port}/graphql`,
    metricsUrl,
    config,
    db,
    services,
    sandboxes,
    demoClients,
    logger,
    reconciler,
    retention,
    eventBus,
    providerAssumptions: registry
      .definitions()
      .filter((definition) => config.merchantAccounts.some((account) => account.provider === definition.name))
      .flatMap((definition) => definition.assumptionsInForce?.(registry.settingsOf(definition, config.providers)) ?? []),
    async close() {
      if (closed) return;
      closed = true;
      ready = false;
      await ws.close();
      await apollo.stop();
      if (metricsHttp) {
        const closing = new Promise((resolve) => metricsHttp.close(resolve));
        metricsHttp.closeAllConnections();
        await closing;
      }
      // No request can enqueue work now: stop taking jobs and let the running ones finish with the
      // database and the providers. What is still pending stays in the table for the next start,
      // and a job still running at the deadline runs again once its lease runs out.
      await services.jobs.stop(10_000);
      await sandboxes.close();
      await eventBus.stop();
      await services.idempotency.stop();
      await limitsSync?.stop();
    await services.clients.stop();
      // The last calls' records, written before the database closes.
      await services.callRecords.close();
      await db.close();
      // Last: the spans of the shutdown's own work are flushed too.
      await stopTracing?.();
    },
  };
}

/** The address to reach a listener bound to `host` from this machine. */
function loopbackFor(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

type RequestWithLog = IncomingMessage & { id: string; log: Logger; line: RequestLineFields };

/**
 * An HTTP request's context. Its logger is a getter on the prototype, not on the object: Apollo
 * copies the context's own properties into a fresh object for every request (Object.assign),
 * which would call an own getter and make the child logger that the getter was there to spare.
 */
class HttpRequestContext implements RequestContext {
  declare requestId: string;
  declare requestLine?: RequestLineFields;
  declare em: RequestContext['em'];
  declare client: RequestContext['client'];
  declare apiKey?: RequestContext['apiKey'];
  declare authFailure: RequestContext['authFailure'];
  declare viewer: RequestContext['viewer'];
  declare services: Services;
  declare introspectionAllowed: boolean;
  declare idempotencyKey?: string;

  constructor(
    fields: Omit<RequestContext, 'logger'>,
    /** Copied with the other own properties; the getter below stays on the prototype. */
    readonly requestLogger: () => Logger,
  ) {
    Object.assign(this, fields);
  }

  get logger(): Logger {
    return this.requestLogger();
  }
}

/**
 * `Cache-Control: no-store` on every GraphQL answer, as Apollo's cache-control plugin gave it
 * before it was disabled: payment data must never be kept by a shared cache (a GET query could be).
 */
function noStore(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}


/** Where GraphQL is served, over HTTP and graphql-ws. */
const GRAPHQL_PATH = '/graphql';

/** Paths probed by load balancers and monitoring, logged at debug when they answer well. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Longest wait for the event log's lag in a probe, as for the database ping: a hung database must not hang /readyz or /metrics. */
const EVENT_LOG_LAG_DEADLINE_MS = 1_000;

/** The event log's part of /readyz. */
export interface EventLogReadiness {
  /**
   * `current`: committed events become final as they should; `stalled`: the oldest one not final
   * has waited `stalledAfterMs` or more (an open transaction of the gateway's database holds it
   * back); `unknown`: the database did not answer.
   */
  status: 'current' | 'stalled' | 'unknown';
  unfinalSeconds?: number;
  unfinalPositions?: number;
}

/**
 * A stalled log is reported, never made a reason to be not ready: payments, webhooks and queries
 * go on, only live updates and `events(after:)` wait. The cause is a transaction in the shared
 * database, so every instance would report it at once: taking them out of rotation (or restarting
 * them) would turn late live updates into an outage and end nothing.
 */
export function eventLogReadiness(lag: EventLogLag | undefined, stalledAfterMs: number): EventLogReadiness {
  if (!lag) return { status: 'unknown' };
  const stalled = lag.unfinalPositions > 0 && lag.unfinalSeconds * 1000 >= stalledAfterMs;
  return { status: stalled ? 'stalled' : 'current', unfinalSeconds: lag.unfinalSeconds, unfinalPositions: lag.unfinalPositions };
}

/**
 * A request id (the caller's `X-Request-Id` if sane, else a new one), a child logger per request,
 * and one line when the request completes, carrying the client and the GraphQL operation once known.
 */
function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    // `req.path` before routers strip their mount point.
    startRequestLog(logger, req, res, req.path);
    next();
  };
}

/** `requestLogging` for one request, on node:http's own objects (a webhook delivery is served without Express). */
function startRequestLog(logger: Logger, req: IncomingMessage, res: ServerResponse, path: string): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
  const started = process.hrtime.bigint();
  const line: RequestLineFields = {};
  // The request's own logger is made when something logs through it: most requests log one line, at the end.
  let log: Logger | undefined;
  Object.defineProperty(req, 'log', { configurable: true, get: () => (log ??= logger.child({ requestId: id })) });
  Object.assign(req, { id, line });
  res.setHeader('X-Request-Id', id);
  // Probes (health, readiness, metrics) come every few seconds from the platform: at info they
  // would be most of the log, so a successful one is logged at debug.
  const probe = PROBE_PATHS.has(path);
  res.on('finish', () => {
    const level = probe && res.statusCode < 400 ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level](
      {
        requestId: id,
        method: req.method,
        path,
        status: res.statusCode,
        ...(line.clientId ? { clientId: line.clientId } : {}),
        ...(line.operation ? { operation: line.operation } : {}),
        ...(line.refusal ? { refusal: line.refusal } : {}),
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request completed',
    );
  });
}

/** Names the GraphQL operation on the request's line once Apollo has resolved it. */
function requestLineOperation(): ApolloServerPlugin<RequestContext> {
  // The same parsed operation comes back for every request of a cached query text: described once.
  const descriptions = new WeakMap<OperationDefinitionNode, string>();
  const describe = (operation: OperationDefinitionNode): string => {
    let description = descriptions.get(operation);
    if (description === undefined) {
      description = describeOperation(operation);
      descriptions.set(operation, description);
    }
    return description;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation }) {
          if (contextValue.requestLine && operation) contextValue.requestLine.operation = describe(operation);
        },
      };
    },
  };
}

/**
 * The route template of a request for its span's name: the two served before Express by their
 * paths, the others by the Express route that answered (none for a 404).
 */
function httpRoute(req: IncomingMessage): string | undefined {
  const path = req.url?.split('?', 1)[0];
  if (path === GRAPHQL_PATH) return GRAPHQL_PATH;
  if (webhookPath(req.method, req.url)) return WEBHOOK_ROUTE;
  const routed = req as IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };
  const routePath = routed.route?.path;
  return typeof routePath === 'string' ? `${routed.baseUrl ?? ''}${routePath}` : undefined;
}

/**
 * Names the GraphQL span of an HTTP request by its operation once Apollo has resolved it, with the
 * trusted document's id when the request named one by hash; a request that ends in errors marks it
 * failed by the first error's code. Installed only when tracing is on.
 */
function tracingPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart({ request }) {
      return {
        async didResolveOperation({ operation }) {
          if (operation) describeGraphqlSpan({ type: operation.operation, name: operation.name?.value, documentId: request.http ? documentHashOf(httpDocumentRequest(request.http)) : undefined });
        },
        async didEncounterErrors({ errors }) {
          const code = errors[0]?.extensions?.code;
          failGraphqlSpan(typeof code === 'string' ? code : undefined);
        },
      };
    },
  };
}

/** Body-parser and other HTTP-level failures as JSON errors, never HTML or stack traces. */
function jsonErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = typeof error === 'object' && error && 'status' in error && typeof error.status === 'number' ? error.status : 500;
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 400 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
    const message = status === 413 ? 'Request body is too large' : status === 400 ? 'Request body is not valid JSON' : 'Internal error';
    if (status >= 500) logger.error({ err: error }, 'unhandled HTTP error');
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
  };
}
