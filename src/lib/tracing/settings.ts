// The trace settings: the standard OTEL_* variables (the OpenTelemetry SDK environment
// specification) read and checked once at start-up, by src/config.ts. Apart from the SDK's loading
// (./sdk.ts) because config.ts reads them whether tracing is on or off, and needs no more of tracing.

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
