// Prometheus metrics of one gateway instance: HTTP requests, GraphQL operations by name and
// outcome, and their durations, webhooks by outcome and reason, the reconciler's checks and
// corrections, and follow-up job runs. A registry per instance, so several can run in one process.

import type { ApolloServerPlugin } from '@apollo/server';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GatewayContext } from '../graphql/context.js';
import type { ReconcileListener } from '../modules/reconciliation/reconciler.js';
import type { JobResultEvent } from '../kernel/jobs.js';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class GatewayMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by method, route and status code.',
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
    help: 'GraphQL operations by operation name, type and outcome (success or error).',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly graphqlDuration = new Histogram({
    name: 'gateway_graphql_operation_duration_seconds',
    help: 'GraphQL operation duration by operation name and type.',
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

  readonly jobs = new Counter({
    name: 'gateway_jobs_total',
    help: 'Runs of follow-up jobs by kind and outcome (succeeded, retried, failed: attempts exhausted, superseded: a newer job does the work).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly payoutsMissing = new Counter({
    name: 'gateway_payouts_missing_at_provider_total',
    help: 'Payouts the provider\'s list did not show after PAYOUT_MISSING_AFTER_CHECKS checks, each reported once (an admin-visible payout.missing_at_provider event).',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }

  /** Counts every HTTP request once its response is finished. */
  httpMiddleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const stop = this.httpDuration.startTimer();
      res.on('finish', () => {
        // Route patterns, not raw paths, keep label cardinality bounded.
        const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : req.baseUrl || routeOf(req.path);
        this.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
        stop({ method: req.method, route });
      });
      next();
    };
  }

  /** Counts GraphQL operations over HTTP (graphql-ws operations are counted by the ws server). */
  apolloPlugin(): ApolloServerPlugin<GatewayContext> {
    const metrics = this;
    return {
      async requestDidStart() {
        const started = process.hrtime.bigint();
        return {
          async willSendResponse({ operation, operationName, errors, response }) {
            const body = response.body;
            const failed = Boolean(errors?.length) || (body.kind === 'single' && Boolean(body.singleResult.errors?.length));
            metrics.recordOperation(operationName ?? 'anonymous', operation?.operation ?? 'unknown', failed, started);
          },
        };
      },
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

  recordJob(event: JobResultEvent): void {
    this.jobs.inc({ kind: event.kind, outcome: event.outcome });
  }

  recordOperation(name: string, type: string, failed: boolean, startedNs: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
    this.graphqlOperations.inc({ operation: name, type, outcome: failed ? 'error' : 'success' });
    this.graphqlDuration.observe({ operation: name, type }, seconds);
  }
}

/**
 * The stable code that starts a reason (`TRANSITION_NOT_ALLOWED: SUCCEEDED -> PENDING` gives
 * `TRANSITION_NOT_ALLOWED`); free text never becomes a label value.
 */
export function reasonCode(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const match = /^([A-Z][A-Z0-9_]{0,63})(?::|$)/.exec(reason);
  return match ? match[1] : 'OTHER';
}

function routeOf(path: string): string {
  if (path.startsWith('/webhooks/')) return '/webhooks/:provider/:account';
  return ['/graphql', '/healthz', '/readyz', '/metrics'].includes(path) ? path : 'other';
}
