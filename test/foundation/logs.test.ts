// Keys and secrets never reach the logs, whatever the request does with them.

import { afterAll, describe, expect, it } from 'vitest';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { closeCodeFor, take, wsClient } from '../support/ws.js';
import { CreateApiClientMutation, HeartbeatSubscription, ViewerQuery } from './operations.js';

describe('structured logs', () => {
  // One gateway for the tests that read what it logs as it runs (the first test stops its own, to
  // read its shutdown lines), started by the first of them.
  let running: Promise<TestGateway> | undefined;
  const gateway = () => (running ??= startTestGateway());
  afterAll(async () => (await running)?.close());

  it('carry request ids and never an API key, provider key or webhook secret', async () => {
    const t = await startTestGateway();
    try {
      const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: 'log-check', roles: ['CASHIER'] } }, { key: t.keys.admin });
      const newKey = created.data!.createApiClient.key!;
      await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: newKey });
      await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: `${newKey}x` });
      await postRaw(t.gateway.graphqlUrl, '{ not json', t.keys.webCashier);
      await closeCodeFor(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.mobileCashier}x` });
      const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.mobileCashier}` });
      await take(ws, HeartbeatSubscription, { intervalSeconds: 1 }, 1);
      await ws.dispose();
      await t.gateway.close(); // flush shutdown logs too

      const log = t.logs.join('\n');
      expect(t.logs.length).toBeGreaterThan(5);
      const secrets = [
        newKey,
        t.keys.admin,
        t.keys.webCashier,
        t.keys.mobileCashier,
        ...t.gateway.config.merchantAccounts.flatMap((account) => [account.apiKey, ...account.webhookSecrets]),
      ];
      for (const secret of secrets) expect(log).not.toContain(secret.slice(3));
      const requestLine = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'request completed' && line.path === '/graphql');
      expect(requestLine).toMatchObject({ requestId: expect.any(String), method: 'POST', path: '/graphql' });
    } finally {
      await t.close();
    }
  });

  it('log a probe that answers well at debug and every other request at info', async () => {
    const t = await gateway();
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${t.gateway.url}${path}`)).status).toBe(200);
    await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin });
    const lines = t.logs.map((line) => JSON.parse(line) as { level: number; msg: string; path?: string });
    const levelOf = (path: string) => lines.filter((line) => line.msg === 'request completed' && line.path === path).map((line) => line.level);
    // pino: 20 is debug, 30 info.
    expect(levelOf('/healthz')).toEqual([20]);
    expect(levelOf('/readyz')).toEqual([20]);
    expect(levelOf('/metrics')).toEqual([20]);
    expect(levelOf('/graphql')).toEqual([30]);
  });

  it('say once at info that the gateway registered its webhook with the QR gateway', async () => {
    const t = await gateway();
    const lines = t.logs.map((line) => JSON.parse(line) as { level: number; msg: string; account?: string });
    const registering = t.gateway.config.merchantAccounts.filter((account) => account.provider === 'qr-gateway').map((account) => account.code);
    expect(registering.length).toBeGreaterThan(0);
    const atInfo = lines.filter((line) => line.level >= 30 && /webhook registered|registered the gateway webhook/.test(line.msg));
    expect(atInfo.map((line) => line.account).sort()).toEqual([...registering].sort());
  });
});
