// HTTP side of provider webhooks: POST /webhooks/:provider/:account reads the raw bytes, has the account's adapter verify them, and answers only after the inbox transaction commits.
// A delivery that fails verification is answered 4xx and recorded without its body, for admins.

import { Router, type Request, type Response } from 'express';
import type { Database } from '../db/database.js';
import { BodyTooLarge, readBody, singleValued } from '../lib/http.js';
import { lazyChild, type Logger } from '../lib/logger.js';
import type { ProviderName, WebhookRejection } from '../providers/provider.js';
import { WebhookRetryLater } from '../kernel/inbox/inbox.js';
import type { Services } from '../services.js';
import type { GatewayMetrics } from './metrics.js';

export interface WebhookRouterOptions {
  db: Database;
  services: Services;
  metrics: GatewayMetrics;
  logger: Logger;
  /** Largest body read (`WEBHOOK_BODY_LIMIT_BYTES`); a larger one is refused with 413 unread. */
  bodyLimitBytes: number;
  /** Rejected deliveries kept per merchant account (`WEBHOOK_REJECTED_KEEP`); older ones are deleted. */
  rejectedKeepPerAccount: number;
}

/** Bad shape after a valid signature is the sender's error (400); every signature failure is 401. */
const REJECTION_STATUS: Record<WebhookRejection, 400 | 401> = {
  SIGNATURE_MISSING: 401,
  SIGNATURE_MALFORMED: 401,
  SIGNATURE_MISMATCH: 401,
  TIMESTAMP_OUT_OF_WINDOW: 401,
  PAYLOAD_INVALID: 400,
};

export function webhookRouter(options: WebhookRouterOptions): Router {
  const { db, services, metrics, bodyLimitBytes } = options;
  const router = Router();

  router.post('/webhooks/:provider/:account', async (req: Request<{ provider: string; account: string }>, res: Response) => {
    // Made only when something is logged (the request's own logger too): most deliveries log one
    // line at info, often disabled.
    const log = lazyChild(() => (req as Request & { log?: Logger }).log ?? options.logger, { component: 'webhooks' });
    const providerParam = req.params.provider;
    const account = services.accounts.get(req.params.account);
    const adapter = isProviderName(providerParam) ? services.providers[providerParam] : undefined;
    // The path is the sender's to choose: only a configured provider becomes a metric label.
    const provider: ProviderName | 'unknown' = adapter ? (providerParam as ProviderName) : 'unknown';
    const reject = (status: number, reason: string) => {
      metrics.recordWebhook(provider, 'rejected', reason);
      log().warn({ provider, account: account?.code, status, reason }, 'webhook rejected');
      // A refused large body is left unread: closing the connection spares reading the rest.
      if (status === 413) res.set('connection', 'close');
      answer(res, status, { received: false, reason });
    };

    if (!adapter || !account || account.provider !== providerParam) return reject(404, 'NOT_FOUND');

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bodyLimitBytes) return reject(413, 'PAYLOAD_TOO_LARGE');
    let body: Buffer;
    try {
      body = await readBody(req, bodyLimitBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) return reject(413, 'PAYLOAD_TOO_LARGE');
      log().warn({ err: error, provider, account: account.code }, 'webhook body could not be read');
      if (!res.headersSent && !res.destroyed) answer(res, 400, { received: false, reason: 'BODY_UNREADABLE' });
      return;
    }

    // Verified on the exact bytes before anything parses them (DESIGN.md "Webhooks are verified on the exact bytes received").
    const receivedAt = new Date();
    const verification = adapter.verifyWebhook(account, { body, headers: singleValued(req.headers), receivedAt });
    if (!verification.ok) {
      try {
        const recorded = await services.webhooks.recordRejected(db.fork(), {
          provider: account.provider,
          account,
          reason: verification.reason,
          body,
          receivedAt,
          keepPerAccount: options.rejectedKeepPerAccount,
        });
        // Every rejection is still counted (metric below); only the stored rows are capped.
        if (recorded.pruned > 0) log().debug({ account: account.code, pruned: recorded.pruned }, 'oldest rejected webhook deliveries deleted');
      } catch (error) {
        // The answer is 4xx either way; losing the admin record of a refused delivery is only logged.
        log().warn({ err: error, provider, account: account.code, reason: verification.reason }, 'rejected webhook could not be recorded');
      }
      return reject(REJECTION_STATUS[verification.reason], verification.reason);
    }
    const { event } = verification;

    // Authentic but not storable: the raw body with a NUL byte, or a string of the event (id,
    // name, references, statuses) that the parser turned into NUL or a lone surrogate, or longer
    // than the columns it goes to. The database would refuse it on every retry, so it is kept as
    // rejected (its SHA-256 only) and acknowledged, which stops the provider's retries (spec: any
    // non-2xx is retried for 24 hours); nothing is applied.
    const unstorable = services.webhooks.unstorableText(event, body);
    if (unstorable) {
      const reason = 'TEXT_NOT_STORABLE';
      try {
        await services.webhooks.recordRejected(db.fork(), { provider: account.provider, account, reason, body, receivedAt, keepPerAccount: options.rejectedKeepPerAccount });
      } catch (error) {
        log().warn({ err: error, provider, account: account.code, reason }, 'rejected webhook could not be recorded');
      }
      metrics.recordWebhook(provider, 'rejected', reason);
      log().warn({ provider, account: account.code, reason, problem: unstorable.problem, at: unstorable.path.join('.') }, 'verified webhook refused: text that cannot be stored');
      answer(res, 200, { received: true, outcome: 'rejected', reason });
      return;
    }

    try {
      const result = await services.webhooks.receive(db.fork(), { provider: account.provider, account, event, rawBody: body });
      metrics.recordWebhook(provider, result.outcome, result.reason);
      if (options.logger.isLevelEnabled('info')) log().info(
        { provider, account: account.code, event: event.name, eventId: event.eventId, outcome: result.outcome, reason: result.reason, subjectId: result.subjectId },
        'webhook received',
      );
      // Sent only now that the transaction has committed: 2xx means durable, and so is the
      // follow-up work (the deposit's details) the inbox enqueued in that transaction.
      answer(res, 200, { received: true, outcome: result.outcome });
    } catch (error) {
      if (error instanceof WebhookRetryLater) {
        metrics.recordWebhook(provider, 'retry_later');
        log().warn({ provider, account: account.code, event: event.name, eventId: event.eventId, reason: error.message }, 'webhook deferred until the provider retries');
        // Nothing was committed; the provider's retry is a first delivery.
        answer(res, 503, { received: false, reason: 'RETRY_LATER' });
        return;
      }
      metrics.recordWebhook(provider, 'error');
      log().error({ err: error, provider, account: account.code, event: event.name, eventId: event.eventId }, 'webhook could not be stored');
      // 5xx: nothing was committed, and the provider retries (spec: Webhook retry window).
      answer(res, 500, { received: false, reason: 'INTERNAL_ERROR' });
    }
  });

  return router;
}

/**
 * Writes a small JSON answer straight to the socket: no ETag or other negotiation (a provider reads
 * only the status), one write per delivery.
 */
function answer(res: Response, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function isProviderName(value: string): value is ProviderName {
  return value === 'deposit-gateway' || value === 'qr-gateway';
}
