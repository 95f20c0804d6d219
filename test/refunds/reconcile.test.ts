// Refunds are reconciled like deposits: a REQUESTED refund whose webhooks were lost is settled from
// the payment's refund_status, one whose submission outcome is unknown is resubmitted under its own
// id; and only refund rows decide REFUNDED: a provider's payment-level "refunded" (webhook or
// lookup) is a duplicate, acknowledged, recorded as a PROVIDER refund or kept as an anomaly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Refund } from '../../src/modules/refunds/refund.entity.js';
import { execute } from '../support/gateway.js';
import { ReconcileDepositMutation, WebhookDeliveriesQuery } from '../reconciliation/operations.js';
import { paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';
import { DepositRefundsQuery, RefundQuery, RequestRefundMutation } from './operations.js';
import { startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway({ env: { RECONCILE_INTERVAL_MS: '200', RECONCILE_AFTER_MS: '0' } });
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const apiKey = () => t.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!.apiKey;
const refundStatus = async (id: string) => (await execute(t.gateway.graphqlUrl, RefundQuery, { id }, { key: t.refundsKey })).data?.refund?.status;
const depositRefunds = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.refundsKey })).data!.deposit!;

async function requestRefund(depositId: string, amount: string) {
  const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount } }, { key: t.refundsKey });
  expect(requested.errors).toBeUndefined();
  return requested.data!.requestRefund;
}

async function refundEvents(refundId: string): Promise<string[]> {
  const rows = await t.gateway.db.fork().execute<Array<{ type: string; from_status: string | null; to_status: string }>>(
    "select type, from_status, to_status from payment_event where subject_type = 'refund' and subject_id = ? order by position",
    [refundId],
  );
  return rows.map((row) => `${row.type}:${row.from_status ?? ''}->${row.to_status}`);
}

async function delivery(eventId: string) {
  const listed = await execute(t.gateway.graphqlUrl, WebhookDeliveriesQuery, { first: 50 }, { key: t.keys.admin });
  return listed.data!.webhookDeliveries.edges.map((edge) => edge.node).find((node) => node.eventId === eventId);
}

describe('reconciling REQUESTED refunds', () => {
  it('a refund whose webhooks were lost is settled from the payment\'s refund_status, with its events and the deposit\'s refunded amount', async () => {
    // given: the provider takes and approves the refund, but both refund webhooks are lost
    const deposit = await succeededDeposit(t, '25.00');
    controls().webhooks({ dropNext: 2 });
    const requested = await requestRefund(deposit.id, '25.00');
    expect(requested.userErrors).toEqual([]);
    const id = requested.refund!.id;

    // when: only the reconciler runs
    await expect.poll(() => refundStatus(id), { interval: 100 }).toBe('APPROVED');

    // then
    expect(controls().deliveries().filter((entry) => entry.dropped)).toHaveLength(2);
    expect(await refundEvents(id)).toEqual(['refund.created:->REQUESTED', 'refund.status_changed:REQUESTED->APPROVED']);
    expect(await depositRefunds(deposit.id)).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '25.00' }, refundStatus: 'APPROVED' });
  });

  it('a refund whose submission outcome is unknown is resubmitted under its own id: one refund at the provider', async () => {
    // given: every attempt of our refund call fails with 503, so we do not know whether it was taken
    const deposit = await succeededDeposit(t, '30.00');
    controls().failNext({ status: 503, count: 3, method: 'POST' });
    const requested = await requestRefund(deposit.id, '10.00');
    expect(requested.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const id = requested.refund!.id;

    // when / then: the reconciler resubmits it and the provider's webhooks decide it
    await expect.poll(() => refundStatus(id), { interval: 100 }).toBe('APPROVED');
    await controls().idle();
    expect(controls().refunds(deposit.reference)).toEqual([expect.objectContaining({ amount: '10.00', status: 'approved' })]);
    expect(await depositRefunds(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '10.00' } });
  });
});

describe('a provider\'s payment-level "refunded"', () => {
  it('with no refund of ours to explain it, is kept as an anomaly and changes nothing', async () => {
    const deposit = await succeededDeposit(t, '20.00');
    const envelope = paymentEnvelope(await readDeposit(t, deposit.id), 'refunded');

    const answered = await sendWebhook(t, envelope);

    expect(answered).toEqual({ status: 200, body: { received: true, outcome: 'anomaly' } });
    expect((await delivery(envelope.id))?.reason).toMatch(/^REFUND_NOT_RECORDED: /);
    expect(await depositRefunds(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '0.00' }, refunds: [] });
  });

  it('after our own refund moved the deposit to REFUNDED, is a duplicate', async () => {
    const deposit = await succeededDeposit(t, '21.00');
    const requested = await requestRefund(deposit.id, '21.00');
    await expect.poll(() => refundStatus(requested.refund!.id), { interval: 50 }).toBe('APPROVED');
    const envelope = paymentEnvelope(await readDeposit(t, deposit.id), 'refunded');

    const answered = await sendWebhook(t, envelope);

    expect(answered).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    const read = await depositRefunds(deposit.id);
    expect(read).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '21.00' } });
    expect(read.refunds).toHaveLength(1);
    expect(read.events.filter((event) => event.toStatus === 'REFUNDED')).toHaveLength(1);
  });

  it('while a refund of ours is open, is acknowledged without a change: the refund\'s own events decide', async () => {
    // given: a refund the provider knows (it has its id) and has not decided yet
    const deposit = await succeededDeposit(t, '22.00');
    const em = t.gateway.db.fork();
    const open = em.create(Refund, {
      id: newId('rfd'),
      depositId: deposit.id,
      clientId: t.gateway.demoClients.find((client) => client.roles.includes('ADMIN'))!.id,
      amount: '22.00',
      currency: 'EUR',
      reason: null,
      status: 'REQUESTED',
      providerReference: 'rf_still_open',
      providerStatus: 'pending',
      submissionError: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    const envelope = paymentEnvelope(await readDeposit(t, deposit.id), 'refunded');

    // when
    const answered = await sendWebhook(t, envelope);

    // then
    expect(answered).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
    expect((await delivery(envelope.id))?.reason).toMatch(/^REFUND_IN_PROGRESS: /);
    expect(await depositRefunds(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '0.00' }, refunds: [{ id: open.id, status: 'REQUESTED' }] });
  });

  it('read by reconciliation for a payment reversed in full outside the gateway, becomes a PROVIDER refund that moves the deposit to REFUNDED', async () => {
    // given: the payment is refunded on the provider's dashboard and the refund's webhooks are lost
    const deposit = await succeededDeposit(t, '23.00');
    controls().webhooks({ dropNext: 2 });
    const made = await fetch(`${t.gateway.sandboxes.get('deposit-gateway')!.baseUrl}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: deposit.reference, reason: 'dashboard' }),
    });
    expect(made.status).toBe(201);
    await controls().idle();
    expect(controls().payment(deposit.reference)).toMatchObject({ status: 'refunded', refund_status: 'refunded' });

    // when
    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: deposit.id }, { key: t.keys.admin });

    // then: a refund row explains the status; asked again, nothing changes
    expect(reconciled.errors).toBeUndefined();
    expect(reconciled.data!.reconcileDeposit).toMatchObject({ outcome: 'APPLIED', deposit: { status: 'REFUNDED' } });
    const read = await depositRefunds(deposit.id);
    expect(read).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '23.00' }, refundStatus: 'APPROVED' });
    expect(read.refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'APPROVED', amount: { amount: '23.00', currency: 'EUR' } })]);
    const again = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: deposit.id }, { key: t.keys.admin });
    expect(again.data!.reconcileDeposit.outcome).toBe('UNCHANGED');
    expect((await depositRefunds(deposit.id)).refunds).toHaveLength(1);
  });
});
