// The QR sandbox over raw HTTP: the spec's endpoints and the Q assumptions as a client sees them,
// signed deliveries on a real receiver, expiry on the scaled clock, and the test controls.

import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';

const KEY = 'sk_test_sandbox_suite';
const OTHER_KEY = 'sk_test_sandbox_other';
const LIVE_KEY = 'sk_live_sandbox_suite';
const HOOK_KEY = 'sk_test_sandbox_hooks';
const TIME_SCALE = 0.01;

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; heads: () => number; close(): Promise<void> }> {
  const received: Received[] = [];
  let heads = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'HEAD') heads++;
      else received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/hook`, received, heads: () => heads, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type Json = Record<string, any>;

describe('QR gateway sandbox', () => {
  let sandbox: QrGatewaySandbox;

  beforeAll(async () => {
    sandbox = await startQrGatewaySandbox({
      accounts: [{ apiKey: KEY }, { apiKey: OTHER_KEY }, { apiKey: LIVE_KEY }, { apiKey: HOOK_KEY }],
      amountUnit: 'satang',
      timeScale: TIME_SCALE,
    });
  });
  afterAll(() => sandbox.close());

  async function call(method: string, path: string, body?: unknown, options: { key?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    const key = options.key === undefined ? KEY : options.key;
    if (key) headers.Authorization = `Bearer ${key}`;
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers,
      body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    return { status: response.status, text, json: (text ? JSON.parse(text) : undefined) as Json };
  }

  const code = (overrides: Json = {}): Json => ({
    amount: 10_000,
    currency: 'THB',
    reference: `dep_${Math.random().toString(36).slice(2)}`,
    client_name: 'Somchai Jaidee',
    client_bank_name: 'KBank',
    client_bank_account: '1234567890',
    metadata: { client_id: 'cli_1' },
    ...overrides,
  });

  it('echoes metadata exactly as sent: a fractional number stays that number', async () => {
    const body = JSON.stringify(code({ metadata: { client_id: 'cli_1', ratio: '__RATIO__', big: '__BIG__' } })).replace('"__RATIO__"', '1.50').replace('"__BIG__"', '12345678901234567890');
    const response = await call('POST', '/v1/qr-codes', undefined, { raw: body });
    expect(response.status).toBe(201);
    expect(response.text).toContain('"metadata":{"client_id":"cli_1","ratio":1.50,"big":12345678901234567890}');
  });

  it('answers /healthz without auth', async () => {
    expect(await call('GET', '/healthz', undefined, { key: null })).toMatchObject({ status: 200, json: { ok: true } });
  });

  it.each([
    ['no key', null],
    ['an unknown key', 'sk_test_unknown'],
    ['a secret-looking key that is not configured', 'sk_test_whatever'],
    // Authentication 1-2 (Q20): the bearer is the backend secret key; a publishable key never authenticates.
    ['a publishable key', 'pk_test_sandbox_suite'],
  ])('refuses %s with 401 and the error body', async (_label, key) => {
    const response = await call('POST', '/v1/qr-codes', code(), { key });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String), type: 'authentication_error' } });
  });

  it('creates a QR code (Q1) with the default 15-minute expiry on the scaled clock', async () => {
    const before = Date.now();
    const body = code();
    const response = await call('POST', '/v1/qr-codes', body);
    const after = Date.now();
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      id: expect.stringMatching(/^qr_/),
      reference: body.reference,
      amount: 10_000,
      currency: 'THB',
      status: 'pending',
      qr_payload: expect.stringMatching(/^000201010212.*6304[0-9A-F]{4}$/),
      paid_at: null,
      failure_reason: null,
      metadata: { client_id: 'cli_1' },
    });
    expect(response.text).not.toContain('1234567890');
    const lifetime = Date.parse(response.json.expires_at) - before;
    expect(lifetime).toBeGreaterThanOrEqual(900_000 * TIME_SCALE - 50);
    // The code was made before the answer came back: at most the scaled 15 minutes after that.
    expect(Date.parse(response.json.expires_at)).toBeLessThanOrEqual(after + 900_000 * TIME_SCALE);
    expect(response.json.qr_payload).toContain('5406100.00');
  });

  it.each<[string, Json | string, number, string]>([
    ['a missing amount', code({ amount: undefined }), 400, 'invalid_request'],
    ['a fractional amount', code({ amount: 100.5 }), 400, 'invalid_request'],
    ['an amount as a string', code({ amount: '100' }), 400, 'invalid_request'],
    ['a zero amount', code({ amount: 0 }), 400, 'invalid_request'],
    ['an amount below THB 1.00', code({ amount: 99 }), 400, 'amount_too_small'],
    ['an amount above THB 2,000,000.00', code({ amount: 200_000_001 }), 400, 'amount_too_large'],
    ['another currency', code({ currency: 'USD' }), 400, 'currency_not_supported'],
    ['a missing currency', code({ currency: undefined }), 400, 'invalid_request'],
    ['a missing reference', code({ reference: undefined }), 400, 'invalid_request'],
    ['a reference over 64 characters', code({ reference: 'r'.repeat(65) }), 400, 'invalid_request'],
    ['a missing client_name', code({ client_name: undefined }), 400, 'invalid_request'],
    ['a bank account with letters', code({ client_bank_account: '12345abcde' }), 400, 'invalid_request'],
    ['metadata that is not an object', code({ metadata: 'x' }), 400, 'invalid_request'],
    ['expires_in below 60', code({ expires_in: 59 }), 400, 'invalid_request'],
    ['expires_in above 86400', code({ expires_in: 86_401 }), 400, 'invalid_request'],
    ['a body that is not JSON', '{"amount":', 400, 'invalid_request'],
  ])('refuses %s', async (_label, body, status, errorCode) => {
    const response = typeof body === 'string' ? await call('POST', '/v1/qr-codes', undefined, { raw: body }) : await call('POST', '/v1/qr-codes', body);
    expect(response.status).toBe(status);
    expect(response.json).toEqual({ error: { code: errorCode, message: expect.any(String), type: 'validation_error' } });
  });

  it('accepts the amount bounds exactly', async () => {
    expect((await call('POST', '/v1/qr-codes', code({ amount: 100 }))).status).toBe(201);
    expect((await call('POST', '/v1/qr-codes', code({ amount: 200_000_000 }))).status).toBe(201);
  });

  describe('idempotency (Q14)', () => {
    it('replays the original response for the same key and body', async () => {
      const body = code();
      const headers = { 'Idempotency-Key': body.reference };
      const first = await call('POST', '/v1/qr-codes', body, { headers });
      const second = await call('POST', '/v1/qr-codes', body, { headers });
      expect(second.status).toBe(first.status);
      expect(second.text).toBe(first.text);
      const list = await call('GET', '/v1/qr-codes?limit=100');
      expect(list.json.data.filter((item: Json) => item.reference === body.reference)).toHaveLength(1);
    });

    it('refuses the same key with a different body', async () => {
      const body = code();
      const headers = { 'Idempotency-Key': body.reference };
      await call('POST', '/v1/qr-codes', body, { headers });
      const conflict = await call('POST', '/v1/qr-codes', { ...body, amount: 20_000 }, { headers });
      expect(conflict).toMatchObject({ status: 409, json: { error: { code: 'idempotency_conflict', type: 'invalid_request_error' } } });
    });

    it('scopes keys to the API key', async () => {
      const body = code();
      const headers = { 'Idempotency-Key': body.reference };
      const mine = await call('POST', '/v1/qr-codes', body, { headers });
      const theirs = await call('POST', '/v1/qr-codes', body, { headers, key: OTHER_KEY });
      expect(theirs.status).toBe(201);
      expect(theirs.json.id).not.toBe(mine.json.id);
    });
  });

  it('looks codes up by id (Q15) for their own key only, and lists them', async () => {
    const created = await call('POST', '/v1/qr-codes', code());
    expect(await call('GET', `/v1/qr-codes/${created.json.id}`)).toMatchObject({ status: 200, json: { id: created.json.id, status: 'pending' } });
    expect(await call('GET', `/v1/qr-codes/${created.json.id}`, undefined, { key: OTHER_KEY })).toMatchObject({
      status: 404,
      json: { error: { code: 'not_found' } },
    });
    const list = await call('GET', '/v1/qr-codes?limit=1');
    expect(list).toMatchObject({ status: 200, json: { data: [expect.objectContaining({ id: created.json.id })], has_more: true } });
  });

  describe('simulation (Q8)', () => {
    it('settles a pending code once', async () => {
      const created = await call('POST', '/v1/qr-codes', code());
      const path = `/v1/qr-codes/${created.json.id}/simulate`;
      const settled = await call('POST', path, { outcome: 'succeeded' });
      expect(settled).toMatchObject({ status: 200, json: { id: created.json.id, status: 'succeeded', paid_at: expect.any(String) } });
      expect(await call('POST', path, { outcome: 'failed' })).toMatchObject({ status: 409, json: { error: { code: 'invalid_state' } } });
    });

    it('records a failure as declined', async () => {
      const created = await call('POST', '/v1/qr-codes', code());
      const failed = await call('POST', `/v1/qr-codes/${created.json.id}/simulate`, { outcome: 'failed' });
      expect(failed.json).toMatchObject({ status: 'failed', failure_reason: 'declined' });
    });

    it('is refused for live keys, unknown codes and unknown outcomes', async () => {
      const live = await call('POST', '/v1/qr-codes', code(), { key: LIVE_KEY });
      expect(live.json.livemode).toBe(true);
      expect(await call('POST', `/v1/qr-codes/${live.json.id}/simulate`, { outcome: 'succeeded' }, { key: LIVE_KEY })).toMatchObject({
        status: 403,
        json: { error: { code: 'test_mode_only' } },
      });
      expect((await call('POST', '/v1/qr-codes/qr_nope/simulate', { outcome: 'succeeded' })).status).toBe(404);
      const created = await call('POST', '/v1/qr-codes', code());
      expect((await call('POST', `/v1/qr-codes/${created.json.id}/simulate`, { outcome: 'approved' })).status).toBe(400);
    });
  });

  describe('webhook registration and deliveries', () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let secret: string;

    beforeAll(async () => {
      receiver = await startReceiver();
      const registered = await call('POST', '/Thai/v1/webhooks', { url: receiver.url, events: ['payment.succeeded', 'payment.failed', 'refund.completed'] }, { key: HOOK_KEY });
      expect(registered.status).toBe(200);
      secret = sandbox.controls.webhooks().find((registration) => registration.webhookId === registered.json.webhook_id)?.secret ?? '';
    });
    afterAll(() => receiver.close());

    function verify(delivery: Received, withSecret = secret): boolean {
      const header = String(delivery.headers['x-qr-signature']);
      const match = /^t=([0-9]+),v1=([0-9a-f]{64})$/.exec(header);
      if (!match) return false;
      const expected = createHmac('sha256', withSecret).update(`${match[1]}.${delivery.body}`).digest('hex');
      return expected === match[2] && Math.abs(Date.now() / 1000 - Number(match[1])) <= 300;
    }

    it('answers 200 with the registration (spec table), generating a secret when omitted', async () => {
      const response = await call('POST', '/Thai/v1/webhooks', { url: receiver.url, events: ['payment.pending'] }, { key: OTHER_KEY });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        webhook_id: expect.stringMatching(/^wh_/),
        url: receiver.url,
        events: ['payment.pending'],
        status: 'active',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(receiver.heads()).toBeGreaterThan(0);
      expect(sandbox.controls.webhooks().find((registration) => registration.webhookId === response.json.webhook_id)?.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    });

    it.each<[string, Json, number]>([
      ['a missing url', { events: ['payment.succeeded'] }, 400],
      ['no events', { url: 'https://example.com/h', events: [] }, 400],
      ['an unknown event', { url: 'https://example.com/h', events: ['payment.approved'] }, 400],
      ['a short secret', { url: 'https://example.com/h', events: ['payment.succeeded'], secret: 'short' }, 400],
      ['plain http off loopback', { url: 'http://example.com/h', events: ['payment.succeeded'] }, 422],
      ['a URL that does not parse', { url: 'not a url', events: ['payment.succeeded'] }, 422],
      ['an ftp URL', { url: 'ftp://127.0.0.1/h', events: ['payment.succeeded'] }, 422],
    ])('refuses %s', async (_label, body, status) => {
      const response = await call('POST', '/Thai/v1/webhooks', body);
      expect(response.status).toBe(status);
      if (status === 422) expect(response.json).toEqual({ error: { code: 'invalid_url', message: expect.any(String), type: 'validation_error' } });
      else expect(response.json.error.code).toBe('invalid_request');
    });

    it('refuses an unreachable loopback URL with 422 invalid_url', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const response = await call('POST', '/Thai/v1/webhooks', { url: `http://127.0.0.1:${port}/h`, events: ['payment.succeeded'] });
      expect(response).toMatchObject({ status: 422, json: { error: { code: 'invalid_url', type: 'validation_error' } } });
    });

    it('delivers a signed payment.succeeded with the spec payload and the echoed reference', async () => {
      const body = code();
      const created = await call('POST', '/v1/qr-codes', body, { key: HOOK_KEY });
      sandbox.controls.simulate(created.json.id, 'succeeded');
      await sandbox.controls.idle();
      const deliveries = receiver.received.filter((item) => JSON.parse(item.body).data.payment_id === created.json.id);
      // One delivery, of the one event the registration asked for that happened
      expect(deliveries.map((item) => JSON.parse(item.body))).toEqual([
        {
          event: 'payment.succeeded',
          data: { payment_id: created.json.id, reference: body.reference, status: 'succeeded', amount: 10_000, currency: 'THB' },
          timestamp: expect.stringMatching(/Z$/),
        },
      ]);
      const [delivery] = deliveries as [Received];
      expect(verify(delivery)).toBe(true);
      expect(verify(delivery, 'whsec_wrong_secret')).toBe(false);
      expect(delivery.headers['content-type']).toBe('application/json');
    });

    describe('simulation from the merchant dashboard (Q8: "success or failure is simulated from the merchant dashboard")', () => {
      /** A browser submitting one of the dashboard's forms; the redirect is not followed, so the answer is the form's own. */
      const submit = (path: string, fields: Record<string, string>) =>
        fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
      const dashboard = async () => (await fetch(`${sandbox.baseUrl}/dashboard`)).text();
      /** The simulate form on the dashboard's row of one code: its action and the outcomes it offers. */
      function simulateForm(html: string, id: string): { action: string; outcomes: string[] } | undefined {
        const row = html.split('<tr>').find((candidate) => candidate.startsWith(`<td>${id}</td>`));
        const form = row && /<form method="post" action="([^"]+)"><input type="hidden" name="code" value="([^"]+)">([\s\S]*?)<\/form>/.exec(row);
        if (!form || form[2] !== id || !form[3]!.includes('Simulate payment')) return undefined;
        return { action: form[1]!, outcomes: [...form[3]!.matchAll(/<option value="([^"]+)"/g)].map((option) => option[1]!) };
      }

      it.each([
        ['succeeded', { status: 'succeeded', paid_at: expect.any(String), failure_reason: null }],
        ['failed', { status: 'failed', paid_at: null, failure_reason: 'declined' }],
      ] as const)('a pending code has a simulate form; submitting %s settles it and sends its signed webhook', async (outcome, settled) => {
        // Given a pending code of an account with a webhook registration
        const created = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });

        // Then the dashboard shows it with a simulate form offering success and failure
        const form = simulateForm(await dashboard(), created.json.id);
        expect(form).toEqual({ action: '/dashboard/simulate', outcomes: ['succeeded', 'failed'] });

        // When the merchant submits it in a browser
        const answer = await submit(form!.action, { code: created.json.id, outcome });

        // Then the browser goes back to the dashboard, where the code is settled with no form left
        expect(answer.status).toBe(303);
        expect(answer.headers.get('location')).toBe('/dashboard');
        expect(simulateForm(await dashboard(), created.json.id)).toBeUndefined();
        expect((await call('GET', `/v1/qr-codes/${created.json.id}`, undefined, { key: HOOK_KEY })).json).toMatchObject(settled);

        // And the account's registration receives the signed payment event
        await sandbox.controls.idle();
        const deliveries = receiver.received.filter((item) => JSON.parse(item.body).data.payment_id === created.json.id);
        expect(deliveries.map((item) => JSON.parse(item.body).event)).toEqual([`payment.${outcome}`]);
        expect(verify(deliveries[0]!)).toBe(true);
      });

      it('refuses a code no longer pending, an unknown code, a live key\'s code and an unknown outcome, changing nothing', async () => {
        const paid = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
        expect((await submit('/dashboard/simulate', { code: paid.json.id, outcome: 'succeeded' })).status).toBe(303);
        const again = await submit('/dashboard/simulate', { code: paid.json.id, outcome: 'failed' });
        expect(again.status).toBe(409);
        expect(await again.text()).toContain('already succeeded');

        expect((await submit('/dashboard/simulate', { code: 'qr_nope', outcome: 'succeeded' })).status).toBe(404);
        const live = await call('POST', '/v1/qr-codes', code(), { key: LIVE_KEY });
        expect((await submit('/dashboard/simulate', { code: live.json.id, outcome: 'succeeded' })).status).toBe(404);
        expect(sandbox.controls.code(live.json.id)?.status).toBe('pending');

        const pending = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
        expect((await submit('/dashboard/simulate', { code: pending.json.id, outcome: 'approved' })).status).toBe(400);
        expect(sandbox.controls.code(pending.json.id)?.status).toBe('pending');
      });

      it('the API twin the gateway calls runs the same simulation: a code settled there has no form left, and the form cannot settle it again', async () => {
        const created = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
        expect(simulateForm(await dashboard(), created.json.id)).toBeDefined();
        expect((await call('POST', `/v1/qr-codes/${created.json.id}/simulate`, { outcome: 'failed' }, { key: HOOK_KEY })).status).toBe(200);
        expect(simulateForm(await dashboard(), created.json.id)).toBeUndefined();
        expect((await submit('/dashboard/simulate', { code: created.json.id, outcome: 'succeeded' })).status).toBe(409);
      });
    });

    it('sends only subscribed events: no payment.pending to a registration without it', async () => {
      const pendingOnly = await call('POST', '/Thai/v1/webhooks', { url: receiver.url, events: ['payment.pending'] }, { key: OTHER_KEY });
      const count = receiver.received.length;
      const hooked = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
      await sandbox.controls.idle();
      expect(receiver.received.length).toBe(count);
      expect(sandbox.controls.deliveries().filter((attempt) => attempt.body.includes(hooked.json.id))).toEqual([]);

      const subscribed = await call('POST', '/v1/qr-codes', code(), { key: OTHER_KEY });
      await sandbox.controls.idle();
      const sent = sandbox.controls.deliveries().filter((attempt) => attempt.body.includes(subscribed.json.id));
      expect(sent.map((attempt) => [attempt.event, attempt.webhookId])).toContainEqual(['payment.pending', pendingOnly.json.webhook_id]);
      expect(sent.every((attempt) => attempt.event === 'payment.pending')).toBe(true);
    });

    it('expires a code on the scaled clock with payment.failed', async () => {
      const created = await call('POST', '/v1/qr-codes', code({ expires_in: 60 }), { key: HOOK_KEY });
      await expect.poll(() => sandbox.controls.code(created.json.id)?.status, { interval: 50 }).toBe('failed');
      await sandbox.controls.idle();
      const delivery = receiver.received.find((item) => JSON.parse(item.body).data.payment_id === created.json.id);
      expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ event: 'payment.failed', data: { status: 'failed', failure_reason: 'expired' } });
      expect(verify(delivery as Received)).toBe(true);
      expect((await call('GET', `/v1/qr-codes/${created.json.id}`, undefined, { key: HOOK_KEY })).json).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    });

    it('duplicates deliveries on request', async () => {
      const created = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
      sandbox.controls.webhooks({ duplicate: true });
      sandbox.controls.simulate(created.json.id, 'failed');
      await sandbox.controls.idle();
      sandbox.controls.webhooks({ duplicate: false });
      const copies = receiver.received.filter((item) => JSON.parse(item.body).data.payment_id === created.json.id);
      expect(copies).toHaveLength(2);
      expect(copies[0]?.body).toBe(copies[1]?.body);
      expect(copies.every((copy) => verify(copy))).toBe(true);
      expect(sandbox.controls.deliveries().filter((attempt) => attempt.body.includes(created.json.id)).map((attempt) => attempt.duplicate ?? false)).toEqual([false, true]);
    });

    it('retries a dropped delivery after the Q10 backoff', async () => {
      const created = await call('POST', '/v1/qr-codes', code(), { key: HOOK_KEY });
      sandbox.controls.webhooks({ dropNext: 1 });
      const started = Date.now();
      sandbox.controls.simulate(created.json.id, 'succeeded');
      await sandbox.controls.idle();
      expect(Date.now() - started).toBeGreaterThanOrEqual(30_000 * TIME_SCALE - 20);
      const attempts = sandbox.controls.deliveries().filter((attempt) => attempt.body.includes(created.json.id));
      expect(attempts.map((attempt) => [attempt.attempt, attempt.status ?? attempt.error])).toEqual([
        [1, 'dropped (injected fault)'],
        [2, 204],
      ]);
      expect(receiver.received.filter((item) => item.body.includes(created.json.id))).toHaveLength(1);
    });

    it('emits refund events to subscribers and not withdrawal events they did not ask for', async () => {
      const count = receiver.received.length;
      sandbox.controls.emit(HOOK_KEY, 'refund.completed', { refund_id: 'rf_9', payment_id: 'qr_9', status: 'completed', amount: 500n, currency: 'THB' });
      sandbox.controls.emit(HOOK_KEY, 'withdrawal.succeeded', { withdrawal_id: 'wd_9', status: 'succeeded', amount: 500n, currency: 'THB' });
      await sandbox.controls.idle();
      const fresh = receiver.received.slice(count);
      expect(fresh.map((item) => JSON.parse(item.body))).toEqual([
        { event: 'refund.completed', data: { refund_id: 'rf_9', payment_id: 'qr_9', status: 'completed', amount: 500, currency: 'THB' }, timestamp: expect.any(String) },
      ]);
    });
  });

  it('counts requests by path prefix', async () => {
    const before = sandbox.controls.requestCount('/Thai/v1/webhooks');
    const total = sandbox.controls.requestCount();
    await call('POST', '/Thai/v1/webhooks', {});
    expect(sandbox.controls.requestCount('/Thai/v1/webhooks')).toBe(before + 1);
    expect(sandbox.controls.requestCount()).toBe(total + 1);
  });

  it('answers 404 in the error shape for unknown routes', async () => {
    expect(await call('GET', '/v2/anything')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
  });
});

describe('QR gateway sandbox in baht', () => {
  it('takes whole baht and prints them in the payload', async () => {
    const sandbox = await startQrGatewaySandbox({ accounts: [{ apiKey: KEY }], amountUnit: 'baht' });
    try {
      const post = (amount: number) =>
        fetch(`${sandbox.baseUrl}/v1/qr-codes`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ amount, currency: 'THB', reference: 'dep_1', client_name: 'A' }),
        });
      const created = (await (await post(1250)).json()) as Json;
      expect(created.qr_payload).toContain('54071250.00');
      expect((await post(2_000_001)).status).toBe(400);
      expect((await post(1)).status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });
});
