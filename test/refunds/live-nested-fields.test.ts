// A live depositUpdated message answers its nested fields (events, refunds) as they stand when the
// message is sent, not as they stood at the subscription's first message.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, subscribed } from '../deposits/support.js';
import { execute } from '../support/gateway.js';
import { collectNotifications } from '../support/notifications.js';
import { wsClient } from '../support/ws.js';
import { DepositRefundsQuery, DepositUpdatedNestedSubscription, RequestRefundMutation } from './operations.js';
import { startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
});
afterAll(() => t?.close());

describe('depositUpdated(id) with nested fields', () => {
  it('brings every message its current events and refunds, including the change that produced it', async () => {
    // given: a succeeded deposit, its details settled (and its three events published live, which
    // happens once they are final in the log), and a subscriber selecting nested lists
    const published = await collectNotifications(t.gateway.services.pubsub);
    const deposit = await succeededDeposit(t, '30.00');
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.keys.admin })).data!.deposit!.events.length).toBe(3);
    await expect.poll(() => published.seen.filter((event) => event.subjectId === deposit.id).length).toBe(3);
    published.stop();
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.refundsKey}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedNestedSubscription, { id: deposit.id }));

    // when: two refunds, one after the other, the second refunding the rest
    const first = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '10.00' } }, { key: t.refundsKey });
    expect(first.data!.requestRefund.userErrors).toEqual([]);
    await updates.until((update) => update.refundedAmount.amount === '10.00');
    const second = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id } }, { key: t.refundsKey });
    expect(second.data!.requestRefund.userErrors).toEqual([]);
    await updates.until((update) => update.status === 'REFUNDED');
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    const final = (await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id: deposit.id }, { key: t.keys.admin })).data!.deposit!;
    await expect.poll(() => updates.messages.length).toBe(final.events.length - 3);
    updates.stop();
    await ws.dispose();

    // then: message i was produced by the deposit's event 3 + i, and lists it (and every earlier one)
    expect(updates.errors).toEqual([]);
    const finalTypes = final.events.map((event) => event.type);
    updates.messages.forEach((message, index) => {
      const types = message.events.map((event) => event.type);
      expect(types.length, `message ${index}`).toBeGreaterThanOrEqual(3 + index + 1);
      expect(types).toEqual(finalTypes.slice(0, types.length));
    });
    // and its refunds as they stand: the last message shows both refunds approved, the first shows the first refund
    const last = updates.messages.at(-1)!;
    expect(last.refunds.map((refund) => refund.status)).toEqual(['APPROVED', 'APPROVED']);
    expect(last.events.map((event) => event.type)).toEqual(finalTypes);
    expect(updates.messages[0]!.refunds.map((refund) => refund.id)).toEqual([first.data!.requestRefund.refund!.id]);
    // a message that says some amount is refunded lists refunds that are approved for that amount
    for (const message of updates.messages) {
      const approved = message.refunds.filter((refund) => refund.status === 'APPROVED').length;
      if (message.refundedAmount.amount === '10.00') expect(approved).toBeGreaterThanOrEqual(1);
      if (message.status === 'REFUNDED') expect(approved).toBe(2);
    }
  });
});
