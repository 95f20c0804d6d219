// chargeback.opened from the provider marks the deposit disputed once, with an event pushed on
// depositUpdated; a disputed deposit is not refunded on top. Real gateway, database, sandbox, ws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, subscribed } from '../deposits/support.js';
import { execute } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { deliveries } from '../webhooks/support.js';
import { DepositRefundsQuery, DepositRefundUpdatedSubscription, RequestRefundMutation } from './operations.js';
import { refundCalls, startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
});
afterAll(() => t?.close());

describe('chargeback.opened', () => {
  it('marks the deposit disputed, pushes it, and applies once however often it arrives', async () => {
    // Given a succeeded deposit its cashier is watching
    const deposit = await succeededDeposit(t, '30.00');
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositRefundUpdatedSubscription, {}));
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;

    // When the payer disputes it (twice: the provider may send another chargeback.opened)
    controls.openChargeback(deposit.reference);
    const disputed = await updates.until((update) => update.id === deposit.id && update.disputed);
    controls.openChargeback(deposit.reference);
    await controls.idle();
    await ws.dispose();

    // Then it is disputed, still SUCCEEDED, with one deposit.disputed event
    expect(disputed).toMatchObject({ status: 'SUCCEEDED', disputed: true });
    const read = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.keys.webCashier });
    expect(read.data!.deposit).toMatchObject({ status: 'SUCCEEDED', disputed: true });
    expect(read.data!.deposit!.events.filter((event) => event.type === 'deposit.disputed')).toEqual([
      { type: 'deposit.disputed', fromStatus: 'SUCCEEDED', toStatus: 'SUCCEEDED' },
    ]);
    expect(updates.messages.filter((update) => update.id === deposit.id && update.disputed)).toHaveLength(1);
    const stored = (await deliveries(t, { subjectId: deposit.id })).filter((delivery) => delivery.eventName === 'chargeback.opened');
    expect(stored.map((delivery) => delivery.outcome)).toEqual(['applied', 'duplicate']);

    // And the back office cannot refund it on top of the chargeback
    const before = refundCalls(t);
    const refund = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id } }, { key: t.refundsKey });
    expect(refund.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ field: ['depositId'], code: 'DEPOSIT_DISPUTED' }] });
    expect(refundCalls(t)).toBe(before);
  });
});
