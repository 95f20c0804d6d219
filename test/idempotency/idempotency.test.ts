// One idempotency layer for every money-moving mutation (Stripe's model): the first response under
// a key is stored and replayed byte for byte, later state changes notwithstanding; refusals and
// userErrors are replayed the same way for createDeposit, createQrCode, requestRefund and
// createPayout; a duplicate that arrives while the first request is still at the provider waits
// for it (a lease and a notification, not a polling loop) and never makes a second provider call,
// also when that call takes 30 s, for hosted checkout, and across two gateway instances.

import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from '../qr/operations.js';
import { RequestRefundMutation } from '../refunds/operations.js';
import { succeededDeposit } from '../refunds/support.js';
import { CreateApiClientMutation } from '../foundation/operations.js';
import type { TestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';

/** The HTTP response body exactly as a client receives it. */
async function rawResponse<TResult, TVariables>(url: string, document: TypedDocumentNode<TResult, TVariables>, variables: TVariables, key: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: print(document), variables }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

const until = async (check: () => Promise<boolean>, timeoutMs = 15_000) => {
  await expect.poll(check, { timeout: timeoutMs, interval: 25 }).toBe(true);
};

const QR_ACCOUNT = { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true, apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'] };
/**
 * A provider call may take 45 s before we give up on it, with no automatic retry: the holder of a
 * key keeps its lease at least that long.
 */
const GATEWAY_ENV = { MERCHANT_ACCOUNTS: JSON.stringify([...ACCOUNTS, QR_ACCOUNT]), PROVIDER_TIMEOUT_MS: '45000', PROVIDER_MAX_RETRIES: '0' };

let t: TestGateway & { database: TestDatabase };
let url: string;
let refundsKey: string;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({ env: GATEWAY_ENV });
  url = t.gateway.graphqlUrl;
  const created = await execute(url, CreateApiClientMutation, { input: { name: 'refunds-office', roles: ['REFUNDS'] } }, { key: t.keys.admin });
  refundsKey = created.data!.createApiClient.key!;
  payoutsKey = await payoutsClient(t, 'payout-service');
  // From here to the end of the file, setTimeout runs on a clock of its own, so a test can let a
  // provider call take 30 s without waiting for them. It keeps pace with real time otherwise, and
  // stays installed until every gateway of the file has stopped, so no timer of theirs is lost.
  // (Installed after the first requests: fetch's shared timer, created by then, stays a real one.)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true, advanceTimeDelta: 5 });
});
afterAll(async () => {
  try {
    await t?.close();
  } finally {
    vi.useRealTimers();
  }
});

const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const status = async (id: string) => (await execute(url, DepositQuery, { id }, { key: t.keys.admin })).data?.deposit?.status;

describe('a stored response', () => {
  it('is replayed byte for byte, even after the deposit has moved on', async () => {
    const variables = { input: { ...CARD_INPUT, idempotencyKey: randomUUID() } };
    const first = await rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);
    const { id, status: firstStatus } = JSON.parse(first).data.createDeposit.deposit;
    expect(firstStatus).toBe('PENDING');
    await until(async () => (await status(id)) === 'SUCCEEDED');
    const calls = sandbox().requestCount('/payments', 'POST');

    const replay = await rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);

    expect(replay).toBe(first);
    expect(sandbox().requestCount('/payments', 'POST')).toBe(calls);
  });

  it('replays a provider refusal with its userErrors for createDeposit', async () => {
    const account = () => t.gateway.config.merchantAccounts.find((candidate) => candidate.code === 'dg-test')!.apiKey;
    const variables = { input: { amount: '20.00', currency: 'EUR', customer: CARD_INPUT.customer, crypto: {}, idempotencyKey: randomUUID() } };
    sandbox().setAccount(account(), { disabledRails: ['crypto'] });
    let first: string;
    try {
      first = await rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);
    } finally {
      sandbox().setAccount(account(), { disabledRails: [] });
    }
    expect(JSON.parse(first).data.createDeposit).toMatchObject({ deposit: { status: 'FAILED' }, userErrors: [{ code: 'RAIL_DISABLED' }] });
    const calls = sandbox().requestCount('/payments', 'POST');

    // The rail is enabled again: still the stored answer, and no second provider call.
    expect(await rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier)).toBe(first);
    expect(sandbox().requestCount('/payments', 'POST')).toBe(calls);
  });

  it('replays a provider refusal with its userErrors for createPayout', async () => {
    const variables = { input: { ...CHILE_INPUT, merchantAccount: 'dg-live-sim', idempotencyKey: randomUUID() } };
    const first = await rawResponse(url, CreatePayoutMutation, variables, payoutsKey);
    expect(JSON.parse(first).data.createPayout).toMatchObject({ payout: { status: 'FAILED' }, userErrors: [{ code: 'PAYOUTS_NOT_ENABLED' }] });
    const calls = sandbox().requestCount('/payouts', 'POST');

    expect(await rawResponse(url, CreatePayoutMutation, variables, payoutsKey)).toBe(first);
    expect(sandbox().requestCount('/payouts', 'POST')).toBe(calls);
  });

  it('replays a refused refund with its userErrors, and an accepted one as it was', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const over = { input: { depositId: deposit.id, amount: '30.00', idempotencyKey: randomUUID() } };
    const refused = await rawResponse(url, RequestRefundMutation, over, refundsKey);
    expect(JSON.parse(refused).data.requestRefund).toMatchObject({ refund: null, userErrors: [{ code: 'REFUND_EXCEEDS_REFUNDABLE' }] });
    expect(await rawResponse(url, RequestRefundMutation, over, refundsKey)).toBe(refused);

    const full = { input: { depositId: deposit.id, idempotencyKey: randomUUID() } };
    const accepted = await rawResponse(url, RequestRefundMutation, full, refundsKey);
    // REQUESTED, or already APPROVED when the provider's webhook overtook its answer.
    expect(JSON.parse(accepted).data.requestRefund).toMatchObject({ refund: { id: expect.stringMatching(/^rfd_/) }, userErrors: [] });
    await until(async () => (await status(deposit.id)) === 'REFUNDED');
    const calls = sandbox().requestCount('/refunds', 'POST');
    expect(await rawResponse(url, RequestRefundMutation, full, refundsKey)).toBe(accepted);
    expect(sandbox().requestCount('/refunds', 'POST')).toBe(calls);
  });

  it('replays createQrCode as it was, after the QR code was paid', async () => {
    const variables = { input: { amount: '150.00', payer: { name: 'Somchai' }, merchantAccount: 'qr-test', idempotencyKey: randomUUID() } };
    const first = await rawResponse(url, CreateQrCodeMutation, variables, t.keys.webCashier);
    const { id } = JSON.parse(first).data.createQrCode.deposit;
    const paid = await execute(url, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(paid.data!.simulateQrPayment.userErrors).toEqual([]);
    await until(async () => (await status(id)) === 'SUCCEEDED');

    expect(await rawResponse(url, CreateQrCodeMutation, variables, t.keys.webCashier)).toBe(first);
  });
});

describe('a duplicate in flight', () => {
  it('waits for the first request, even when its provider call takes 30 s, without polling and without a second provider call', async () => {
    const variables = { input: { ...CARD_INPUT, idempotencyKey: randomUUID() } };
    const calls = sandbox().requestCount('/payments', 'POST');
    // The provider holds the first call for 31 s, then processes it.
    sandbox().failNext({ hangMs: 31_000, thenProcess: true, method: 'POST' });
    const first = rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);
    // The sandbox has read the whole call, so its 31 s have started.
    await until(async () => sandbox().requestBodies('/payments', 'POST').slice(calls).some((body) => body !== ''));

    const keyStatements: string[] = [];
    const unwatch = t.gateway.db.watchQueries((sql) => {
      if (/idempotency_key/.test(sql)) keyStatements.push(sql.trim());
    });
    const duplicates = Promise.all([1, 2].map(() => rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier)));
    // Each duplicate tries to take the key, finds it held and looks at it once; a round trip later
    // both wait.
    await until(async () => keyStatements.length >= 4);
    await t.gateway.db.fork().execute('select 1');
    // The provider's 31 s pass on the timers' clock, a second at a time: whatever is due fires (the
    // sandbox's hold at the end, not the gateway's 45 s provider time-out), and a round trip lets
    // the database work it started run. A waiter woken by a timer meanwhile (a poll, a lease
    // shorter than the call) would look at the key again.
    for (let second = 0; second < 31; second++) {
      await vi.advanceTimersByTimeAsync(1_000);
      await t.gateway.db.fork().execute('select 1');
    }

    const [answer, copies] = await Promise.all([first, duplicates]);
    unwatch();
    // Two waiting duplicates: each looked at the key once, then nothing until the first one's
    // release, 31 s later (a polling loop would read the row every few hundred milliseconds).
    const release = keyStatements.findIndex((sql) => sql.startsWith('update idempotency_key set response = '));
    expect(release).toBe(4);
    expect(JSON.parse(answer).data.createDeposit.userErrors).toEqual([]);
    expect(copies).toEqual([answer, answer]);
    expect(sandbox().requestCount('/payments', 'POST') - calls).toBe(1);
  });

  it('waits for a hosted checkout session being created, and no second session is made', async () => {
    const variables = {
      input: { amount: '40.00', currency: 'EUR', merchantAccount: 'dg-live-sim', returnUrl: 'https://shop.example/return', hostedCheckout: {}, idempotencyKey: randomUUID() },
    };
    const sessions = sandbox().requestCount('/checkout-sessions', 'POST');
    sandbox().failNext({ hangMs: 1_500, thenProcess: true, method: 'POST' });
    const first = rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);
    await until(async () => sandbox().requestCount('/checkout-sessions', 'POST') > sessions);
    const duplicate = rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);

    const [answer, copy] = await Promise.all([first, duplicate]);
    expect(JSON.parse(answer).data.createDeposit).toMatchObject({ deposit: { rail: 'HOSTED_CHECKOUT', status: 'PENDING' }, userErrors: [] });
    expect(copy).toBe(answer);
    expect(sandbox().requestCount('/checkout-sessions', 'POST') - sessions).toBe(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('a duplicate sent to instance B waits for instance A and answers what A answered', async () => {
    const b = await startTestGateway({ database: t.database, env: GATEWAY_ENV });
    try {
      const variables = { input: { ...CARD_INPUT, idempotencyKey: randomUUID() } };
      const calls = sandbox().requestCount('/payments', 'POST');
      sandbox().failNext({ hangMs: 2_000, thenProcess: true, method: 'POST' });
      const first = rawResponse(url, CreateDepositMutation, variables, t.keys.webCashier);
      await until(async () => sandbox().requestCount('/payments', 'POST') > calls);
      const onB = rawResponse(b.gateway.graphqlUrl, CreateDepositMutation, variables, t.keys.webCashier);

      const [answer, copy] = await Promise.all([first, onB]);
      expect(copy).toBe(answer);
      expect(sandbox().requestCount('/payments', 'POST') - calls).toBe(1);
      expect(b.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/payments', 'POST')).toBe(0);
    } finally {
      await b.close();
    }
  });
});
