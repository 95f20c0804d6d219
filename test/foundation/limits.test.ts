// Abusive requests are refused before any resolver runs: depth, aliases, tokens, batches, size,
// and cross-site requests.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { take, wsClient } from '../support/ws.js';
import { ApiClientsQuery, HeartbeatSubscription } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

async function clientNames(): Promise<string[]> {
  const response = await execute(t.gateway.graphqlUrl, ApiClientsQuery, { first: 100 }, { key: t.keys.admin });
  return response.data!.apiClients.edges.map((edge) => edge.node.name);
}

describe('query limits', () => {
  it('rejects a query deeper than the limit', async () => {
    let selection = 'name';
    for (let i = 0; i < 14; i++) selection = `ofType { ${selection} }`;
    const response = await postRaw(t.gateway.graphqlUrl, { query: `{ __type(name: "ApiClient") { fields { type { ${selection} } } } }` }, t.keys.admin);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(response.body.errors[0].message).toMatch(/depth/i);
    expect(response.body.data).toBeUndefined();
  });

  it('rejects 100 aliases without running the mutation', async () => {
    const fields = Array.from({ length: 100 }, (_, i) => `a${i}: createApiClient(input: $input) { key }`);
    const response = await postRaw(
      t.gateway.graphqlUrl,
      { query: `mutation($input: CreateApiClientInput!) { ${fields.join('\n')} }`, variables: { input: { name: 'alias-1', roles: ['CASHIER'] } } },
      t.keys.admin,
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.errors)).toMatch(/alias/i);
    expect((await clientNames()).filter((name) => name.startsWith('alias-'))).toEqual([]);
  });

  it('rejects a query over the token limit, over HTTP and graphql-ws', async () => {
    const fields = Array.from({ length: 2500 }, () => '__typename').join(' ');
    const response = await postRaw(t.gateway.graphqlUrl, { query: `{ ${fields} }` }, t.keys.admin);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.errors)).toMatch(/more that 2000 tokens|token limit/i);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const refused = await take(ws, HeartbeatSubscription, { intervalSeconds: 1 }, 1).catch(() => undefined);
    expect(refused?.[0]?.data?.heartbeat.sequence).toBe(1); // a normal subscription passes
    const tooLong = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: `subscription { heartbeat { ${Array.from({ length: 2500 }, () => 'sequence').join(' ')} } }` }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    await ws.dispose();
    expect(JSON.stringify(tooLong)).toMatch(/2000 tokens/i);
  });

  it('rejects a batched HTTP array without running any operation', async () => {
    const batch = [0, 1].map((i) => ({ query: `mutation { createApiClient(input: { name: "batch-${i}", roles: [CASHIER] }) { key } }` }));
    const response = await postRaw(t.gateway.graphqlUrl, batch, t.keys.admin);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/batch/i);
    expect((await clientNames()).filter((name) => name.startsWith('batch-'))).toEqual([]);
  });

  it('rejects a body over the size limit', async () => {
    const response = await postRaw(t.gateway.graphqlUrl, { query: '{ viewer { id } }', variables: { padding: 'x'.repeat(200_000) } }, t.keys.admin);
    expect(response.status).toBe(413);
    expect(response.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a simple cross-site GET (CSRF prevention)', async () => {
    const response = await fetch(`${t.gateway.graphqlUrl}?query=${encodeURIComponent('{ viewer { id } }')}`, {
      headers: { authorization: `Bearer ${t.keys.admin}` },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/CSRF|preflight/i);
  });
});

describe('introspection', () => {
  const query = { query: '{ __schema { queryType { name } } }' };

  it('is open to ADMIN keys', async () => {
    const response = await postRaw(t.gateway.graphqlUrl, query, t.keys.admin);
    expect(response.body.data.__schema.queryType.name).toBe('Query');
  });

  it('is FORBIDDEN to other keys outside development, before anything executes', async () => {
    const cashier = await postRaw(t.gateway.graphqlUrl, query, t.keys.webCashier);
    expect(cashier.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(cashier.body.data ?? null).toBeNull();
    const hidden = await postRaw(t.gateway.graphqlUrl, { query: 'query { viewer { id } ...F } fragment F on Query { __type(name: "Query") { name } }' }, t.keys.webCashier);
    expect(hidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('is open to every key in development', async () => {
    const development = await startTestGateway({ env: { NODE_ENV: 'development' } });
    try {
      const cashier = await postRaw(development.gateway.graphqlUrl, query, development.keys.webCashier);
      expect(cashier.body.data.__schema.queryType.name).toBe('Query');
    } finally {
      await development.close();
    }
  });
});
