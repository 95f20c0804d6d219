// Thai QR payments through the same API as every deposit: create a code the cashier can show
// (its SVG decodes back to the payload), simulate the payer, see SUCCEEDED / DECLINED / EXPIRED
// live; QR webhooks are verified and deduplicated; registrations validate their URL and only
// subscribed events are delivered. Real gateway, database, QR sandbox over HTTP, graphql-ws.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/providers/qr-gateway/signature.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositsQuery, DepositUpdatedSubscription } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { CreateQrCodeMutation, QrWebhookRegistrationsQuery, RegisterQrWebhookMutation, SimulateQrPaymentMutation } from './operations.js';
import { decodeQrSvg } from './svg-decode.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const payer = { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' };
const createQr = (input: Record<string, unknown> = {}) =>
  execute(t.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', payer, ...input } }, { key: t.keys.webCashier });
const simulate = (depositId: string, outcome: 'SUCCEEDED' | 'FAILED') =>
  execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId, outcome } }, { key: t.keys.admin });

async function watch() {
  const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
  const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));
  return { updates, close: () => ws.dispose() };
}

describe('createQrCode', () => {
  it('returns a THAI_QR deposit whose SVG decodes back to its PromptPay payload', async () => {
    const created = await createQr({ merchantReference: 'table-7' });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createQrCode.userErrors).toEqual([]);
    const deposit = created.data!.createQrCode.deposit!;
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'THAI_QR', provider: 'QR_GATEWAY', amount: { amount: '150.00', currency: 'THB' } });
    const { payload, svg, expiresAt } = deposit.qrCode!;
    expect(payload).toMatch(/^000201/); // EMVCo payload format indicator
    expect(payload).toContain('5303764'); // currency 764 = THB
    expect(payload).toContain('5406150.00'); // amount
    expect(decodeQrSvg(svg)).toBe(payload);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(0);
    // The payer's bank account went to the provider and is not kept.
    const stored = await t.gateway.db.fork().execute<{ request: unknown }[]>('select request from deposit where id = ?', [deposit.id]);
    expect(JSON.stringify(stored[0]!.request)).not.toContain(payer.bankAccount);
  });

  it.each([
    ['below the minimum', { amount: '0.50' }, ['amount'], 'AMOUNT_BELOW_MINIMUM'],
    ['above the maximum', { amount: '2000000.01' }, ['amount'], 'AMOUNT_ABOVE_MAXIMUM'],
    ['three decimals', { amount: '10.005' }, ['amount'], 'AMOUNT_TOO_PRECISE'],
    ['zero', { amount: '0' }, ['amount'], 'AMOUNT_NOT_POSITIVE'],
    ['no payer name', { payer: { name: '' } }, ['payer', 'name'], 'FIELD_REQUIRED'],
    ['a short bank account', { payer: { name: 'A', bankAccount: '12345' } }, ['payer', 'bankAccount'], 'FIELD_INVALID'],
    ['an expiry too short', { expiresInSeconds: 10 }, ['expiresInSeconds'], 'EXPIRY_OUT_OF_RANGE'],
  ])('refuses %s before any provider call', async (_label, input, field, code) => {
    const calls = t.gateway.sandboxes.get('qr-gateway')!.controls.requestCount('/v1/qr-codes');
    const created = await createQr(input);
    expect(created.data!.createQrCode.deposit).toBeNull();
    expect(created.data!.createQrCode.userErrors).toContainEqual(expect.objectContaining({ field, code }));
    expect(t.gateway.sandboxes.get('qr-gateway')!.controls.requestCount('/v1/qr-codes')).toBe(calls);
  });

  it('has the same idempotency as createDeposit', async () => {
    const idempotencyKey = `qr-${Date.now()}`;
    const [a, b] = await Promise.all([createQr({ idempotencyKey }), createQr({ idempotencyKey })]);
    expect(a.data!.createQrCode.deposit!.id).toBe(b.data!.createQrCode.deposit!.id);
    const reused = await createQr({ idempotencyKey, amount: '151.00' });
    expect(reused.data!.createQrCode.userErrors).toEqual([expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' })]);
  });
});

describe('payment outcomes, live', () => {
  it.each([
    ['SUCCEEDED', 'SUCCEEDED'],
    ['FAILED', 'DECLINED'],
  ] as const)('a simulated %s payment arrives as %s on depositUpdated', async (outcome, status) => {
    const { updates, close } = await watch();
    const id = (await createQr()).data!.createQrCode.deposit!.id;
    const simulated = await simulate(id, outcome);
    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([]);
    const update = await updates.until((message) => message.id === id && message.status !== 'PENDING');
    await close();
    expect(update.status).toBe(status);
  });

  it('an unpaid code expires', async () => {
    const { updates, close } = await watch();
    // 60 s on the sandbox's clock, which runs 100 times faster in tests.
    const id = (await createQr({ expiresInSeconds: 60 })).data!.createQrCode.deposit!.id;
    const update = await updates.until((message) => message.id === id && message.status !== 'PENDING', 15_000);
    await close();
    expect(update.status).toBe('EXPIRED');
  });

  it('QR deposits are listed beside card deposits, with the same status words', async () => {
    const card = (await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier })).data!.createDeposit.deposit!.id;
    const qr = (await createQr()).data!.createQrCode.deposit!.id;
    await simulate(qr, 'SUCCEEDED');
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: qr }, { key: t.keys.webCashier })).data!.deposit!.status)
      .toBe('SUCCEEDED');
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: card }, { key: t.keys.webCashier })).data!.deposit!.status)
      .toBe('SUCCEEDED');
    const list = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 10 }, { key: t.keys.webCashier });
    const rows = list.data!.deposits.edges.map((edge) => edge.node).filter((node) => node.id === card || node.id === qr);
    expect(rows.map((row) => [row.rail, row.status]).sort()).toEqual([
      ['CARD', 'SUCCEEDED'],
      ['THAI_QR', 'SUCCEEDED'],
    ]);
    const onlyQr = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 50, filter: { rail: 'THAI_QR' } }, { key: t.keys.webCashier });
    expect(onlyQr.data!.deposits.edges.every((edge) => edge.node.rail === 'THAI_QR')).toBe(true);
  });

  it('simulation is for admins only', async () => {
    const id = (await createQr()).data!.createQrCode.deposit!.id;
    const asCashier = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'SUCCEEDED' } }, { key: t.keys.webCashier });
    expect(asCashier.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('QR webhooks', () => {
  const account = () => t.gateway.config.merchantAccounts.find((candidate) => candidate.code === 'qr-test')!;
  const send = async (body: string, header?: string) => {
    const response = await fetch(`${t.gateway.url}/webhooks/qr-gateway/qr-test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header ? { 'x-qr-signature': header } : {}) },
      body,
    });
    return { status: response.status, body: (await response.json()) as { outcome?: string } };
  };
  const delivery = (id: string, reference: string, status = 'succeeded') =>
    JSON.stringify({ event: `payment.${status}`, data: { payment_id: reference, reference: id, status, amount: 15000, currency: 'THB' }, timestamp: new Date().toISOString() });

  it('a forged delivery is refused and changes nothing; a duplicate is acknowledged once', async () => {
    const created = (await createQr()).data!.createQrCode.deposit!;
    const [row] = await t.gateway.db.fork().execute<{ provider_reference: string }[]>('select provider_reference from deposit where id = ?', [created.id]);
    const body = delivery(created.id, row!.provider_reference);
    const now = Math.floor(Date.now() / 1000);

    expect((await send(body, signatureHeader(['not-the-secret-at-all'], body, now))).status).toBe(401);
    expect((await send(body)).status).toBe(401);
    expect((await send(body.replace('15000', '1'), signatureHeader(account().webhookSecrets, body, now))).status).toBe(401);
    expect((await execute(t.gateway.graphqlUrl, DepositQuery, { id: created.id }, { key: t.keys.webCashier })).data!.deposit!.status).toBe('PENDING');

    const header = signatureHeader(account().webhookSecrets, body, now);
    expect(await send(body, header)).toEqual({ status: 200, body: expect.objectContaining({ outcome: 'applied' }) });
    expect(await send(body, header)).toEqual({ status: 200, body: expect.objectContaining({ outcome: 'duplicate' }) });
    const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id: created.id }, { key: t.keys.webCashier });
    expect(read.data!.deposit!.status).toBe('SUCCEEDED');
    expect(read.data!.deposit!.events.filter((event) => event.type === 'deposit.status_changed')).toHaveLength(1);
  });
});

describe('webhook registration', () => {
  let receiver: Server;
  let received: string[];
  let receiverUrl: string;
  beforeAll(async () => {
    received = [];
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST' && body) received.push((JSON.parse(body) as { event: string }).event);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/qr-events`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  const register = (url: string, events: string[]) =>
    execute(t.gateway.graphqlUrl, RegisterQrWebhookMutation, { input: { merchantAccount: 'qr-test', url, events } }, { key: t.keys.admin });

  it('the gateway registered its own URL at start', async () => {
    const list = await execute(t.gateway.graphqlUrl, QrWebhookRegistrationsQuery, {}, { key: t.keys.admin });
    expect(list.data!.qrWebhookRegistrations).toContainEqual(
      expect.objectContaining({ url: `${t.gateway.url}/webhooks/qr-gateway/qr-test`, status: 'active', providerWebhookId: expect.stringMatching(/^wh_/) }),
    );
  });

  it('refuses an http URL and an unreachable one', async () => {
    const http = await register('http://merchant.example/hooks', ['payment.succeeded']);
    expect(http.data!.registerQrWebhook).toMatchObject({ registration: null, userErrors: [{ field: ['url'], code: 'WEBHOOK_URL_INVALID' }] });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await register(`http://127.0.0.1:${port}/gone`, ['payment.succeeded']);
    expect(unreachable.data!.registerQrWebhook.userErrors).toEqual([expect.objectContaining({ field: ['url'], code: 'WEBHOOK_URL_INVALID' })]);
    const badEvent = await register(receiverUrl, ['payment.exploded']);
    expect(badEvent.data!.registerQrWebhook.userErrors).toEqual([expect.objectContaining({ field: ['events'], code: 'INVALID_VALUE' })]);
  });

  it('delivers only subscribed events', async () => {
    const registered = await register(receiverUrl, ['payment.succeeded']);
    expect(registered.data!.registerQrWebhook.registration).toMatchObject({ status: 'active', events: ['payment.succeeded'] });
    const failing = (await createQr()).data!.createQrCode.deposit!.id;
    const paying = (await createQr()).data!.createQrCode.deposit!.id;
    await simulate(failing, 'FAILED');
    await simulate(paying, 'SUCCEEDED');
    await t.gateway.sandboxes.get('qr-gateway')!.controls.idle();
    expect(received).toEqual(['payment.succeeded']);
  });

  it('is for admins only', async () => {
    const asCashier = await execute(t.gateway.graphqlUrl, RegisterQrWebhookMutation, { input: { merchantAccount: 'qr-test', url: receiverUrl, events: ['payment.succeeded'] } }, { key: t.keys.webCashier });
    expect(asCashier.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
