// Prometheus metrics of one gateway instance: HTTP requests, GraphQL operations by root field and
// outcome, and their durations, provider calls by provider, operation and outcome, and their
// durations, webhooks by outcome and reason, the reconciler's checks and
// corrections, follow-up job runs, and how far the event log's final part lags. A registry per
// instance, so several can run in one process.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { GraphQLRequestContextWillSendResponse } from '@apollo/server';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestContext } from '../graphql/context.js';
import type { ReconcileListener } from '../modules/reconciliation/reconciler.js';
import type { JobResultEvent } from '../kernel/jobs.js';
import type { ProviderCallReport } from '../kernel/provider-transport.js';
import type { EventLogLag } from '../kernel/events/event-log.js';
import type { RetentionResult } from '../kernel/retention.js';
import { OTHER_OPERATION, OTHER_ROUTE, operationLabel, reasonCode, routeOf } from './metric-labels.js';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A provider attempt may run to PROVIDER_TIMEOUT_MS (at most 120 s): the buckets reach it. */
const PROVIDER_DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

// Label values come from the schema or from fixed lists, never from what a caller sends: the
// operation name and the path are free text, and each new value would be a new series kept in
// memory and in every /metrics answer.
const OPERATION_LABEL_HELP =
  'operation is the root field the operation selects (e.g. createDeposit), "multiple" when it selects several, "other" when it did not resolve to a valid operation; client-chosen operation names are not used';

export class GatewayMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by method, route (the matched route pattern, "other" for any path no route matched) and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'HTTP request duration by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly graphqlOperations = new Counter({
    name: 'gateway_graphql_operations_total',
    help: `GraphQL operations by operation, type and outcome (success or error); ${OPERATION_LABEL_HELP}.`,
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly graphqlDuration = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: `GraphQL operation duration by operation and type; ${OPERATION_LABEL_HELP}.`,
    labelNames: ['operation', 'type'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly wsConnections = new Counter({
    name: 'gateway_graphql_ws_connections_total',
    help: 'graphql-ws connection attempts by outcome (accepted or rejected).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCalls = new Counter({
    name: 'gateway_provider_calls_total',
    help: 'HTTP requests to payment providers, one per attempt (a retried call counts each), by provider, operation (the adapter operation, e.g. createDeposit) and outcome: success (2xx), client_error (4xx), server_error (5xx), unexpected_status, timeout or network_error. Every outcome but success is an error.',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCallDuration = new Histogram({
    name: 'gateway_provider_call_duration_seconds',
    help: 'Duration of one HTTP request to a payment provider (one attempt), by provider and operation, until its whole answer, its time-out or its network error.',
    labelNames: ['provider', 'operation'] as const,
    buckets: PROVIDER_DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly providerRetries = new Counter({
    name: 'gateway_provider_retries_total',
    help: 'Provider requests sent again after a time-out, a network error or a transient status, by provider and operation: only reads and calls the provider deduplicates are.',
    labelNames: ['provider', 'operation'] as const,
    registers: [this.registry],
  });

  readonly webhooks = new Counter({
    name: 'gateway_webhooks_total',
    help: 'Provider webhooks by provider, outcome (applied, duplicate, ignored, anomaly, unmatched, rejected, error) and reason code (e.g. TRANSITION_NOT_ALLOWED, SIGNATURE_MISMATCH; absent when there is none).',
    labelNames: ['provider', 'outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly reconcilerChecks = new Counter({
    name: 'gateway_reconciler_checks_total',
    help: 'Reconciler checks: deposits and refunds asked about one by one, by result (applied, noop, anomaly, provider_error, …), and payouts looked for in the provider\'s list (result checked, applied or resubmitted).',
    labelNames: ['subject', 'result'] as const,
    registers: [this.registry],
  });

  readonly reconcilerCorrections = new Counter({
    name: 'gateway_reconciler_corrections_total',
    help: 'Status changes the reconciler applied (a webhook was missed), by from and to status.',
    labelNames: ['from', 'to'] as const,
    registers: [this.registry],
  });

  readonly eventBusCatchUps = new Counter({
    name: 'gateway_event_bus_catch_ups_total',
    help: 'Times the event bus, its LISTEN connection back after a drop, read and published the payment events committed while it was not listening.',
    registers: [this.registry],
  });

  readonly jobs = new Counter({
    name: 'gateway_jobs_total',
    help: 'Runs of follow-up jobs by kind and outcome (succeeded, retried, failed: attempts exhausted, superseded: a newer job does the work).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly notificationAttempts = new Counter({
    name: 'gateway_notification_attempts_total',
    help: 'Back-office notification POSTs by outcome: delivered (a 2xx in time), retrying (will be tried again), failed (given up after NOTIFICATION_RETRY_FOR_MS).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly retentionRemoved = new Counter({
    name: 'gateway_retention_removed_total',
    help: 'What retention sweeps removed: data="idempotency_keys" (expired keys deleted), "webhook_bodies" (verified webhook bodies erased after WEBHOOK_BODY_RETENTION_MS), "provider_calls" and "reconciliation_checks" (timeline records deleted after the same window), "deposit_personal_data" or "payout_personal_data" (payments whose personal data was erased after PERSONAL_DATA_RETENTION_MS).',
    labelNames: ['data'] as const,
    registers: [this.registry],
  });

  readonly payoutsMissing = new Counter({
    name: 'gateway_payouts_missing_at_provider_total',
    help: 'Payouts the provider\'s list did not show after PAYOUT_MISSING_AFTER_CHECKS checks, each reported once (an admin-visible payout.missing_at_provider event).',
    registers: [this.registry],
  });

  readonly subscriptionExecutions = new Counter({
    name: 'gateway_subscription_executions_total',
    help: 'Live events executed for subscribers: one per group of alike subscriptions (same operation, variables and visibility class) and event, however many subscribers the group has.',
    registers: [this.registry],
  });

  readonly subscriptionResumes = new Counter({
    name: 'gateway_subscription_resumes_total',
    help: 'Subscriptions given an event cursor (after:), by outcome: replayed (the missed changes sent, then live), expired (older than SUBSCRIPTION_RESUME_WINDOW_MS: CURSOR_EXPIRED, the client reloads) or invalid (no cursor of this log: CURSOR_INVALID).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly subscriptionReplayedEvents = new Counter({
    name: 'gateway_subscription_replayed_events_total',
    help: 'Changes sent to resuming subscriptions from the event log, before they went live: what their sockets had missed.',
    registers: [this.registry],
  });

  readonly graphqlExecutions = new Counter({
    name: 'gateway_graphql_executions_total',
    help: 'HTTP GraphQL operations executed, by mode: compiled (a query document sent GRAPHQL_COMPILE_AFTER times already, run as code graphql-jit compiled once) or interpreted (graphql-js).',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });

  readonly eventLogUnfinalSeconds = new Gauge({
    name: 'gateway_event_log_unfinal_seconds',
    help: 'How long the oldest committed payment event that is not final yet has waited (0 when all are): live updates and events(after:) are held back while a transaction of the gateway\'s database that started before it stays open. Read at scrape time.',
    registers: [this.registry],
    collect: async () => this.collectEventLogLag(),
  });

  readonly eventLogUnfinalPositions = new Gauge({
    name: 'gateway_event_log_unfinal_positions',
    help: 'Event log positions between its final position and the newest committed event (0 when every committed event is final). Read at scrape time.',
    registers: [this.registry],
    collect: async () => this.collectEventLogLag(),
  });

  /** The read the two event log gauges of one scrape share (prom-client collects them side by side). */
  private eventLogLagRead: Promise<void> | undefined;

  /** The two series of `graphqlExecutions`, bound once: counting is on every request's path. */
  private readonly executionsByMode = {
    compiled: this.graphqlExecutions.labels('compiled'),
    interpreted: this.graphqlExecutions.labels('interpreted'),
  };

  /**
   * @param readEventLogLag where the event log gauges read the log's lag at each scrape; it answers
   *   undefined when the database does not answer in time, and the gauges then keep their last values.
   */
  constructor(private readonly readEventLogLag: () => Promise<EventLogLag | undefined>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
    // prom-client's `nodejs_active_{handles,requests,resources}_total` are gauges, and a `_total`
    // name is a counter's (promtool and OpenMetrics refuse them). Each is the sum of its family
    // by `type` (`sum(gateway_nodejs_active_handles)`), so dropping them loses nothing.
    for (const metric of this.registry.getMetricsAsArray()) {
      if (metric.name.endsWith('_total') && !(metric instanceof Counter)) this.registry.removeSingleMetric(metric.name);
    }
  }

  /**
   * `GET /metrics`: the exposition text, or 401 without `Authorization: Bearer <token>` when a
   * token is configured (compared in constant time, by hash, so its length leaks nothing either).
   */
  handler(token: string | undefined) {
    const expected = token === undefined ? undefined : sha256(token);
    return async (req: Request, res: Response) => {
      if (expected) {
        const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!given || !timingSafeEqual(sha256(given), expected)) {
          res.status(401).set('www-authenticate', 'Bearer realm="metrics"').type('text/plain').send('metrics need Authorization: Bearer <METRICS_TOKEN>\n');
          return;
        }
      }
      res.type(this.registry.contentType).send(await this.registry.metrics());
    };
  }

  private collectEventLogLag(): Promise<void> {
    this.eventLogLagRead ??= this.readEventLogLag()
      .then((lag) => {
        if (!lag) return;
        this.eventLogUnfinalSeconds.set(lag.unfinalSeconds);
        this.eventLogUnfinalPositions.set(lag.unfinalPositions);
      })
      .finally(() => {
        this.eventLogLagRead = undefined;
      });
    return this.eventLogLagRead;
  }

  /** Counts every HTTP request once its response is finished. */
  httpMiddleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      this.observeResponse(req, res, () => {
        // Route patterns, not raw paths, keep label cardinality bounded. By now Express may have
        // cleared req.baseUrl and a router stripped its mount point from req.path, hence the
        // fallback and the original URL.
        // Our fixed paths are named as they are: a GET /graphql first walks the GraphiQL route
        // (which passes a query on), then Apollo's mount, and the two joined made `/graphql/graphql`.
        const fixed = routeOf(req.originalUrl);
        // Express types req.route as any: the matched route, whose path is its pattern.
        const routePath = (req.route as { path?: string | RegExp | Array<string | RegExp> } | undefined)?.path;
        return fixed === OTHER_ROUTE && routePath ? `${req.baseUrl ?? ''}${String(routePath)}` : fixed;
      });
      next();
    };
  }

  /** Counts one HTTP request under the route `nameRoute` names once its response is finished (a request served without Express too). */
  observeResponse(req: IncomingMessage, res: ServerResponse, nameRoute: () => string): void {
    // Not the histogram's startTimer: its closures and label copies cost more than the timing itself.
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = nameRoute();
      const method = req.method ?? 'OTHER';
      this.httpRequests.inc({ method, route, status: String(res.statusCode) });
      this.httpDuration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
  }

  /**
   * Counts GraphQL operations over HTTP (graphql-ws operations are counted by the ws server): what
   * the gateway's one request plugin (src/server/apollo.ts) calls as a request's answer is sent,
   * with the time its request started.
   */
  operationRecorder(): (request: GraphQLRequestContextWillSendResponse<RequestContext>, started: bigint) => void {
    // Apollo hands every request of a cached query text the same parsed document: labelled once per operation name.
    const labels = new WeakMap<DocumentNode, Map<string, string>>();
    const labelOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): string => {
      let byName = labels.get(document);
      if (!byName) {
        byName = new Map();
        labels.set(document, byName);
      }
      const key = operationName ?? '';
      let label = byName.get(key);
      if (label === undefined) {
        label = operationLabel(schema, document, operationName);
        // Operation names are the caller's text: a document sent with many names keeps only a few.
        if (byName.size < 16) byName.set(key, label);
      }
      return label;
    };
    return ({ schema, document, operation, operationName, errors, response }, started) => {
      const body = response.body;
      const failed = Boolean(errors?.length) || (body.kind === 'single' && Boolean(body.singleResult.errors?.length));
      const label = operation && document ? labelOf(schema, document, operationName) : OTHER_OPERATION;
      this.recordOperation(label, operation?.operation ?? 'unknown', failed, started);
    };
  }

  /** One webhook outcome; `reason` is reduced to its code so the label stays bounded. */
  recordWebhook(provider: string, outcome: string, reason?: string): void {
    const code = reasonCode(reason);
    this.webhooks.inc(code ? { provider, outcome, reason: code } : { provider, outcome });
  }

  /** One reconciler result (the reconciler's listener). */
  recordReconciliation(event: Parameters<ReconcileListener>[0]): void {
    if (event.subject === 'payout') {
      if (event.result.checked) this.reconcilerChecks.inc({ subject: 'payout', result: 'checked' }, event.result.checked);
      if (event.result.applied) this.reconcilerChecks.inc({ subject: 'payout', result: 'applied' }, event.result.applied);
      if (event.result.resubmitted) this.reconcilerChecks.inc({ subject: 'payout', result: 'resubmitted' }, event.result.resubmitted);
      if (event.result.missing) this.payoutsMissing.inc(event.result.missing);
      return;
    }
    if (event.subject === 'refund') {
      this.reconcilerChecks.inc({ subject: 'refund', result: event.result.outcome });
      return;
    }
    const { result } = event;
    this.reconcilerChecks.inc({ subject: 'deposit', result: result.outcome });
    if (result.outcome === 'applied' && result.from && result.to) this.reconcilerCorrections.inc({ from: result.from, to: result.to });
  }

  recordExecution(mode: 'compiled' | 'interpreted'): void {
    this.executionsByMode[mode].inc();
  }

  /** One retention sweep: what it deleted or erased. */
  recordRetention(result: RetentionResult): void {
    if (result.idempotencyKeys) this.retentionRemoved.inc({ data: 'idempotency_keys' }, result.idempotencyKeys);
    if (result.webhookBodies) this.retentionRemoved.inc({ data: 'webhook_bodies' }, result.webhookBodies);
    if (result.providerCalls) this.retentionRemoved.inc({ data: 'provider_calls' }, result.providerCalls);
    if (result.reconciliationChecks) this.retentionRemoved.inc({ data: 'reconciliation_checks' }, result.reconciliationChecks);
    for (const [subject, count] of Object.entries(result.personalData)) if (count) this.retentionRemoved.inc({ data: `${subject}_personal_data` }, count);
  }

  /** One attempt of a provider call (the provider transport's listener). */
  recordProviderCall(report: ProviderCallReport): void {
    const { provider, operation } = report;
    this.providerCalls.inc({ provider, operation, outcome: report.outcome });
    this.providerCallDuration.observe({ provider, operation }, report.durationMs / 1000);
    if (report.willRetry) this.providerRetries.inc({ provider, operation });
  }

  recordJob(event: JobResultEvent): void {
    this.jobs.inc({ kind: event.kind, outcome: event.outcome });
  }

  recordOperation(name: string, type: string, failed: boolean, startedNs: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
    this.graphqlOperations.inc({ operation: name, type, outcome: failed ? 'error' : 'success' });
    this.graphqlDuration.observe({ operation: name, type }, seconds);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * A listener of its own for `GET /metrics` (docs/operations.md "Metrics, start-up failures and the client CLI"): kept off the API's port, so a
 * firewall or a loopback address keeps it from whoever reaches the API. Anything else is 404.
 */
export function metricsServer(handler: ReturnType<GatewayMetrics['handler']>): Server {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/metrics', handler);
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('only GET /metrics is served here\n');
  });
  return createServer(app);
}
