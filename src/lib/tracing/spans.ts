// Spans at the gateway's inner seams: a provider call, a job run, a webhook's processing, a
// notification's delivery (each seam names its own span and attributes). Without tracing, each
// helper runs the work alone (./sdk.ts); the spans of incoming requests are ./request-spans.ts's.

import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Link, type Span } from '@opentelemetry/api';
import { activeTracing } from './sdk.js';

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
  const t = activeTracing()?.tracer;
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
  return activeTracing() ? context.with(ROOT_CONTEXT, work) : work();
}

/** Sets attributes on the span running now, when tracing is on. */
export function annotateSpan(attributes: Attributes): void {
  if (activeTracing()) trace.getActiveSpan()?.setAttributes(attributes);
}

export { SpanKind, SpanStatusCode, type Span };
