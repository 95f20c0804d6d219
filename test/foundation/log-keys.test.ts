// One key once per log line: a pino child logger that binds a key a parent (or the call) binds
// again writes it twice in the same JSON object, which most log collectors reject or resolve
// arbitrarily. Every line of a realistic run (card deposits and their webhooks, a refund, a
// payout, a QR code paid through the QR sandbox, a badly signed webhook, graphql-ws) is read as
// raw text, since JSON.parse would keep the last value and hide the repeat.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../__generated__/graphql.js';
import { CreateApiClientMutation } from './operations.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation, PayoutQuery } from '../payouts/operations.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from '../qr/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';

/** The keys of the top-level object of one JSON line, in order, repeats kept. */
export function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let keyNext = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      let end = i + 1;
      while (line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      if (depth === 1 && keyNext) {
        keys.push(JSON.parse(line.slice(i, end + 1)) as string);
        keyNext = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 1) keyNext = true;
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      keyNext = true;
    }
  }
  return keys;
}

describe('log lines', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t?.close());

  it('reads repeated keys in raw JSON text', () => {
    expect(topLevelKeys('{"a":1,"b":{"a":2},"c":["a",{"a":3}],"d":"x\\"y","a":4}')).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('name each key once, through deposits, webhooks, a refund, a payout and a QR payment', async () => {
    const url = t.gateway.graphqlUrl;
    const key = async (name: string, roles: Role[]) => {
      const created = await execute(url, CreateApiClientMutation, { input: { name, roles } }, { key: t.keys.admin });
      expect(created.errors).toBeUndefined();
      return created.data!.createApiClient.key!;
    };
    const refundsKey = await key('log-refunds', ['REFUNDS']);
    const payoutsKey = await key('log-payouts', ['PAYOUTS']);

    // A cashier watching its deposits over graphql-ws while a card deposit succeeds by webhook.
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));
    const created = await execute(url, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier, headers: { 'idempotency-key': 'log-keys-deposit' } });
    expect(created.errors).toBeUndefined();
    const depositId = created.data!.createDeposit.deposit!.id;
    await updates.until((update) => update.id === depositId && update.status === 'SUCCEEDED');
    await ws.dispose();
    // A refused input: a userError on the audit line.
    await execute(url, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '1.234' } }, { key: t.keys.webCashier });

    // The back office refunds part of it; the sandbox approves by webhook.
    const refunded = await execute(url, RequestRefundMutation, { input: { depositId, amount: '5.00' } }, { key: refundsKey });
    expect(refunded.errors).toBeUndefined();
    const refundId = refunded.data!.requestRefund.refund!.id;
    await expect.poll(async () => (await execute(url, RefundQuery, { id: refundId }, { key: refundsKey })).data?.refund?.status, { interval: 20 }).toBe('APPROVED');

    // A payout, paid by webhook.
    const payout = await execute(url, CreatePayoutMutation, { input: CHILE_INPUT }, { key: payoutsKey });
    expect(payout.errors).toBeUndefined();
    const payoutId = payout.data!.createPayout.payout!.id;
    await expect.poll(async () => (await execute(url, PayoutQuery, { id: payoutId }, { key: payoutsKey })).data?.payout?.status, { interval: 20 }).toBe('PAID');

    // A Thai QR code, paid through the QR sandbox, which delivers its webhook.
    const payer = { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' };
    const qr = await execute(url, CreateQrCodeMutation, { input: { amount: '150.00', payer } }, { key: t.keys.webCashier });
    expect(qr.errors).toBeUndefined();
    const qrId = qr.data!.createQrCode.deposit!.id;
    expect((await execute(url, SimulateQrPaymentMutation, { input: { depositId: qrId, outcome: 'SUCCEEDED' } }, { key: t.keys.admin })).errors).toBeUndefined();
    await expect.poll(async () => (await execute(url, DepositQuery, { id: qrId }, { key: t.keys.webCashier })).data?.deposit?.status, { interval: 20 }).toBe('SUCCEEDED');

    // A webhook whose signature does not verify, and one for an account that does not exist.
    for (const account of ['dg-test', 'no-such-account']) {
      await fetch(`${t.gateway.url}/webhooks/deposit-gateway/${account}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': 't=1,v1=00' }, body: '{"id":"evt_1"}' });
    }
    await t.gateway.close(); // shutdown lines too

    const repeated = t.logs.flatMap((line) => {
      const keys = topLevelKeys(line);
      const twice = [...new Set(keys.filter((name, index) => keys.indexOf(name) !== index))];
      return twice.length > 0 ? [`${twice.join(', ')} in ${line}`] : [];
    });
    expect(t.logs.length).toBeGreaterThan(30);
    expect(repeated).toEqual([]);
  });
});
