// Every provider call goes through the one provider transport: it is counted in /metrics by
// provider, operation and outcome, with its duration, and logged once per attempt with method,
// path, status, duration and attempt, and never with an API key, a webhook secret or the payer's
// details. A real gateway, its sandboxes over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { CreateQrCodeMutation } from '../qr/operations.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const payer = { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' };

/** A sample of /metrics named by its labels, in the order prom-client writes them. */
const sample = (name: string, labels: Record<string, string>) =>
  metric(t, new RegExp(`^${name}\\{${Object.entries(labels).map(([key, value]) => `${key}="${value}"`).join(',')}\\} (\\d+(?:\\.\\d+)?)$`, 'm'));

describe('provider calls', () => {
  it('are counted in /metrics by provider, operation and outcome, with a latency histogram', async () => {
    const cards = { provider: 'deposit-gateway', operation: 'createDeposit', outcome: 'success' };
    const qr = { provider: 'qr-gateway', operation: 'createDeposit', outcome: 'success' };
    const before = { cards: await sample('gateway_provider_calls_total', cards), qr: await sample('gateway_provider_calls_total', qr) };

    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(deposit.errors).toBeUndefined();
    expect(deposit.data!.createDeposit.userErrors).toEqual([]);
    const code = await execute(t.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', payer } }, { key: t.keys.webCashier });
    expect(code.errors).toBeUndefined();
    expect(code.data!.createQrCode.userErrors).toEqual([]);

    expect(await sample('gateway_provider_calls_total', cards)).toBe(before.cards + 1);
    expect(await sample('gateway_provider_calls_total', qr)).toBe(before.qr + 1);
    const { provider, operation } = cards;
    expect(await sample('gateway_provider_call_duration_seconds_count', { provider, operation })).toBeGreaterThanOrEqual(1);
    const text = await (await fetch(t.gateway.metricsUrl)).text();
    expect(text).toContain('# TYPE gateway_provider_calls_total counter');
    expect(text).toContain('# TYPE gateway_provider_call_duration_seconds histogram');
  });

  it('count a failed attempt as an error of its provider and operation, and its retry, beside the attempt that succeeded', async () => {
    const labels = { provider: 'deposit-gateway', operation: 'createDeposit' };
    const read = async () => ({
      failed: await sample('gateway_provider_calls_total', { ...labels, outcome: 'server_error' }),
      succeeded: await sample('gateway_provider_calls_total', { ...labels, outcome: 'success' }),
      retries: await sample('gateway_provider_retries_total', labels),
      timed: await sample('gateway_provider_call_duration_seconds_count', labels),
    });
    const before = await read();

    // Given the provider answers the next create with a 500, when a deposit is created
    t.gateway.sandboxes.get('deposit-gateway')!.controls.failNext({ status: 500, method: 'POST', path: '/payments' });
    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });

    // Then the create went through on its retry, and /metrics counts both attempts by their outcome
    expect(deposit.errors).toBeUndefined();
    expect(deposit.data!.createDeposit.userErrors).toEqual([]);
    expect(await read()).toEqual({ failed: before.failed + 1, succeeded: before.succeeded + 1, retries: before.retries + 1, timed: before.timed + 2 });
  });

  it('are logged per attempt, with method, path, status, duration and attempt, and never with a key, a secret or the payer\'s details', async () => {
    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(deposit.errors).toBeUndefined();
    const code = await execute(t.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', payer } }, { key: t.keys.webCashier });
    expect(code.errors).toBeUndefined();

    const calls = t.logs.filter((line) => line.includes('"msg":"provider call')).map((line) => ({ line, parsed: JSON.parse(line) as Record<string, unknown> }));
    for (const provider of ['deposit-gateway', 'qr-gateway']) {
      expect(calls.find(({ parsed }) => parsed.provider === provider && parsed.operation === 'createDeposit' && parsed.method === 'POST')?.parsed).toMatchObject({
        account: expect.any(String),
        path: expect.stringMatching(/^\//),
        status: expect.any(Number),
        durationMs: expect.any(Number),
        attempt: 1,
        request: expect.stringMatching(/^\{/),
      });
    }
    const everything = calls.map(({ line }) => line).join('\n');
    const secrets = t.gateway.config.merchantAccounts.flatMap((account) => [account.apiKey, ...account.webhookSecrets]);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of [...secrets, 'Bearer', 'ana@example.com', 'Somchai Jaidee', '1234567890']) expect(everything).not.toContain(secret);
    // The registration of the gateway's webhook with the QR sandbox at start-up sent a secret: masked too.
    expect(calls.some(({ parsed }) => parsed.operation === 'registerWebhook' && String(parsed.request).includes('secret: ***'))).toBe(true);
  });
});
