// Every payment status the deposit gateway's spec lists reaches a deposit (A27): a payment
// authorized (approved_for_payment) and then settled, and payments that expire, are cancelled or
// fail with a technical error, each announced by its own signed webhook from the sandbox.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { readDeposit } from '../webhooks/support.js';
import { CARD_INPUT } from './fixtures.js';
import { CreateDepositMutation, DepositQuery } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
  // The payer decides, not the test-mode amount rule.
  t.gateway.sandboxes.get('deposit-gateway')!.controls.setAutoComplete(false);
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const read = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!;

async function openDeposit(): Promise<{ id: string; reference: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  const id = created.data!.createDeposit.deposit!.id;
  return { id, reference: (await readDeposit(t, id)).providerReference! };
}

describe('payment statuses without a transition in the spec', () => {
  it('approved_for_payment is AUTHORIZED, and the settlement that follows makes it SUCCEEDED', async () => {
    const { id, reference } = await openDeposit();
    controls().complete(reference, 'approved_for_payment');
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe('AUTHORIZED');
    expect(await read(id)).toMatchObject({ providerStatus: 'approved_for_payment', approvedAt: null });
    controls().complete(reference, 'approved');
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe('SUCCEEDED');
  });

  it.each([
    ['expired', 'EXPIRED'],
    ['cancelled', 'CANCELLED'],
    ['error', 'FAILED'],
  ] as const)('%s is %s, with no payment.declined and no money', async (outcome, status) => {
    const { id, reference } = await openDeposit();
    controls().complete(reference, outcome);
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe(status);
    expect(await read(id)).toMatchObject({ providerStatus: outcome, approvedAt: null });
    const events = controls().events().filter((event) => event.data.reference === reference).map((event) => event.event);
    expect(events).toContain(`payment.${outcome}`);
    expect(events).not.toContain('payment.declined');
    expect(controls().payment(reference)).toMatchObject({ status: outcome, approved_at: null });
    // Terminal at the provider too: a late approval changes nothing.
    controls().complete(reference, 'approved');
    expect(controls().payment(reference)!.status).toBe(outcome);
  });
});
