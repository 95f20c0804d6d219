// Unit spec of the provider transport (provider-transport.ts) with a fake exchange and no waiting:
// which calls are sent again and after what back-off, which answers are transient, the idempotency
// header, time-outs and network errors, the URL, the reports its listeners get, and the call logs:
// one line per attempt with method, path, status, duration and attempt, and masked summaries that
// never show a key, a secret, a name or an account number.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExchangeTimedOut, type OutgoingRequest, type ReceivedAnswer } from '../lib/http.js';
import { createLogger } from '../lib/logger.js';
import type { ProviderProfile, ProviderRequest } from '../providers/transport.js';
import { createProviderTransport, maskedSummary, type ProviderCallReport, type ProviderTransportSettings } from './provider-transport.js';

const KEY = 'sk_test_transport_spec_key';

/** What the fake provider does on each attempt, in turn: answer with a status and body, or throw. */
type Step = { status: number; text?: string } | Error;

function harness(steps: Step[], settings: ProviderTransportSettings = {}, profile: Partial<ProviderProfile> = {}) {
  const sent: Array<{ url: URL; request: OutgoingRequest }> = [];
  const waits: number[] = [];
  const reports: ProviderCallReport[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw.push(chunk.toString('utf8'));
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    }),
  });
  const transport = createProviderTransport({
    timeoutMs: 1_000,
    maxRetries: 2,
    logger,
    ...settings,
    exchange: async (url, request): Promise<ReceivedAnswer> => {
      sent.push({ url, request });
      const step = steps[Math.min(sent.length - 1, steps.length - 1)]!;
      if (step instanceof Error) throw step;
      return { status: step.status, text: step.text ?? '' };
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    onCall: [(report) => reports.push(report), ...(settings.onCall ?? [])],
  });
  const sender = transport.sender({ provider: 'acme', idempotencyHeader: 'Idempotency-Key', ...profile });
  return { transport, sender, sent, waits, reports, lines, raw };
}

const read = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  operation: 'getDeposit',
  account: 'acme-test',
  method: 'GET',
  baseUrl: 'http://provider.test/v1/',
  path: '/payments/pay_1',
  headers: { authorization: `Bearer ${KEY}` },
  retryable: true,
  ...overrides,
});

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe('retries', () => {
  it('sends a retryable call again after a 5xx, with back-off, and returns the answer that ended it', async () => {
    const { sender, sent, waits } = harness([{ status: 502 }, { status: 503 }, { status: 200, text: '{"ok":true}' }]);
    expect(await sender.send(read())).toEqual({ kind: 'answered', status: 200, text: '{"ok":true}', attempts: 3 });
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([200, 400]);
  });

  it('stops after 1 + maxRetries attempts and returns the last answer, transient or not', async () => {
    const { sender, sent, waits } = harness([{ status: 500, text: 'down' }], { maxRetries: 1, backoff: { baseMs: 10 } });
    expect(await sender.send(read())).toEqual({ kind: 'answered', status: 500, text: 'down', attempts: 2 });
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([10]);
  });

  it('sends a call that is not retryable once, whatever happens to it', async () => {
    for (const step of [{ status: 500 }, new ExchangeTimedOut(1_000), refused()]) {
      const { sender, sent, waits } = harness([step]);
      expect((await sender.send(read({ method: 'POST', retryable: false }))).attempts).toBe(1);
      expect(sent).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('does not repeat an answer that is not transient: a 4xx is the provider\'s answer', async () => {
    const { sender, sent } = harness([{ status: 429 }, { status: 200 }]);
    expect(await sender.send(read())).toMatchObject({ kind: 'answered', status: 429, attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('takes the provider\'s transient statuses (a 429), and a request\'s own (a 503 that is an answer)', async () => {
    const limited = harness([{ status: 429 }, { status: 200 }], {}, { transientStatus: (status) => status === 429 || status >= 500 });
    expect(await limited.sender.send(read())).toMatchObject({ kind: 'answered', status: 200, attempts: 2 });
    const answer = harness([{ status: 503 }, { status: 200 }]);
    expect(await answer.sender.send(read({ transientStatus: (status) => status >= 500 && status !== 503 }))).toMatchObject({ status: 503, attempts: 1 });
  });

  it('reports a time-out and a network error as unanswered, after retrying them', async () => {
    const timedOut = harness([new ExchangeTimedOut(1_000)]);
    expect(await timedOut.sender.send(read())).toEqual({ kind: 'unanswered', reason: 'timeout', message: 'timed out after 1000 ms', attempts: 3 });
    const network = harness([refused(), { status: 200 }]);
    expect(await network.sender.send(read())).toMatchObject({ kind: 'answered', status: 200, attempts: 2 });
    const down = harness([refused()], { maxRetries: 0 });
    expect(await down.sender.send(read())).toEqual({ kind: 'unanswered', reason: 'network', message: 'connect ECONNREFUSED 127.0.0.1:1', attempts: 1 });
  });

  it('gives each attempt the time-out', async () => {
    const { sender, sent } = harness([{ status: 500 }, { status: 200 }], { timeoutMs: 1_234 });
    await sender.send(read());
    expect(sent.map((one) => one.request.timeoutMs)).toEqual([1_234, 1_234]);
  });

  it('knows its longest retryable call: every attempt timing out and the back-off between them', () => {
    expect(createProviderTransport({ timeoutMs: 1_000, maxRetries: 2 }).longestCallMs()).toBe(3 * 1_000 + 200 + 400);
    expect(createProviderTransport({ timeoutMs: 1_000, maxRetries: 9 }).longestCallMs()).toBe(10 * 1_000 + 200 + 400 + 800 + 1_600 + 5 * 2_000);
  });
});

describe('the request on the wire', () => {
  it('joins the base URL, the path and the query, and leaves undefined query values out', async () => {
    const { sender, sent } = harness([{ status: 200 }]);
    await sender.send(read({ path: '/payments', query: { limit: 5, before: undefined } }));
    expect(sent[0]!.url.href).toBe('http://provider.test/v1/payments?limit=5');
  });

  it('sends the adapter\'s headers and body, and the idempotency key in the provider\'s header', async () => {
    const { sender, sent } = harness([{ status: 201 }]);
    await sender.send(read({ method: 'POST', body: '{"amount":"10.00"}', idempotencyKey: 'dep_1', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }));
    expect(sent[0]!.request).toEqual({
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'Idempotency-Key': 'dep_1' },
      body: '{"amount":"10.00"}',
      timeoutMs: 1_000,
    });
  });
});

describe('reports', () => {
  it('tells the listeners of every attempt: provider, operation, outcome and whether another follows', async () => {
    const { sender, reports } = harness([{ status: 500 }, new ExchangeTimedOut(1_000), refused(), { status: 404 }]);
    await sender.send(read());
    expect(reports.map(({ provider, operation, outcome, attempt, willRetry }) => ({ provider, operation, outcome, attempt, willRetry }))).toEqual([
      { provider: 'acme', operation: 'getDeposit', outcome: 'server_error', attempt: 1, willRetry: true },
      { provider: 'acme', operation: 'getDeposit', outcome: 'timeout', attempt: 2, willRetry: true },
      { provider: 'acme', operation: 'getDeposit', outcome: 'network_error', attempt: 3, willRetry: false },
    ]);
    const more = harness([{ status: 404 }, { status: 302 }]);
    await more.sender.send(read());
    await more.sender.send(read());
    expect(more.reports.map((report) => report.outcome)).toEqual(['client_error', 'unexpected_status']);
    expect(reports.every((report) => Number.isInteger(report.durationMs) && report.durationMs >= 0)).toBe(true);
  });

  it('answers the call even when a listener throws', async () => {
    const { sender, lines, reports } = harness([{ status: 200 }], {
      onCall: [
        () => {
          throw new Error('metrics broke');
        },
      ],
    });
    expect(await sender.send(read())).toMatchObject({ kind: 'answered', status: 200 });
    expect(lines.some((line) => line.msg === 'provider call listener failed')).toBe(true);
    // The other listeners are told all the same.
    expect(reports).toHaveLength(1);
  });
});

describe('call logs', () => {
  const body = JSON.stringify({
    amount: '25.00',
    currency: 'EUR',
    email: 'ana@example.com',
    firstName: 'Ana',
    beneficiary: { name: 'Ana Silva', account_number: '000123456700', bank_code: 'BCP' },
    secret: 'whsec_should_not_show',
  });

  it('writes one line per attempt: operation, account, method, path, status, duration and attempt', async () => {
    const { sender, lines } = harness([{ status: 503 }, { status: 201, text: '{"ok":true,"reference":"pay_9","status":"pending"}' }], {}, { shownFields: ['ok', 'reference', 'status', 'amount', 'currency'] });
    await sender.send(read({ method: 'POST', path: '/payments', body, idempotencyKey: 'dep_2' }));
    const calls = lines.filter((line) => line.msg === 'provider call');
    expect(calls).toEqual([
      expect.objectContaining({ level: 40, operation: 'getDeposit', account: 'acme-test', method: 'POST', path: '/payments', status: 503, attempt: 1, willRetry: true, durationMs: expect.any(Number) }),
      expect.objectContaining({ level: 20, status: 201, attempt: 2, willRetry: false, response: '{ok: true, reference: "pay_9", status: "pending"}' }),
    ]);
    expect(calls[0]!.provider).toBe('acme');
    expect(calls[1]!.request).toBe('{amount: "25.00", currency: "EUR", email: ***, firstName: ***, beneficiary: {name: ***, account_number: ***, bank_code: ***}, secret: ***}');
  });

  it('logs a failed attempt at warn with its reason', async () => {
    const { sender, lines } = harness([new ExchangeTimedOut(1_000)], { maxRetries: 0 });
    await sender.send(read());
    expect(lines.find((line) => line.msg === 'provider call failed')).toMatchObject({ level: 40, path: '/payments/pay_1', attempt: 1, reason: 'timed out after 1000 ms' });
  });

  it('never writes a header, the key, a secret, a name, an e-mail address or an account number', async () => {
    const { sender, raw } = harness([{ status: 500, text: body }, { status: 200, text: body }], {}, { shownFields: ['amount', 'currency'] });
    await sender.send(read({ method: 'POST', body, headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY } }));
    const everything = raw.join('\n');
    expect(everything).toContain('provider call');
    for (const secret of [KEY, 'Bearer', 'x-api-key', 'whsec_should_not_show', 'ana@example.com', '"Ana', 'Ana Silva', '000123456700']) expect(everything).not.toContain(secret);
  });

  it('logs under the adapter\'s logger when its profile names one, bound by the registry: provider once', async () => {
    const raw: string[] = [];
    const adapterLogger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          raw.push(chunk.toString('utf8'));
          done();
        },
      }),
    }).child({ provider: 'acme' });
    const transport = createProviderTransport({ exchange: async () => ({ status: 200, text: '' }) });
    await transport.sender({ provider: 'acme', idempotencyHeader: 'Idempotency-Key', logger: adapterLogger }).send(read());
    expect(raw).toHaveLength(1);
    expect(raw[0]!.match(/"provider":/g)).toHaveLength(1);
  });
});

describe('maskedSummary', () => {
  const shown = new Set(['status', 'amount', 'reference']);

  it('shows field names, and the values of shown fields only when they are short scalars', () => {
    expect(maskedSummary('{"status":"pending","amount":12000,"client_bank_account":"1234567890"}', shown)).toBe('{status: "pending", amount: 12000, client_bank_account: ***}');
    expect(maskedSummary(JSON.stringify({ reference: 'x'.repeat(65) }), shown)).toBe('{reference: ***}');
    expect(maskedSummary('{"status":{"reference":"r_1"}}', shown)).toBe('{status: {reference: "r_1"}}');
  });

  it('gives arrays as their length, deep objects as {…}, and text that is not JSON as its size', () => {
    expect(maskedSummary('{"events":["a","b"],"a":{"b":{"c":{"d":1}}}}', shown)).toBe('{events: [2], a: {b: {c: {…}}}}');
    expect(maskedSummary('[1,2,3]', shown)).toBe('[3]');
    expect(maskedSummary('"1234567890"', shown)).toBe('***');
    expect(maskedSummary('<html>Bad Gateway</html>', shown)).toBe('<24 bytes, not JSON>');
  });

  it('stays short', () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field_${i}`, i])));
    const summary = maskedSummary(wide, shown);
    expect(summary).toHaveLength(300);
    expect(summary.endsWith('…')).toBe(true);
  });
});
