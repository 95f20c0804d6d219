// Revoking a key closes every graphql-ws socket that uses it (for the connection, or for one
// operation through GraphiQL's per-operation headers) with 4403, on every gateway instance sharing
// the database; the sockets of other keys stay open. The gateway closes with 4403 only when the
// revocation's notice (the commit's NOTIFY) reaches an instance, never at a later key check, cache
// expiry or keep-alive turn: so a 4403 is the close made on the notice itself.

import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runClientCli } from '../../src/cli/client.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { CreateApiClientMutation, HeartbeatSubscription, RevokeApiClientMutation } from './operations.js';

let a: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  a = await startTestGateway();
});
afterAll(() => a?.close());

async function newClient(t: TestGateway, name: string): Promise<{ id: string; key: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles: ['CASHIER'] } }, { key: t.keys.admin });
  expect(created.errors).toBeUndefined();
  return { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
}

interface Subscriber {
  /** Resolves with the close code once the server closes the socket. */
  closed: Promise<number>;
  /** Resolves with the next heartbeat. */
  beat(): Promise<number>;
  dispose(): Promise<void>;
}

/** A socket with one live heartbeat subscription, resolved once the first beat arrived. */
async function subscriber(t: TestGateway, connectionKey: string, operationKey?: string): Promise<Subscriber> {
  let resolveClosed: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve));
  const client: Client = createClient({
    url: t.gateway.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${connectionKey}` },
    retryAttempts: 0,
    lazy: false,
    on: { closed: (event) => resolveClosed((event as { code: number }).code) },
    onNonLazyError: () => undefined,
  });
  const waiting: Array<(sequence: number) => void> = [];
  client.subscribe(
    {
      query: print(HeartbeatSubscription),
      variables: { intervalSeconds: 1 },
      ...(operationKey ? { extensions: { headers: { Authorization: `Bearer ${operationKey}` } } } : {}),
    },
    {
      next: (result) => waiting.splice(0).forEach((resolve) => resolve((result.data as { heartbeat: { sequence: number } }).heartbeat.sequence)),
      error: () => undefined,
      complete: () => undefined,
    },
  );
  const beat = () => new Promise<number>((resolve) => waiting.push(resolve));
  await beat();
  return { closed, beat, dispose: async () => void (await client.dispose()) };
}

/** Revokes through `revoke`, then waits for the server to close the socket: resolves with the close code. */
async function closedBy(sub: Subscriber, revoke: () => Promise<unknown>): Promise<number> {
  await revoke();
  return sub.closed;
}

const revokeThrough = (t: TestGateway, id: string) => async () => {
  const revoked = await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id } }, { key: t.keys.admin });
  expect(revoked.data!.revokeApiClient.userErrors).toEqual([]);
};

describe('revoking a key', () => {
  it('closes its open subscription socket with 4403 within a second; other sockets stay open', async () => {
    // given: a subscriber of the key to revoke, and one of another key
    const doomed = await newClient(a, 'revoked-connection');
    const sub = await subscriber(a, doomed.key);
    const bystander = await subscriber(a, a.keys.webCashier);

    // when / then
    expect(await closedBy(sub, revokeThrough(a, doomed.id))).toBe(4403);
    expect(await bystander.beat()).toBeGreaterThan(1);
    await Promise.all([sub.dispose(), bystander.dispose()]);
  });

  it("closes a socket on which an operation ran as that key (GraphiQL's per-operation headers)", async () => {
    const doomed = await newClient(a, 'revoked-operation');
    const sub = await subscriber(a, a.keys.admin, doomed.key);
    expect(await closedBy(sub, revokeThrough(a, doomed.id))).toBe(4403);
    await sub.dispose();
  });
});

// Two instances and a CLI beside a running gateway need one shared database server: PGlite lives
// inside one process (and is locked by it), so these run on PostgreSQL only.
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('a revocation through instance A closes the subscriber on instance B with 4403 within a second', async () => {
    const b = await startTestGateway({ database: a.database });
    try {
      const doomed = await newClient(a, 'revoked-elsewhere');
      const sub = await subscriber(b, doomed.key);
      expect(await closedBy(sub, revokeThrough(a, doomed.id))).toBe(4403);
      await sub.dispose();
    } finally {
      await b.close();
    }
  });

  it('a revocation with `npm run client -- revoke` closes the subscriber too', async () => {
    const doomed = await newClient(a, 'revoked-by-cli');
    const sub = await subscriber(a, doomed.key);
    const code = await closedBy(sub, async () => {
      const result = await runClientCli(['revoke', doomed.id], { env: { NODE_ENV: 'test', ...a.database.env }, out: () => undefined, err: () => undefined });
      expect(result).toBe(0);
    });
    expect(code).toBe(4403);
    await sub.dispose();
  });
});
