// A deposit refunded in part can still be refunded up to the rest, as the deposit gateway's spec
// says of a payment whose status `refunded` means "returned, in full or in part": 10 of 25, then
// the 15 left, then nothing more. The sandbox follows the spec's words, and the gateway reads a
// payment reported `refunded` after a partial refund as explained by its refunds, not as an anomaly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRefundInput } from '../__generated__/graphql.js';
import { execute } from '../support/gateway.js';
import { paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';
import { DepositRefundsQuery, RequestRefundMutation } from './operations.js';
import { refundCalls, startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
});
afterAll(() => t?.close());

const refund = (input: RequestRefundInput) => execute(t.gateway.graphqlUrl, RequestRefundMutation, { input }, { key: t.refundsKey });
const depositOf = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.refundsKey })).data!.deposit!;
const providerPayment = (reference: string) => t.gateway.sandboxes.get('deposit-gateway')!.controls.payment(reference);

describe('refunding a deposit in parts', () => {
  it('10 of 25, then the 15 left, then anything more is refused', async () => {
    const deposit = await succeededDeposit(t, '25.00');

    const first = await refund({ depositId: deposit.id, amount: '10.00' });
    expect(first.data!.requestRefund.userErrors).toEqual([]);
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('10.00');
    expect(await depositOf(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundStatus: 'APPROVED' });
    // The provider's own words: the payment is `refunded` (in part); its refund_status is not `refunded`.
    expect(providerPayment(deposit.reference)).toMatchObject({ status: 'refunded', refund_status: 'approved' });

    const second = await refund({ depositId: deposit.id, amount: '15.00' });
    expect(second.data!.requestRefund.userErrors).toEqual([]);
    expect(second.data!.requestRefund.refund!.amount).toEqual({ amount: '15.00', currency: 'EUR' });
    await expect.poll(async () => (await depositOf(deposit.id)).status, { interval: 20 }).toBe('REFUNDED');
    const refunded = await depositOf(deposit.id);
    expect(refunded.refundedAmount.amount).toBe('25.00');
    expect(refunded.refunds.map((item) => [item.amount.amount, item.status]).sort()).toEqual([
      ['10.00', 'APPROVED'],
      ['15.00', 'APPROVED'],
    ]);
    expect(providerPayment(deposit.reference)).toMatchObject({ status: 'refunded', refund_status: 'refunded' });

    const calls = refundCalls(t);
    for (const input of [{ depositId: deposit.id, amount: '0.01' }, { depositId: deposit.id }]) {
      const more = await refund(input);
      expect(more.errors).toBeUndefined();
      expect(more.data!.requestRefund).toMatchObject({
        refund: null,
        userErrors: [{ field: ['depositId'], code: 'DEPOSIT_NOT_REFUNDABLE', message: expect.stringContaining('REFUNDED') }],
      });
    }
    expect(refundCalls(t)).toBe(calls);
  });

  it('a part beyond the rest is refused with the amount still refundable', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    expect((await refund({ depositId: deposit.id, amount: '10.00' })).data!.requestRefund.userErrors).toEqual([]);
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('10.00');
    const beyond = await refund({ depositId: deposit.id, amount: '15.01' });
    expect(beyond.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ field: ['amount'], code: 'REFUND_EXCEEDS_REFUNDABLE', message: expect.stringContaining('15.00') }] });
  });

  it('a payment.refunded report after a partial refund is explained by the refunds, not an anomaly', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    expect((await refund({ depositId: deposit.id, amount: '10.00' })).data!.requestRefund.userErrors).toEqual([]);
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('10.00');
    const row = await readDeposit(t, deposit.id);
    const answer = await sendWebhook(t, paymentEnvelope(row, 'refunded'));
    expect(answer.status).toBe(200);
    expect(answer.body.outcome).toBe('duplicate');
    expect(await depositOf(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '10.00' } });
    // And the rest can still be refunded.
    expect((await refund({ depositId: deposit.id })).data!.requestRefund.refund!.amount.amount).toBe('15.00');
  });
});
