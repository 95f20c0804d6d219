// The HTTP side of the request envelope (src/graphql/envelope.ts): the method, the content types,
// the JSON body and the GET parameters, refused before Apollo sees them; and the checks of what
// needs the parsed document (which operation runs, and whether it may run on this transport).
// Every refusal is a 4xx with a code of its own, logged only on the request's info line.
//
// A POST in the form every client sends (`usualGraphqlPost`) is read here on node:http's own
// objects, before Express; any other request to /graphql goes through Express's handlers
// (`httpEnvelope`). Both give the same answers, refusals included.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLRequestContextDidResolveOperation, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { RequestContext, RequestLineFields } from '../graphql/context.js';
import { checkEnvelope, checkTransport, fieldsMeaningNothing, httpRefusals, refusalBody, refusalError, resolveOperation, type EnvelopeRefusal } from '../graphql/envelope.js';
import { QUERY_TOO_LONG, queryTooLong } from '../graphql/limits.js';
import { readBody, sendJson } from '../lib/http.js';

/** Headers that make a browser send a preflight first (Apollo's csrfPrevention accepts either). */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];
const GET_PARAMETERS = ['query', 'operationName', 'variables', 'extensions', 'documentId'] as const;

/** A request as the envelope leaves it for Apollo: its JSON body parsed (a GET's is undefined). */
export type GraphqlHttpRequest = IncomingMessage & { body?: unknown; line?: RequestLineFields };

/** True for `application/json`, whatever its parameters (the body parser checks the charset). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The answer to a request that failed inside the gateway: no detail of the failure. */
export const INTERNAL_ERROR_BODY = { errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] };

function refuse(req: GraphqlHttpRequest, res: ServerResponse, refused: EnvelopeRefusal): void {
  if (req.line) req.line.refusal = refused.code;
  sendJson(res, refused.status, refusalBody(refused), refused.headers);
}

/** The refusal of a POST's parsed body: a batch, not an object, or a malformed envelope field. */
function postBodyRefusal(parsed: unknown): EnvelopeRefusal | undefined {
  if (Array.isArray(parsed)) return httpRefusals.batch();
  if (typeof parsed !== 'object' || parsed === null) return httpRefusals.malformedJson();
  return checkEnvelope(parsed as Record<string, unknown>, 'http-post');
}

/** A POST body as Apollo is to read it: without the fields that mean nothing (`fieldsMeaningNothing`). */
function withoutFieldsMeaningNothing(body: Record<string, unknown>): Record<string, unknown> {
  const dropped = fieldsMeaningNothing(body);
  if (dropped.length === 0) return body;
  const kept = { ...body };
  for (const name of dropped) delete kept[name];
  return kept;
}

/**
 * Answers 400 to a query text longer than `maxChars` before Apollo parses it (parsing cost grows
 * with the text, and the token limit only stops the parser part-way through); true if it did.
 */
function refuseLongQuery(req: GraphqlHttpRequest, res: ServerResponse, queryParameter: unknown, maxChars: number): boolean {
  const { body } = req;
  const fromBody = typeof body === 'object' && body !== null && 'query' in body ? body.query : undefined;
  const query = typeof fromBody === 'string' ? fromBody : typeof queryParameter === 'string' ? queryParameter : undefined;
  if (query === undefined || query.length <= maxChars) return false;
  if (req.line) req.line.refusal = QUERY_TOO_LONG;
  sendJson(res, 400, { errors: [queryTooLong(maxChars)] });
  return true;
}

export interface HttpEnvelopeOptions {
  /** Largest JSON body read (`BODY_LIMIT_BYTES`). */
  bodyLimitBytes: number;
  /** Longest query text parsed (`GRAPHQL_MAX_QUERY_CHARS`). */
  maxQueryChars: number;
}

/**
 * The Content-Type values of a POST body read by `readUsualGraphqlPost`: JSON with no charset or
 * UTF-8's. Any other (another charset, which Express's body parser decodes or refuses) goes through Express.
 */
const USUAL_CONTENT_TYPES: ReadonlySet<string | undefined> = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json;charset=UTF-8',
]);

const JSON_ANSWER = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_ANSWER = 'application/graphql-response+json; charset=utf-8';

/**
 * Accept values that take a JSON answer as they are written by fetch, curl and the GraphQL clients
 * (none, too), each with the content type Apollo negotiates for a single result: the first of its
 * two JSON types the value prefers (src/server/envelope.spec.ts asks Apollo for each).
 */
export const USUAL_ACCEPTS: ReadonlyMap<string | undefined, string> = new Map([
  [undefined, JSON_ANSWER],
  ['*/*', JSON_ANSWER],
  ['application/json', JSON_ANSWER],
  ['application/graphql-response+json', GRAPHQL_RESPONSE_ANSWER],
  ['application/graphql-response+json, application/json', GRAPHQL_RESPONSE_ANSWER],
  ['application/graphql-response+json,application/json', GRAPHQL_RESPONSE_ANSWER],
  ['application/graphql-response+json, application/json;q=0.9', GRAPHQL_RESPONSE_ANSWER],
  ['application/graphql-response+json,application/json;q=0.9', GRAPHQL_RESPONSE_ANSWER],
  ['application/json, multipart/mixed', JSON_ANSWER],
  ['multipart/mixed; deferSpec=20220824, application/json', JSON_ANSWER],
  ['application/graphql-response+json, application/json, multipart/mixed', GRAPHQL_RESPONSE_ANSWER],
]);

/**
 * The content type of a single-result answer to a request with this Accept, when it is a usual
 * one: what Apollo would negotiate for it on every request, with a parser of its own.
 */
export function usualAnswerType(accept: string | undefined): string | undefined {
  return USUAL_ACCEPTS.get(accept);
}

/**
 * True for `POST /graphql` in the form clients send it: JSON in UTF-8, its length declared and
 * no Content-Encoding (which Express's body parser inflates), an Accept a JSON answer meets.
 * Such a request is served by `readUsualGraphqlPost` and Apollo, without Express, whose
 * per-request work (its request and response prototypes, the router's walk, the body parser)
 * cost more CPU than the request needs.
 */
export function usualGraphqlPost(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== '/graphql') return false;
  const { headers } = req;
  return (
    USUAL_CONTENT_TYPES.has(headers['content-type']) &&
    USUAL_ACCEPTS.has(headers.accept) &&
    headers['content-length'] !== undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-encoding'] === undefined
  );
}

/**
 * Reads the body of a `usualGraphqlPost` into `req.body` and checks it as `httpEnvelope` does
 * through Express: a body over the limit, JSON that does not parse, a batch or a malformed field, a
 * query text too long, each answered here with the same refusal. True when Apollo may take it.
 */
export async function readUsualGraphqlPost(req: GraphqlHttpRequest, res: ServerResponse, options: HttpEnvelopeOptions): Promise<boolean> {
  const refuseWith = (refused: EnvelopeRefusal): false => {
    refuse(req, res, refused);
    return false;
  };
  // Refused unread, as the body parser does it: the length is declared (the parser holds the body to it).
  if (Number(req.headers['content-length']) > options.bodyLimitBytes) return refuseWith(httpRefusals.tooLarge(options.bodyLimitBytes));
  let text: string;
  try {
    text = (await readBody(req, options.bodyLimitBytes)).toString('utf8');
  } catch {
    // The client went away mid-body: the body parser's error, answered as jsonErrors answers it.
    if (!res.headersSent && !res.destroyed) sendJson(res, 400, { errors: [{ message: 'Request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }] });
    return false;
  }
  // What the body parser reads: a leading byte-order mark dropped, an empty body as an empty object.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown = {};
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      return refuseWith(httpRefusals.malformedJson());
    }
  }
  const refused = postBodyRefusal(parsed);
  if (refused) return refuseWith(refused);
  req.body = withoutFieldsMeaningNothing(parsed as Record<string, unknown>);
  return !refuseLongQuery(req, res, undefined, options.maxQueryChars);
}

/**
 * The handlers that come before Apollo on /graphql through Express: method and content types, the
 * JSON body (parsed here, with its errors answered here), the envelope's fields, then the query's length.
 */
export function httpEnvelope(options: HttpEnvelopeOptions): Array<RequestHandler | ((error: unknown, req: Request, res: Response, next: NextFunction) => void)> {
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
    if (req.method === 'POST') {
      const refused = postBodyRefusal(req.body);
      if (refused) return refuse(req, res, refused);
      req.body = withoutFieldsMeaningNothing(req.body as Record<string, unknown>);
      return next();
    }
    const parameters = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const given: Record<string, unknown> = {};
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
    const refused = checkEnvelope(given, 'http-get');
    if (refused) return refuse(req, res, refused);
    const dropped = fieldsMeaningNothing(given);
    if (dropped.length > 0) {
      // Apollo reads a GET's parameters from the URL (src/server/apollo-http.ts), as the trusted
      // documents' check does: the URL is what changes.
      for (const name of dropped) parameters.delete(name);
      const search = parameters.toString();
      req.url = `${req.url.split('?')[0]}${search === '' ? '' : `?${search}`}`;
    }
    next();
  };
  const queryLength = (req: Request, res: Response, next: NextFunction) => {
    if (!refuseLongQuery(req, res, req.query.query, options.maxQueryChars)) next();
  };
  return [head, body, bodyErrors, fields, queryLength];
}

/**
 * What the envelope checks once Apollo has parsed and validated the document, called by the
 * gateway's one request plugin (src/server/apollo.ts) before its other checks, so that its refusal
 * is the one answered when another check would refuse the same request.
 */
export const envelopeChecks = {
  /** Refuses an `operationName` that selects no operation, and a subscription sent over HTTP. */
  didResolveOperation({ document, request, contextValue }: GraphQLRequestContextDidResolveOperation<RequestContext>): void {
    const resolved = resolveOperation(document, request.operationName);
    const refused = 'code' in resolved ? resolved : checkTransport(resolved, request.http?.method === 'GET' ? 'http-get' : 'http-post');
    if (!refused) return;
    if (contextValue.requestLine) contextValue.requestLine.refusal = refused.code;
    throw refusalError(refused);
  },
  /**
   * Apollo refuses a GET that is not a query itself, before any plugin hears of the operation,
   * with a generic BAD_REQUEST: the same refusal, with its own code.
   */
  willSendResponse({ request, operation, response, contextValue }: GraphQLRequestContextWillSendResponse<RequestContext>): void {
    if (request.http?.method !== 'GET' || !operation || response.body.kind !== 'single') return;
    const refused = checkTransport(operation, 'http-get');
    if (!refused) return;
    if (contextValue.requestLine) contextValue.requestLine.refusal = refused.code;
    response.body.singleResult = { errors: refusalBody(refused).errors };
  },
};
