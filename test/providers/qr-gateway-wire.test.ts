// The QR spec leaves several wire names unstated (Q1 response fields, Q3 the lifetime field, Q4 the
// signature header, Q15 the lookup path); each is one setting of the QR provider
// (`QR_GATEWAY_WIRE_*`, defaults `QR_WIRE` in src/providers/qr-gateway/assumptions.ts). Here every
// alternative runs end to end: the sandbox speaks it, the adapter is given the same, and a code is
// created with a requested lifetime, looked up, paid, and its signed delivery verified. Where the
// default names cannot read the alternative, the test shows that too, so a switch that did nothing
// would fail here. The settings reach the adapter and the sandbox through the provider's definition
// as a gateway makes them. And a create sends nothing the spec does not name unless it was asked for;
// every request, GETs included, carries the bearer key and `Content-Type: application/json` (spec:
// Authentication 1).

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderTransport } from '../../src/kernel/provider-transport.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { Money } from '../../src/lib/money.js';
import { providerRegistry } from '../../src/providers/index.js';
import type { CreateDepositRequest, MerchantAccount } from '../../src/providers/provider.js';
import { QR_WIRE, type QrWire } from '../../src/providers/qr-gateway/assumptions.js';
import type { ProviderSandboxes } from '../../src/providers/registry.js';
import { createQrGatewayAdapter } from '../../src/providers/qr-gateway/index.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';

const KEY = 'sk_test_wire_suite';

interface Received {
  method: string;
  url: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A loopback HTTP server keeping every request; `answer` writes each response. */
async function startServer(answer: (body: Buffer, response: import('node:http').ServerResponse) => void = (_body, response) => void response.writeHead(200).end()) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', body: Buffer.concat(chunks), headers: request.headers });
      answer(Buffer.concat(chunks), response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let sequence = 0;
function request(expiresInSeconds?: number): CreateDepositRequest {
  sequence++;
  return {
    depositId: `dep_WIRE${Date.now()}${sequence}`,
    amount: Money.fromDecimal('120.00', 'THB'),
    details: { rail: 'THAI_QR', payer: { name: 'Somchai Jaidee' }, clientId: 'cli_1', ...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}) },
    customer: {},
  };
}

const account = (baseUrl: string, secrets: string[] = []): MerchantAccount => ({ code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true, baseUrl, apiKey: KEY, webhookSecrets: secrets });

/** What the default names make of a provider speaking the alternative; undefined where they still read it. */
type DefaultsSee = 'outcome unknown' | 'default lifetime' | 'signature missing' | 'lookup fails' | undefined;

const ALTERNATIVES: Array<{ name: string; wire: Partial<QrWire>; defaultsSee: DefaultsSee }> = [
  // The spec's own payment_id is read first whatever the switch says.
  { name: 'the code id as payment_id (Q1)', wire: { codeIdField: 'payment_id' }, defaultsSee: undefined },
  { name: 'the payload as qr_code (Q1)', wire: { payloadField: 'qr_code' }, defaultsSee: 'outcome unknown' },
  // With no expiry moment it reads, the adapter takes the requested lifetime from the request time.
  { name: 'the expiry moment as expiry_time (Q1)', wire: { expiresAtField: 'expiry_time' }, defaultsSee: undefined },
  { name: 'the lifetime as expiry (Q3)', wire: { expiryField: 'expiry' }, defaultsSee: 'default lifetime' },
  { name: 'the signature in X-Signature (Q4)', wire: { signatureHeader: 'x-signature' }, defaultsSee: 'signature missing' },
  { name: 'the lookup at /v1/payments/{id} (Q15)', wire: { lookupPath: '/v1/payments/{id}' }, defaultsSee: 'lookup fails' },
];

describe.each(ALTERNATIVES)('a QR provider with $name', ({ wire, defaultsSee }) => {
  let sandbox: QrGatewaySandbox;
  let receiver: Awaited<ReturnType<typeof startServer>>;
  const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 0 }), wire });
  const defaults = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 0 }) });
  let secrets: string[];

  beforeAll(async () => {
    sandbox = await startQrGatewaySandbox({ accounts: [{ apiKey: KEY }], amountUnit: 'satang', wire });
    receiver = await startServer();
    const registration = await adapter.registerWebhook(account(sandbox.baseUrl), { url: receiver.url, events: ['payment.succeeded'] });
    if (!registration.ok) throw new Error(registration.error.message);
    secrets = [registration.value.secret];
  });
  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
  });

  it('works end to end when the adapter is switched the same way', async () => {
    const before = Date.now();
    const created = await adapter.createDeposit(account(sandbox.baseUrl), request(600));
    if (!created.ok) throw new Error(created.error.message);
    const { reference, qrCode } = created.value;
    expect(qrCode?.payload).toMatch(/^000201/);
    // The requested lifetime reached the provider: 600 s, not its 900 s default.
    expect(sandbox.controls.code(reference)!.expiresAt.getTime() - before).toBeLessThan(601_000);
    expect(Math.abs(qrCode!.expiresAt.getTime() - (before + 600_000))).toBeLessThan(5_000);

    const found = await adapter.getDeposit(account(sandbox.baseUrl), reference);
    expect(found).toMatchObject({ ok: true, value: { reference, status: 'PENDING' } });

    sandbox.controls.simulate(reference, 'succeeded');
    await sandbox.controls.idle();
    const delivery = receiver.received.at(-1)!;
    const verified = adapter.verifyWebhook(account(sandbox.baseUrl, secrets), { body: delivery.body, headers: delivery.headers as Record<string, string> });
    expect(verified).toMatchObject({ ok: true, event: { subject: { kind: 'deposit', reference, status: 'SUCCEEDED' } } });
  });

  it.runIf(defaultsSee !== undefined)('is misread by the default names, so the switch is what makes it work', async () => {
    const before = Date.now();
    const created = await defaults.createDeposit(account(sandbox.baseUrl), request(600));
    if (defaultsSee === 'outcome unknown') {
      expect(created).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true } });
      return;
    }
    if (!created.ok) throw new Error(created.error.message);
    const { reference } = created.value;
    if (defaultsSee === 'default lifetime') {
      expect(sandbox.controls.code(reference)!.expiresAt.getTime() - before).toBeGreaterThan(899_000);
    } else if (defaultsSee === 'lookup fails') {
      expect((await defaults.getDeposit(account(sandbox.baseUrl), reference)).ok).toBe(false);
    } else {
      sandbox.controls.simulate(reference, 'succeeded');
      await sandbox.controls.idle();
      const delivery = receiver.received.at(-1)!;
      expect(defaults.verifyWebhook(account(sandbox.baseUrl, secrets), { body: delivery.body, headers: delivery.headers as Record<string, string> })).toEqual({ ok: false, reason: 'SIGNATURE_MISSING' });
    }
  });
});

describe('a QR code create (Q3)', () => {
  it('sends no lifetime unless one was asked for, and takes the spec default of 15 minutes when the answer names no expiry', async () => {
    // A provider that answers with its code object but no expiry moment.
    const provider = await startServer((_body, response) => {
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ payment_id: 'pay_1', status: 'pending', qr_payload: '00020101021229370016A000000677010111', amount: 12000, currency: 'THB' }));
    });
    try {
      const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 0 }) });
      const before = Date.now();
      const plain = await adapter.createDeposit(account(provider.url), request());
      const asked = await adapter.createDeposit(account(provider.url), request(300));

      const [first, second] = provider.received.map((one) => JSON.parse(one.body.toString('utf8')) as Record<string, unknown>);
      expect(Object.keys(first!).sort()).toEqual(['amount', 'client_name', 'currency', 'metadata', 'reference']);
      expect(second).toMatchObject({ expires_in: 300 });
      expect(plain).toMatchObject({ ok: true, value: { reference: 'pay_1', status: 'PENDING' } });
      if (!plain.ok || !asked.ok) return;
      expect(Math.abs(plain.value.qrCode!.expiresAt.getTime() - (before + 900_000))).toBeLessThan(5_000);
      expect(Math.abs(asked.value.qrCode!.expiresAt.getTime() - (before + 300_000))).toBeLessThan(5_000);
    } finally {
      await provider.close();
    }
  });
});

describe('every QR request (spec: Authentication 1)', () => {
  it('carries Authorization: Bearer <key> and Content-Type: application/json, GETs included', async () => {
    // A provider that answers every request with a pending code object.
    const provider = await startServer((_body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ payment_id: 'pay_1', webhook_id: 'wh_1', status: 'pending', qr_payload: '00020101021229370016A000000677010111', amount: 12000, currency: 'THB' }));
    });
    try {
      const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 0 }) });
      const acct = account(provider.url);
      await adapter.createDeposit(acct, request());
      await adapter.getDeposit(acct, 'pay_1');
      await adapter.ping(acct);
      await adapter.registerWebhook(acct, { url: 'https://gateway.example/webhooks/qr', events: ['payment.succeeded'] });
      await adapter.simulatePayment(acct, 'pay_1', 'SUCCEEDED');

      expect(provider.received.map((one) => one.method)).toEqual(['POST', 'GET', 'GET', 'POST', 'POST']);
      for (const one of provider.received) {
        expect({ call: `${one.method} ${one.url}`, authorization: one.headers.authorization, contentType: one.headers['content-type'] }).toEqual({
          call: `${one.method} ${one.url}`,
          authorization: `Bearer ${KEY}`,
          contentType: 'application/json',
        });
      }
    } finally {
      await provider.close();
    }
  });
});

describe('the wire names as settings of the QR provider', () => {
  it('are read from QR_GATEWAY_WIRE_*, and its definition gives its adapter and its sandbox the same names', async () => {
    // given: a configuration switching every unstated name at once, as an operator would
    const config = loadConfig({
      NODE_ENV: 'test',
      QR_GATEWAY_WIRE_PAYLOAD_FIELD: 'qr_code',
      QR_GATEWAY_WIRE_EXPIRES_AT_FIELD: 'expiry_time',
      QR_GATEWAY_WIRE_EXPIRY_FIELD: 'expiry',
      QR_GATEWAY_WIRE_SIGNATURE_HEADER: 'X-Signature',
      QR_GATEWAY_WIRE_LOOKUP_PATH: '/v1/payments/{id}',
    });
    const registry = providerRegistry();
    const definition = registry.get('qr-gateway')!;
    const settings = registry.settingsOf(definition, config.providers);
    expect(settings).toMatchObject({ wire: { ...QR_WIRE, payloadField: 'qr_code', expiresAtField: 'expiry_time', expiryField: 'expiry', signatureHeader: 'x-signature', lookupPath: '/v1/payments/{id}' } });

    // when: the adapter and the sandbox are made from the definition, as the gateway makes them
    const silent = createLogger({ level: 'silent' });
    const ports = definition.createAdapter(settings, silent, createProviderTransport({ timeoutMs: 5_000, maxRetries: 0 }));
    const adapter = { ...ports.deposits, ...ports.webhookRegistration! };
    const started = await definition.sandbox!.start({ accounts: [account('')], webhookBaseUrl: 'http://127.0.0.1:9', port: 0, timeScale: 1, autoComplete: true, stateDir: undefined, settings, logger: silent });
    const sandbox = started as ProviderSandboxes['qr-gateway'];
    const receiver = await startServer();
    try {
      const registration = await adapter.registerWebhook(account(sandbox.baseUrl), { url: receiver.url, events: ['payment.succeeded'] });
      if (!registration.ok) throw new Error(registration.error.message);

      // then: they understand each other under those names, from creation to a verified delivery
      const before = Date.now();
      const created = await adapter.createDeposit(account(sandbox.baseUrl), request(600));
      if (!created.ok) throw new Error(created.error.message);
      const { reference, qrCode } = created.value;
      expect(qrCode?.payload).toMatch(/^000201/);
      expect(Math.abs(qrCode!.expiresAt.getTime() - (before + 600_000))).toBeLessThan(5_000);
      expect(await adapter.getDeposit(account(sandbox.baseUrl), reference)).toMatchObject({ ok: true, value: { reference, status: 'PENDING' } });
      const answered = await fetch(`${sandbox.baseUrl}/v1/payments/${encodeURIComponent(reference)}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(Object.keys((await answered.json()) as object)).toEqual(expect.arrayContaining(['qr_code', 'expiry_time']));
      sandbox.controls.simulate(reference, 'succeeded');
      await sandbox.controls.idle();
      const delivery = receiver.received.at(-1)!;
      expect(delivery.headers['x-signature']).toMatch(/^t=\d+,v1=/);
      const verified = adapter.verifyWebhook(account(sandbox.baseUrl, [registration.value.secret]), { body: delivery.body, headers: delivery.headers as Record<string, string> });
      expect(verified).toMatchObject({ ok: true, event: { subject: { kind: 'deposit', reference, status: 'SUCCEEDED' } } });
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });
});
