// Refund webhooks that do not fit: a refund event that overtakes the provider's own answer, other
// money, an impossible transition and an unknown refund. Verified events are kept and acknowledged;
// only real transitions change anything.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../support/gateway.js';
import { sendWebhook, type Envelope } from '../webhooks/support.js';
import { DepositRefundsQuery, RefundQuery, RequestRefundMutation } from './operations.js';
import { startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
});
afterAll(() => t?.close());

const providerReferenceOf = async (refundId: string): Promise<string | null> =>
  (await t.gateway.db.fork().execute<Array<{ provider_reference: string | null }>>('select provider_reference from refund where id = ?', [refundId]))[0]!.provider_reference;

function refundEnvelope(reference: string, paymentReference: string, status: string, amount: string): Envelope {
  return {
    id: `evt_test_${Math.random().toString(16).slice(2)}`,
    event: `refund.${status}`,
    livemode: false,
    created_at: new Date().toISOString(),
    data: { reference, payment_reference: paymentReference, status, amount, currency: 'EUR' },
  };
}

/** A refund the provider may or may not have taken: every attempt of our call fails with 503. */
async function unknownOutcomeRefund(depositId: string, amount: string): Promise<string> {
  t.gateway.sandboxes.get('deposit-gateway')!.controls.failNext({ status: 503, count: 3, method: 'POST' });
  const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount } }, { key: t.refundsKey });
  expect(requested.data!.requestRefund.userErrors).toMatchObject([{ code: 'PROVIDER_UNAVAILABLE' }]);
  return requested.data!.requestRefund.refund!.id;
}

describe('a refund whose provider answer never arrived', () => {
  it('is found from the provider\'s refund.requested webhook and then follows it to APPROVED', async () => {
    // Given a refund whose outcome at the provider is unknown to us
    const deposit = await succeededDeposit(t, '25.00');
    const id = await unknownOutcomeRefund(deposit.id, '25.00');
    expect(await providerReferenceOf(id)).toBeNull();

    // When the provider's webhooks say it did take it
    const opened = await sendWebhook(t, refundEnvelope('rf_lost_answer', deposit.reference, 'pending', '25.00'));
    expect(opened).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    expect(await providerReferenceOf(id)).toBe('rf_lost_answer');
    const approved = await sendWebhook(t, refundEnvelope('rf_lost_answer', deposit.reference, 'approved', '25.00'));
    expect(approved).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });

    // Then the refund and the deposit follow, with their events
    const refund = await execute(t.gateway.graphqlUrl, RefundQuery, { id }, { key: t.refundsKey });
    expect(refund.data!.refund).toMatchObject({ status: 'APPROVED', providerStatus: 'approved' });
    const read = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.refundsKey });
    expect(read.data!.deposit).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '25.00' }, refundStatus: 'APPROVED' });
    const events = await t.gateway.db.fork().execute<Array<{ type: string; to_status: string }>>(
      "select type, to_status from payment_event where subject_type = 'refund' and subject_id = ? order by position",
      [id],
    );
    expect(events).toEqual([
      { type: 'refund.created', to_status: 'REQUESTED' },
      { type: 'refund.status_changed', to_status: 'APPROVED' },
    ]);
  });

  it('when two such refunds of one deposit have the same amount, the event is refused with 503 until the provider retries', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    await unknownOutcomeRefund(deposit.id, '5.00');
    await unknownOutcomeRefund(deposit.id, '5.00');
    const before = await t.gateway.db.fork().execute<Array<{ n: string }>>('select count(*)::text as n from webhook_delivery');
    const ambiguous = await sendWebhook(t, refundEnvelope('rf_which_one', deposit.reference, 'pending', '5.00'));
    expect(ambiguous).toEqual({ status: 503, body: { received: false, reason: 'RETRY_LATER' } });
    // Nothing was stored: the provider's retry is a first delivery.
    expect(await t.gateway.db.fork().execute<Array<{ n: string }>>('select count(*)::text as n from webhook_delivery')).toEqual(before);
  });
});

describe('a refund made outside the gateway', () => {
  it('is recorded from the provider\'s events as a PROVIDER refund and counts against what can still be refunded', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const requested = await sendWebhook(t, refundEnvelope('rf_dashboard', deposit.reference, 'pending', '20.00'));
    expect(requested).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const open = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.refundsKey });
    expect(open.data!.deposit).toMatchObject({ status: 'SUCCEEDED', refundStatus: 'REQUESTED', refundedAmount: { amount: '0.00' } });
    expect(open.data!.deposit!.refunds).toEqual([expect.objectContaining({ origin: 'PROVIDER', status: 'REQUESTED', amount: { amount: '20.00', currency: 'EUR' } })]);

    // Only 5.00 is left for the gateway to refund.
    const tooMuch = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '10.00' } }, { key: t.refundsKey });
    expect(tooMuch.data!.requestRefund.userErrors).toEqual([expect.objectContaining({ code: 'REFUND_EXCEEDS_REFUNDABLE' })]);

    expect(await sendWebhook(t, refundEnvelope('rf_dashboard', deposit.reference, 'approved', '20.00'))).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const done = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.refundsKey });
    expect(done.data!.deposit).toMatchObject({ status: 'SUCCEEDED', refundStatus: 'APPROVED', refundedAmount: { amount: '20.00' } });
    expect(done.data!.deposit!.refunds.map((refund) => [refund.origin, refund.status])).toEqual([['PROVIDER', 'APPROVED']]);
  });
});

describe('refund events that are not applied', () => {
  it('other money, an impossible transition and a refund of an unknown payment are kept and acknowledged, and change nothing', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '10.00' } }, { key: t.refundsKey });
    const id = requested.data!.requestRefund.refund!.id;
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, RefundQuery, { id }, { key: t.refundsKey })).data!.refund!.status, { interval: 20 })
      .toBe('APPROVED');
    const reference = (await providerReferenceOf(id))!;

    const mismatch = await sendWebhook(t, refundEnvelope(reference, deposit.reference, 'approved', '11.00'));
    expect(mismatch).toEqual({ status: 200, body: { received: true, outcome: 'anomaly' } });
    const late = await sendWebhook(t, refundEnvelope(reference, deposit.reference, 'rejected', '10.00'));
    expect(late).toEqual({ status: 200, body: { received: true, outcome: 'anomaly' } });
    const repeat = await sendWebhook(t, refundEnvelope(reference, deposit.reference, 'approved', '10.00'));
    expect(repeat).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    const unknown = await sendWebhook(t, refundEnvelope('rf_unknown', 'pay_not_ours', 'approved', '3.00'));
    expect(unknown).toEqual({ status: 200, body: { received: true, outcome: 'unmatched' } });

    const reasons = await t.gateway.db.fork().execute<Array<{ reason: string }>>(
      "select reason from webhook_delivery where event_id like 'evt_test_%' and (subject_id = ? or subject_id is null) order by received_at, id",
      [id],
    );
    expect(reasons.map((row) => row.reason.split(':')[0])).toEqual(['AMOUNT_MISMATCH', 'TRANSITION_NOT_ALLOWED', 'STATUS_UNCHANGED', 'REFUND_NOT_FOUND']);
    const read = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.refundsKey });
    expect(read.data!.deposit).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '10.00' }, refundStatus: 'APPROVED' });
    expect(read.data!.deposit!.refunds.map((item) => item.status)).toEqual(['APPROVED']);
  });
});
