// What the gateway keeps from the deposit gateway's record of a payment (spec: Payment fields):
// `approvedAt` is the payment's own `approved_at`, not the moment a webhook envelope was made, and a
// `net` that is not `amount - fee` is never applied but raised as an admin-only anomaly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';
import { CARD_INPUT } from './fixtures.js';
import { CreateDepositMutation, DepositQuery } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const dgKey = () => t.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!.apiKey;
const read = async (id: string, key = t.keys.admin) => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key })).data!.deposit!;

/** A card deposit the sandbox approved while its webhooks were lost: the gateway still has it PENDING. */
async function approvedAtTheProviderOnly(amount: string): Promise<{ id: string; reference: string }> {
  controls().webhooks({ apiKey: dgKey(), dropNext: 10 });
  try {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount } }, { key: t.keys.webCashier });
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const id = created.data!.createDeposit.deposit!.id;
    const reference = (await readDeposit(t, id)).providerReference!;
    await expect.poll(() => controls().payment(reference)?.status, { interval: 20 }).toBe('approved');
    return { id, reference };
  } finally {
    controls().webhooks({ apiKey: dgKey(), dropNext: 0 });
  }
}

/** The payment.approved webhook, signed, its envelope made `laterMs` after the payment's approval. */
async function approvedWebhook(id: string, reference: string, laterMs: number): Promise<void> {
  const envelope = paymentEnvelope(await readDeposit(t, id), 'approved');
  envelope.created_at = new Date(Date.parse(controls().payment(reference)!.approved_at!) + laterMs).toISOString();
  const answer = await sendWebhook(t, envelope);
  expect(answer).toMatchObject({ status: 200, body: { outcome: 'applied' } });
}

describe('provider details of a payment', () => {
  it('approvedAt is the payment approved_at, even when the webhook envelope was made later', async () => {
    const { id, reference } = await approvedAtTheProviderOnly('31.00');
    await approvedWebhook(id, reference, 60_000);
    const approvedAt = controls().payment(reference)!.approved_at!;
    await expect.poll(async () => (await read(id)).fee, { interval: 20 }).not.toBeNull();
    const deposit = await read(id);
    expect(deposit.status).toBe('SUCCEEDED');
    expect(new Date(deposit.approvedAt!).toISOString()).toBe(approvedAt);
  });

  it('a net that is not amount - fee is not applied, and is raised for admins alone', async () => {
    const { id, reference } = await approvedAtTheProviderOnly('40.00');
    const view = controls().payment(reference)!;
    controls().misreportNet(reference, '39.99');
    await approvedWebhook(id, reference, 0);

    await expect.poll(async () => (await read(id)).events.map((event) => event.type), { interval: 20 }).toContain('deposit.net_mismatch');
    const deposit = await read(id);
    expect(deposit).toMatchObject({ status: 'SUCCEEDED', fee: { amount: view.fee, currency: 'EUR' }, net: null });
    expect(deposit.events.filter((event) => event.type === 'deposit.net_mismatch')).toHaveLength(1);
    // The anomaly is for admins: the cashier who made the deposit sees the deposit, not the anomaly.
    expect((await read(id, t.keys.webCashier)).events.map((event) => event.type)).not.toContain('deposit.net_mismatch');
  });

  it('a net that is amount - fee is applied', async () => {
    const { id, reference } = await approvedAtTheProviderOnly('41.00');
    await approvedWebhook(id, reference, 0);
    const view = controls().payment(reference)!;
    await expect.poll(async () => (await read(id)).net, { interval: 20 }).toEqual({ amount: view.net, currency: 'EUR' });
    expect((await read(id)).events.map((event) => event.type)).not.toContain('deposit.net_mismatch');
  });
});
