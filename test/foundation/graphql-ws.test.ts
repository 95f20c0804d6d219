// graphql-ws on the same path: no or bad key closes with 4401; a good key subscribes; a revoked one is closed with 4403.

import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { closeCodeFor, take, wsClient } from '../support/ws.js';
import { CreateApiClientMutation, HeartbeatSubscription, RevokeApiClientMutation } from './operations.js';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('graphql-ws authentication', () => {
  it('closes with 4401 without a key', async () => {
    expect(await closeCodeFor(t.gateway.wsUrl)).toBe(4401);
  });

  it('closes with 4401 with a bad key', async () => {
    expect(await closeCodeFor(t.gateway.wsUrl, { authorization: 'Bearer gw_nope' })).toBe(4401);
    expect(await closeCodeFor(t.gateway.wsUrl, { authorization: t.keys.webCashier })).toBe(4401); // no "Bearer "
  });

  it('lets a good key subscribe', async () => {
    const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const beats = await take(client, HeartbeatSubscription, { intervalSeconds: 1 }, 2);
    await client.dispose();
    expect(beats.map((beat) => beat.errors)).toEqual([undefined, undefined]);
    expect(beats.map((beat) => beat.data!.heartbeat.sequence)).toEqual([1, 2]);
  });

  it('closes an open socket with 4403 once its key is revoked, and refuses the key from then on with 4401', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: 'ws-revoked', roles: ['CASHIER'] } }, { key: t.keys.admin });
    const { client: apiClient, key } = created.data!.createApiClient;
    const closeCodes: number[] = [];
    const client = createClient({
      url: t.gateway.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
      on: { closed: (event) => closeCodes.push((event as { code: number }).code) },
      onNonLazyError: () => undefined,
    });
    await take(client, HeartbeatSubscription, { intervalSeconds: 1 }, 1);

    await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: apiClient!.id } }, { key: t.keys.admin });
    await expect.poll(() => closeCodes).toEqual([4403]);
    await client.dispose();
    expect(await closeCodeFor(t.gateway.wsUrl, { authorization: `Bearer ${key}` })).toBe(4401);
  });

  it("runs an operation as the key in its extensions.headers (GraphiQL's Headers tab), and refuses a bad one", async () => {
    const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const viewer = (authorization: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: '{ viewer { name } }', extensions: { headers: { Authorization: authorization } } },
          { next: resolve, error: resolve, complete: () => undefined },
        );
      });
    expect(await viewer(`Bearer ${t.keys.webCashier}`)).toEqual({ data: { viewer: { name: 'web-cashier (demo)' } } });
    expect(JSON.stringify(await viewer('Bearer gw_not-a-key'))).toMatch(/UNAUTHENTICATED|not valid/);
    await client.dispose();
  });

  it('validates subscription arguments', async () => {
    const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const result = await take(client, HeartbeatSubscription, { intervalSeconds: 0 }, 1).catch((error: unknown) => error);
    await client.dispose();
    expect(JSON.stringify(result)).toMatch(/intervalSeconds must be between 1 and 300/);
  });
});
