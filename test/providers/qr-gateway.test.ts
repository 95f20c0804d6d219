// The QR gateway adapter against the QR sandbox over real HTTP: codes, payloads, simulations,
// signed deliveries, expiry, registration, idempotency and failures.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderTransport } from '../../src/kernel/provider-transport.js';
import { Money } from '../../src/lib/money.js';
import type { CreateDepositRequest, MerchantAccount, WebhookEvent } from '../../src/providers/provider.js';
import { createQrGatewayAdapter, type QrGatewayAdapter } from '../../src/providers/qr-gateway/index.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';

const TEST_KEY = 'sk_test_adapter_suite';
const LIVE_KEY = 'sk_live_adapter_suite';
// Each delivery scenario has a key of its own, so its registrations see only its own payments.
const ISOLATED_KEYS = ['sk_test_adapter_only', 'sk_test_adapter_duplicate', 'sk_test_adapter_flaky'];
// Durations run at 1/100: a 30 s retry takes 0.3 s, a 60 s expiry 0.6 s.
const TIME_SCALE = 0.01;

interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A tiny webhook endpoint; `status(n)` answers the n-th POST (1-based), 200 by default. */
async function startReceiver(status: (n: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      received.push({ body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(status(received.length)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/qr-gateway/qr-test`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function account(sandbox: QrGatewaySandbox, overrides: Partial<MerchantAccount> = {}): MerchantAccount {
  return { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true, baseUrl: sandbox.baseUrl, apiKey: TEST_KEY, webhookSecrets: [], ...overrides };
}

let sequence = 0;
function depositRequest(amount = '250.75', overrides: Partial<Extract<CreateDepositRequest['details'], { rail: 'THAI_QR' }>> = {}): CreateDepositRequest {
  sequence++;
  return {
    depositId: `dep_TEST${Date.now()}${sequence}`,
    amount: Money.fromDecimal(amount, 'THB'),
    details: { rail: 'THAI_QR', payer: { name: 'Somchai Jaidee', bankName: 'KBank', bankAccount: '123-4-56789-0' }, clientId: 'cli_1', expiresInSeconds: 3600, ...overrides },
    customer: {},
  };
}

/** Reads EMVCo tag-length-value fields. */
function readTlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const tag = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    fields.set(tag, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** CRC16-CCITT written independently of the sandbox's. */
function crc(text: string): string {
  let value = 0xffff;
  for (const char of Buffer.from(text)) {
    for (let i = 0; i < 8; i++) {
      const bit = ((char >> (7 - i)) & 1) === 1;
      const c15 = ((value >> 15) & 1) === 1;
      value = (value << 1) & 0xffff;
      if (c15 !== bit) value ^= 0x1021;
    }
  }
  return value.toString(16).toUpperCase().padStart(4, '0');
}

describe('QR gateway adapter against the sandbox (satang)', () => {
  let sandbox: QrGatewaySandbox;
  let adapter: QrGatewayAdapter;
  let receiver: Receiver;
  let acct: MerchantAccount;

  beforeAll(async () => {
    sandbox = await startQrGatewaySandbox({ accounts: [TEST_KEY, LIVE_KEY, ...ISOLATED_KEYS].map((apiKey) => ({ apiKey })), amountUnit: 'satang', timeScale: TIME_SCALE });
    adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 1 }) });
    receiver = await startReceiver();
    const registration = await adapter.registerWebhook(account(sandbox), {
      url: receiver.url,
      events: ['payment.succeeded', 'payment.failed', 'refund.completed', 'withdrawal.succeeded'],
    });
    if (!registration.ok) throw new Error(registration.error.message);
    acct = account(sandbox, { webhookSecrets: [registration.value.secret] });
  });

  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  /** Deliveries for one payment, verified with the adapter on their exact bytes (any registration of the key). */
  function eventsFor(reference: string): WebhookEvent[] {
    const secrets = sandbox.controls.webhooks().filter((registration) => registration.apiKey === TEST_KEY).map((registration) => registration.secret);
    return receiver.received
      .map((delivery) => adapter.verifyWebhook({ ...acct, webhookSecrets: secrets }, { body: delivery.body, headers: { 'x-qr-signature': delivery.headers['x-qr-signature'] as string } }))
      .map((result) => {
        if (!result.ok) throw new Error(`delivery refused: ${result.reason}`);
        return result.event;
      })
      .filter((event) => event.subject.kind === 'deposit' && event.subject.reference === reference);
  }

  it('creates a pending code whose PromptPay payload carries the amount and a valid CRC', async () => {
    const request = depositRequest('250.75');
    const result = await adapter.createDeposit(acct, request);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const deposit = result.value;
    expect(deposit).toMatchObject({ status: 'PENDING', providerStatus: 'pending', merchantReference: request.depositId });
    expect(deposit.reference).toMatch(/^qr_/);
    expect(deposit.amount?.equals(request.amount)).toBe(true);

    const payload = deposit.qrCode?.payload ?? '';
    expect(payload.slice(-4)).toBe(crc(payload.slice(0, -4)));
    const fields = readTlv(payload);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('01')).toBe('12');
    expect(readTlv(fields.get('29') ?? '').get('00')).toBe('A000000677010111');
    expect(fields.get('53')).toBe('764');
    expect(fields.get('54')).toBe('250.75');
    expect(fields.get('58')).toBe('TH');
    expect(readTlv(fields.get('62') ?? '').get('05')).toBe(deposit.reference);
    expect(fields.get('63')).toBe(payload.slice(-4));

    const lifetimeMs = (deposit.qrCode?.expiresAt.getTime() ?? 0) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(3600 * 1000 * TIME_SCALE - 2_000);
    expect(lifetimeMs).toBeLessThanOrEqual(3600 * 1000 * TIME_SCALE);
  });

  it('sends the deposit id as reference and idempotency key, so a retry returns the same code', async () => {
    const request = depositRequest('99.00');
    const before = sandbox.controls.requestCount('/v1/qr-codes');
    const first = await adapter.createDeposit(acct, request);
    const second = await adapter.createDeposit(acct, request);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.value.reference).toBe(first.value.reference);
    expect(second.value.qrCode?.payload).toBe(first.value.qrCode?.payload);
    expect(sandbox.controls.requestCount('/v1/qr-codes')).toBe(before + 2);
    expect(sandbox.controls.code(first.value.reference)?.reference).toBe(request.depositId);

    const changed = await adapter.createDeposit(acct, { ...request, amount: Money.fromDecimal('98.00', 'THB') });
    // A code exists under the key: the outcome of this request is not a refusal of that code.
    expect(changed).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED', httpStatus: 409, outcomeUnknown: true } });
  });

  it('simulates a success: a signed payment.succeeded arrives and the lookup agrees', async () => {
    const request = depositRequest('1500.00');
    const created = await adapter.createDeposit(acct, request);
    if (!created.ok) throw new Error(created.error.message);
    const reference = created.value.reference;

    const simulated = await adapter.simulatePayment(acct, reference, 'SUCCEEDED');
    expect(simulated).toMatchObject({ ok: true, value: { status: 'SUCCEEDED', providerStatus: 'succeeded' } });
    await sandbox.controls.idle();

    const [event, ...more] = eventsFor(reference);
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({
      eventId: `${reference}:payment.succeeded`,
      name: 'payment.succeeded',
      livemode: false,
      subject: { kind: 'deposit', reference, merchantReference: request.depositId, status: 'SUCCEEDED', providerStatus: 'succeeded' },
    });
    expect(event?.subject.kind === 'deposit' && event.subject.amount?.toString()).toBe('THB 1500.00');

    const lookup = await adapter.getDeposit(acct, reference);
    expect(lookup).toMatchObject({ ok: true, value: { status: 'SUCCEEDED', reference, merchantReference: request.depositId } });
    if (lookup.ok) expect(lookup.value.approvedAt).toBeInstanceOf(Date);

    const again = await adapter.simulatePayment(acct, reference, 'FAILED');
    expect(again).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED', httpStatus: 409 } });
  });

  it('simulates a failure: payment.failed maps to DECLINED', async () => {
    const created = await adapter.createDeposit(acct, depositRequest('20.00'));
    if (!created.ok) throw new Error(created.error.message);
    await adapter.simulatePayment(acct, created.value.reference, 'FAILED');
    await sandbox.controls.idle();
    expect(eventsFor(created.value.reference)).toEqual([
      expect.objectContaining({
        eventId: `${created.value.reference}:payment.failed`,
        subject: expect.objectContaining({ status: 'DECLINED', providerStatus: 'failed', declineReason: 'declined' }),
      }),
    ]);
  });

  it('expires an unpaid code on the scaled clock with payment.failed (EXPIRED)', async () => {
    const created = await adapter.createDeposit(acct, depositRequest('30.00', { expiresInSeconds: 60 }));
    if (!created.ok) throw new Error(created.error.message);
    const reference = created.value.reference;
    await expect.poll(() => sandbox.controls.code(reference)?.status, { interval: 50 }).toBe('failed');
    await sandbox.controls.idle();
    expect(eventsFor(reference)).toEqual([
      expect.objectContaining({ name: 'payment.failed', subject: expect.objectContaining({ status: 'EXPIRED', declineReason: 'expired' }) }),
    ]);
    expect(await adapter.getDeposit(acct, reference)).toMatchObject({ ok: true, value: { status: 'EXPIRED', providerStatus: 'failed' } });
  });

  it('refuses to simulate on a live account without calling the provider', async () => {
    const before = sandbox.controls.requestCount();
    const result = await adapter.simulatePayment(account(sandbox, { livemode: true, apiKey: LIVE_KEY }), 'qr_whatever', 'SUCCEEDED');
    expect(result).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED', outcomeUnknown: false } });
    expect(sandbox.controls.requestCount()).toBe(before);
  });

  it('maps refund and withdrawal events the sandbox emits', async () => {
    sandbox.controls.emit(TEST_KEY, 'refund.completed', { refund_id: 'rf_1', payment_id: 'qr_x', status: 'completed', amount: 5_000n, currency: 'THB' });
    sandbox.controls.emit({ apiKey: TEST_KEY }, 'withdrawal.succeeded', { withdrawal_id: 'wd_1', status: 'succeeded', amount: 100n, currency: 'THB' });
    await sandbox.controls.idle();
    const events = receiver.received.slice(-2).map((delivery) => adapter.verifyWebhook(acct, { body: delivery.body, headers: { 'x-qr-signature': delivery.headers['x-qr-signature'] as string } }));
    expect(events).toEqual([
      { ok: true, event: expect.objectContaining({ eventId: 'rf_1:refund.completed', subject: expect.objectContaining({ kind: 'refund', status: 'APPROVED', depositReference: 'qr_x' }) }) },
      { ok: true, event: expect.objectContaining({ eventId: 'wd_1:withdrawal.succeeded', subject: expect.objectContaining({ kind: 'withdrawal', reference: 'wd_1', status: 'SUCCEEDED' }) }) },
    ]);
  });

  it('answers 401 for an unknown key as PROVIDER_AUTH_FAILED, and ping tells', async () => {
    const stranger = account(sandbox, { apiKey: 'sk_test_not_configured' });
    expect(await adapter.createDeposit(stranger, depositRequest())).toMatchObject({ ok: false, error: { code: 'PROVIDER_AUTH_FAILED', httpStatus: 401 } });
    expect(await adapter.registerWebhook(stranger, { url: receiver.url, events: ['payment.succeeded'] })).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_AUTH_FAILED' },
    });
    expect(await adapter.ping(stranger)).toBe(false);
    expect(await adapter.ping(acct)).toBe(true);
  });

  it('refuses invalid requests before any call', async () => {
    const before = sandbox.controls.requestCount();
    expect(adapter.validateDeposit(acct, depositRequest('0.50'))).toEqual([expect.objectContaining({ code: 'AMOUNT_BELOW_MINIMUM' })]);
    expect(await adapter.createDeposit(acct, depositRequest('0.50'))).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED' } });
    expect(sandbox.controls.requestCount()).toBe(before);
  });

  describe('webhook registration', () => {
    it('registers a reachable loopback URL in test mode and generates a secret', async () => {
      const result = await adapter.registerWebhook(acct, { url: receiver.url, events: ['payment.pending'] });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value).toMatchObject({ url: receiver.url, events: ['payment.pending'], status: 'active' });
      expect(result.value.id).toMatch(/^wh_/);
      expect(result.value.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(result.value.createdAt).toBeInstanceOf(Date);
      const stored = sandbox.controls.webhooks().find((registration) => registration.webhookId === result.value.id);
      expect(stored?.secret).toBe(result.value.secret);
    });

    it('sends a secret the caller gives', async () => {
      const result = await adapter.registerWebhook(acct, { url: receiver.url, events: ['refund.failed'], secret: 'whsec_chosen_by_caller' });
      expect(result).toMatchObject({ ok: true, value: { secret: 'whsec_chosen_by_caller' } });
    });

    it('refuses a plain http URL that is not loopback', async () => {
      const before = sandbox.controls.requestCount();
      expect(await adapter.registerWebhook(acct, { url: 'http://example.com/hook', events: ['payment.succeeded'] })).toMatchObject({
        ok: false,
        error: { code: 'WEBHOOK_URL_INVALID', outcomeUnknown: false },
      });
      // Refused by the spec's rule ("HTTPS URL", Q12) before any call.
      expect(sandbox.controls.requestCount()).toBe(before);
    });

    it('refuses a loopback http URL for a live key', async () => {
      const live = account(sandbox, { livemode: true, apiKey: LIVE_KEY });
      expect(await adapter.registerWebhook(live, { url: receiver.url, events: ['payment.succeeded'] })).toMatchObject({
        ok: false,
        error: { code: 'WEBHOOK_URL_INVALID' },
      });
    });

    it('refuses an unreachable URL', async () => {
      const url = `http://127.0.0.1:${await closedPort()}/hook`;
      expect(await adapter.registerWebhook(acct, { url, events: ['payment.succeeded'] })).toMatchObject({
        ok: false,
        error: { code: 'WEBHOOK_URL_INVALID', httpStatus: 422 },
      });
    });

    it('refuses events outside the spec list without calling', async () => {
      const before = sandbox.controls.requestCount();
      expect(await adapter.registerWebhook(acct, { url: receiver.url, events: ['payment.approved'] })).toMatchObject({
        ok: false,
        error: { code: 'PROVIDER_REJECTED' },
      });
      expect(await adapter.registerWebhook(acct, { url: receiver.url, events: [] })).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED' } });
      expect(await adapter.registerWebhook(acct, { url: 'not a url', events: ['payment.failed'] })).toMatchObject({ ok: false, error: { code: 'WEBHOOK_URL_INVALID' } });
      expect(sandbox.controls.requestCount()).toBe(before);
    });
  });

  describe('deliveries', () => {
    it('sends only subscribed events', async () => {
      const only = await startReceiver();
      try {
        const base = account(sandbox, { apiKey: 'sk_test_adapter_only' });
        const registration = await adapter.registerWebhook(base, { url: only.url, events: ['payment.succeeded'] });
        if (!registration.ok) throw new Error(registration.error.message);
        const acct = { ...base, webhookSecrets: [registration.value.secret] };
        const failed = await adapter.createDeposit(acct, depositRequest('10.00'));
        const paid = await adapter.createDeposit(acct, depositRequest('11.00'));
        if (!failed.ok || !paid.ok) throw new Error('create failed');
        await adapter.simulatePayment(acct, failed.value.reference, 'FAILED');
        await adapter.simulatePayment(acct, paid.value.reference, 'SUCCEEDED');
        await sandbox.controls.idle();
        const names = only.received.map((delivery) => (JSON.parse(delivery.body.toString()) as { event: string }).event);
        expect(names).toEqual(['payment.succeeded']);
      } finally {
        await only.close();
      }
    });

    it('may deliver the same event twice; both verify and share one event id', async () => {
      const dup = await startReceiver();
      const base = account(sandbox, { apiKey: 'sk_test_adapter_duplicate' });
      const registration = await adapter.registerWebhook(base, { url: dup.url, events: ['payment.succeeded'] });
      if (!registration.ok) throw new Error(registration.error.message);
      const acct = { ...base, webhookSecrets: [registration.value.secret] };
      const created = await adapter.createDeposit(acct, depositRequest('12.00'));
      if (!created.ok) throw new Error(created.error.message);
      sandbox.controls.webhooks({ duplicate: true });
      try {
        await adapter.simulatePayment(acct, created.value.reference, 'SUCCEEDED');
        await sandbox.controls.idle();
      } finally {
        sandbox.controls.webhooks({ duplicate: false });
      }
      await dup.close();
      const events = dup.received.map((delivery) => adapter.verifyWebhook(acct, { body: delivery.body, headers: { 'x-qr-signature': delivery.headers['x-qr-signature'] as string } }));
      expect(events).toHaveLength(2);
      expect(events.every((event) => event.ok)).toBe(true);
      expect(new Set(events.map((event) => event.ok && event.event.eventId))).toEqual(new Set([`${created.value.reference}:payment.succeeded`]));
    });

    it('retries a delivery the receiver did not acknowledge', async () => {
      const flaky = await startReceiver((n) => (n === 1 ? 500 : 200));
      try {
        const base = account(sandbox, { apiKey: 'sk_test_adapter_flaky' });
        const registration = await adapter.registerWebhook(base, { url: flaky.url, events: ['payment.succeeded'] });
        if (!registration.ok) throw new Error(registration.error.message);
        const acct = { ...base, webhookSecrets: [registration.value.secret] };
        const created = await adapter.createDeposit(acct, depositRequest('13.00'));
        if (!created.ok) throw new Error(created.error.message);
        await adapter.simulatePayment(acct, created.value.reference, 'SUCCEEDED');
        await sandbox.controls.idle();
        expect(flaky.received).toHaveLength(2);
        expect(flaky.received[1]?.body.equals(flaky.received[0]?.body ?? Buffer.alloc(0))).toBe(true);
        const attempts = sandbox.controls.deliveries().filter((attempt) => attempt.webhookId === registration.value.id);
        expect(attempts.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
          [1, 500],
          [2, 200],
        ]);
        const verified = adapter.verifyWebhook(acct, {
          body: flaky.received[1]?.body ?? Buffer.alloc(0),
          headers: { 'x-qr-signature': flaky.received[1]?.headers['x-qr-signature'] as string },
        });
        expect(verified.ok).toBe(true);
      } finally {
        await flaky.close();
      }
    });
  });
});

describe('QR gateway adapter against the sandbox (baht)', () => {
  let sandbox: QrGatewaySandbox;
  const adapter = createQrGatewayAdapter({ amountUnit: 'baht', transport: createProviderTransport() });

  beforeAll(async () => {
    sandbox = await startQrGatewaySandbox({ accounts: [{ apiKey: TEST_KEY }], amountUnit: 'baht', timeScale: TIME_SCALE });
  });
  afterAll(() => sandbox.close());

  it('sends whole baht and reads them back exactly', async () => {
    const result = await adapter.createDeposit(account(sandbox), depositRequest('1250.00'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(sandbox.controls.code(result.value.reference)?.amount).toBe(1250n);
    expect(result.value.amount?.toString()).toBe('THB 1250.00');
    expect(readTlv(result.value.qrCode?.payload ?? '').get('54')).toBe('1250.00');
  });

  it('refuses satang precision in baht unit', async () => {
    expect(adapter.validateDeposit(account(sandbox), depositRequest('1250.50'))).toEqual([
      expect.objectContaining({ field: ['amount'], code: 'AMOUNT_TOO_PRECISE' }),
    ]);
    expect(await adapter.createDeposit(account(sandbox), depositRequest('1250.50'))).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED' } });
  });
});

describe('QR gateway adapter: a 422 answer', () => {
  it('on QR code creation is a refusal, not a webhook URL problem; on registration it is WEBHOOK_URL_INVALID (spec status table)', async () => {
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'unprocessable', message: 'reference already used', type: 'validation_error' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ maxRetries: 0 }) });
      const acct: MerchantAccount = { code: 'qr-422', provider: 'qr-gateway', livemode: false, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: TEST_KEY, webhookSecrets: [] };
      const created = await adapter.createDeposit(acct, depositRequest());
      expect(created).toMatchObject({ ok: false, error: { code: 'PROVIDER_REJECTED', httpStatus: 422, providerMessage: 'reference already used', outcomeUnknown: false } });
      expect(JSON.stringify(created)).not.toMatch(/webhook/i);
      expect(await adapter.registerWebhook(acct, { url: 'https://example.com/hook', events: ['payment.succeeded'] })).toMatchObject({
        ok: false,
        error: { code: 'WEBHOOK_URL_INVALID', httpStatus: 422 },
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('QR gateway adapter when the provider is unavailable', () => {
  it('reports PROVIDER_UNAVAILABLE with an unknown outcome on a refused connection', async () => {
    const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ maxRetries: 1 }) });
    const acct: MerchantAccount = { code: 'qr-down', provider: 'qr-gateway', livemode: false, baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: TEST_KEY, webhookSecrets: [] };
    expect(await adapter.createDeposit(acct, depositRequest())).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true } });
    expect(await adapter.registerWebhook(acct, { url: 'https://example.com/hook', events: ['payment.succeeded'] })).toMatchObject({
      ok: false,
      error: { code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true },
    });
    expect(await adapter.ping(acct)).toBe(false);
  });

  it('times out a hanging provider and retries idempotent calls', async () => {
    let calls = 0;
    const server = createServer(() => {
      calls++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 150, maxRetries: 1 }) });
      const acct: MerchantAccount = {
        code: 'qr-slow',
        provider: 'qr-gateway',
        livemode: false,
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        apiKey: TEST_KEY,
        webhookSecrets: [],
      };
      const result = await adapter.createDeposit(acct, depositRequest());
      expect(result).toMatchObject({ ok: false, error: { code: 'PROVIDER_UNAVAILABLE', outcomeUnknown: true } });
      expect(calls).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
