// /healthz, /readyz (and its failure when the database is unreachable), /metrics counts, and
// the masking of unexpected errors: no SQL, a correlation id that is in the log.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseOutage } from '../support/database.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
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

  it('/readyz reports the database and each sandbox', async () => {
    const response = await fetch(`${t.gateway.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      database: 'up',
      sandboxes: { 'deposit-gateway': 'up', 'qr-gateway': 'up' },
    });
  });
});

describe('metrics', () => {
  it('counts requests and GraphQL operations by name and outcome, with durations', async () => {
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin });
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin });
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, {});
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toContain('gateway_graphql_operations_total{operation="Viewer",type="query",outcome="success"} 2');
    expect(text).toContain('gateway_graphql_operations_total{operation="Viewer",type="query",outcome="error"} 1');
    expect(text).toMatch(/gateway_graphql_operation_duration_seconds_count\{operation="Viewer",type="query"\} 3/);
    expect(text).toMatch(/gateway_http_requests_total\{method="POST",route="\/graphql",status="200"\} \d+/);
  });
});

describe('when the database is unreachable', () => {
  it('/readyz fails, queries get a masked error with a logged correlation id, and both recover', async () => {
    const outage = await databaseOutage(t.database, () => t.gateway.db.close());
    try {
      const ready = await fetch(`${t.gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not ready', database: 'down' });

      const response = await postRaw(t.gateway.graphqlUrl, { query: '{ viewer { id } }' }, t.keys.admin);
      const error = response.body.errors[0];
      expect(error.message).toBe('Internal error');
      expect(error.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.extensions.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(error.extensions.stacktrace).toBeUndefined();
      expect(JSON.stringify(response.body)).not.toMatch(/select|api_client|connect|ECONNREFUSED|terminat/i);
      expect(t.logs.some((line) => line.includes(error.extensions.correlationId))).toBe(true);
    } finally {
      await outage.end();
    }
    if (t.database.kind === 'postgresql') {
      await expect.poll(async () => (await fetch(`${t.gateway.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    }
  });
});
