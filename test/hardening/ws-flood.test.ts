// One socket cannot take the gateway from everyone: a socket flooding `subscribe` is closed with
// 4429 while another cashier's socket and HTTP requests keep their latency and the process its
// memory; a socket holds a bounded number of operations (SUBSCRIPTION_LIMIT beyond it, the others
// running on); and a key that failed authentication is answered from memory, not the database.

import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRAPHQL_WS_LIMITS } from '../../src/config.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { ViewerQuery } from '../foundation/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { acknowledgedSocket, rawSocket, type RawSocket } from '../support/ws.js';

let t: TestGateway;
const sockets: RawSocket[] = [];
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(async () => {
  for (const raw of sockets) raw.socket.terminate();
  await t?.close();
});

const STREAM = 'subscription FloodStream { depositUpdated { id status } }';
const randomKey = () => `gw_${randomBytes(32).toString('base64url')}`;

async function acknowledged(key: string): Promise<RawSocket> {
  const raw = await acknowledgedSocket(t.gateway.wsUrl, key);
  sockets.push(raw);
  return raw;
}

/** Log lines written since `from`, above info. */
function loudLines(from: number): Array<{ level: number; msg: string }> {
  return t.logs
    .slice(from)
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level > 30);
}

/** The 99th percentile of `count` sequential runs of `run`, in milliseconds. */
async function p99(count: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]!;
}

/** Statements reading API keys or clients (authentication lookups) issued while `action` runs. */
async function clientLookupsDuring(action: () => Promise<void>): Promise<number> {
  let lookups = 0;
  const unwatch = t.gateway.db.watchQueries((sql) => {
    if (/from\s+"api_(key|client)"/i.test(sql)) lookups += 1;
  });
  try {
    await action();
  } finally {
    unwatch();
  }
  return lookups;
}

describe('a socket flooding subscribe', () => {
  it('is closed with 4429 while other clients keep their latency and the process its memory', async () => {
    const other = await acknowledged(t.keys.mobileCashier);
    let probes = 0;
    const probe = async () => {
      const http = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.mobileCashier });
      expect(http.data?.viewer?.id).toBeTruthy();
      const id = `probe-${(probes += 1)}`;
      other.send({ id, type: 'subscribe', payload: { query: '{ viewer { id } }' } });
      const answer = await other.next((message) => message.id === id && message.type === 'next');
      expect(answer.payload.data.viewer.id).toBeTruthy();
    };
    await p99(10, probe); // warm-up
    const before = await p99(40, probe);

    const rssBefore = process.memoryUsage().rss;
    const logsFrom = t.logs.length;
    const flooder = await acknowledged(t.keys.webCashier);
    for (let i = 0; i < 20_000; i += 1) flooder.send({ id: `flood-${i}`, type: 'subscribe', payload: { query: STREAM } });
    const during = await p99(40, probe);
    const closed = await flooder.closed;
    const rssGrowth = process.memoryUsage().rss - rssBefore;

    expect(closed).toEqual({ code: 4429, reason: 'Too many messages' });
    // Generous for a busy machine, yet a flood that stalls others for seconds fails it.
    expect(during).toBeLessThan(Math.max(before * 10, 1_500));
    expect(rssGrowth).toBeLessThan(200 * 1024 * 1024);
    // The flooder got no more subscriptions than its limit; everything else it sent was not read.
    expect(flooder.messages.filter((message) => message.type === 'next' || message.type === 'error').length).toBeLessThanOrEqual(DEFAULT_GRAPHQL_WS_LIMITS.messageBurst);
    expect(loudLines(logsFrom).filter((line) => line.level >= 50)).toEqual([]);
    expect(loudLines(logsFrom).filter((line) => line.level === 40).map((line) => line.msg)).toEqual(['graphql-ws socket closed: too many messages']);
    // The other socket is still open and served.
    await probe();
  });
});

describe('the operations a socket holds', () => {
  it('are bounded: one more subscribe is refused with SUBSCRIPTION_LIMIT and the others still get their events', async () => {
    const max = DEFAULT_GRAPHQL_WS_LIMITS.maxOperations;
    const raw = await acknowledged(t.keys.webCashier);
    const ids = Array.from({ length: max }, (_, i) => `sub-${i}`);
    for (const id of ids) raw.send({ id, type: 'subscribe', payload: { query: STREAM } });
    raw.send({ id: 'one-more', type: 'subscribe', payload: { query: STREAM } });
    const refused = await raw.next((message) => message.id === 'one-more');
    expect(refused.type).toBe('error');
    expect(refused.payload).toEqual([{ message: `A socket may hold at most ${max} operations at once; complete one first`, extensions: { code: 'SUBSCRIPTION_LIMIT' } }]);

    // Deposits until each subscription has had an event (one made before a subscription was
    // registered is not sent to it): every one of them runs on.
    const deposits: string[] = [];
    await expect
      .poll(
        async () => {
          const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
          deposits.push(created.data!.createDeposit.deposit!.id);
          return ids.filter((id) => !raw.messages.some((message) => message.id === id && message.type === 'next')).length;
        },
        { interval: 200 },
      )
      .toBe(0);
    const last = deposits.at(-1);
    await expect.poll(() => ids.every((id) => raw.messages.some((message) => message.id === id && message.payload?.data?.depositUpdated?.id === last))).toBe(true);

    // Completing one frees its place.
    raw.send({ id: 'sub-0', type: 'complete' });
    raw.send({ id: 'freed', type: 'subscribe', payload: { query: '{ viewer { id } }' } });
    expect((await raw.next((message) => message.id === 'freed')).type).toBe('next');
    expect(raw.socket.readyState).toBe(raw.socket.OPEN);
  });
});

describe('keys that fail authentication', () => {
  it('are answered from memory: repeating one costs no database lookup', async () => {
    const bad = randomKey();
    const logsFrom = t.logs.length;
    const lookups = await clientLookupsDuring(async () => {
      for (let round = 0; round < 10; round += 1) {
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            const response = await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: bad });
            expect(response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
          }),
        );
      }
      for (let i = 0; i < 50; i += 1) {
        const raw = await rawSocket(t.gateway.wsUrl);
        raw.send({ type: 'connection_init', payload: { authorization: `Bearer ${bad}` } });
        expect((await raw.closed).code).toBe(4401);
      }
    });
    // The first request looks the key up (concurrent first ones may each do so); none after.
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBeLessThanOrEqual(100);
    // 1,050 refusals, at most one line at once (the rest are counted in one line a minute later).
    const loud = loudLines(logsFrom);
    expect(loud.length).toBeLessThanOrEqual(1);
    expect(loud.every((line) => line.level === 40 && line.msg === 'authentication failed')).toBe(true);
  });

  it('sent with every subscribe on one socket, random each time, cost at most the socket’s rate in lookups', async () => {
    const raw = await acknowledged(t.keys.webCashier);
    const logsFrom = t.logs.length;
    const sent = 5_000;
    const lookups = await clientLookupsDuring(async () => {
      for (let i = 0; i < sent; i += 1) {
        raw.send({ id: randomUUID(), type: 'subscribe', payload: { query: '{ viewer { id } }', extensions: { headers: { authorization: `Bearer ${randomKey()}` } } } });
      }
      expect(await raw.closed).toEqual({ code: 4429, reason: 'Too many messages' });
    });
    const refused = raw.messages.filter((message) => message.type === 'error');
    expect(refused.length).toBeGreaterThan(0);
    // Refused for the key, or beyond the operations a socket may have under way at once (the
    // refusals for the key may come after the close, and are then not sent).
    expect(refused.every((message) => ['UNAUTHENTICATED', 'SUBSCRIPTION_LIMIT'].includes(message.payload[0].extensions.code as string))).toBe(true);
    // One lookup per message read, and the socket is read only up to its burst (plus its rate while it is read).
    expect(lookups).toBeLessThanOrEqual(DEFAULT_GRAPHQL_WS_LIMITS.messageBurst * 2);
    expect(loudLines(logsFrom).filter((line) => line.level >= 50)).toEqual([]);
    expect(loudLines(logsFrom).length).toBeLessThanOrEqual(3);
  });
});
