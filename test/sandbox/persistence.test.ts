// The sandboxes remember: started on a state directory, stopped and started again on the same port
// and directory, they still know every pending payment and its redirect address, every QR code,
// every webhook registration and every webhook they had not delivered yet, and finish them.

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { signPayload, startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';

const DG_KEY = 'svc_test_persistence_key';
const DG_SECRET = 'whsec_persistence_secret';
const QR_KEY = 'sk_test_persistence_key';

interface Receiver {
  url: string;
  port: number;
  received: Array<{ body: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A webhook receiver answering 200, on `port` (0: any). */
async function startReceiver(port = 0): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST') received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/**
 * One request on a connection of its own (fetch would reuse a pooled connection to the sandbox that
 * was just stopped on the same port, and fail on it).
 */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

let stateDir: string;
const running: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'sandbox-state-'));
});
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
  await rm(stateDir, { recursive: true, force: true });
});

async function startDeposit(webhookUrl: string, port = 0): Promise<DepositGatewaySandbox> {
  const sandbox = await startDepositGatewaySandbox({
    port,
    stateDir,
    timeScale: 0.001,
    autoComplete: false,
    accounts: [{ apiKey: DG_KEY, webhookSecret: DG_SECRET, webhookUrl }],
  });
  running.push(sandbox);
  return sandbox;
}

async function api(sandbox: DepositGatewaySandbox, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const response = await send(`${sandbox.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${DG_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: JSON.parse(response.text) as Record<string, any> };
}

const openBanking = {
  amount: '40.00',
  method: 'sepa',
  bankCountry: 'NL',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  country: 'NL',
  address1: 'Damrak 1',
  city: 'Amsterdam',
  zipCode: '1012LG',
  merchant_reference: 'dep_persisted_order',
  idempotency_key: 'dep_persisted_order',
};

describe('deposit gateway sandbox on a state directory', () => {
  it('a pending payment and its redirect address survive a restart, complete, and fire their webhook', async () => {
    // given: a pending payment
    const receiver = await startReceiver();
    running.push(receiver);
    const first = await startDeposit(receiver.url);
    const port = Number(new URL(first.checkoutUrl).port);
    const created = await api(first, 'POST', '/payments', openBanking);
    expect(created.status).toBe(201);
    const { reference, redirect_url: redirectUrl } = created.body.payment as { reference: string; redirect_url: string };
    expect(redirectUrl.startsWith(first.checkoutUrl)).toBe(true);

    // when: the sandbox stops and starts again on the same port and directory
    await first.close();
    const second = await startDeposit(receiver.url, port);

    // then: the payment and its redirect address still resolve
    expect(second.checkoutUrl).toBe(first.checkoutUrl);
    expect(await api(second, 'GET', `/payments/${reference}`)).toMatchObject({ status: 200, body: { payment: { reference, status: 'redirected', amount: '40.00', merchant_reference: 'dep_persisted_order' } } });
    const page = await send(redirectUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(reference);
    // A retried create under the same idempotency key answers the same payment, not a second one.
    const replay = await api(second, 'POST', '/payments', openBanking);
    expect(replay.body.payment).toMatchObject({ reference, redirect_url: redirectUrl });
    expect(second.controls.records().payments).toHaveLength(1);

    // when: the payer completes it on the redirect page
    const paid = await send(`${redirectUrl}/pay`, { method: 'POST' });
    expect(paid.status).toBe(303);
    await second.controls.idle();

    // then: its signed webhook went out
    const approved = receiver.received.map((delivery) => ({ ...delivery, envelope: JSON.parse(delivery.body) })).find((delivery) => delivery.envelope.event === 'payment.approved');
    expect(approved?.envelope.data).toMatchObject({ reference, merchant_reference: 'dep_persisted_order', status: 'approved', amount: '40.00' });
    const t = Number(/t=(\d+)/.exec(String(approved!.headers['x-service-signature']))![1]);
    expect(approved!.headers['x-service-signature']).toBe(signPayload(DG_SECRET, t, approved!.body));
  });

  it('a webhook the receiver never acknowledged is delivered after the restart', async () => {
    // given: the receiver is down while a payment is approved, so its webhook waits for a retry
    const down = await startReceiver();
    const receiverPort = down.port;
    await down.close();
    const first = await startDeposit(`http://127.0.0.1:${receiverPort}/hook`);
    const port = Number(new URL(first.checkoutUrl).port);
    const { reference } = (await api(first, 'POST', '/payments', { ...openBanking, idempotency_key: 'dep_retry_order', merchant_reference: 'dep_retry_order' })).body.payment as { reference: string };
    first.controls.complete(reference, 'approved');
    await expect.poll(() => first.controls.deliveries().filter((delivery) => delivery.statusCode === null).length).toBeGreaterThan(0);

    // when: the sandbox restarts, and the receiver is back
    await first.close();
    const receiver = await startReceiver(receiverPort);
    running.push(receiver);
    const second = await startDeposit(receiver.url, port);
    await second.controls.idle();

    // then: the approval was delivered, once the sandbox was back
    const events = receiver.received.map((delivery) => JSON.parse(delivery.body) as { event: string; data: { reference: string } });
    expect(events.filter((event) => event.data.reference === reference).map((event) => event.event)).toEqual(expect.arrayContaining(['payment.approved']));
    expect(second.controls.payment(reference)).toMatchObject({ status: 'approved' });
  });

  it('an open LATAM link keeps its expiry across a restart and expires then, with its webhook', async () => {
    // given: an open Peru link (30 minutes, 1.8 s on this sandbox's clock)
    const receiver = await startReceiver();
    running.push(receiver);
    const first = await startDeposit(receiver.url);
    const port = Number(new URL(first.checkoutUrl).port);
    const created = await api(first, 'POST', '/payments', { country: 'PERU', method: 'bank', amount: '50.00', email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', documentType: 'DNI', documentNumber: '12345678' });
    expect(created.status).toBe(201);
    const reference = created.body.reference as string;
    const expiresAt = first.controls.payment(reference)!.link_expires_at;

    // when: the sandbox restarts before the link's time is up
    await first.close();
    const second = await startDeposit(receiver.url, port);

    // then: the link keeps its expiry, and expires on time with payment.expired
    expect(second.controls.payment(reference)).toMatchObject({ status: expect.stringMatching(/^(redirected|expired)$/), link_expires_at: expiresAt });
    await expect.poll(() => second.controls.payment(reference)!.status, { timeout: 30_000, interval: 20, message: 'the restored link never expired' }).toBe('expired');
    await second.controls.idle();
    const events = receiver.received.map((delivery) => JSON.parse(delivery.body) as { event: string; data: { reference: string } });
    expect(events.filter((event) => event.data.reference === reference).map((event) => event.event)).toEqual(['payment.expired']);
  });

  it('keeps its state in one JSON file replaced atomically, and sets an unreadable one aside', async () => {
    const receiver = await startReceiver();
    running.push(receiver);
    const first = await startDeposit(receiver.url);
    await api(first, 'POST', '/payments', openBanking);
    expect(await readdir(stateDir)).toEqual(['deposit-gateway.json']);
    const saved = JSON.parse(await readFile(path.join(stateDir, 'deposit-gateway.json'), 'utf8')) as { version: number; state: { store: { payments: unknown[] } } };
    expect(saved.version).toBe(2);
    expect(saved.state.store.payments).toHaveLength(1);
    await first.close();

    await writeFile(path.join(stateDir, 'deposit-gateway.json'), '{"version":1,"state":{"store":');
    const second = await startDeposit(receiver.url);
    expect(second.controls.records().payments).toEqual([]);
    expect((await readdir(stateDir)).some((name) => name.startsWith('deposit-gateway.json.unreadable-'))).toBe(true);
  });
});

describe('QR gateway sandbox on a state directory', () => {
  async function startQr(port = 0, timeScale = 0.01): Promise<QrGatewaySandbox> {
    const sandbox = await startQrGatewaySandbox({ port, stateDir, accounts: [{ apiKey: QR_KEY }], amountUnit: 'satang', timeScale });
    running.push(sandbox);
    return sandbox;
  }

  async function qr(sandbox: QrGatewaySandbox, method: string, route: string, body?: unknown) {
    const response = await send(`${sandbox.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${QR_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: JSON.parse(response.text) as Record<string, any> };
  }

  it('a pending QR payment and the webhook registration survive a restart; paying it fires the webhook', async () => {
    // given: a registration and a pending QR code
    const receiver = await startReceiver();
    running.push(receiver);
    const first = await startQr();
    const port = Number(new URL(first.baseUrl).port);
    const registered = await qr(first, 'POST', '/Thai/v1/webhooks', { url: receiver.url, events: ['payment.succeeded'], secret: 'whsec_qr_persistence_1234' });
    expect(registered.status).toBe(200);
    const created = await qr(first, 'POST', '/v1/qr-codes', { amount: 15000, currency: 'THB', reference: 'dep_qr_persisted', client_name: 'Somchai Jaidee' });
    expect(created.body.status).toBe('pending');
    const id = created.body.id as string;

    // when
    await first.close();
    const second = await startQr(port);

    // then: the code resolves, the registration is there, and paying it fires the registered webhook
    expect(await qr(second, 'GET', `/v1/qr-codes/${id}`)).toMatchObject({ status: 200, body: { id, status: 'pending', amount: 15000, reference: 'dep_qr_persisted', qr_payload: created.body.qr_payload } });
    expect(second.controls.webhooks().map((registration) => registration.webhookId)).toEqual([registered.body.webhook_id]);
    expect((await qr(second, 'POST', `/v1/qr-codes/${id}/simulate`, { outcome: 'succeeded' })).status).toBe(200);
    await second.controls.idle();
    const events = receiver.received.map((delivery) => JSON.parse(delivery.body) as { event: string; data: { payment_id: string; status: string } });
    expect(events).toEqual([expect.objectContaining({ event: 'payment.succeeded', data: expect.objectContaining({ payment_id: id, status: 'succeeded' }) })]);
  });

  it('a withdrawal stopped between its steps sends its later events after a restart', async () => {
    // given: a dashboard withdrawal whose `pending` event was delivered, its next two still due
    const receiver = await startReceiver();
    running.push(receiver);
    const first = await startQr(0, 0.5);
    const port = Number(new URL(first.baseUrl).port);
    const events = ['withdrawal.pending', 'withdrawal.processed', 'withdrawal.succeeded'];
    expect((await qr(first, 'POST', '/Thai/v1/webhooks', { url: receiver.url, events, secret: 'whsec_qr_persistence_1234' })).status).toBe(200);
    const withdrawalId = first.controls.withdraw(QR_KEY, 250_000n, 'succeeded');
    await expect.poll(() => receiver.received.length).toBe(1);

    // when: the sandbox stops before the next step (due 1 s later at this time scale) and starts again
    await first.close();
    expect(receiver.received).toHaveLength(1);
    const second = await startQr(port, 0.5);
    await expect.poll(() => receiver.received.length).toBe(3);
    await second.controls.idle();

    // then: each step arrived once, in order, for that withdrawal
    const received = receiver.received.map((delivery) => JSON.parse(delivery.body) as { event: string; data: { withdrawal_id: string; status: string } });
    expect(received.map((delivery) => delivery.event)).toEqual(events);
    expect(new Set(received.map((delivery) => delivery.data.withdrawal_id))).toEqual(new Set([withdrawalId]));
  });
});

describe('configuration', () => {
  it('fixed sandbox ports and a state directory under DATA_DIR by default; ephemeral and memory-only in tests', () => {
    const development = loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/gw-data' });
    const ports = (config: ReturnType<typeof loadConfig>) => Object.fromEntries(Object.entries(config.sandbox.ports).map(([provider, { port }]) => [provider, port]));
    expect(development.sandbox.stateDir).toBe(path.resolve('/tmp/gw-data/sandboxes'));
    expect(ports(development)).toEqual({ 'deposit-gateway': 4001, 'qr-gateway': 4002 });
    expect(ports(loadConfig({ NODE_ENV: 'development', DEPOSIT_GATEWAY_SANDBOX_PORT: '5101', QR_GATEWAY_SANDBOX_PORT: '5102' }))).toEqual({ 'deposit-gateway': 5101, 'qr-gateway': 5102 });
    // The names the ports had before, still read.
    expect(ports(loadConfig({ NODE_ENV: 'development', DEPOSIT_SANDBOX_PORT: '5101', QR_SANDBOX_PORT: '5102' }))).toEqual({ 'deposit-gateway': 5101, 'qr-gateway': 5102 });
    expect(ports(loadConfig({ NODE_ENV: 'test' }))).toEqual({ 'deposit-gateway': 0, 'qr-gateway': 0 });
    expect(loadConfig({ NODE_ENV: 'test' }).sandbox.stateDir).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX_PERSIST: 'true', DATA_DIR: '/tmp/gw-data' }).sandbox.stateDir).toBe(path.resolve('/tmp/gw-data/sandboxes'));
    expect(() => loadConfig({ NODE_ENV: 'development', QR_SANDBOX_PORT: '4001' })).toThrow(/QR_SANDBOX_PORT: 4001 is DEPOSIT_GATEWAY_SANDBOX_PORT too/);
    expect(() => loadConfig({ NODE_ENV: 'development', DEPOSIT_SANDBOX_PORT: 'x' })).toThrow(/DEPOSIT_SANDBOX_PORT: must be a port number/);
  });
});
