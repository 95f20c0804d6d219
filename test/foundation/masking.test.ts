// What a client sees of an error is the same over HTTP and graphql-ws: messages written for
// clients, no schema suggestions, and "Internal error" with a logged correlation id for the rest.

import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { databaseOutage } from '../support/database.js';
import { postRaw, startTestGateway } from '../support/gateway.js';
import { take, wsClient } from '../support/ws.js';
import { HeartbeatSubscription } from './operations.js';

let t: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** The first thing the server sends for one operation: a result, or the errors that refused it. */
function firstAnswer(client: Client, query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Promise<any> {
  return new Promise((resolve) => {
    const unsubscribe = client.subscribe(
      { query, ...(variables ? { variables } : {}), ...(extensions ? { extensions } : {}) },
      {
        next: (result) => {
          unsubscribe();
          resolve(result);
        },
        error: (error) => resolve({ errors: error }),
        complete: () => resolve('complete'),
      },
    );
  });
}

describe('schema suggestions', () => {
  it('are not in validation or input errors over HTTP', async () => {
    const field = await postRaw(t.gateway.graphqlUrl, { query: '{ viewer { nam } }' }, t.keys.webCashier);
    expect(field.body.errors[0].message).toMatch(/Cannot query field "nam"/);
    const literal = await postRaw(t.gateway.graphqlUrl, { query: 'mutation { createApiClient(input: { name: "x", roles: [ADMN] }) { key } }' }, t.keys.admin);
    expect(literal.body.errors[0].message).toMatch(/"ADMN"/);
    const variable = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'mutation($input: CreateApiClientInput!) { createApiClient(input: $input) { key } }', variables: { input: { name: 'x', roles: ['ADMN'] } } },
      t.keys.admin,
    );
    expect(variable.body.errors[0].message).toMatch(/"ADMN"/);
    for (const response of [field, literal, variable]) {
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).not.toMatch(/Did you mean|"name"|"ADMIN"|Suggestion/);
    }
  });

  it('are not in validation errors over graphql-ws, which carry the same codes as HTTP', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      const field = await firstAnswer(ws, 'subscription { heartbeat { sequenc } }');
      expect(field.errors[0].message).toMatch(/Cannot query field "sequenc"/);
      expect(field.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(JSON.stringify(field)).not.toMatch(/Did you mean|"sequence"/);
      const unparsable = await firstAnswer(ws, 'subscription { heartbeat {');
      expect(unparsable.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
      const unknownOperation = await new Promise<any>((resolve) => {
        ws.subscribe({ query: 'query A { viewer { id } }', operationName: 'B' }, { next: resolve, error: (errors) => resolve({ errors }), complete: () => undefined });
      });
      expect(unknownOperation.errors[0].extensions.code).toBe('OPERATION_NOT_FOUND');
    } finally {
      await ws.dispose();
    }
  });
});

describe('forbidden introspection', () => {
  const query = '{ __schema { queryType { name } } }';

  it('is a FORBIDDEN GraphQL error over HTTP, not a server error', async () => {
    const response = await postRaw(t.gateway.graphqlUrl, { query }, t.keys.webCashier);
    expect(response.status).toBe(403);
    expect(response.body.errors).toEqual([{ message: expect.stringMatching(/^Forbidden/), extensions: { code: 'FORBIDDEN' } }]);
  });

  it('is a FORBIDDEN GraphQL error over graphql-ws', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      const answer = await firstAnswer(ws, query);
      expect(answer.errors).toEqual([{ message: expect.stringMatching(/^Forbidden/), extensions: { code: 'FORBIDDEN' } }]);
      // The socket stays usable.
      expect((await take(ws, HeartbeatSubscription, { intervalSeconds: 1 }, 1))[0]!.data!.heartbeat.sequence).toBe(1);
    } finally {
      await ws.dispose();
    }
  });
});

describe('an unexpected error over graphql-ws', () => {
  it('is "Internal error" with a correlation id that is in the log, on an open socket and on a new one', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    // An open subscription keeps the (lazy) socket connected through the outage.
    const beats: unknown[] = [];
    const stop = ws.subscribe({ query: 'subscription { heartbeat(intervalSeconds: 60) { sequence } }' }, { next: (beat) => beats.push(beat), error: () => undefined, complete: () => undefined });
    await expect.poll(() => beats.length).toBe(1);
    let closed = false;
    ws.on('closed', () => {
      closed = true;
    });
    const entries = () => t.logs.map((text) => JSON.parse(text) as Record<string, any>);
    // A key this instance has never authenticated: known keys are authenticated from memory.
    const created = await postRaw(t.gateway.graphqlUrl, { query: 'mutation { createApiClient(input: { name: "masking-unseen", roles: [CASHIER] }) { key } }' }, t.keys.admin);
    const unseenKey: string = created.body.data.createApiClient.key;
    const outage = await databaseOutage(t.database, () => t.gateway.db.close());
    try {
      // The operation's own key (GraphiQL's per-operation headers) must be looked up, and cannot be.
      const answer = await firstAnswer(ws, '{ viewer { id } }', undefined, { headers: { Authorization: `Bearer ${unseenKey}` } });
      expect(answer.errors).toEqual([{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) } }]);
      expect(JSON.stringify(answer)).not.toMatch(/select|api_client|connect|ECONNREFUSED|terminat|closed|database/i);
      const { correlationId } = answer.errors[0].extensions;
      expect(entries().find((entry) => entry.correlationId === correlationId)).toMatchObject({ level: 50, err: { message: expect.any(String) } });
      expect(closed).toBe(false);

      const reason = await new Promise<string>((resolve) => {
        const fresh = createClient({
          url: t.gateway.wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${unseenKey}` },
          retryAttempts: 0,
          lazy: false,
          on: { closed: (event) => resolve(`${(event as CloseEvent).code} ${(event as CloseEvent).reason}`) },
          onNonLazyError: () => undefined,
        });
        void fresh;
      });
      expect(reason).toMatch(/^4500 Internal error [0-9a-f-]{36}$/);
      expect(entries().some((entry) => entry.level === 50 && entry.correlationId === reason.split(' ').at(-1))).toBe(true);
    } finally {
      stop();
      await outage.end();
      await ws.dispose();
    }
  });
});
