// Per-client limits (docs/clients.md "Client limits"), through the public surface: an admin sets a client's
// rate, burst and subscriptions with setApiClientLimits; over its rate the client is answered 429
// with Retry-After and RATE_LIMITED over HTTP, and its graphql-ws operation is refused with the
// socket left open; a client that waits Retry-After is served again; another client's deposits and
// a provider's webhooks go on meanwhile, and a cashier looping on createDeposit 16 at a time is held
// to its rate while another's deposits keep their latency; over its subscriptions a new one is
// refused and the others keep running. On PostgreSQL, two instances share one client's limits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { acknowledgedSocket, type RawSocket } from '../support/ws.js';
import { insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';

let t: TestGateway & { database: TestDatabase };
const sockets: RawSocket[] = [];
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(async () => {
  for (const raw of sockets) raw.socket.terminate();
  await t?.close();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

async function post(gateway: TestGateway, key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(gateway.gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Answer['body'] };
}

const LIMITS_FIELDS = 'limits { requestsPerSecond burst maxSubscriptions }';
const SET_LIMITS = `mutation ($input: SetApiClientLimitsInput!) { setApiClientLimits(input: $input) { client { id ${LIMITS_FIELDS} } userErrors { field code message } } }`;

async function limitedClient(name: string, limits: { requestsPerSecond?: number | null; burst?: number | null; maxSubscriptions?: number | null }, gateway: TestGateway = t): Promise<{ id: string; key: string }> {
  const created = await post(gateway, gateway.keys.admin, 'mutation ($input: CreateApiClientInput!) { createApiClient(input: $input) { client { id } key } }', { input: { name, roles: ['CASHIER'] } });
  const client = { id: created.body.data.createApiClient.client.id as string, key: created.body.data.createApiClient.key as string };
  const set = await post(gateway, gateway.keys.admin, SET_LIMITS, { input: { clientId: client.id, ...limits } });
  expect(set.body.data.setApiClientLimits.userErrors).toEqual([]);
  return client;
}

const VIEWER = '{ viewer { id } }';

describe('setApiClientLimits', () => {
  it('sets a client\'s limits, shown on the client; a bad value changes nothing; null gives the default back', async () => {
    const client = await limitedClient('limits-shown', { requestsPerSecond: 7, burst: 9, maxSubscriptions: 3 });
    const own = async () => (await post(t, client.key, `{ viewer { ${LIMITS_FIELDS} } }`)).body.data.viewer.limits;
    expect(await own()).toEqual({ requestsPerSecond: 7, burst: 9, maxSubscriptions: 3 });

    const refused = await post(t, t.keys.admin, SET_LIMITS, { input: { clientId: client.id, requestsPerSecond: 0, burst: 2_000_000 } });
    expect(refused.body.data.setApiClientLimits).toMatchObject({
      client: null,
      userErrors: [
        { field: ['requestsPerSecond'], code: 'LIMIT_OUT_OF_RANGE' },
        { field: ['burst'], code: 'LIMIT_OUT_OF_RANGE' },
      ],
    });
    expect(await own()).toEqual({ requestsPerSecond: 7, burst: 9, maxSubscriptions: 3 });

    // A field left out stays; null is the gateway's default (test gateways lift it: test/support/gateway.ts).
    const reset = await post(t, t.keys.admin, SET_LIMITS, { input: { clientId: client.id, burst: null } });
    expect(reset.body.data.setApiClientLimits.client.limits).toEqual({ requestsPerSecond: 7, burst: 1_000_000, maxSubscriptions: 3 });

    const unknown = await post(t, t.keys.admin, SET_LIMITS, { input: { clientId: 'cli_nobody', burst: 5 } });
    expect(unknown.body.data.setApiClientLimits.userErrors).toMatchObject([{ field: ['clientId'], code: 'NOT_FOUND' }]);
    // Admins only.
    const cashier = await post(t, t.keys.webCashier, SET_LIMITS, { input: { clientId: client.id, burst: 5 } });
    expect(cashier.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('a client over its rate', () => {
  it('is answered 429 with Retry-After and RATE_LIMITED, while another client\'s deposits and a provider\'s webhooks go through', async () => {
    const flooder = await limitedClient('flooder', { requestsPerSecond: 2, burst: 5 });
    const deposit = await insertDeposit(t);
    const [flood, deposits, webhook] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => post(t, flooder.key, VIEWER))),
      Promise.all(Array.from({ length: 8 }, () => execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier }))),
      sendWebhook(t, paymentEnvelope(deposit, 'approved')),
    ]);
    const admitted = flood.filter((answer) => answer.status === 200);
    const limited = flood.filter((answer) => answer.status === 429);
    // The burst, and what the rate refilled while the flood was read.
    expect(admitted.length).toBeGreaterThanOrEqual(5);
    expect(admitted.length).toBeLessThan(15);
    expect(admitted.length + limited.length).toBe(40);
    for (const answer of limited) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(answer.body.errors).toMatchObject([{ extensions: { code: 'RATE_LIMITED', retryAfterSeconds: Number(answer.retryAfter) } }]);
      expect(answer.body.errors![0]!.extensions).not.toHaveProperty('http');
      expect(answer.body.data ?? null).toBeNull();
    }
    // The other client and the provider were never limited.
    expect(deposits.map((answer) => [answer.status, answer.errors])).toEqual(deposits.map(() => [200, undefined]));
    expect(deposits.every((answer) => answer.data!.createDeposit.deposit !== null)).toBe(true);
    expect(webhook.body).toMatchObject({ received: true, outcome: 'applied' });
  });

  it('is served again once it waited the Retry-After it was given', async () => {
    const client = await limitedClient('patient', { requestsPerSecond: 1, burst: 1 });
    expect((await post(t, client.key, VIEWER)).status).toBe(200);
    const refused = await post(t, client.key, VIEWER);
    expect(refused.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, Number(refused.retryAfter) * 1000));
    const again = await post(t, client.key, VIEWER);
    expect(again.status).toBe(200);
    expect(again.body.data.viewer.id).toBe(client.id);
  });

  it('over graphql-ws: the operation over the rate is refused with RATE_LIMITED, the socket stays open', async () => {
    const client = await limitedClient('ws-flooder', { requestsPerSecond: 1, burst: 3 });
    const raw = await acknowledgedSocket(t.gateway.wsUrl, client.key);
    sockets.push(raw);
    for (let i = 0; i < 10; i += 1) raw.send({ id: `q${i}`, type: 'subscribe', payload: { query: VIEWER } });
    await expect.poll(() => raw.messages.filter((message) => message.type === 'complete' || message.type === 'error').length).toBe(10);
    const refused = raw.messages.filter((message) => message.type === 'error');
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(refused.every((message) => message.payload[0].extensions.code === 'RATE_LIMITED')).toBe(true);
    expect(raw.messages.filter((message) => message.type === 'next').every((message) => message.payload.data.viewer.id === client.id)).toBe(true);
    expect(raw.socket.readyState).toBe(raw.socket.OPEN);
  });
});

describe('a cashier in a retry loop', () => {
  it('sending createDeposit 16 at a time is held to its rate, while another cashier\'s deposits keep their latency', async () => {
    const looping = await limitedClient('looping-cashier', { requestsPerSecond: 10, burst: 20 });
    const other = async () => {
      const started = performance.now();
      const answer = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.mobileCashier });
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.createDeposit.deposit).not.toBeNull();
      return performance.now() - started;
    };
    const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.99) - 1]!;
    const before: number[] = [];
    for (let i = 0; i < 15; i += 1) before.push(await other());

    // when: 16 loops of createDeposit for two seconds, each retrying at once whatever it is
    // answered, and on until the rate has refused one (a busy machine may answer fewer than the
    // burst and two seconds' worth in two seconds)
    const CREATE = 'mutation ($input: CreateDepositInput!) { createDeposit(input: $input) { deposit { id } userErrors { code } } }';
    const started = performance.now();
    let made = 0;
    let limited = 0;
    let flooding = true;
    const during: number[] = [];
    const loops = Promise.all(
      Array.from({ length: 16 }, async () => {
        while (performance.now() - started < 2_000 || limited === 0) {
          const answer = await post(t, looping.key, CREATE, { input: CARD_INPUT });
          if (answer.status === 429) limited += 1;
          else if (answer.body.data?.createDeposit.deposit) made += 1;
        }
      }),
    ).finally(() => (flooding = false));
    const measuring = (async () => {
      while (flooding) during.push(await other());
    })();
    await Promise.all([loops, measuring]);
    const seconds = (performance.now() - started) / 1000;

    // then: the looping cashier made its burst and its rate's worth, and was told to wait for the rest
    expect(made).toBeLessThanOrEqual(Math.ceil(20 + 10 * seconds) + 1);
    expect(limited).toBeGreaterThan(0);
    // ... and the other cashier was served as before. The flooding loops run in this test's own
    // process, beside the gateway, and on a busy machine they share two cores with everything
    // else: the bound allows that slack (what a flood did unlimited was seconds, then resets).
    expect(during.length).toBeGreaterThan(0);
    expect(p99(during)).toBeLessThanOrEqual(Math.max(10 * p99(before), 3_000));
  });
});

describe('a client at its subscription maximum', () => {
  it('is refused one more with SUBSCRIPTION_LIMIT, over any socket; the others keep running, and completing one frees its place', async () => {
    const client = await limitedClient('two-streams', { maxSubscriptions: 2 });
    const first = await acknowledgedSocket(t.gateway.wsUrl, client.key);
    const second = await acknowledgedSocket(t.gateway.wsUrl, client.key);
    sockets.push(first, second);
    const heartbeat = (id: string) => ({ id, type: 'subscribe', payload: { query: 'subscription { heartbeat(intervalSeconds: 1) { sequence } }' } });
    first.send(heartbeat('a'));
    second.send(heartbeat('b'));
    await first.next((message) => message.id === 'a' && message.type === 'next');
    await second.next((message) => message.id === 'b' && message.type === 'next');
    second.send(heartbeat('c'));
    const refused = await second.next((message) => message.id === 'c');
    expect(refused).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'SUBSCRIPTION_LIMIT' } }] });
    // The two still run.
    const beats = (raw: RawSocket, id: string) => raw.messages.filter((message) => message.id === id && message.type === 'next').length;
    const [a, b] = [beats(first, 'a'), beats(second, 'b')];
    await expect.poll(() => beats(first, 'a') > a && beats(second, 'b') > b).toBe(true);
    // A socket closed gives its subscription back.
    first.socket.close();
    await first.closed;
    await expect
      .poll(async () => {
        const id = `d${Math.random()}`;
        second.send(heartbeat(id));
        const answer = await second.next((message) => message.id === id);
        if (answer.type === 'next') second.send({ id, type: 'complete' });
        return answer.type;
      })
      .toBe('next');
  });
});

// Two instances on one database need one database server: PGlite lives inside one process.
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  let b: TestGateway;
  beforeAll(async () => {
    b = await startTestGateway({ database: t.database });
  });
  afterAll(() => b?.close());

  it('share one client\'s rate: a flood spread over both is held to about one client\'s worth, not two', async () => {
    // Limits set through A hold on B at once (B's cache is told).
    const client = await limitedClient('spread', { requestsPerSecond: 4, burst: 4 });
    expect((await post(b, client.key, `{ viewer { ${LIMITS_FIELDS} } }`)).body.data.viewer.limits).toMatchObject({ requestsPerSecond: 4, burst: 4 });
    const started = performance.now();
    let admitted = 0;
    // Three seconds of requests, alternating between the instances, one every 25 ms.
    for (let i = 0; performance.now() - started < 3_000; i += 1) {
      const answer = await post(i % 2 === 0 ? t : b, client.key, VIEWER);
      if (answer.status === 200) admitted += 1;
      else expect(answer.status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const seconds = (performance.now() - started) / 1000;
    // Alone, each instance would admit its burst and its rate: two instances, twice that.
    const oneClient = 4 + 4 * seconds;
    expect(admitted).toBeGreaterThanOrEqual(Math.floor(oneClient * 0.6));
    expect(admitted).toBeLessThan(2 * oneClient * 0.75);
  });
});
