// A client holds several keys. A key is rolled with overlap: a second key is made, both work over
// HTTP and graphql-ws, then the old one is revoked and only the new one works, on every instance,
// its sockets closed with 4403 while the new key's stay open. A key that expires is refused from
// then on with a message that says so (by an instance that had it in memory too), and the sockets
// opened with it are closed with 4403 at that moment, on whichever instance holds them. Keys are
// listed without secrets; an admin cannot revoke its own last usable key.

import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import {
  AdminActionsQuery,
  ApiClientKeysQuery,
  CreateApiClientMutation,
  CreateApiKeyMutation,
  HeartbeatSubscription,
  RevokeApiClientMutation,
  RevokeApiKeyMutation,
  ViewerKeysQuery,
  ViewerQuery,
} from './operations.js';

let a: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  a = await startTestGateway();
});
afterAll(() => a?.close());

async function newClient(name: string, roles: Array<'CASHIER' | 'ADMIN'> = ['CASHIER']): Promise<{ id: string; key: string }> {
  const created = await execute(a.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles } }, { key: a.keys.admin });
  expect(created.errors).toBeUndefined();
  return { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
}

async function createKey(clientId: string, expiresAt?: Date, adminKey = a.keys.admin) {
  const created = await execute(a.gateway.graphqlUrl, CreateApiKeyMutation, { input: { clientId, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) } }, { key: adminKey });
  expect(created.errors).toBeUndefined();
  return created.data!.createApiKey;
}

async function revokeKey(t: TestGateway, keyId: string, adminKey = t.keys.admin) {
  const revoked = await execute(t.gateway.graphqlUrl, RevokeApiKeyMutation, { input: { keyId } }, { key: adminKey });
  expect(revoked.errors).toBeUndefined();
  return revoked.data!.revokeApiKey;
}

/** Who the key is over HTTP on `t`: the client's id, or the refusal's code and message. */
async function viewerOf(t: TestGateway, key: string): Promise<{ id?: string; code?: unknown; message?: string }> {
  const response = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key });
  const error = response.errors?.[0];
  return error ? { code: error.extensions?.code, message: error.message } : { id: response.data!.viewer.id };
}

async function keysOf(clientId: string) {
  const listed = await execute(a.gateway.graphqlUrl, ApiClientKeysQuery, { first: 100 }, { key: a.keys.admin });
  expect(listed.errors).toBeUndefined();
  return listed.data!.apiClients.edges.find((edge) => edge.node.id === clientId)!.node;
}

interface Subscriber {
  /** Resolves once the server acknowledged the connection. */
  connected: Promise<void>;
  /** Resolves with the close code and reason once the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the next heartbeat. */
  beat(): Promise<number>;
  dispose(): Promise<void>;
}

/** A socket with one live heartbeat subscription. */
function subscriber(t: TestGateway, key: string): Subscriber {
  let resolveClosed: (closed: { code: number; reason: string }) => void = () => undefined;
  let resolveConnected: () => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (resolveClosed = resolve));
  const connected = new Promise<void>((resolve) => (resolveConnected = resolve));
  const client: Client = createClient({
    url: t.gateway.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: false,
    on: { connected: () => resolveConnected(), closed: (event) => resolveClosed(event as { code: number; reason: string }) },
    onNonLazyError: () => undefined,
  });
  const waiting: Array<(sequence: number) => void> = [];
  client.subscribe(
    { query: print(HeartbeatSubscription), variables: { intervalSeconds: 1 } },
    {
      next: (result) => waiting.splice(0).forEach((resolve) => resolve((result.data as { heartbeat: { sequence: number } }).heartbeat.sequence)),
      error: () => undefined,
      complete: () => undefined,
    },
  );
  return { connected, closed, beat: () => new Promise<number>((resolve) => waiting.push(resolve)), dispose: async () => void (await client.dispose()) };
}

/**
 * Rolls a key: `via` takes the admin's calls, `on` the client's (one instance, or another one
 * sharing the database).
 */
async function rollsWithOverlap(via: TestGateway, on: TestGateway, name: string): Promise<void> {
  // given: a client with its first key, in use over HTTP and graphql-ws on `on`
  const client = await newClient(name);
  expect(await viewerOf(on, client.key)).toEqual({ id: client.id });
  const oldSocket = subscriber(on, client.key);
  await oldSocket.beat();

  // when: a second key is made
  const created = await createKey(client.id);
  expect(created.userErrors).toEqual([]);
  const newKey = created.key!;
  expect(newKey).toMatch(/^gw_[A-Za-z0-9_-]{43}$/);
  expect(created.apiKey).toMatchObject({ clientId: client.id, prefix: newKey.slice(0, 10), expiresAt: null, revokedAt: null });

  // then: both keys work, over HTTP and graphql-ws
  expect(await viewerOf(on, newKey)).toEqual({ id: client.id });
  expect(await viewerOf(on, client.key)).toEqual({ id: client.id });
  const newSocket = subscriber(on, newKey);
  await newSocket.beat();
  expect(await oldSocket.beat()).toBeGreaterThan(1);

  // when: the old key is revoked
  const oldKeyId = (await keysOf(client.id)).keys.find((key) => client.key.startsWith(key.prefix))!.id;
  const revoked = await revokeKey(via, oldKeyId);
  expect(revoked).toMatchObject({ apiKey: { id: oldKeyId, clientId: client.id, revokedAt: expect.any(String) }, userErrors: [] });

  // then: its socket is closed with 4403 (which is when `on` heard of it), the new key's is not,
  // and over HTTP only the new key works
  expect(await oldSocket.closed).toMatchObject({ code: 4403, reason: 'API key revoked' });
  expect(await newSocket.beat()).toBeGreaterThan(1);
  expect(await viewerOf(on, client.key)).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/not valid/) });
  expect(await viewerOf(on, newKey)).toEqual({ id: client.id });
  await Promise.all([oldSocket.dispose(), newSocket.dispose()]);
}

/** A key expiring soon, used on `on` (which then has it in memory), with a socket open on `on`. */
async function expires(on: TestGateway, name: string): Promise<void> {
  // given: a client with a lasting key and a key that expires in a few seconds, both in use on `on`
  const client = await newClient(name);
  const expiresAt = new Date(Date.now() + 5_000);
  const created = await createKey(client.id, expiresAt);
  expect(created.userErrors).toEqual([]);
  expect(created.apiKey!.expiresAt).toBe(expiresAt.toISOString());
  const expiring = created.key!;
  expect(await viewerOf(on, expiring)).toEqual({ id: client.id });
  const socket = subscriber(on, expiring);
  const lasting = subscriber(on, client.key);
  await socket.connected;
  await lasting.beat();

  // when: it expires, then: its socket is closed with 4403 then, not before
  const closed = await socket.closed;
  expect(closed).toEqual(expect.objectContaining({ code: 4403, reason: 'API key expired' }));
  expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());

  // ... it is refused as expired by the instance that had it in memory, and by the other
  expect(await viewerOf(on, expiring)).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired/) });
  expect(await viewerOf(a, expiring)).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired/) });
  // ... a new socket with it is refused, and the client's other key works on
  const reopened = subscriber(on, expiring);
  expect(await reopened.closed).toMatchObject({ code: 4401, reason: 'API key expired' });
  expect(await lasting.beat()).toBeGreaterThan(1);
  expect(await viewerOf(on, client.key)).toEqual({ id: client.id });
  await Promise.all([socket.dispose(), lasting.dispose(), reopened.dispose()]);
}

describe('rolling a key', () => {
  it('works on the old and the new key, then only on the new once the old is revoked', async () => {
    await rollsWithOverlap(a, a, 'rolled-here');
  });

  it('lists every key of the client without secrets, with when each was used and revoked', async () => {
    // given: a client whose first key was used, then rolled
    const client = await newClient('listed-keys');
    expect(await viewerOf(a, client.key)).toEqual({ id: client.id });
    const second = await createKey(client.id, new Date(Date.now() + 86_400_000));
    const firstId = (await keysOf(client.id)).keys[0]!.id;
    await revokeKey(a, firstId);

    // when
    const listed = await execute(a.gateway.graphqlUrl, ApiClientKeysQuery, { first: 100 }, { key: a.keys.admin });

    // then: both keys, oldest first, their prefixes only; the client's lastUsedAt is its first key's
    const node = listed.data!.apiClients.edges.find((edge) => edge.node.id === client.id)!.node;
    expect(node.keys).toEqual([
      { id: firstId, prefix: client.key.slice(0, 10), createdAt: expect.any(String), expiresAt: null, lastUsedAt: expect.any(String), revokedAt: expect.any(String) },
      { id: second.apiKey!.id, prefix: second.key!.slice(0, 10), createdAt: expect.any(String), expiresAt: second.apiKey!.expiresAt, lastUsedAt: null, revokedAt: null },
    ]);
    expect(node.lastUsedAt).toBe(node.keys[0]!.lastUsedAt);
    expect(node.revokedAt).toBeNull();
    expect(JSON.stringify(listed)).not.toContain(client.key);
    expect(JSON.stringify(listed)).not.toContain(second.key!);
    // ... and the client sees its own keys
    const own = await execute(a.gateway.graphqlUrl, ViewerKeysQuery, {}, { key: second.key! });
    expect(own.data!.viewer.keys.map((key) => key.id)).toEqual([firstId, second.apiKey!.id]);
  });

  it('records both actions in the admin trail, with the key and its client, and never writes the key to a log line', async () => {
    const client = await newClient('audited-keys');
    const created = await createKey(client.id);
    await revokeKey(a, created.apiKey!.id);
    const trail = await execute(a.gateway.graphqlUrl, AdminActionsQuery, { first: 10, filter: { objectId: created.apiKey!.id } }, { key: a.keys.admin });
    expect(trail.data!.adminActions.edges.map((edge) => [edge.node.action, edge.node.outcome, edge.node.objects])).toEqual([
      ['revokeApiKey', 'OK', [{ kind: 'input.keyId', id: created.apiKey!.id }]],
      ['createApiKey', 'OK', [{ kind: 'input.clientId', id: client.id }, { kind: 'apiKey', id: created.apiKey!.id }]],
    ]);
    expect(a.logs.some((line) => line.includes('"createApiKey"'))).toBe(true);
    expect(a.logs.join('\n')).not.toContain(created.key!);
  });
});

describe('a key that expires', () => {
  it('is refused as expired from then on, and its sockets are closed with 4403 when it expires', async () => {
    await expires(a, 'expiring-here');
  });
});

describe('refusals', () => {
  it('refuses an expiry in the past, and a key for a revoked or unknown client, with userErrors that change nothing', async () => {
    const client = await newClient('refused-keys');
    const past = await createKey(client.id, new Date(Date.now() - 1_000));
    expect(past).toMatchObject({ apiKey: null, key: null, userErrors: [{ field: ['expiresAt'], code: 'EXPIRY_OUT_OF_RANGE' }] });
    const unknown = await createKey('cli_00000000000000000000000000');
    expect(unknown).toMatchObject({ apiKey: null, key: null, userErrors: [{ field: ['clientId'], code: 'NOT_FOUND' }] });
    expect((await keysOf(client.id)).keys).toHaveLength(1);

    const revoked = await execute(a.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: client.id } }, { key: a.keys.admin });
    expect(revoked.data!.revokeApiClient.userErrors).toEqual([]);
    const forRevoked = await createKey(client.id);
    expect(forRevoked).toMatchObject({ apiKey: null, key: null, userErrors: [{ field: ['clientId'], code: 'CLIENT_REVOKED' }] });
    expect((await keysOf(client.id)).keys).toHaveLength(1);

    const noKey = await revokeKey(a, 'key_00000000000000000000000000');
    expect(noKey).toMatchObject({ apiKey: null, userErrors: [{ field: ['keyId'], code: 'NOT_FOUND' }] });
  });

  it('refuses an expiry that is not a date-time before anything runs', async () => {
    const client = await newClient('malformed-expiry');
    const response = await execute(a.gateway.graphqlUrl, CreateApiKeyMutation, { input: { clientId: client.id, expiresAt: 'next tuesday' } }, { key: a.keys.admin });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toMatch(/expiresAt/);
    expect((await keysOf(client.id)).keys).toHaveLength(1);
  });

  it("refuses an admin revoking its own last usable key, and lets it once it has another; another admin's last key may be revoked", async () => {
    // given: an admin with one key
    const admin = await newClient('lonely-admin', ['ADMIN']);
    const [ownKey] = (await keysOf(admin.id)).keys;

    // when / then: it cannot lock itself out
    const refused = await revokeKey(a, ownKey!.id, admin.key);
    expect(refused).toMatchObject({ apiKey: null, userErrors: [{ field: ['keyId'], code: 'CANNOT_REVOKE_OWN_LAST_KEY' }] });
    expect(await viewerOf(a, admin.key)).toEqual({ id: admin.id });

    // ... a second key that has expired does not count as usable ...
    const soonGone = await createKey(admin.id, new Date(Date.now() + 1_500), admin.key);
    await expect.poll(async () => (await viewerOf(a, soonGone.key!)).message).toMatch(/expired/);
    expect((await revokeKey(a, ownKey!.id, admin.key)).userErrors).toMatchObject([{ code: 'CANNOT_REVOKE_OWN_LAST_KEY' }]);

    // ... but once it has another usable key, it may revoke the one it calls with, and go on with the other
    const spare = await createKey(admin.id, undefined, admin.key);
    expect((await revokeKey(a, ownKey!.id, admin.key)).userErrors).toEqual([]);
    expect(await viewerOf(a, admin.key)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await viewerOf(a, spare.key!)).toEqual({ id: admin.id });

    // when: another admin revokes that last key, then: the client is left with no usable key, not revoked
    expect((await revokeKey(a, spare.apiKey!.id)).userErrors).toEqual([]);
    expect(await viewerOf(a, spare.key!)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await keysOf(admin.id)).revokedAt).toBeNull();
  });
});

// Two instances on one database need one shared database server: PGlite lives inside one process
// (and is locked by it), so these run on PostgreSQL only.
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  let b: TestGateway;
  beforeAll(async () => {
    b = await startTestGateway({ database: a.database });
  });
  afterAll(() => b?.close());

  it('a key rolled through instance A: both work on B, then only the new one, and B closes the old key\'s socket with 4403', async () => {
    await rollsWithOverlap(a, b, 'rolled-elsewhere');
  });

  it('a key expiring closes its socket on instance B, which refuses it as expired', async () => {
    await expires(b, 'expiring-elsewhere');
  });
});
