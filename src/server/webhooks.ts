// HTTP side of provider webhooks: POST /webhooks/:provider/:account reads the raw bytes, hands them
// to the webhook inbox (src/kernel/inbox/inbox.ts), which verifies, keeps and dispatches them, and
// maps its outcome to an HTTP status, a log line and a metric, answering only after it committed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import type { Database } from '../db/database.js';
import { BodyTooLarge, readBody, sendJson, singleValued } from '../lib/http.js';
import { lazyChild, type Logger } from '../lib/logger.js';
import { SummarisedLog } from '../lib/summarised-log.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { annotateSpan, inSpan } from '../lib/tracing/spans.js';
import { linkToStoredTrace } from '../lib/tracing/trace-context.js';
import type { SignatureRejection } from '../providers/provider.js';
import type { AcceptWebhookOutcome, RejectedRecord, WebhookInbox } from '../kernel/inbox/inbox.js';
import type { ReceiveWebhookResult } from '../kernel/inbox/webhook-handler.js';
import { isTracedPayment, readPaymentTraceContext } from '../kernel/payment-scope.js';
import type { MerchantAccountService } from '../modules/merchant-accounts/merchant-account.service.js';
import type { GatewayMetrics } from './metrics.js';
import { requestLog } from './request-log.js';

export interface WebhookRouterOptions {
  db: Database;
  /** Verifies, keeps, stores and dispatches each delivery. */
  inbox: WebhookInbox;
  /** The configured accounts, which name a refusal's account in its log line. */
  accounts: MerchantAccountService;
  metrics: GatewayMetrics;
  logger: Logger;
  /** Largest body read (`WEBHOOK_BODY_LIMIT_BYTES`); a larger one is refused with 413 unread. */
  bodyLimitBytes: number;
  /** Rejected deliveries kept per merchant account (`WEBHOOK_REJECTED_KEEP`); older ones are deleted. */
  rejectedKeepPerAccount: number;
}

/** A delivery whose signature or freshness failed is refused 401: the sender's retry, correctly signed, is a first delivery. */
const REJECTION_STATUS: Record<SignatureRejection, 401> = {
  SIGNATURE_MISSING: 401,
  SIGNATURE_MALFORMED: 401,
  SIGNATURE_MISMATCH: 401,
  TIMESTAMP_OUT_OF_WINDOW: 401,
};

/** The HTTP answer to a delivery: its status and JSON body. */
export interface WebhookAnswer {
  status: number;
  body: { received: boolean; outcome?: string; reason?: string };
}

/**
 * What the provider is answered for what became of its delivery. 2xx means stored (or kept) for
 * good, so the provider stops: a delivery stored and decided, whatever its outcome (a duplicate,
 * an anomaly...), and an authentic one no retry could ever apply. 404 for a path that names no
 * account, 401 for a signature or freshness failure (the sender's retry, signed, is a first
 * delivery), 503 when a handler cannot decide it yet, 500 when nothing could be stored: the
 * provider retries those, and its retry is a first delivery.
 */
export function webhookAnswer(outcome: AcceptWebhookOutcome): WebhookAnswer {
  switch (outcome.kind) {
    case 'not_found':
      return { status: 404, body: { received: false, reason: 'NOT_FOUND' } };
    case 'refused':
      return { status: REJECTION_STATUS[outcome.reason], body: { received: false, reason: outcome.reason } };
    case 'unprocessable':
      return { status: 200, body: { received: true, outcome: 'rejected', reason: outcome.reason } };
    case 'received':
      return { status: 200, body: { received: true, outcome: outcome.result.outcome } };
    case 'retry_later':
      return { status: 503, body: { received: false, reason: 'RETRY_LATER' } };
    case 'failed':
      return { status: 500, body: { received: false, reason: 'INTERNAL_ERROR' } };
  }
}

/** The path's provider and account, as the sender wrote them. */
export interface WebhookPath {
  provider: string;
  account: string;
}

/** The metrics' route label of every webhook path. */
export const WEBHOOK_ROUTE = '/webhooks/:provider/:account';

/** `POST /webhooks/<provider>/<account>` in origin form, a query ignored, as the router matches it (any case, one trailing slash). */
const WEBHOOK_PATH = /^\/webhooks\/([^/?#]+)\/([^/?#]+)\/?(?:\?.*)?$/i;

/**
 * The provider and account of a webhook delivery's request line, with its path as received (what
 * Express calls `req.path`), when it is one in the common form (`POST /webhooks/<provider>/<account>`,
 * the segments decodable); undefined otherwise, and the request goes through Express, whose route
 * (`webhookRouter`) serves any other form it matches.
 */
export function webhookPath(method: string | undefined, url: string | undefined): (WebhookPath & { pathname: string }) | undefined {
  if (method !== 'POST' || url === undefined) return undefined;
  const match = WEBHOOK_PATH.exec(url);
  if (!match) return undefined;
  try {
    const query = url.indexOf('?');
    return { provider: decodeURIComponent(match[1]!), account: decodeURIComponent(match[2]!), pathname: query < 0 ? url : url.slice(0, query) };
  } catch {
    return undefined;
  }
}

/** A node:http request as the webhook handler reads it: its request logger, when the request logging made one. */
type WebhookRequest = IncomingMessage;

/**
 * Serves one delivery on node:http's own request and response: gateway.ts calls it for the common
 * request form before Express (whose per-request work cost a delivery about 0.1 ms of CPU), and
 * `webhookRouter` for any other form Express routes here.
 */
export function webhookHandler(options: WebhookRouterOptions): (req: WebhookRequest, res: ServerResponse, path: WebhookPath) => Promise<void> {
  const { db, inbox, accounts, metrics, bodyLimitBytes } = options;
  // Anyone can send to a webhook path: a flood of refusals writes a bounded number of lines (every one is counted in the metrics).
  const rejections = new SummarisedLog(options.logger.child({ component: 'webhooks' }), 'webhook rejected');

  const handle = async (req: WebhookRequest, res: ServerResponse, path: WebhookPath): Promise<void> => {
    // Made only when something is logged (the request's own logger too): most deliveries log one
    // line at info, often disabled.
    const log = lazyChild(() => requestLog(req) ?? options.logger, { component: 'webhooks' });
    const { provider: providerParam, account: accountParam } = path;
    // The path is the sender's to choose: only a registered provider becomes a metric label.
    const provider = inbox.knowsProvider(providerParam) ? providerParam : 'unknown';
    const known = inbox.target(providerParam, accountParam);
    const reject = (status: number, reason: string) => {
      metrics.recordWebhook(provider, 'rejected', reason);
      rejections.note(reason, { provider, account: accounts.get(accountParam)?.code, status });
      // A refused large body is left unread: closing the connection spares reading the rest.
      if (status === 413) res.setHeader('connection', 'close');
      sendJson(res, status, { received: false, reason });
    };

    // Answered before reading: an unknown path costs no body.
    if (!known) return reject(404, 'NOT_FOUND');

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bodyLimitBytes) return reject(413, 'PAYLOAD_TOO_LARGE');
    let body: Buffer;
    try {
      body = await readBody(req, bodyLimitBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) return reject(413, 'PAYLOAD_TOO_LARGE');
      log().warn({ err: error, provider, account: known.account.code }, 'webhook body could not be read');
      if (!res.headersSent && !res.destroyed) sendJson(res, 400, { received: false, reason: 'BODY_UNREADABLE' });
      return;
    }

    // The inbox verifies, keeps, stores and dispatches; this route only answers and counts.
    let outcome: AcceptWebhookOutcome;
    try {
      outcome = await inbox.accept(db.fork(), {
        provider: providerParam,
        account: accountParam,
        body,
        headers: singleValued(req.headers),
        receivedAt: new Date(),
        keepRejectedPerAccount: options.rejectedKeepPerAccount,
      });
    } catch (error) {
      // No session to work in (the embedded database closed, the pool gone): nothing was stored,
      // and the provider retries a 5xx.
      metrics.recordWebhook(provider, 'error');
      log().error({ err: error, provider, account: known.account.code }, 'webhook could not be stored');
      sendJson(res, 500, { received: false, reason: 'INTERNAL_ERROR' });
      return;
    }
    await answerDelivery(outcome, { res, log, provider, reject }, shared);
  };

  /**
   * The delivery's span: what the event was, what became of it, and a link to the trace of the
   * request that made its payment. The inbox returns that trace context when the statement that
   * found and locked the payment read it (a deposit's status report); else it is read here.
   */
  const linkPaymentTrace = async ({ subjectType, subjectId, paymentTraceContext }: ReceiveWebhookResult, attributes: Record<string, string>): Promise<void> => {
    annotateSpan({ ...attributes, ...(subjectType ? { 'payments.subject.type': subjectType } : {}) });
    if (!subjectType || !subjectId || !isTracedPayment(subjectType)) return;
    if (paymentTraceContext !== undefined) return linkToStoredTrace(paymentTraceContext);
    try {
      linkToStoredTrace(await readPaymentTraceContext(db.fork(), subjectType, subjectId));
    } catch {
      // The span goes without its link; the delivery was stored and is answered all the same.
    }
  };

  const shared: AnswerShared = { metrics, logger: options.logger, linkPaymentTrace };

  // With tracing on, each delivery in a span of its own, a child of the request's.
  return (req, res, path) => {
    if (!tracingOn()) return handle(req, res, path);
    const provider = inbox.knowsProvider(path.provider) ? path.provider : 'unknown';
    return inSpan(`webhook ${provider}`, { attributes: { 'payments.provider': provider } }, () => handle(req, res, path));
  };
}

/** What answering one delivery needs of its request. */
interface DeliveryRequest {
  res: ServerResponse;
  log: () => Logger;
  /** The provider as a metric label. */
  provider: string;
  /** Refuses the delivery: counted, logged in summary, answered. */
  reject: (status: number, reason: string) => void;
}

/** What answering every delivery shares. */
interface AnswerShared {
  metrics: GatewayMetrics;
  logger: Logger;
  linkPaymentTrace: (result: ReceiveWebhookResult, attributes: Record<string, string>) => Promise<void>;
}

/** Answers, logs and counts what the inbox made of a delivery, now that its transaction has ended. */
async function answerDelivery(outcome: AcceptWebhookOutcome, { res, log, provider, reject }: DeliveryRequest, { metrics, logger, linkPaymentTrace }: AnswerShared): Promise<void> {
  const answer = webhookAnswer(outcome);
  /** The admin record of a refused delivery: its failure is only logged, as the answer is 4xx (or 2xx) either way. */
  const logRejectedRecord = (record: RejectedRecord, account: string, reason: string): void => {
    // Every rejection is still counted; only the stored rows are capped.
    if (record.ok && record.pruned > 0) log().debug({ account, pruned: record.pruned }, 'oldest rejected webhook deliveries deleted');
    if (!record.ok) log().warn({ err: record.error, provider, account, reason }, 'rejected webhook could not be recorded');
  };
  switch (outcome.kind) {
    case 'not_found':
      return reject(answer.status, 'NOT_FOUND');
    case 'refused':
      logRejectedRecord(outcome.record, outcome.account.code, outcome.reason);
      return reject(answer.status, outcome.reason);
    case 'unprocessable': {
      // Acknowledged so the provider stops: every retry would be refused the same way.
      const { reason, unstorable } = outcome;
      logRejectedRecord(outcome.record, outcome.account.code, reason);
      metrics.recordWebhook(provider, 'rejected', reason);
      const where = unstorable && { problem: unstorable.problem, at: unstorable.path.join('.') };
      log().warn({ provider, account: outcome.account.code, reason, ...where }, 'verified webhook kept as rejected: it cannot be processed');
      sendJson(res, answer.status, answer.body);
      return;
    }
    case 'received': {
      const { event, result } = outcome;
      if (tracingOn()) await linkPaymentTrace(result, { 'payments.webhook.event': event.name, 'payments.webhook.outcome': result.outcome });
      metrics.recordWebhook(provider, result.outcome, result.reason);
      if (logger.isLevelEnabled('info')) log().info(
        { provider, account: outcome.account.code, event: event.name, eventId: event.eventId, outcome: result.outcome, reason: result.reason, subjectId: result.subjectId },
        'webhook received',
      );
      // Sent only now that the transaction has committed: 2xx means durable, and so is the
      // follow-up work (the deposit's details) the inbox enqueued in that transaction.
      sendJson(res, answer.status, answer.body);
      return;
    }
    case 'retry_later':
      metrics.recordWebhook(provider, 'retry_later');
      log().warn({ provider, account: outcome.account.code, event: outcome.event.name, eventId: outcome.event.eventId, reason: outcome.message }, 'webhook deferred until the provider retries');
      // Nothing was committed; the provider's retry is a first delivery.
      sendJson(res, answer.status, answer.body);
      return;
    case 'failed':
      metrics.recordWebhook(provider, 'error');
      log().error({ err: outcome.error, provider, account: outcome.account.code, event: outcome.event.name, eventId: outcome.event.eventId }, 'webhook could not be stored');
      // 5xx: nothing was committed, and the provider retries (spec: Webhook retry window).
      sendJson(res, answer.status, answer.body);
      return;
  }
}

/** POST /webhooks/:provider/:account through Express: the request forms `webhookPath` leaves to it. */
export function webhookRouter(serve: ReturnType<typeof webhookHandler>): Router {
  const router = Router();
  router.post('/webhooks/:provider/:account', (req, res) => serve(req, res, { provider: req.params.provider, account: req.params.account }));
  return router;
}

