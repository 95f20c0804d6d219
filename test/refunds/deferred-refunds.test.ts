// A refund event that overtakes its payment is kept `deferred` and applied once the payment
// settles, whichever way it settles (the payment's webhook, the reconciler, the card settle call):
// the status change schedules the release as a job, committed with it.
// Real gateway and database, the deposit sandbox over HTTP, signed refund webhooks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardSessionQuery, SettleCardDepositMutation } from '../card-form/operations.js';
import { loadCardForm, submitCard } from '../card-form/shopper.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { ReconcileDepositMutation } from '../reconciliation/operations.js';
import { execute } from '../support/gateway.js';
import { deliveries, sendWebhook, type Envelope } from '../webhooks/support.js';
import { DepositRefundsQuery } from './operations.js';
import { startRefundGateway, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  // Payments stay open until the test settles them; the reconciler runs only when asked.
  t = await startRefundGateway({ env: { SANDBOX_AUTO_COMPLETE: 'false', RECONCILER_ENABLED: 'false' } });
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;

/** A card deposit still PENDING at the provider, and the refund of all of it that the provider reported first. */
async function overtakenDeposit(name: string): Promise<{ id: string; reference: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '25.00' } }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  const id = created.data!.createDeposit.deposit!.id;
  const rows = await t.gateway.db.fork().execute<Array<{ provider_reference: string }>>('select provider_reference from deposit where id = ?', [id]);
  const reference = rows[0]!.provider_reference;
  const early: Envelope = {
    id: `evt_early_${name}_${Date.now()}`,
    event: 'refund.approved',
    livemode: false,
    created_at: new Date().toISOString(),
    data: { reference: `rf_early_${name}_${Date.now()}`, payment_reference: reference, status: 'approved', amount: '25.00', currency: 'EUR' },
  };
  expect(await sendWebhook(t, early)).toEqual({ status: 200, body: { received: true, outcome: 'deferred' } });
  expect(await depositOf(id)).toMatchObject({ status: 'PENDING', refunds: [] });
  // Whatever the provider sent about the new payment has arrived: the next webhook is its outcome.
  await controls().idle();
  return { id, reference };
}

async function depositOf(id: string) {
  const read = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.refundsKey });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!;
}

async function expectReleased(id: string): Promise<void> {
  await expect.poll(async () => (await depositOf(id)).status, { interval: 50 }).toBe('REFUNDED');
  const deposit = await depositOf(id);
  expect(deposit.events.filter((event) => event.type === 'deposit.status_changed').map((event) => [event.fromStatus, event.toStatus])).toEqual([
    ['PENDING', 'SUCCEEDED'],
    ['SUCCEEDED', 'REFUNDED'],
  ]);
  expect(deposit).toMatchObject({ refundedAmount: { amount: '25.00', currency: 'EUR' }, refundStatus: 'APPROVED' });
  expect(deposit.refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'APPROVED', amount: { amount: '25.00', currency: 'EUR' } })]);
  // The kept delivery was decided again and now names the refund it made.
  const kept = (await deliveries(t)).filter((row) => row.eventName === 'refund.approved' && row.subjectId === deposit.refunds[0]!.id);
  expect(kept).toEqual([expect.objectContaining({ outcome: 'applied', subjectType: 'refund', replayedAt: expect.any(Date) })]);
}

describe('a refund that overtook its payment', () => {
  it('is applied after the payment\'s webhook', async () => {
    const { id, reference } = await overtakenDeposit('webhook');
    controls().complete(reference, 'approved');
    await expectReleased(id);
  });

  it('is applied after the reconciler finds the payment approved (its webhook lost)', async () => {
    const { id, reference } = await overtakenDeposit('reconciler');
    // Completing sends payment.pending, then payment.approved: both are lost.
    controls().webhooks({ dropNext: 2 });
    controls().complete(reference, 'approved');
    await controls().idle();
    expect(await depositOf(id)).toMatchObject({ status: 'PENDING' });

    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id }, { key: t.keys.admin });
    expect(reconciled.errors).toBeUndefined();
    expect(reconciled.data!.reconcileDeposit).toMatchObject({ outcome: 'APPLIED' });
    await expectReleased(id);
  });

  it('is applied after the card settle call approves the payment (its webhook lost)', async () => {
    const { id } = await overtakenDeposit('settle');
    // The shopper pays in the processor's card fields; the settle call then finds the payment paid.
    const session = (await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier })).data!.cardSession!;
    await submitCard((await loadCardForm(session.scriptUrl!, session.formAction!, session.brands)).fieldsUrl);
    controls().webhooks({ dropNext: 1 });
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ userErrors: [], deposit: { status: 'SUCCEEDED' } });
    await expectReleased(id);
  });
});
