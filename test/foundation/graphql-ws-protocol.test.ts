// The graphql-transport-ws protocol as graphql-ws clients expect it, spoken by raw sockets: the
// close codes of each protocol fault, ping/pong, queries, refused subscriptions, and a subscription
// that leaves the topic at once when completed or when its socket goes.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.js';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { acknowledgedSocket, rawSocket as rawWs } from '../support/ws.js';

let t: TestGateway;

/**
 * The protocol's timings, shortened so the tests do not wait out graphql-ws's 3 s and 12 s (the
 * defaults, checked below). Long enough that a socket sending its first message at once, or a
 * client answering a ping, is never late.
 */
const WS_TIMINGS = { GRAPHQL_WS_CONNECTION_INIT_TIMEOUT_MS: '1000', GRAPHQL_WS_KEEP_ALIVE_MS: '1200' };

beforeAll(async () => {
  t = await startTestGateway({ env: WS_TIMINGS });
});
afterAll(() => t?.close());

const rawSocket = (protocols?: string[]) => rawWs(t.gateway.wsUrl, protocols);
const acknowledged = (key: string) => acknowledgedSocket(t.gateway.wsUrl, key);

const STREAM = 'subscription ProtocolStream { depositUpdated { id status } }';
const subscribers = () => t.gateway.services.pubsub.subscriberCount(PAYMENT_EVENTS_TOPIC);

describe('graphql-transport-ws protocol', () => {
  it('closes with 4406 a socket that does not speak graphql-transport-ws', async () => {
    const raw = await rawSocket([]);
    expect((await raw.closed).code).toBe(4406);
  });

  it('closes with 4400 on a message that is not one, 4429 on a second connection_init, 4401 on subscribe before the ack', async () => {
    const garbage = await rawSocket();
    garbage.send('{"type":');
    expect(await garbage.closed).toEqual({ code: 4400, reason: 'Invalid message received' });

    const twice = await acknowledged(t.keys.admin);
    twice.send({ type: 'connection_init', payload: { authorization: `Bearer ${t.keys.admin}` } });
    expect((await twice.closed).code).toBe(4429);

    const early = await rawSocket();
    early.send({ id: randomUUID(), type: 'subscribe', payload: { query: STREAM } });
    expect((await early.closed).code).toBe(4401);
  });

  it('closes with 4408 a socket that sends no connection_init within 3 seconds', async () => {
    // 3 s unless configured; this gateway runs with WS_TIMINGS.
    expect(loadConfig({}).graphql.wsConnectionInitTimeoutMs).toBe(3_000);
    const silent = await rawSocket();
    expect((await silent.closed).code).toBe(4408);
  });

  it('answers ping with pong, a query with next then complete, and refuses a second operation with a running id (4409)', async () => {
    const raw = await acknowledged(t.keys.admin);
    raw.send({ type: 'ping', payload: { n: 1 } });
    expect(await raw.next((message) => message.type === 'pong')).toEqual({ type: 'pong', payload: { n: 1 } });

    const id = randomUUID();
    raw.send({ id, type: 'subscribe', payload: { query: 'query ProtocolViewer { viewer { name } }' } });
    await raw.next((message) => message.id === id && message.type === 'complete');
    expect(raw.messages.filter((message) => message.id === id).map((message) => message.type)).toEqual(['next', 'complete']);
    expect(raw.messages.find((message) => message.id === id && message.type === 'next')!.payload).toEqual({ data: { viewer: { name: expect.any(String) } } });

    const stream = randomUUID();
    raw.send({ id: stream, type: 'subscribe', payload: { query: STREAM } });
    await expect.poll(subscribers, { interval: 10 }).toBe(1);
    raw.send({ id: stream, type: 'subscribe', payload: { query: STREAM } });
    expect((await raw.closed).code).toBe(4409);
    // and the closed socket's subscription left the topic
    await expect.poll(subscribers, { interval: 10 }).toBe(0);
  });

  it('refuses an invalid operation with an error message, and a subscription its root field refuses with next (errors) then complete', async () => {
    const raw = await acknowledged(t.keys.admin);
    const invalid = randomUUID();
    raw.send({ id: invalid, type: 'subscribe', payload: { query: 'subscription { depositUpdated { nope } }' } });
    const refused = await raw.next((message) => message.id === invalid);
    expect(refused.type).toBe('error');
    expect((refused.payload as Array<{ extensions: { code: string } }>)[0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');

    const missing = randomUUID();
    raw.send({ id: missing, type: 'subscribe', payload: { query: 'subscription ProtocolOne($id: ID) { depositUpdated(id: $id) { id } }', variables: { id: 'dep_nope' } } });
    await raw.next((message) => message.id === missing && message.type === 'complete');
    const frames = raw.messages.filter((message) => message.id === missing);
    expect(frames.map((message) => message.type)).toEqual(['next', 'complete']);
    expect((frames[0]!.payload as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('NOT_FOUND');
    raw.socket.close();
  });

  it('pings every socket every 12 seconds, and closes one that did not answer the previous ping', { timeout: 60_000 }, async () => {
    // 12 s unless configured; this gateway runs with WS_TIMINGS.
    expect(loadConfig({}).graphql.wsKeepAliveMs).toBe(12_000);
    const open = async (autoPong: boolean) => {
      const socket = new WebSocket(t.gateway.wsUrl, 'graphql-transport-ws', { autoPong });
      const state = { socket, pings: 0, closedAfterPings: -1 };
      socket.on('ping', () => (state.pings += 1));
      socket.on('close', () => (state.closedAfterPings = state.pings));
      await new Promise<void>((resolve) => {
        socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${t.keys.admin}` } })));
        socket.once('message', () => resolve());
      });
      return state;
    };
    const answering = await open(true);
    const deaf = await open(false);
    // the deaf socket is closed at its second keep-alive turn, after one unanswered ping
    await expect.poll(() => deaf.closedAfterPings, { timeout: 30_000, interval: 100 }).toBe(1);
    expect(answering.pings).toBeGreaterThanOrEqual(1);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
  });

  it('takes a completed subscription off the topic at once, and every one of a closed socket', async () => {
    const before = subscribers();
    const raw = await acknowledged(t.keys.admin);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) raw.send({ id, type: 'subscribe', payload: { query: STREAM } });
    await expect.poll(subscribers, { interval: 10 }).toBe(before + 3);

    raw.send({ id: ids[0], type: 'complete' });
    await expect.poll(subscribers, { interval: 10 }).toBe(before + 2);
    // completed by the client: no complete frame back
    expect(raw.messages.filter((message) => message.id === ids[0])).toEqual([]);

    raw.socket.terminate();
    await expect.poll(subscribers, { interval: 10 }).toBe(before);
  });

  it('lets a completed id run again, and refuses with 4409 any running id, not only the first', async () => {
    const before = subscribers();
    const raw = await acknowledged(t.keys.admin);
    const [first, second] = [randomUUID(), randomUUID()];
    raw.send({ id: first, type: 'subscribe', payload: { query: STREAM } });
    raw.send({ id: second, type: 'subscribe', payload: { query: STREAM } });
    await expect.poll(subscribers, { interval: 10 }).toBe(before + 2);

    raw.send({ id: first, type: 'complete' });
    await expect.poll(subscribers, { interval: 10 }).toBe(before + 1);
    raw.send({ id: first, type: 'subscribe', payload: { query: STREAM } });
    await expect.poll(subscribers, { interval: 10 }).toBe(before + 2);

    raw.send({ id: second, type: 'subscribe', payload: { query: STREAM } });
    expect((await raw.closed).code).toBe(4409);
    await expect.poll(subscribers, { interval: 10 }).toBe(before);
  });
});

describe('graphql-ws at shutdown', () => {
  it('closes every open socket with 1001, its subscriptions leave the topic, and a socket that is not yet initialised is closed too', async () => {
    const own = await startTestGateway({ env: WS_TIMINGS });
    let closing: Promise<void> | undefined;
    try {
      const ownSubscribers = () => own.gateway.services.pubsub.subscriberCount(PAYMENT_EVENTS_TOPIC);
      const subscribed = await acknowledgedSocket(own.gateway.wsUrl, own.keys.admin);
      subscribed.send({ id: randomUUID(), type: 'subscribe', payload: { query: STREAM } });
      await expect.poll(ownSubscribers, { interval: 10 }).toBe(1);
      const waiting = await rawWs(own.gateway.wsUrl);

      closing = own.close();
      expect(await subscribed.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
      expect(await waiting.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
      await closing;
      expect(ownSubscribers()).toBe(0);
    } finally {
      await (closing ?? own.close());
    }
  });
});
