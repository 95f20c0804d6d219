// Trace context beyond the span running now: the W3C `traceparent` a payment stores of the request
// that made it, and a job run or a delivery links back to; the trace id a timeline record or a log
// line keeps; the headers an outbound request carries. Each reads the span running now and costs one
// check while tracing is off (./sdk.ts).

import { context, defaultTextMapSetter, trace, TraceFlags, type Attributes, type Link, type SpanContext } from '@opentelemetry/api';
import { activeTracing } from './sdk.js';

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
  if (!activeTracing()) return undefined;
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
  const span = activeTracing() ? trace.getActiveSpan() : undefined;
  const target = parseTraceparent(stored);
  if (!span || !target) return;
  span.addLink({ context: target, ...(attributes ? { attributes } : {}) });
}

/** Links for a job run or a delivery: the stored trace contexts that parse. */
export function storedLinks(stored: ReadonlyArray<string | null | undefined>): Link[] {
  return stored.flatMap((value) => {
    const target = parseTraceparent(value);
    return target ? [{ context: target }] : [];
  });
}

/** Headers with the `traceparent` (and `tracestate`) of the span running now added, for an outbound request; the same object when tracing is off. */
export function withTraceparent<T extends Record<string, string>>(headers: T): T {
  if (!activeSpanContext()) return headers;
  const carrier: Record<string, string> = { ...headers };
  activeTracing()!.propagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier as T;
}
