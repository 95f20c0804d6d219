// The spans of incoming requests: an HTTP request's server span, and a GraphQL operation's span, over
// HTTP (a child of its request's) and over graphql-ws (a server span of its own, whose parent the
// subscribe message or the connection_init payload gives). GraphQL spans are named once the
// operation is known, by the same code for both transports. Without tracing, each costs one check (./sdk.ts).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, defaultTextMapGetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { activeTracing } from './sdk.js';

/**
 * The HTTP server span of one request: a child of the caller's `traceparent` when it sends one,
 * named by method and route once the answer is sent. Only the path is recorded, never the query
 * string (a GET's variables) nor any header. `route` gives the route template when known.
 */
export function traceHttpRequest(req: IncomingMessage, res: ServerResponse, route: () => string | undefined, serve: () => void): void {
  const active = activeTracing();
  if (!active) return serve();
  const t = active.tracer;
  const parent = active.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const method = KNOWN_METHODS.has(req.method ?? '') ? req.method! : '_OTHER';
  const span = t.startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': query < 0 ? url : url.slice(0, query),
        'url.scheme': 'http',
        'network.protocol.version': req.httpVersion,
        ...(req.socket.localPort ? { 'server.port': req.socket.localPort } : {}),
        ...(req.socket.remoteAddress ? { 'client.address': req.socket.remoteAddress } : {}),
      },
    },
    parent,
  );
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    const template = route();
    if (template) {
      span.setAttribute('http.route', template);
      span.updateName(`${method} ${template}`);
    }
    if (res.headersSent) span.setAttribute('http.response.status_code', res.statusCode);
    if (!res.writableFinished) span.setAttribute('error.type', 'aborted');
    if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', finish);
  res.once('close', finish);
  context.with(trace.setSpan(parent, span), serve);
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** The spans made for GraphQL operations (over HTTP and graphql-ws), which describeGraphqlSpan names once the operation is known. */
const graphqlSpans = new WeakSet<Span>();

/** Where a graphql-ws operation came from, for its span's parent. */
export interface GraphqlWsOrigin {
  /** The subscribe message's `extensions`: its `traceparent` (and `tracestate`), when it has one, is the span's parent. */
  extensions: unknown;
  /** The operation's connection, whose connection_init payload's `traceparent` is the parent otherwise ({@link keepConnectionTraceContext}). */
  connection: object;
}

/** The trace context a graphql-ws connection's connection_init payload gave, by connection (kept only while tracing is on). */
const connectionParents = new WeakMap<object, Context>();

/**
 * The W3C trace context a message carries as `traceparent` (and `tracestate`) fields, read by the
 * SDK's propagator as it reads the headers of a request; undefined when there is none, or none valid.
 */
function messageParent(carrier: unknown): Context | undefined {
  const active = activeTracing();
  if (!active || !carrier || typeof carrier !== 'object') return undefined;
  const { traceparent, tracestate } = carrier as Record<string, unknown>;
  if (typeof traceparent !== 'string') return undefined;
  const fields: Record<string, string> = typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
  const parent = active.propagator.extract(ROOT_CONTEXT, fields, defaultTextMapGetter);
  return trace.getSpanContext(parent) ? parent : undefined;
}

/**
 * Keeps the `traceparent` (and `tracestate`) of a graphql-ws connection_init payload, the parent of
 * the connection's operations that bring none of their own. Nothing else of the payload is read
 * (its key above all), and nothing is kept while tracing is off or the payload has none.
 */
export function keepConnectionTraceContext(connection: object, payload: unknown): void {
  const parent = messageParent(payload);
  if (parent) connectionParents.set(connection, parent);
}

/**
 * Runs one GraphQL operation in its span, which {@link describeGraphqlSpan} names once the operation
 * is known. Over HTTP, an internal span, a child of the request's (the Apollo plugin names it). Over
 * graphql-ws (`ws`), where no request span holds it, a server span: a child of the `traceparent` in
 * the subscribe message's `extensions`, else of the connection_init payload's, else the start of a
 * trace. Without tracing, `work` alone.
 */
export async function inGraphqlSpan<T>(work: () => Promise<T>, ws?: GraphqlWsOrigin): Promise<T> {
  const t = activeTracing()?.tracer;
  if (!t) return work();
  const parent = ws ? (messageParent(ws.extensions) ?? connectionParents.get(ws.connection) ?? ROOT_CONTEXT) : context.active();
  const span = t.startSpan('GraphQL Operation', ws ? { kind: SpanKind.SERVER, attributes: { 'network.protocol.name': 'websocket' } } : { kind: SpanKind.INTERNAL }, parent);
  graphqlSpans.add(span);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Names the GraphQL span running now by its operation (`query DepositStatus`), with its type, its
 * name and the trusted document's id when the request named one. Never the variables nor the text.
 */
export function describeGraphqlSpan(operation: { type: string; name: string | undefined; documentId: string | undefined }): void {
  const span = activeTracing() ? trace.getActiveSpan() : undefined;
  if (!span || !graphqlSpans.has(span)) return;
  span.updateName(operation.name ? `${operation.type} ${operation.name}` : operation.type);
  span.setAttribute('graphql.operation.type', operation.type);
  if (operation.name) span.setAttribute('graphql.operation.name', operation.name);
  if (operation.documentId) span.setAttribute('graphql.document.id', operation.documentId);
}

/** Marks the GraphQL span running now as failed, by the first error's code (never its message, which may quote a variable). */
export function failGraphqlSpan(code: unknown): void {
  const span = activeTracing() ? trace.getActiveSpan() : undefined;
  if (!span || !graphqlSpans.has(span)) return;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', typeof code === 'string' ? code : 'GRAPHQL_ERROR');
}
