// Every HTTP request's id (the caller's `X-Request-Id` if sane, else a new one), its own logger, made
// when something logs through it, and one line when it completes, carrying the client and the
// GraphQL operation once known.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { RequestLineFields } from '../graphql/context.js';
import type { Logger } from '../lib/logger.js';

/** A request once its log has started: its id, the fields of its completion line, and what its own logger is made from. */
export type RequestWithLog = IncomingMessage & { id: string; line: RequestLineFields; baseLogger: Logger; ownLogger?: Logger };

/**
 * The request's own logger (its lines carry the request id), made on first use: most requests log
 * one line, at the end. Undefined for a request whose log has not started.
 */
export function requestLog(req: IncomingMessage): Logger | undefined {
  const logged = req as Partial<RequestWithLog>;
  if (!logged.baseLogger) return undefined;
  return (logged.ownLogger ??= logged.baseLogger.child({ requestId: logged.id }));
}

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
  // Plain fields, each set once: a getter defined on each request (its own logger's, before)
  // gave every request object a shape of its own, which node:http's own reads of it then paid for.
  const logged = req as RequestWithLog;
  logged.id = id;
  logged.line = line;
  logged.baseLogger = logger;
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
