// What the QR gateway reports about money moved outside the gateway: refunds made on its dashboard
// (refund.completed / refund.failed) become refunds of our deposits and move their refunded
// amount; withdrawals (withdrawal.*) are kept with their latest status and enter the event log,
// which only admins see. Real gateway, database, QR sandbox deliveries over HTTP, graphql-ws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, subscribed } from '../deposits/support.js';
import { WebhookDeliveriesQuery } from '../reconciliation/operations.js';
import { DepositRefundsQuery, DepositRefundUpdatedSubscription, RequestRefundMutation } from '../refunds/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { wsClient } from '../support/ws.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation, WithdrawalEventsQuery, WithdrawalsQuery } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const apiKey = () => t.gateway.config.merchantAccounts.find((account) => account.code === 'qr-test')!.apiKey;
/** The provider sends an event to the gateway's registration (amounts in satang, Q2). */
const emit = (event: string, data: Record<string, unknown>) => t.gateway.sandboxes.get('qr-gateway')!.controls.emit(apiKey(), event, data);
const idle = () => t.gateway.sandboxes.get('qr-gateway')!.controls.idle();
const asAdmin = { key: () => t.keys.admin };

async function qrDeposit(paid = true): Promise<{ id: string; paymentId: string }> {
  const created = await execute(
    t.gateway.graphqlUrl,
    CreateQrCodeMutation,
    { input: { amount: '150.00', payer: { name: 'Somchai Jaidee' } } },
    { key: t.keys.webCashier },
  );
  const id = created.data!.createQrCode.deposit!.id;
  const [row] = await t.gateway.db.fork().execute<{ provider_reference: string }[]>('select provider_reference from deposit where id = ?', [id]);
  if (paid) {
    await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    await expect.poll(async () => (await refundsOf(id)).status, { interval: 20 }).toBe('SUCCEEDED');
  }
  return { id, paymentId: row!.provider_reference };
}

async function refundsOf(id: string) {
  const read = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.keys.webCashier });
  return read.data!.deposit!;
}

async function deliveries(subjectId: string) {
  const read = await execute(t.gateway.graphqlUrl, WebhookDeliveriesQuery, { first: 50, filter: { subjectId } }, { key: asAdmin.key() });
  return read.data!.webhookDeliveries.edges.map((edge) => edge.node).reverse();
}

/** Every event the key may see, oldest first, page by page. */
async function wholeLog(key: string) {
  const nodes = [];
  let after: string | undefined;
  for (;;) {
    const page = await execute(t.gateway.graphqlUrl, WithdrawalEventsQuery, after ? { after } : {}, { key });
    expect(page.errors).toBeUndefined();
    nodes.push(...page.data!.events.edges.map((edge) => edge.node));
    if (!page.data!.events.pageInfo.hasNextPage) return nodes;
    after = page.data!.events.pageInfo.endCursor!;
  }
}

describe('refunds made on the QR gateway dashboard', () => {
  it('become PROVIDER refunds of the deposit, partial then full, pushed live and applied once', async () => {
    const { id, paymentId } = await qrDeposit();
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositRefundUpdatedSubscription, { id }));

    const partial = { refund_id: 'rf_dash_1', payment_id: paymentId, status: 'completed', amount: 5_000n, currency: 'THB' };
    emit('refund.completed', partial);
    const afterPartial = await updates.until((message) => message.refundStatus === 'APPROVED');
    expect(afterPartial).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '50.00', currency: 'THB' } });

    // The provider delivers the same event again: nothing is applied twice.
    emit('refund.completed', partial);
    await idle();

    emit('refund.completed', { ...partial, refund_id: 'rf_dash_2', amount: 10_000n });
    const full = await updates.until((message) => message.status === 'REFUNDED');
    await ws.dispose();
    expect(full.refundedAmount).toEqual({ amount: '150.00', currency: 'THB' });

    const deposit = await refundsOf(id);
    expect(deposit).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '150.00' }, refundStatus: 'APPROVED' });
    expect(deposit.refunds.map((refund) => [refund.origin, refund.status, refund.amount.amount, refund.providerStatus])).toEqual([
      ['PROVIDER', 'APPROVED', '50.00', 'completed'],
      ['PROVIDER', 'APPROVED', '100.00', 'completed'],
    ]);
    const outcomes = (await deliveries(deposit.refunds[0]!.id)).map((row) => row.outcome);
    expect(outcomes).toEqual(['APPLIED']);
  });

  it('a failed dashboard refund is recorded REJECTED and returns no money', async () => {
    const { id, paymentId } = await qrDeposit();
    emit('refund.failed', { refund_id: 'rf_dash_failed', payment_id: paymentId, status: 'failed', amount: 2_500n, currency: 'THB' });
    await expect.poll(async () => (await refundsOf(id)).refundStatus, { interval: 20 }).toBe('REJECTED');
    const deposit = await refundsOf(id);
    expect(deposit).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '0.00' } });
    expect(deposit.refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'REJECTED', amount: { amount: '25.00', currency: 'THB' } })]);
  });

  it('more than was paid, or no amount at all, is kept as an anomaly and changes nothing', async () => {
    const { id, paymentId } = await qrDeposit();
    emit('refund.completed', { refund_id: 'rf_too_much', payment_id: paymentId, status: 'completed', amount: 15_001n, currency: 'THB' });
    await idle();
    emit('refund.completed', { refund_id: 'rf_no_amount', payment_id: paymentId, status: 'completed' });
    await idle();
    const reasons = (await deliveries(id)).filter((row) => row.eventName?.startsWith('refund.')).map((row) => [row.outcome, row.reason!.split(':')[0]]);
    expect(reasons).toEqual([
      ['ANOMALY', 'REFUND_EXCEEDS_DEPOSIT'],
      ['ANOMALY', 'REFUND_AMOUNT_MISSING'],
    ]);
    expect(await refundsOf(id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '0.00' }, refundStatus: null, refunds: [] });
  });

  it('a refund that overtakes its payment is kept as deferred and applied by the job the payment\'s settlement schedules', async () => {
    const { id, paymentId } = await qrDeposit(false);
    emit('refund.completed', { refund_id: 'rf_early', payment_id: paymentId, status: 'completed', amount: 15_000n, currency: 'THB' });
    await idle();
    const waiting = (await deliveries(id)).filter((row) => row.eventName === 'refund.completed');
    expect(waiting).toEqual([expect.objectContaining({ outcome: 'DEFERRED', reason: expect.stringMatching(/^PAYMENT_NOT_SETTLED: /), replayedAt: null })]);
    // Acknowledged: the provider does not need to retry it.
    expect(t.gateway.sandboxes.get('qr-gateway')!.controls.deliveries().filter((row) => row.body.includes('rf_early')).map((row) => row.status)).toEqual([200]);
    expect(await refundsOf(id)).toMatchObject({ status: 'PENDING', refunds: [] });

    await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    await expect.poll(async () => (await refundsOf(id)).status, { interval: 50 }).toBe('REFUNDED');
    const deposit = await refundsOf(id);
    const moves = deposit.events.filter((event) => event.type === 'deposit.status_changed').map((event) => [event.fromStatus, event.toStatus]);
    expect(moves).toEqual([
      ['PENDING', 'SUCCEEDED'],
      ['SUCCEEDED', 'REFUNDED'],
    ]);
    expect(deposit.refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'APPROVED', amount: { amount: '150.00', currency: 'THB' } })]);
    // The kept delivery now names the refund it made.
    expect(await deliveries(deposit.refunds[0]!.id)).toEqual([
      expect.objectContaining({ id: waiting[0]!.id, eventName: 'refund.completed', outcome: 'APPLIED', subjectType: 'refund', replayedAt: expect.any(String) }),
    ]);
  });

  it('a deferred refund of a payment that then fails becomes an anomaly and returns nothing', async () => {
    const { id, paymentId } = await qrDeposit(false);
    emit('refund.completed', { refund_id: 'rf_orphan', payment_id: paymentId, status: 'completed', amount: 15_000n, currency: 'THB' });
    await idle();
    await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: id, outcome: 'FAILED' } }, { key: t.keys.admin });
    await expect.poll(async () => (await refundsOf(id)).status, { interval: 50 }).toBe('DECLINED');
    // The release of the deliveries that waited is a job the status change scheduled.
    await jobsSettled(t);
    const kept = (await deliveries(id)).filter((row) => row.eventName === 'refund.completed');
    expect(kept).toEqual([expect.objectContaining({ outcome: 'ANOMALY', reason: expect.stringMatching(/^DEPOSIT_NOT_REFUNDABLE: /) })]);
    expect(await refundsOf(id)).toMatchObject({ refundedAmount: { amount: '0.00' }, refunds: [] });
  });

  it('cannot be requested through the gateway: the QR gateway has no refund API', async () => {
    const { id } = await qrDeposit();
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: id, amount: '10.00' } }, { key: t.keys.admin });
    expect(requested.data!.requestRefund.userErrors).toEqual([expect.objectContaining({ field: ['depositId'], code: 'REFUND_NOT_SUPPORTED' })]);
  });
});

describe('withdrawals', () => {
  it('are kept with their latest status and logged for admins only', async () => {
    const reference = `wd_${Date.now()}`;
    const data = (status: string) => ({ withdrawal_id: reference, status, amount: 1_000_000n, currency: 'THB' });
    emit('withdrawal.pending', data('pending'));
    await idle();
    emit('withdrawal.succeeded', data('succeeded'));
    await idle();
    // Late and repeated deliveries change nothing.
    for (const status of ['processed', 'succeeded', 'failed']) {
      emit(`withdrawal.${status}`, data(status));
      await idle();
    }

    const listed = await execute(t.gateway.graphqlUrl, WithdrawalsQuery, { filter: { merchantAccount: 'qr-test' } }, { key: asAdmin.key() });
    const withdrawal = listed.data!.withdrawals.edges.map((edge) => edge.node).find((node) => node.providerReference === reference)!;
    expect(withdrawal).toMatchObject({
      status: 'SUCCEEDED',
      providerStatus: 'succeeded',
      provider: 'QR_GATEWAY',
      livemode: false,
      amount: { amount: '10000.00', currency: 'THB' },
      events: [
        { type: 'withdrawal.created', fromStatus: null, toStatus: 'PENDING' },
        { type: 'withdrawal.status_changed', fromStatus: 'PENDING', toStatus: 'SUCCEEDED' },
      ],
    });
    expect((await deliveries(withdrawal.id)).map((row) => [row.eventName, row.outcome, row.reason?.split(':')[0] ?? null])).toEqual([
      ['withdrawal.pending', 'APPLIED', null],
      ['withdrawal.succeeded', 'APPLIED', null],
      ['withdrawal.processed', 'DUPLICATE', 'STALE_STATUS'],
      ['withdrawal.failed', 'ANOMALY', 'TRANSITION_NOT_ALLOWED'],
    ]);

    // The log answers committed events once they are final: while transactions elsewhere on a busy
    // server are still open, that can take longer than the page's own short wait.
    const logged = async () => (await wholeLog(t.keys.admin)).filter((node) => node.subjectId === withdrawal.id);
    await expect
      .poll(async () => (await logged()).map((node) => [node.subjectType, node.toStatus, node.withdrawal?.status]), { interval: 50 })
      .toEqual([
        ['withdrawal', 'PENDING', 'PENDING'],
        ['withdrawal', 'SUCCEEDED', 'SUCCEEDED'],
      ]);
    expect((await wholeLog(t.keys.webCashier)).some((node) => node.subjectType === 'withdrawal')).toBe(false);
  });
});

describe('the QR sandbox dashboard, as a developer uses it', () => {
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${t.gateway.sandboxes.get('qr-gateway')!.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });

  it('refunds a paid code and makes a withdrawal; the gateway records both', async () => {
    const { id, paymentId } = await qrDeposit();
    const page = await (await fetch(`${t.gateway.sandboxes.get('qr-gateway')!.baseUrl}/dashboard`)).text();
    expect(page).toContain(paymentId);
    expect(page).not.toContain(apiKey());

    const tooMuch = await post('/dashboard/refunds', { code: paymentId, amount: '150.01', outcome: 'completed' });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain('amount must be from 1 to 15000 satang');

    const refunded = await post('/dashboard/refunds', { code: paymentId, amount: '40.00', outcome: 'completed' });
    expect(refunded.status).toBe(303);
    await expect.poll(async () => (await refundsOf(id)).refundedAmount.amount, { interval: 20 }).toBe('40.00');
    expect((await refundsOf(id)).refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'APPROVED', amount: { amount: '40.00', currency: 'THB' } })]);

    expect((await post('/dashboard/withdrawals', { account: '0', amount: '2500.00', outcome: 'succeeded' })).status).toBe(303);
    const latest = async () => {
      const listed = await execute(t.gateway.graphqlUrl, WithdrawalsQuery, { filter: { merchantAccount: 'qr-test' } }, { key: asAdmin.key() });
      return listed.data!.withdrawals.edges.map((edge) => edge.node).find((node) => node.amount?.amount === '2500.00');
    };
    await expect.poll(async () => (await latest())?.status, { interval: 50 }).toBe('SUCCEEDED');
    // Sent a few scaled seconds apart; a loaded machine may still deliver one step after the next (then it is STALE).
    const steps = (await latest())!.events.map((event) => event.toStatus!);
    expect(steps.at(-1)).toBe('SUCCEEDED');
    expect(steps).toEqual(['PENDING', 'PROCESSED', 'SUCCEEDED'].filter((status) => steps.includes(status)));
  });
});
