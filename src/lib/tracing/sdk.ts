// OpenTelemetry traces (docs/tracing.md): the SDK's loading and the one switch every seam checks.
// Off unless the standard OTEL_* settings ask for them (./settings.ts): then the SDK is loaded (a
// dynamic import, so a gateway without them never loads it), spans go to an OTLP/HTTP receiver, and
// the seams (./spans.ts, ./request-spans.ts, ./trace-context.ts) make the gateway's spans. Off, each
// seam costs one check of `tracingOn()`. The SDK is only ever imported dynamically, by loadSdk below;
// the files beside this one import `@opentelemetry/api` alone, which does nothing without an SDK.
//
// What a span never holds: a request header (Authorization above all), GraphQL variables or query
// text, an API key, a signature, a secret, a card or account number, a statement's values. Every
// attribute is set by these files or at a seam from values the gateway chose, never copied from a request.

import { createRequire } from 'node:module';
import { context, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
// pino's type, not ../logger.js's: the logger imports ./trace-context.ts for its mixin.
import type { Logger } from 'pino';
import type { TracingSettings } from './settings.js';

/** The tracing of this process while on: one SDK, shared by every gateway the process runs. */
export interface ActiveTracing {
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

/** The SDK while tracing is on: what the seams make spans with. */
export function activeTracing(): ActiveTracing | undefined {
  return active;
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
