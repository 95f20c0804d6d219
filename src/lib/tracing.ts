// OpenTelemetry traces (docs/tracing.md). Off unless the standard OTEL_* settings ask for them: then
// the SDK is loaded (a dynamic import, so a gateway without them never loads it), spans go to an
// OTLP/HTTP receiver, and the seams below make the gateway's spans. Off, each seam costs one check
// of `tracingOn()`.
//
// What a span never holds: a request header (Authorization above all), GraphQL variables or query
// text, an API key, a signature, a secret, a card or account number, a statement's values. Every
// attribute is set here or at a seam from values the gateway chose, never copied from a request.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Link, type Span, type SpanContext, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
// pino's type, not ./logger.js's: the logger imports this module for its mixin.
import type { Logger } from 'pino';

/** The trace settings read from the standard OTEL_* variables (the OpenTelemetry SDK environment specification). */
export interface TracingSettings {
  /** Where spans go: `otlp` (an OTLP/HTTP receiver), `console` (stdout, for a look by hand). */
  exporters: ReadonlyArray<'otlp' | 'console'>;
  /** The OTLP traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT plus `/v1/traces`. */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  /** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS: a vendor's API key, say. Sent to the receiver, never logged. */
  headers: Record<string, string>;
  timeoutMs: number | undefined;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: { name: SamplerName; ratio: number };
  /** OTEL_BSP_SCHEDULE_DELAY: how long spans wait in the batch before they are sent (the SDK's default, 5 s, when unset). */
  batchDelayMs: number | undefined;
}

type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** The variables read, for the README's configuration table and the docs. */
export const TRACING_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_BSP_SCHEDULE_DELAY',
] as const;

/**
 * The trace settings, or undefined when tracing is off: no OTEL_TRACES_EXPORTER other than `none`
 * and no OTLP endpoint, or OTEL_SDK_DISABLED=true. Problems are added to `problems` (a start refuses them).
 */
export function tracingSettings(env: Readonly<Record<string, string | undefined>>, problems: string[]): TracingSettings | undefined {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  if (get('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const named = get('OTEL_TRACES_EXPORTER');
  const tracesEndpoint = get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = get('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (named === undefined && tracesEndpoint === undefined && baseEndpoint === undefined) return undefined;
  const exporters: Array<'otlp' | 'console'> = [];
  for (const name of (named ?? 'otlp').split(',').map((part) => part.trim().toLowerCase())) {
    if (name === 'none') return undefined;
    if (name === 'otlp' || name === 'console') exporters.push(name);
    else problems.push(`OTEL_TRACES_EXPORTER: ${name} is not supported; use otlp (OTLP over HTTP), console or none`);
  }
  const endpoint = tracesEndpoint ?? `${(baseEndpoint ?? 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`;
  if (exporters.includes('otlp') && !/^https?:\/\/[^/]/i.test(endpoint)) problems.push(`${tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT'}: must be an http(s) URL`);
  const protocol = (get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? get('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf').toLowerCase();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not supported; use http/protobuf or http/json (every OpenTelemetry Collector and vendor endpoint accepts OTLP over HTTP)`);
  }
  const timeoutText = get('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? get('OTEL_EXPORTER_OTLP_TIMEOUT');
  const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) problems.push('OTEL_EXPORTER_OTLP_TIMEOUT: must be a whole number of milliseconds above 0');
  const samplerName = (get('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase() as SamplerName;
  if (!SAMPLERS.includes(samplerName)) problems.push(`OTEL_TRACES_SAMPLER: must be one of ${SAMPLERS.join(', ')}`);
  const ratioText = get('OTEL_TRACES_SAMPLER_ARG');
  const ratio = ratioText === undefined ? 1 : Number(ratioText);
  if (samplerName.endsWith('traceidratio') && !(ratio >= 0 && ratio <= 1)) problems.push('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
  const delayText = get('OTEL_BSP_SCHEDULE_DELAY');
  const batchDelayMs = delayText === undefined ? undefined : Number(delayText);
  if (batchDelayMs !== undefined && !(Number.isInteger(batchDelayMs) && batchDelayMs >= 0)) problems.push('OTEL_BSP_SCHEDULE_DELAY: must be a whole number of milliseconds');
  const resourceAttributes = keyValues(get('OTEL_RESOURCE_ATTRIBUTES'));
  return {
    exporters,
    endpoint,
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    headers: { ...keyValues(get('OTEL_EXPORTER_OTLP_HEADERS')), ...keyValues(get('OTEL_EXPORTER_OTLP_TRACES_HEADERS')) },
    timeoutMs,
    serviceName: get('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'payments-gateway',
    resourceAttributes,
    sampler: { name: samplerName, ratio },
    batchDelayMs,
  };
}

/** `key1=value1,key2=value2`, each part percent-decoded (the OTEL_* list form). */
function keyValues(text: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of text?.split(',') ?? []) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    try {
      result[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      // A part that does not decode is left out, as the SDK does.
    }
  }
  return result;
}

/** The tracing of this process while on: one SDK, shared by every gateway the process runs. */
interface ActiveTracing {
  tracer: Tracer;
  /** W3C Trace Context: `traceparent` and `tracestate` read from requests and written on notifications. */
  propagator: TextMapPropagator;
  users: number;
  shutdown(): Promise<void>;
}

let active: ActiveTracing | undefined;

/** Whether spans are being made: the one check every seam makes first. */
export function tracingOn(): boolean {
  return active !== undefined;
}

/** The gateway's tracer while tracing is on. */
function tracer(): Tracer | undefined {
  return active?.tracer;
}

/**
 * Loads and starts the SDK for these settings, or joins the one this process already runs. Returns
 * the release: the last one flushes the spans still buffered, shuts the SDK down and leaves the
 * process as it found it (no context manager, pg unpatched), so that the next gateway started in
 * the same process, with tracing or without, begins clean.
 */
export async function startTracing(settings: TracingSettings, logger: Logger): Promise<() => Promise<void>> {
  if (!active) active = await loadSdk(settings, logger);
  active.users += 1;
  let released = false;
  return async () => {
    if (released || !active) return;
    released = true;
    active.users -= 1;
    if (active.users > 0) return;
    const ending = active;
    active = undefined;
    await ending.shutdown();
  };
}

async function loadSdk(settings: TracingSettings, logger: Logger): Promise<ActiveTracing> {
  const [sdk, { AsyncLocalStorageContextManager }, { resourceFromAttributes }, { PgInstrumentation }, { W3CTraceContextPropagator }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/core'),
  ]);
  const exporterConfig = { url: settings.endpoint, headers: settings.headers, ...(settings.timeoutMs ? { timeoutMillis: settings.timeoutMs } : {}) };
  const spanProcessors = [];
  for (const name of settings.exporters) {
    if (name === 'console') {
      spanProcessors.push(new sdk.SimpleSpanProcessor({ exporter: new sdk.ConsoleSpanExporter() }));
      continue;
    }
    const { OTLPTraceExporter } = settings.protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
    spanProcessors.push(new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter(exporterConfig), ...(settings.batchDelayMs !== undefined ? { scheduledDelayMillis: settings.batchDelayMs } : {}) }));
  }
  const ratio = new sdk.TraceIdRatioBasedSampler(settings.sampler.ratio);
  const root = { always_on: new sdk.AlwaysOnSampler(), always_off: new sdk.AlwaysOffSampler(), traceidratio: ratio }[settings.sampler.name.replace('parentbased_', '') as 'always_on' | 'always_off' | 'traceidratio'];
  const sampler = settings.sampler.name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName }),
    sampler,
    spanProcessors,
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  // pg is loaded (an ESM import of the ORM's driver) before any code of ours runs, so no loader hook
  // can patch it in time: the instrumentation's own patch is applied to the loaded module, as its
  // hook would have, and undone at shutdown.
  const pg = loadedPg();
  const instrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true, ignoreConnectSpans: true, requestHook: (span, info) => span.setAttribute('db.query.text', sqlWithoutValues(info.query.text)) });
  instrumentation.setTracerProvider(provider);
  const pgDefinition = instrumentation.getModuleDefinitions().find((definition) => definition.name === 'pg');
  if (pg && pgDefinition?.patch) pgDefinition.patch(pg.module, pg.version);
  else logger.warn('database spans are off: the pg module could not be patched');
  logger.info({ exporters: settings.exporters, protocol: settings.protocol, sampler: settings.sampler.name, serviceName: settings.serviceName }, 'tracing on');
  return {
    tracer: provider.getTracer('payments-gateway'),
    propagator: new W3CTraceContextPropagator(),
    users: 0,
    async shutdown() {
      if (pg && pgDefinition?.unpatch) pgDefinition.unpatch(pg.module, pg.version);
      try {
        await provider.shutdown();
      } catch (error) {
        logger.warn({ err: error }, 'tracing did not shut down cleanly');
      }
      context.disable();
    },
  };
}

/** The `pg` module the ORM's driver loaded (its CommonJS instance, which ESM imports share). */
function loadedPg(): { module: unknown; version: string } | undefined {
  try {
    const require = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'));
    const module = require('pg') as unknown;
    const version = (require('pg/package.json') as { version: string }).version;
    return { module, version };
  } catch {
    return undefined;
  }
}

/**
 * A statement as a span may show it: string and number literals replaced by `?`. The ORM writes
 * its statements' values into their text; bound values are never read.
 */
export function sqlWithoutValues(text: string): string {
  return text
    .replace(/(?:\bE)?'(?:[^']|'')*'/gi, '?')
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, '?')
    .replace(/(?<![\w$."])-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '?');
}

// ---------------------------------------------------------------------------------------------
// Trace context as stored with a payment, and as the `traceparent` header carries it.

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of a span context. */
function traceparentOf(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & TraceFlags.SAMPLED) !== 0 ? '01' : '00'}`;
}

/** A `traceparent` value as a span context, or undefined when it is not one (all-zero ids included). */
export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  const match = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

function activeSpanContext(): SpanContext | undefined {
  if (!active) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The trace id of the sampled span running now: what a record of a payment's timeline keeps of the
 * trace that wrote it (docs/timeline.md). Undefined while tracing is off, outside any span, or in an
 * unsampled one (its trace is recorded nowhere).
 */
export function currentTraceId(): string | undefined {
  const spanContext = activeSpanContext();
  return spanContext && (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0 ? spanContext.traceId : undefined;
}

/**
 * An UPDATE that also sets `trace_id` to {@link currentTraceId}: the column added at the end of its
 * SET list, its value after the SET list's own parameters, so the row keeps the trace that wrote it
 * with no statement more. The statement exactly as given when there is no sampled span (tracing off).
 */
export function settingTraceId(statement: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
  const traceId = currentTraceId();
  if (!traceId) return statement;
  const where = statement.sql.search(/\swhere\s/i);
  if (where < 0) throw new Error('settingTraceId needs an UPDATE with a WHERE clause');
  const setParams = statement.sql.slice(0, where).split('?').length - 1;
  return {
    sql: `${statement.sql.slice(0, where)}, trace_id = ?${statement.sql.slice(where)}`,
    params: [...statement.params.slice(0, setParams), traceId, ...statement.params.slice(setParams)],
  };
}

/** The `traceparent` of the span running now, when tracing is on: what a payment stores of the request that made it. */
export function currentTraceparent(): string | undefined {
  const spanContext = activeSpanContext();
  return spanContext ? traceparentOf(spanContext) : undefined;
}

/** `trace_id` and `span_id` of the span running now, for a log line (the logger's mixin). */
export function traceLogFields(): { trace_id: string; span_id: string } | undefined {
  const spanContext = activeSpanContext();
  return spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : undefined;
}

/** Links the span running now to a stored trace context (the request that made a payment), once. */
export function linkToStoredTrace(stored: string | null | undefined, attributes?: Attributes): void {
  const span = active ? trace.getActiveSpan() : undefined;
  const target = parseTraceparent(stored);
  if (!span || !target) return;
  span.addLink({ context: target, ...(attributes ? { attributes } : {}) });
}

/** Sets attributes on the span running now, when tracing is on. */
export function annotateSpan(attributes: Attributes): void {
  if (active) trace.getActiveSpan()?.setAttributes(attributes);
}

/** Headers with the `traceparent` (and `tracestate`) of the span running now added, for an outbound request; the same object when tracing is off. */
export function withTraceparent<T extends Record<string, string>>(headers: T): T {
  if (!activeSpanContext()) return headers;
  const carrier: Record<string, string> = { ...headers };
  active!.propagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier as T;
}

// ---------------------------------------------------------------------------------------------
// Spans at the gateway's seams.

/**
 * Runs `work` in a span of its own: a child of the span running now, or with `root` the start of a
 * trace of its own (a job run, which no request waits on), linked to `links`. `end` names the outcome
 * before the span ends. Without tracing, `work` alone.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; root?: boolean; links?: Link[] },
  work: (span: Span | undefined) => Promise<T>,
  end?: (span: Span, result: T) => void,
): Promise<T> {
  const t = tracer();
  if (!t) return work(undefined);
  const parent = options.root ? ROOT_CONTEXT : context.active();
  const span = t.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}), ...(options.links ? { links: options.links } : {}) }, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), () => work(span));
    end?.(span, result);
    return result;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `work` outside the span running now: what it starts that outlives the span (a subscription's
 * stream of messages, after its subscribe's span) is no part of it. Without tracing, `work` alone.
 */
export function outsideSpans<T>(work: () => T): T {
  return active ? context.with(ROOT_CONTEXT, work) : work();
}

/** Links for a job run or a delivery: the stored trace contexts that parse. */
export function storedLinks(stored: ReadonlyArray<string | null | undefined>): Link[] {
  return stored.flatMap((value) => {
    const target = parseTraceparent(value);
    return target ? [{ context: target }] : [];
  });
}

/** The spans made for GraphQL operations (over HTTP and graphql-ws), which describeGraphqlSpan names once the operation is known. */
const graphqlSpans = new WeakSet<Span>();

/**
 * The HTTP server span of one request: a child of the caller's `traceparent` when it sends one,
 * named by method and route once the answer is sent. Only the path is recorded, never the query
 * string (a GET's variables) nor any header. `route` gives the route template when known.
 */
export function traceHttpRequest(req: IncomingMessage, res: ServerResponse, route: () => string | undefined, serve: () => void): void {
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
  const t = tracer();
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
  const span = active ? trace.getActiveSpan() : undefined;
  if (!span || !graphqlSpans.has(span)) return;
  span.updateName(operation.name ? `${operation.type} ${operation.name}` : operation.type);
  span.setAttribute('graphql.operation.type', operation.type);
  if (operation.name) span.setAttribute('graphql.operation.name', operation.name);
  if (operation.documentId) span.setAttribute('graphql.document.id', operation.documentId);
}

/** Marks the GraphQL span running now as failed, by the first error's code (never its message, which may quote a variable). */
export function failGraphqlSpan(code: unknown): void {
  const span = active ? trace.getActiveSpan() : undefined;
  if (!span || !graphqlSpans.has(span)) return;
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', typeof code === 'string' ? code : 'GRAPHQL_ERROR');
}

export { SpanKind, SpanStatusCode, type Span };
