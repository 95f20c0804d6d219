// What the API's HTTP server answers, by path: a GraphQL POST and a provider's webhook delivery in
// their usual form before Express, then Express for everything else (probes, metrics, GraphiQL, the
// example cashier, other requests to /graphql, webhooks in other forms, the card form's return).

import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GatewayConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { EventLogLag } from '../kernel/events/event-log.js';
import { sendJson } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';
import { traceHttpRequest } from '../lib/tracing/request-spans.js';
import type { DemoClient } from '../modules/clients/demo-clients.js';
import type { GatewayServices } from '../services.js';
import { cardFormReturnRouter } from './card-form-return.js';
import { httpEnvelope, INTERNAL_ERROR_BODY, readUsualGraphqlPost, usualGraphqlPost, type GraphqlHttpRequest } from './envelope.js';
import { examplesRouter } from './examples.js';
import { graphiqlPage } from './graphiql.js';
import type { GatewayMetrics } from './metrics.js';
import { probes } from './probes.js';
import { requestLogging, startRequestLog } from './request-log.js';
import { WEBHOOK_ROUTE, webhookHandler, webhookPath, webhookRouter } from './webhooks.js';

/** Where GraphQL is served, over HTTP and graphql-ws. */
const GRAPHQL_PATH = '/graphql';

export interface HttpRoutesOptions {
  config: GatewayConfig;
  db: Database;
  services: GatewayServices;
  metrics: GatewayMetrics;
  logger: Logger;
  /** Apollo's `/graphql` handler (`graphqlHttpHandler`). */
  serveGraphql: (req: GraphqlHttpRequest, res: ServerResponse) => Promise<void>;
  demoClients: DemoClient[];
  /** Whether start-up is over and the close has not begun (/readyz). */
  started: () => boolean;
  /** Each in-process sandbox's health (/readyz); undefined while none runs. */
  sandboxes: () => Promise<Record<string, 'up' | 'down'>> | undefined;
  eventLogLag: () => Promise<EventLogLag | undefined>;
}

/** The API server's request listener. */
export function httpRoutes(options: HttpRoutesOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, logger, metrics } = options;
  const serveWebhook = webhookHandler({ db: options.db, inbox: options.services.webhooks, accounts: options.services.accounts, metrics, logger, bodyLimitBytes: config.http.webhookBodyLimitBytes, rejectedKeepPerAccount: config.http.webhookRejectedKeep });
  const envelopeOptions = { bodyLimitBytes: config.http.bodyLimitBytes, maxQueryChars: config.graphql.maxQueryChars };
  const app = expressApp(options, serveWebhook, envelopeOptions);
  const servePost = async (req: GraphqlHttpRequest, res: ServerResponse): Promise<void> => {
    if (await readUsualGraphqlPost(req, res, envelopeOptions)) await options.serveGraphql(req, res);
  };
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
  const graphqlRoute = () => GRAPHQL_PATH;
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    if (usualGraphqlPost(req)) {
      startRequestLog(logger, req, res, GRAPHQL_PATH);
      metrics.observeResponse(req, res, graphqlRoute);
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
  return config.tracing ? (req, res) => traceHttpRequest(req, res, () => httpRoute(req), () => dispatch(req, res)) : dispatch;
}

/** Everything the server's own dispatch leaves to Express. */
function expressApp(options: HttpRoutesOptions, serveWebhook: ReturnType<typeof webhookHandler>, envelopeOptions: { bodyLimitBytes: number; maxQueryChars: number }) {
  const { config, services, metrics, logger, demoClients } = options;
  const app = express();
  app.disable('x-powered-by');
  // No ETag: every GraphQL answer is no-store, and hashing each body cost CPU on every request.
  app.set('etag', false);
  app.set('trust proxy', false);
  app.use(requestLogging(logger));
  app.use(metrics.httpMiddleware());
  const { healthz, readyz } = probes({ db: options.db, started: options.started, sandboxes: options.sandboxes, eventLogLag: options.eventLogLag, stalledAfterMs: config.events.stalledAfterMs });
  app.get('/healthz', healthz);
  app.get('/readyz', readyz);
  if (!config.metrics.listener) app.get('/metrics', metrics.handler(config.metrics.token));
  // Only a demo client with a working key can fill GraphiQL's header or the example cashier.
  const demoAdmin = demoClients.find((client) => client.roles.includes('ADMIN') && client.key !== null);
  if (config.graphql.graphiql) app.get(GRAPHQL_PATH, graphiqlPage({ defaultAuthorization: demoAdmin ? `Bearer ${demoAdmin.key}` : undefined }));
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
  // Every other request to /graphql (a GET, another content type or charset, an encoded body):
  // method, content types, the JSON body and its fields, checked by Express's handlers.
  app.use(GRAPHQL_PATH, ...httpEnvelope(envelopeOptions), options.serveGraphql);
  // After /graphql, whose requests then never walk the webhook routes (a cost on every request);
  // only the request forms the server's own dispatch leaves to Express come here (webhookPath).
  // No body parser runs for webhook paths before it: they are verified on the exact bytes received.
  app.use(webhookRouter(serveWebhook));
  // Its result page links back to the example cashier when the gateway serves it.
  app.use(cardFormReturnRouter({ db: options.db, services, logger, ...(examples ? { cashierPath: '/examples/cashier' } : {}) }));
  app.use(jsonErrors(logger));
  return app;
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
