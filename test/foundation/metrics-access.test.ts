// Who can read /metrics: a listener of its own (METRICS_PORT, loopback by default, the production
// default) keeps it off the API's port, and METRICS_TOKEN asks for a bearer token wherever it is
// served. Real gateways over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

describe('a metrics listener of its own (METRICS_PORT)', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => t?.close());

  it('serves /metrics on loopback and only there: the API port answers 404', async () => {
    const metricsUrl = new URL(t.gateway.metricsUrl);
    expect(metricsUrl.hostname).toBe('127.0.0.1');
    expect(metricsUrl.port).not.toBe(new URL(t.gateway.url).port);

    const scraped = await fetch(t.gateway.metricsUrl);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await scraped.text()).toContain('# TYPE gateway_http_requests_total counter');

    expect((await fetch(`${t.gateway.url}/metrics`)).status).toBe(404);
    // The metrics listener serves nothing of the API.
    expect((await fetch(`${metricsUrl.origin}/graphql`)).status).toBe(404);
    expect((await fetch(`${metricsUrl.origin}/healthz`)).status).toBe(404);
  });
});

describe('METRICS_TOKEN', () => {
  const token = 'metrics-token-for-tests-0123456789';
  let t: TestGateway;
  beforeAll(async () => {
    // On the API's port, as METRICS_PORT=shared allows in production only with a token.
    t = await startTestGateway({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t?.close());

  it('is asked for as a bearer token, and never logged', async () => {
    const anonymous = await fetch(t.gateway.metricsUrl);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await anonymous.text()).not.toContain('gateway_');
    expect((await fetch(t.gateway.metricsUrl, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(t.gateway.metricsUrl, { headers: { authorization: token } })).status).toBe(401);

    const scraped = await fetch(t.gateway.metricsUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('gateway_http_requests_total');
    expect(t.logs.join('\n')).not.toContain(token);
  });
});
