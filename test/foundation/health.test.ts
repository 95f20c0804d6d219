// /healthz, /readyz (the event log's state among its details, and its failure when the database is
// unreachable), /metrics counts and their bounded labels, and the masking of unexpected errors: no
// SQL, a correlation id that is in the log.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseOutage } from '../support/database.js';
import { execute, postRaw, startTestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ViewerQuery } from './operations.js';

let t: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('health', () => {
  it('/healthz answers while the process is up', async () => {
    const response = await fetch(`${t.gateway.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz reports the database, each sandbox and the event log', async () => {
    const response = await fetch(`${t.gateway.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      database: 'up',
      sandboxes: { 'deposit-gateway': 'up', 'qr-gateway': 'up' },
      eventLog: { status: 'current', unfinalSeconds: 0, unfinalPositions: 0 },
    });
  });
});

describe('metrics', () => {
  it('counts requests and GraphQL operations by root field and outcome, with durations', async () => {
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin });
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin });
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, {});
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toContain('gateway_graphql_operations_total{operation="viewer",type="query",outcome="success"} 2');
    expect(text).toContain('gateway_graphql_operations_total{operation="viewer",type="query",outcome="error"} 1');
    expect(text).toMatch(/gateway_graphql_operation_duration_seconds_count\{operation="viewer",type="query"\} 3/);
    expect(text).toMatch(/gateway_http_requests_total\{method="POST",route="\/graphql",status="200"\} \d+/);
  });

  it('labels a GET query with the /graphql route, as a POST', async () => {
    const get = await fetch(`${t.gateway.graphqlUrl}?query=${encodeURIComponent('{ viewer { name } }')}`, { headers: { 'apollo-require-preflight': 'true', authorization: `Bearer ${t.keys.admin}` } });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ data: { viewer: { name: expect.stringMatching(/^admin/) } } });
    const text = await (await fetch(t.gateway.metricsUrl)).text();
    expect(text).toMatch(/gateway_http_requests_total\{method="GET",route="\/graphql",status="200"\} [1-9]/);
    expect(text).not.toContain('/graphql/graphql');
  });

  it('keeps to the naming rules promtool checks: only counters end in _total, every family has HELP and TYPE', async () => {
    const text = await (await fetch(t.gateway.metricsUrl)).text();
    const families = new Map<string, { type?: string; help?: string }>();
    for (const [, kind, name, rest] of text.matchAll(/^# (HELP|TYPE) (\S+) (.*)$/gm)) {
      const family = families.get(name!) ?? {};
      if (kind === 'TYPE') family.type = rest;
      else family.help = rest;
      families.set(name!, family);
    }
    // prom-client's process and Node.js families are there too.
    expect(families.get('gateway_process_cpu_seconds_total')?.type).toBe('counter');
    expect(families.get('gateway_nodejs_active_handles')?.type).toBe('gauge');
    for (const [name, { type, help }] of families) {
      expect(help, `${name} HELP`).toMatch(/\S/);
      expect(type, `${name} TYPE`).toMatch(/^(counter|gauge|histogram|summary)$/);
      if (type === 'counter') expect(name, 'a counter ends in _total').toMatch(/_total$/);
      else expect(name, `a ${type} does not end in _total`).not.toMatch(/_total$/);
    }
  });
});

describe('metric labels', () => {
  it('stay bounded whatever operation names and paths callers invent, and /metrics stays valid exposition text', async () => {
    const sent: string[] = [];
    for (let batch = 0; batch < 12; batch++) {
      await Promise.all(
        Array.from({ length: 25 }, async (_, i) => {
          const n = batch * 25 + i;
          const name = `Invented${n}`;
          sent.push(name);
          if (n % 2 === 0) {
            await postRaw(t.gateway.graphqlUrl, { query: `query ${name} { viewer { id } }`, operationName: name }, n % 4 === 0 ? t.keys.webCashier : undefined);
          } else {
            const path = [`/invented${n}`, `/graphql/invented${n}`, `/webhooks/invented${n}`, `/metrics/invented${n}?x=1`][n % 4]!;
            await fetch(`${t.gateway.url}${path}`, { method: n % 3 === 0 ? 'POST' : 'GET' });
          }
        }),
      );
    }
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    await new Promise((resolve) => ws.subscribe({ query: 'query InventedOverWs { viewer { id } }', operationName: 'InventedOverWs' }, { next: () => undefined, error: resolve, complete: () => resolve(undefined) }));
    await ws.dispose();

    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    const samples = parseExposition(text);
    expect(text).not.toMatch(/invented/i);
    for (const sample of samples) expect(Object.values(sample.labels)).not.toContain('undefined');
    const series = samples.map((sample) => `${sample.name}${JSON.stringify(sample.labels)}`);
    expect(new Set(series).size).toBe(series.length);
    const operations = samples.filter((sample) => sample.name === 'gateway_graphql_operations_total');
    expect(new Set(operations.map((sample) => sample.labels.operation))).toEqual(new Set(['viewer']));
    expect(operations.map((sample) => sample.labels.type).sort()).toEqual(['query', 'query', 'ws']);
    const routes = new Set(samples.filter((sample) => sample.name === 'gateway_http_requests_total').map((sample) => sample.labels.route));
    for (const route of routes) expect(['/graphql', '/healthz', '/readyz', '/metrics', '/webhooks/:provider/:account', 'other']).toContain(route);
    expect(routes.has('other')).toBe(true);
  });
});

describe('when the database is unreachable', () => {
  it('/readyz fails, queries get a masked error with a logged correlation id, and both recover', async () => {
    const outage = await databaseOutage(t.database, () => t.gateway.db.close());
    try {
      const ready = await fetch(`${t.gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not ready', database: 'down', eventLog: { status: 'unknown' } });

      // A query that reads a table: a known key itself is authenticated from memory.
      const response = await postRaw(t.gateway.graphqlUrl, { query: '{ apiClients(first: 1) { edges { node { id } } } }' }, t.keys.admin);
      const error = response.body.errors[0];
      expect(error.message).toBe('Internal error');
      expect(error.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.extensions.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(error.extensions.stacktrace).toBeUndefined();
      expect(JSON.stringify(response.body)).not.toMatch(/select|api_client|connect|ECONNREFUSED|terminat/i);
      // The correlation id is what an operator finds the failure by: the error line carrying it (docs/security.md)
      const logged = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.correlationId === error.extensions.correlationId);
      expect(logged).toEqual([expect.objectContaining({ level: 50, err: expect.objectContaining({ message: expect.any(String) }) })]);
    } finally {
      await outage.end();
    }
    if (t.database.kind === 'postgresql') {
      await expect.poll(async () => (await fetch(`${t.gateway.url}/readyz`)).status).toBe(200);
    }
  });
});

interface Sample {
  name: string;
  labels: Record<string, string>;
}

/**
 * The samples of a Prometheus text exposition (version 0.0.4), failing on any line that is not
 * a well-formed comment or sample, and on a sample whose family has no TYPE line.
 */
function parseExposition(text: string): Sample[] {
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const label = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
  const number = '(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?Inf|NaN)';
  const sampleLine = new RegExp(`^(${name})(?:\\{((?:${label})(?:,${label})*)?,?\\})? ${number}(?: -?\\d+)?$`);
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(comment[3]).toMatch(/^(counter|gauge|histogram|summary|untyped)$/);
        typed.add(comment[2]!);
      }
      continue;
    }
    const match = sampleLine.exec(line);
    expect(match, line).not.toBeNull();
    const sampleName = match![1]!;
    expect(typed.has(sampleName.replace(/_(bucket|sum|count)$/, '')) || typed.has(sampleName), sampleName).toBe(true);
    const labels: Record<string, string> = {};
    for (const pair of (match![2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: sampleName, labels });
  }
  expect(samples.length).toBeGreaterThan(0);
  return samples;
}
