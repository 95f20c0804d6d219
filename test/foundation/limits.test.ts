// Abusive requests are refused before any resolver runs: depth, aliases, tokens, batches, size,
// and cross-site requests.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { take, wsClient } from '../support/ws.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
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
    expect(response.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    expect(response.body.errors[0].message).toMatch(/^The operation's depth is 1\d, above the limit of 12/);
    expect(response.body.data).toBeUndefined();
  });

  it('refuses an operation over the cost limit with its own code and a message that says what to change, over HTTP and graphql-ws', async () => {
    // A full page of events with each one's deposit snapshot: `first` multiplies the page's cost.
    const query = '{ events(first: 100) { edges { node { id type fromStatus toStatus createdAt deposit { id status providerStatus rail provider merchantAccount amount { amount currency } fee { amount } net { amount } createdAt updatedAt } } } } }';
    const response = await postRaw(t.gateway.graphqlUrl, { query }, t.keys.admin);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^The operation's estimated cost is \d+, above the limit of 5000: select fewer fields/), extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY' }) }),
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/Syntax Error/);
    // The same page without the snapshots is within the limit.
    const lighter = await postRaw(t.gateway.graphqlUrl, { query: '{ events(first: 100) { edges { node { id type fromStatus toStatus createdAt } } pageInfo { hasNextPage endCursor } } }' }, t.keys.admin);
    expect(lighter.body.errors).toBeUndefined();
    // And the snapshots fit in pages of 25 (docs/configuration.md, GRAPHQL_MAX_COST).
    const smaller = await postRaw(t.gateway.graphqlUrl, { query: query.replace('first: 100', 'first: 25') }, t.keys.admin);
    expect(smaller.body.errors).toBeUndefined();

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const refused = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    await ws.dispose();
    expect(JSON.stringify(refused)).toContain('QUERY_TOO_COSTLY');
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
    // Short tokens: the text stays under the length limit, which would refuse it first.
    const fields = Array.from({ length: 2500 }, () => 'a').join(' ');
    const response = await postRaw(t.gateway.graphqlUrl, { query: `{ ${fields} }` }, t.keys.admin);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.errors)).toMatch(/more that 2000 tokens|token limit/i);
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const refused = await take(ws, HeartbeatSubscription, { intervalSeconds: 1 }, 1).catch(() => undefined);
    expect(refused?.[0]?.data?.heartbeat.sequence).toBe(1); // a normal subscription passes
    const tooLong = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: `subscription { heartbeat { ${Array.from({ length: 2500 }, () => 'a').join(' ')} } }` }, { next: resolve, error: resolve, complete: () => resolve('complete') });
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

describe('money-moving fields', () => {
  const fifteenDeposits = `mutation($input: CreateDepositInput!) { ${Array.from({ length: 15 }, (_, i) => `d${i}: createDeposit(input: $input) { deposit { id } }`).join('\n')} }`;

  it('refuses fifteen aliased createDeposit as one error, with no provider call', async () => {
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!;
    const before = sandbox.controls.requestCount('/payments', 'POST');
    const response = await postRaw(t.gateway.graphqlUrl, { query: fifteenDeposits, variables: { input: CARD_INPUT } }, t.keys.webCashier);
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].extensions.code).toBe('TOO_MANY_MONEY_OPERATIONS');
    expect(response.body.errors[0].message).toMatch(/at most 1 money-moving field.*has 15/);
    expect(response.body.data).toBeUndefined();
    expect(sandbox.controls.requestCount('/payments', 'POST')).toBe(before);
  });

  it('counts two different money fields, also through a fragment, and over graphql-ws', async () => {
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!;
    const before = sandbox.controls.requestCount('/payments', 'POST');
    const query = `mutation($input: CreateDepositInput!) { createDeposit(input: $input) { deposit { id } } ...More }
      fragment More on Mutation { reconcileDeposit(id: "dep_unknown") { __typename } }`;
    const response = await postRaw(t.gateway.graphqlUrl, { query, variables: { input: CARD_INPUT } }, t.keys.webCashier);
    expect(response.body.errors).toMatchObject([{ extensions: { code: 'TOO_MANY_MONEY_OPERATIONS' } }]);
    expect(response.body.errors[0].message).toMatch(/has 2\./);

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const refused = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: fifteenDeposits, variables: { input: CARD_INPUT } }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    await ws.dispose();
    expect(JSON.stringify(refused)).toContain('TOO_MANY_MONEY_OPERATIONS');
    expect(sandbox.controls.requestCount('/payments', 'POST')).toBe(before);
  });
});

describe('query length', () => {
  /** GRAPHQL_MAX_QUERY_CHARS's default. */
  const MAX = 20_000;
  // A comment holds no tokens: this text passes the token limit and is over the length limit.
  const longQuery = `# ${'x'.repeat(MAX)}\n{ viewer { id } }`;

  it('refuses a query over GRAPHQL_MAX_QUERY_CHARS before parsing, over HTTP and graphql-ws', async () => {
    const response = await postRaw(t.gateway.graphqlUrl, { query: longQuery }, t.keys.admin);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].extensions.code).toBe('QUERY_TOO_LONG');
    expect(response.body.errors[0].message).toBe('The query is longer than 20000 characters');

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const refused = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: `# ${'x'.repeat(MAX + 1)}\nsubscription { heartbeat { sequence } }` }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    await ws.dispose();
    expect(JSON.stringify(refused)).toContain('longer than 20000 characters');
  });

  it('lets a query at the limit through', async () => {
    const query = `{ viewer { id } }`;
    const padded = `${query}#${'x'.repeat(MAX - query.length - 1)}`;
    expect(padded).toHaveLength(MAX);
    const response = await postRaw(t.gateway.graphqlUrl, { query: padded }, t.keys.admin);
    expect(response.status).toBe(200);
    expect(response.body.data.viewer.id).toBe(t.gateway.demoClients.find((client) => client.name.startsWith('admin'))!.id);
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
