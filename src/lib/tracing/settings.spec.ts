import { describe, expect, it } from 'vitest';
import { tracingOn } from './sdk.js';
import { tracingSettings } from './settings.js';

const settings = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { settings: tracingSettings(env, problems), problems };
};

describe('tracing settings', () => {
  it('are off without OTEL settings, with the exporter none, or with the SDK disabled', () => {
    expect(settings({})).toEqual({ settings: undefined, problems: [] });
    expect(settings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).settings).toBeUndefined();
    expect(settings({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }).settings).toBeUndefined();
    expect(tracingOn()).toBe(false);
  });

  it('take the standard variables: an endpoint alone turns OTLP/HTTP protobuf on, at the spec\'s defaults', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).settings).toEqual({
      exporters: ['otlp'],
      endpoint: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: undefined,
      serviceName: 'payments-gateway',
      resourceAttributes: {},
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      batchDelayMs: undefined,
    });
    expect(
      settings({
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://intake.example/otlp/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=abc%3D,other=1',
        OTEL_SERVICE_NAME: 'gw-eu',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }).settings,
    ).toMatchObject({ endpoint: 'https://intake.example/otlp/v1/traces', protocol: 'http/json', headers: { 'x-team': 'abc=', other: '1' }, serviceName: 'gw-eu', resourceAttributes: { 'deployment.environment.name': 'prod' }, sampler: { name: 'parentbased_traceidratio', ratio: 0.25 } });
  });

  it('refuse what the gateway cannot honour, each as a problem of its own', () => {
    expect(settings({ OTEL_TRACES_EXPORTER: 'zipkin', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_TRACES_SAMPLER: 'sometimes', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }).problems).toEqual([
      expect.stringMatching(/^OTEL_TRACES_EXPORTER: zipkin/),
      expect.stringMatching(/^OTEL_EXPORTER_OTLP_PROTOCOL: grpc/),
      expect.stringMatching(/^OTEL_TRACES_SAMPLER:/),
    ]);
    expect(settings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }).problems).toEqual([expect.stringMatching(/^OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/)]);
    expect(settings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }).problems).toEqual([expect.stringMatching(/^OTEL_TRACES_SAMPLER_ARG/)]);
  });
});
