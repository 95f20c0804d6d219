// Every HTTP request's id (the caller's `X-Request-Id` if sane, else a new one), its own logger, made
// when something logs through it, and one line when it completes, carrying the client and the
// GraphQL operation once known.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { RequestLineFields } from '../graphql/context.js';
import type { Logger } from '../lib/logger.js';

/** A request once its log has started: its id, its logger and the fields of its completion line. */
export type RequestWithLog = IncomingMessage & { id: string; log: Logger; line: RequestLineFields };

/** Paths probed by load balancers and monitoring, logged at debug when they answer well. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** `startRequestLog` as Express middleware, for the requests the server's own dispatch leaves to Express. */
export function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    // `req.path` before routers strip their mount point.
    startRequestLog(logger, req, res, req.path);
    next();
  };
}

/** The request log of one request, on node:http's own objects (a GraphQL POST or a webhook delivery is served without Express). */
export function startRequestLog(logger: Logger, req: IncomingMessage, res: ServerResponse, path: string): void {
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
