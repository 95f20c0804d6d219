// Deposit gateway sandbox webhooks and fault injection over real HTTP: signatures verified
// independently, retries with backoff, the 24-hour window, and the duplicate / out-of-order / drop /
// delay / failNext switches.

import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDepositGatewaySandbox, type DepositGatewaySandbox, type DepositGatewaySandboxOptions } from '../../src/sandbox/deposit-gateway/index.js';

type Json = Record<string, any>;

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Json;
  at: number;
}

type Responder = (received: Received, index: number) => number | 'hang';

interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startReceiver(respond: Responder = () => 200): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received: Received = { headers: request.headers, raw, body: JSON.parse(raw) as Json, at: Date.now() };
      receiver.received.push(received);
      const answer = receiver.respond(received, receiver.received.length - 1);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/deposit-gateway/main`;
  cleanups.push(() => receiver.close());
  return receiver;
}

const KEY = 'svc_test_webhooks';
const SECRET = 'whsec_test_secret_value';

async function startSandbox(webhookUrl: string | undefined, options: Partial<DepositGatewaySandboxOptions> = {}): Promise<DepositGatewaySandbox> {
  const sandbox = await startDepositGatewaySandbox({ accounts: [{ apiKey: KEY, webhookSecret: SECRET, webhookUrl }], timeScale: 0.001, ...options });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

const card = { method: 'cards', amount: '10.00', email: 'p@example.com', firstName: 'Ada', lastName: 'L', country: 'DE', address1: 'a', city: 'b', zipCode: 'c' };

async function createPayment(sandbox: DepositGatewaySandbox, body: Json = card, key = KEY, signal?: AbortSignal): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${sandbox.baseUrl}/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Independent check of the spec's scheme: HMAC-SHA256 over `<t>.<raw body>`, hex, constant-time compare. */
function verify(received: Received, secret: string): boolean {
  const header = String(received.headers['x-service-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${received.raw}`).digest();
  const given = Buffer.from(match[2] ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

function eventsFor(receiver: Receiver, reference: string): string[] {
  return receiver.received.filter((item) => item.body.data?.reference === reference).map((item) => item.body.event as string);
}

describe('webhook delivery', () => {
  it('posts signed JSON envelopes in order', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(receiver.url);
    const reference = (await createPayment(sandbox, { ...card, merchant_reference: 'order-42' })).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(receiver.received).toHaveLength(2);
    for (const item of receiver.received) {
      expect(item.headers['content-type']).toBe('application/json');
      expect(verify(item, SECRET)).toBe(true);
      expect(verify(item, 'wrong-secret')).toBe(false);
    }
    expect(receiver.received.map((item) => item.body)).toEqual([
      { id: expect.stringMatching(/^evt_/), event: 'payment.pending', livemode: false, created_at: expect.any(String), data: { reference, merchant_reference: 'order-42', status: 'pending', amount: '10.00', currency: 'EUR' } },
      { id: expect.stringMatching(/^evt_/), event: 'payment.approved', livemode: false, created_at: expect.any(String), data: { reference, merchant_reference: 'order-42', status: 'approved', amount: '10.00', currency: 'EUR' } },
    ]);
    expect(new Date(receiver.received[0]?.body.created_at).toISOString()).toBe(receiver.received[0]?.body.created_at);
    expect(sandbox.controls.deliveries().map((item) => [item.event, item.attempt, item.statusCode])).toEqual([
      ['payment.pending', 1, 200],
      ['payment.approved', 1, 200],
    ]);
  });

  it('retries a 500 with growing backoff, re-signing every attempt', async () => {
    const seen = new Map<string, number>();
    const receiver = await startReceiver((item) => {
      const count = (seen.get(item.body.id) ?? 0) + 1;
      seen.set(item.body.id, count);
      return count <= 3 ? 500 : 200;
    });
    // 10 s, 20 s, 40 s of backoff become 50, 100, 200 ms.
    const sandbox = await startSandbox(receiver.url, { timeScale: 0.005 });
    sandbox.controls.setAutoComplete(false);
    const reference = (await createPayment(sandbox)).body.payment.reference as string;
    sandbox.controls.complete(reference, 'declined');
    await sandbox.controls.idle();
    const pending = receiver.received.filter((item) => item.body.event === 'payment.pending');
    expect(pending.map((item) => item.body.id)).toEqual(Array(4).fill(pending[0]?.body.id));
    expect(pending.every((item) => verify(item, SECRET))).toBe(true);
    const attempts = sandbox.controls.deliveries().filter((item) => item.event === 'payment.pending');
    expect(attempts.map((item) => [item.attempt, item.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 200],
    ]);
    const gaps = pending.slice(1).map((item, index) => item.at - (pending[index]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(40);
    expect(gaps[2]).toBeGreaterThanOrEqual(180);
    expect(gaps[2]).toBeGreaterThan(gaps[0] ?? 0);
    const declined = sandbox.controls.deliveries().filter((item) => item.event === 'payment.declined');
    expect(declined.map((item) => item.statusCode)).toEqual([500, 500, 500, 200]);
    expect(eventsFor(receiver, reference)).toHaveLength(8);
  });

  it('retries a receiver that does not answer in time, and one that is unreachable', async () => {
    const receiver = await startReceiver((_item, index) => (index === 0 ? 'hang' : 200));
    const sandbox = await startSandbox('http://127.0.0.1:9/unreachable');
    await createPayment(sandbox, { ...card, amount: '10.13' });
    await expect.poll(() => sandbox.controls.deliveries().some((item) => item.statusCode === null && item.error !== null && !item.dropped), { interval: 5 }).toBe(true);
    sandbox.controls.setAccount(KEY, { webhookUrl: receiver.url });
    await sandbox.controls.idle();
    const events = receiver.received.map((item) => item.body.event);
    expect(events).toContain('payment.pending');
    expect(events).toContain('payment.declined');
    // The one request the receiver held is recorded as unanswered, and was retried (both events arrived)
    const timedOut = sandbox.controls.deliveries().filter((item) => item.url === receiver.url && item.statusCode === null);
    expect(timedOut).toMatchObject([{ statusCode: null, error: 'no answer within 10 s', dropped: false, gaveUp: false }]);
  });

  it('gives up after 24 simulated hours', async () => {
    const receiver = await startReceiver(() => 503);
    const sandbox = await startSandbox(receiver.url, { timeScale: 0.00001 });
    sandbox.controls.setAutoComplete(false);
    const reference = (await createPayment(sandbox)).body.payment.reference as string;
    sandbox.controls.complete(reference, 'approved');
    await sandbox.controls.idle();
    const attempts = sandbox.controls.deliveries().filter((item) => item.event === 'payment.approved');
    expect(attempts.length).toBeGreaterThan(20);
    expect(attempts.length).toBeLessThan(40);
    expect(attempts.at(-1)?.gaveUp).toBe(true);
    expect(attempts.filter((item) => item.gaveUp)).toHaveLength(1);
  });

  it('close() stops pending retries', async () => {
    // The first retry comes 500 ms after the failed attempt on this clock: room enough for the
    // close to come first however busy the machine, so the count below is what arrived before it.
    const timeScale = 0.05;
    const receiver = await startReceiver(() => 500);
    const sandbox = await startSandbox(receiver.url, { timeScale });
    await createPayment(sandbox);
    // A first attempt failed: its retry is scheduled.
    await expect.poll(() => sandbox.controls.deliveries().some((item) => item.statusCode === 500), { interval: 5 }).toBe(true);
    await sandbox.close();

    // A witness on the same clock, whose first attempts fail after the close: its retries come one
    // first backoff later, as the closed sandbox's would have, but were scheduled after them (timers
    // of one duration fire in the order they were set). Once the witness's retries have landed, a
    // retry the close failed to cancel would have been sent before them.
    const witnessReceiver = await startReceiver(() => 500);
    const witness = await startSandbox(witnessReceiver.url, { timeScale });
    await createPayment(witness);
    const witnessRetries = () => witness.controls.deliveries().filter((item) => item.attempt === 2).map((item) => item.event);
    await expect.poll(() => witnessRetries().sort(), { interval: 5 }).toEqual(['payment.approved', 'payment.pending']);

    // An attempt already written when the close came may still land; a retry would repeat an event
    // the receiver has: no event arrives twice.
    const ids = receiver.received.map((delivery) => String(delivery.body.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('webhook switches', () => {
  it('duplicate delivers every event twice with the same id', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(receiver.url);
    sandbox.controls.webhooks({ duplicate: true });
    const reference = (await createPayment(sandbox)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, reference)).toEqual(['payment.pending', 'payment.pending', 'payment.approved', 'payment.approved']);
    expect(receiver.received[0]?.body.id).toBe(receiver.received[1]?.body.id);
    expect(receiver.received.every((item) => verify(item, SECRET))).toBe(true);
  });

  it('outOfOrder releases a payment’s events newest first', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(receiver.url);
    sandbox.controls.webhooks({ outOfOrder: true });
    const reference = (await createPayment(sandbox)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, reference)).toEqual(['payment.approved', 'payment.pending']);
  });

  it('dropNext loses webhooks but not the state change', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(receiver.url);
    sandbox.controls.webhooks({ dropNext: 2 });
    const dropped = (await createPayment(sandbox)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, dropped)).toEqual([]);
    const lookup = await fetch(`${sandbox.baseUrl}/payments/${dropped}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await lookup.json()) as Json).payment.status).toBe('approved');
    expect(sandbox.controls.deliveries().filter((item) => item.dropped).map((item) => item.event)).toEqual(['payment.pending', 'payment.approved']);
    const next = (await createPayment(sandbox)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, next)).toEqual(['payment.pending', 'payment.approved']);
  });

  it('delayNextMs holds only the next webhook', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(receiver.url);
    sandbox.controls.webhooks({ delayNextMs: 300 });
    const started = Date.now();
    const reference = (await createPayment(sandbox)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, reference)).toEqual(['payment.approved', 'payment.pending']);
    const pending = receiver.received.find((item) => item.body.event === 'payment.pending');
    expect((pending?.at ?? 0) - started).toBeGreaterThanOrEqual(290);
  });

  it('switches can apply to one account only', async () => {
    const receiver = await startReceiver();
    const other = 'svc_test_quiet';
    const sandbox = await startSandbox(receiver.url);
    sandbox.controls.addAccount({ apiKey: other, webhookSecret: 'other-secret', webhookUrl: receiver.url });
    sandbox.controls.webhooks({ duplicate: true, apiKey: KEY });
    const loud = (await createPayment(sandbox)).body.payment.reference as string;
    const quiet = (await createPayment(sandbox, card, other)).body.payment.reference as string;
    await sandbox.controls.idle();
    expect(eventsFor(receiver, loud)).toHaveLength(4);
    expect(eventsFor(receiver, quiet)).toHaveLength(2);
    expect(receiver.received.filter((item) => item.body.data.reference === quiet).every((item) => verify(item, 'other-secret'))).toBe(true);
  });
});

describe('failNext', () => {
  it.each([500, 503, 429])('answers %s for the next request, then recovers', async (status) => {
    const sandbox = await startSandbox(undefined);
    sandbox.controls.failNext({ status, count: 2 });
    const first = await createPayment(sandbox);
    const second = await createPayment(sandbox);
    const third = await createPayment(sandbox);
    expect([first.status, second.status, third.status]).toEqual([status, status, 201]);
    expect(first.body.ok).toBe(false);
    expect(typeof first.body.error).toBe('string');
    expect(sandbox.controls.requestCount('/payments')).toBe(3);
    await sandbox.controls.idle();
    expect(sandbox.controls.events()).toHaveLength(2);
  });

  it('hangs past a client timeout without creating anything', async () => {
    const sandbox = await startSandbox(undefined);
    sandbox.controls.failNext({ hangMs: 400 });
    // The hold is a timer of the sandbox's: faked, so the test ends it instead of waiting it out.
    // The request goes by node:http, whose own timers are not the global ones faked here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const request = http.request(`${sandbox.baseUrl}/payments`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, () => {
        answered = true;
      });
      const failed = new Promise<Error>((resolve) => request.on('error', resolve));
      request.end(JSON.stringify(card));
      // Once the sandbox has read the request and holds it, the client gives up, as on a time-out.
      await expect.poll(() => sandbox.controls.requestBodies('/payments'), { interval: 5 }).toEqual([JSON.stringify(card)]);
      request.destroy(new Error('client time-out'));
      expect(await failed).toBeInstanceOf(Error);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(400);
    } finally {
      vi.useRealTimers();
    }
    await sandbox.controls.idle();
    expect(sandbox.controls.records().payments).toEqual([]);
    expect(sandbox.controls.events()).toHaveLength(0);
    expect(sandbox.controls.requestCount('/payments')).toBe(1);
  });

  it('hangs then answers a status, or hangs then processes', async () => {
    const sandbox = await startSandbox(undefined);
    sandbox.controls.failNext({ hangMs: 150, status: 503 });
    const started = Date.now();
    expect((await createPayment(sandbox)).status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    sandbox.controls.failNext({ hangMs: 150, thenProcess: true });
    const slow = await createPayment(sandbox, { ...card, idempotency_key: 'slow-1' });
    expect(slow.status).toBe(201);
    const retry = await createPayment(sandbox, { ...card, idempotency_key: 'slow-1' });
    expect(retry.body).toEqual(slow.body);
  });

  it('can target one API key', async () => {
    const sandbox = await startSandbox(undefined);
    sandbox.controls.addAccount({ apiKey: 'svc_test_calm', webhookSecret: 'x' });
    sandbox.controls.failNext({ status: 500, apiKey: KEY });
    expect((await createPayment(sandbox, card, 'svc_test_calm')).status).toBe(201);
    expect((await createPayment(sandbox)).status).toBe(500);
    expect((await createPayment(sandbox)).status).toBe(201);
  });
});
