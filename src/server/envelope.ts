// The HTTP side of the request envelope (src/graphql/envelope.ts): the method, the content types,
// the JSON body and the GET parameters, refused before Apollo sees them; and an Apollo plugin for
// what needs the parsed document (which operation runs, and whether it may run on this transport).
// Every refusal is a 4xx with a code of its own, logged only on the request's info line.

import type { ApolloServerPlugin } from '@apollo/server';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { RequestContext, RequestLineFields } from '../graphql/context.js';
import { checkEnvelope, checkTransport, httpRefusals, refusalBody, refusalError, resolveOperation, type EnvelopeRefusal } from '../graphql/envelope.js';

/** Headers that make a browser send a preflight first (Apollo's csrfPrevention accepts either). */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];
const GET_PARAMETERS = ['query', 'operationName', 'variables', 'extensions', 'documentId'] as const;

/** True for `application/json`, whatever its parameters (the body parser checks the charset). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function refuse(req: Request, res: Response, refused: EnvelopeRefusal): void {
  const line = (req as Request & { line?: RequestLineFields }).line;
  if (line) line.refusal = refused.code;
  if (refused.headers) res.set(refused.headers);
  res.status(refused.status).json(refusalBody(refused));
}

/**
 * The handlers that come before Apollo on /graphql: method and content types, the JSON body
 * (parsed here, with its errors answered here), then the envelope's fields.
 */
export function httpEnvelope(options: { bodyLimitBytes: number }): Array<RequestHandler | ((error: unknown, req: Request, res: Response, next: NextFunction) => void)> {
  const acceptable = ['application/json', 'application/graphql-response+json'];
  const head = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'POST') return refuse(req, res, httpRefusals.method());
    const contentType = req.headers['content-type'];
    // A POST body is read only as JSON; a GET has none, but Apollo accepts a JSON content type on one.
    if (req.method === 'POST' ? !isJson(contentType) : contentType !== undefined && !isJson(contentType)) {
      return refuse(req, res, httpRefusals.contentType(req.method));
    }
    // Apollo checks Accept only after the operation ran: a mutation would run and then be answered 406.
    if (req.headers.accept && !req.accepts(acceptable)) return refuse(req, res, httpRefusals.notAcceptable());
    if (req.method === 'GET' && contentType === undefined && !PREFLIGHT_HEADERS.some((name) => Boolean(req.headers[name]))) {
      return refuse(req, res, httpRefusals.csrf());
    }
    next();
  };
  const body = express.json({ limit: options.bodyLimitBytes });
  const bodyErrors = (error: unknown, req: Request, res: Response, next: NextFunction) => {
    const type = typeof error === 'object' && error !== null && 'type' in error ? error.type : undefined;
    if (type === 'entity.too.large') return refuse(req, res, httpRefusals.tooLarge(options.bodyLimitBytes));
    if (type === 'entity.parse.failed') return refuse(req, res, httpRefusals.malformedJson());
    // A charset other than UTF-8, or a Content-Encoding the parser does not read.
    if (type === 'charset.unsupported' || type === 'encoding.unsupported') return refuse(req, res, httpRefusals.contentType(req.method));
    next(error);
  };
  const fields = (req: Request, res: Response, next: NextFunction) => {
    let given: Record<string, unknown>;
    if (req.method === 'POST') {
      const parsed: unknown = req.body;
      if (Array.isArray(parsed)) return refuse(req, res, httpRefusals.batch());
      if (typeof parsed !== 'object' || parsed === null) return refuse(req, res, httpRefusals.malformedJson());
      given = parsed as Record<string, unknown>;
    } else {
      const parameters = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      given = {};
      for (const name of GET_PARAMETERS) {
        const values = parameters.getAll(name);
        if (values.length > 1) return refuse(req, res, httpRefusals.repeated(name));
        if (values.length === 0) continue;
        if (name === 'variables' || name === 'extensions') {
          try {
            given[name] = JSON.parse(values[0]!);
          } catch {
            return refuse(req, res, httpRefusals.parameterNotJson(name));
          }
        } else {
          given[name] = values[0];
        }
      }
    }
    const refused = checkEnvelope(given, req.method === 'GET' ? 'http-get' : 'http-post');
    if (refused) return refuse(req, res, refused);
    next();
  };
  return [head, body, bodyErrors, fields];
}

/**
 * Refuses, once Apollo has parsed and validated the document, an `operationName` that selects no
 * operation and a subscription sent over HTTP. Listed first among the plugins, so its refusal is
 * the one answered when another plugin would refuse the same request.
 */
export function envelopePlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request, contextValue }) {
          const resolved = resolveOperation(document, request.operationName);
          const refused = 'code' in resolved ? resolved : checkTransport(resolved, request.http?.method === 'GET' ? 'http-get' : 'http-post');
          if (!refused) return;
          if (contextValue.requestLine) contextValue.requestLine.refusal = refused.code;
          throw refusalError(refused);
        },
        // Apollo refuses a GET that is not a query itself, before any plugin hears of the
        // operation, with a generic BAD_REQUEST: the same refusal, with its own code.
        async willSendResponse({ request, operation, response, contextValue }) {
          if (request.http?.method !== 'GET' || !operation || response.body.kind !== 'single') return;
          const refused = checkTransport(operation, 'http-get');
          if (!refused) return;
          if (contextValue.requestLine) contextValue.requestLine.refusal = refused.code;
          response.body.singleResult = { errors: refusalBody(refused).errors };
        },
      };
    },
  };
}
