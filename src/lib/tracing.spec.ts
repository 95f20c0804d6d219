import { describe, expect, it } from 'vitest';
import { parseTraceparent, sqlWithoutValues, tracingOn, tracingSettings } from './tracing.js';

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

describe('a stored traceparent', () => {
  it('is read back as a remote span context, and anything else as none', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true });
    for (const bad of [null, '', 'garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });
});

describe('a statement as a span shows it', () => {
  it('keeps no literal: strings, numbers and dollar-quoted text become ?', () => {
    expect(sqlWithoutValues("select * from deposit where id = 'dep_01' and amount > 25.00 and note = 'it''s' limit 10")).toBe('select * from deposit where id = ? and amount > ? and note = ? limit ?');
    expect(sqlWithoutValues("insert into t (a) values (E'4111111111111111', $$secret$$, -3e5)")).toBe('insert into t (a) values (?, ?, ?)');
    // Placeholders, identifiers with digits and casts are kept.
    expect(sqlWithoutValues('select $1::int4, col2 from "t1" where x = $2')).toBe('select $1::int4, col2 from "t1" where x = $2');
  });
});
