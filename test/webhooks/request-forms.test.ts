// A delivery's request line in its usual form is served by the HTTP server's own dispatch, before
// Express (src/server/webhooks.ts `webhookPath`); every other form Express routes to the same
// handler. Both answer alike, with the request's id, its log line and its metric.

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import { metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { accountSecrets, insertDeposit, paymentEnvelope } from './support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** POSTs a signed approval of a fresh deposit with `path` as the request target, as written. */
async function post(path: string): Promise<{ status: number; requestId: string | undefined; body: Record<string, unknown> }> {
  const bytes = Buffer.from(JSON.stringify(paymentEnvelope(await insertDeposit(t), 'approved')));
  const header = signatureHeader(bytes, [accountSecrets(t)[0]!], Math.floor(Date.now() / 1000));
  const { hostname, port } = new URL(t.gateway.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': bytes.length, 'x-service-signature': header } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // Express's own 404 for a path no route matches is not JSON.
          const json = /^application\/json/.test(response.headers['content-type'] ?? '');
          resolve({ status: response.statusCode ?? 0, requestId: response.headers['x-request-id'] as string | undefined, body: json ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      },
    );
    request.on('error', reject);
    request.end(bytes);
  });
}

const applied = /gateway_http_requests_total\{method="POST",route="\/webhooks\/:provider\/:account",status="200"\} (\d+)/;

describe('webhook request forms', () => {
  it('are applied the same in the usual form, with a query, a trailing slash, another case or an encoded segment', async () => {
    const before = await metric(t, applied);
    for (const path of ['/webhooks/deposit-gateway/dg-test', '/webhooks/deposit-gateway/dg-test?source=retry', '/webhooks/deposit-gateway/dg-test/', '/WEBHOOKS/deposit-gateway/dg-test', '/webhooks/deposit%2Dgateway/dg-test']) {
      const sent = await post(path);
      expect({ path, status: sent.status, outcome: sent.body.outcome }).toEqual({ path, status: 200, outcome: 'applied' });
      expect(sent.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await metric(t, applied)).toBe(before + 5);
  });

  it('are applied the same in absolute form, which Express routes', async () => {
    const sent = await post(`${t.gateway.url}/webhooks/deposit-gateway/dg-test`);
    expect({ status: sent.status, outcome: sent.body.outcome }).toEqual({ status: 200, outcome: 'applied' });
    expect(sent.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answer an unknown account 404 and an unknown path as before', async () => {
    expect(await post('/webhooks/deposit-gateway/nope')).toMatchObject({ status: 404, body: { received: false, reason: 'NOT_FOUND' } });
    expect((await post('/webhooks/deposit-gateway')).status).toBe(404);
    expect((await post('/webhooks/deposit-gateway/dg-test/extra')).status).toBe(404);
  });
});
