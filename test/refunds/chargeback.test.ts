// chargeback.opened from the provider marks the deposit disputed once, with an event pushed on
// depositUpdated; a disputed deposit is not refunded on top. A chargeback no deposit of ours can have
// (on a push-payment rail, or of a deposit that is not SUCCEEDED) is kept as an anomaly and changes
// nothing. Real gateway, database, sandbox, ws; every chargeback arrives as the sandbox's signed webhook.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateDepositInput } from '../__generated__/graphql.js';
import { CARD_INPUT, VALID_DEPOSITS } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { ReplayWebhookDeliveryMutation } from '../reconciliation/operations.js';
import { execute } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { DG_ACCOUNT, deliveries, readDeposit } from '../webhooks/support.js';
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

describe('chargeback.opened that no deposit of ours can have', () => {
  const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
  const apiKey = () => t.gateway.config.merchantAccounts.find((account) => account.code === DG_ACCOUNT)!.apiKey;
  const read = async (id: string) => {
    const response = await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.keys.webCashier });
    expect(response.errors).toBeUndefined();
    return response.data!.deposit!;
  };

  /** A deposit of the web cashier made through the API; resolves once its status is `status` and its follow-up has run. */
  async function depositIn(input: CreateDepositInput, status: string): Promise<{ id: string; reference: string }> {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const id = created.data!.createDeposit.deposit!.id;
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe(status);
    if (status !== 'PENDING') await expect.poll(async () => (await readDeposit(t, id)).fee, { interval: 20 }).not.toBeNull();
    return { id, reference: (await readDeposit(t, id)).providerReference! };
  }

  /** The provider's chargeback.opened for the deposit (A4's payload), signed and delivered by the sandbox; resolves once acknowledged. */
  async function chargeback(deposit: { id: string; reference: string }): Promise<string> {
    const row = await readDeposit(t, deposit.id);
    const envelope = controls().emitEvent(apiKey(), 'chargeback.opened', { reference: deposit.reference, merchant_reference: deposit.id, status: 'opened', amount: row.amount, currency: row.currency });
    await controls().idle();
    expect(controls().deliveries().filter((attempt) => attempt.eventId === envelope.id).map((attempt) => attempt.statusCode)).toEqual([200]);
    return envelope.id;
  }

  /** Then: the delivery is kept as an anomaly with `code`, and the deposit, its events and its flag are as they were. */
  async function expectAnomaly(id: string, eventId: string, code: string, before: Awaited<ReturnType<typeof read>>): Promise<void> {
    const [kept] = await deliveries(t, { eventId });
    expect(kept).toMatchObject({ eventName: 'chargeback.opened', outcome: 'anomaly', subjectId: id });
    expect(kept!.reason).toMatch(new RegExp(`^${code}: `));
    const after = await read(id);
    expect(after).toMatchObject({ status: before.status, disputed: false });
    expect(after.events).toEqual(before.events);
  }

  it.each(['UPI', 'PIX'])('on a SUCCEEDED %s deposit, a push payment without chargebacks, is an anomaly and changes nothing', async (rail) => {
    // Given a succeeded push-payment deposit
    const deposit = await depositIn(VALID_DEPOSITS.find(([label]) => label === rail)![1], 'SUCCEEDED');
    const before = await read(deposit.id);

    // When the provider sends a chargeback for it
    const eventId = await chargeback(deposit);

    // Then it is acknowledged and kept as an anomaly: not disputed, no event
    await expectAnomaly(deposit.id, eventId, 'CHARGEBACK_NOT_POSSIBLE', before);
    expect((await deliveries(t, { eventId }))[0]!.reason).toContain(rail);
  });

  it.each<[string, () => Promise<{ id: string; reference: string }>]>([
    ['DECLINED', () => depositIn({ ...CARD_INPUT, amount: '10.13' }, 'DECLINED')],
    [
      'REFUNDED',
      async () => {
        const deposit = await succeededDeposit(t, '20.00');
        const refund = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id } }, { key: t.refundsKey });
        expect(refund.data!.requestRefund.userErrors).toEqual([]);
        await expect.poll(async () => (await read(deposit.id)).status, { interval: 20 }).toBe('REFUNDED');
        return deposit;
      },
    ],
  ])('on a %s card deposit is an anomaly and changes nothing', async (_status, given) => {
    // Given a card deposit that is not SUCCEEDED
    const deposit = await given();
    const before = await read(deposit.id);

    // When the provider sends a chargeback for it
    const eventId = await chargeback(deposit);

    // Then it is kept as an anomaly, and the deposit is as it was
    await expectAnomaly(deposit.id, eventId, 'DEPOSIT_NOT_DISPUTABLE', before);
  });

  it('on a PENDING deposit is an anomaly an admin can replay once the deposit has succeeded', async () => {
    // Given a card deposit still open at the provider
    controls().setAutoComplete(false);
    let deposit: { id: string; reference: string };
    try {
      deposit = await depositIn(CARD_INPUT, 'PENDING');
    } finally {
      controls().setAutoComplete(true);
    }
    const before = await read(deposit.id);

    // When a chargeback arrives for it, it is an anomaly that changes nothing
    const eventId = await chargeback(deposit);
    await expectAnomaly(deposit.id, eventId, 'DEPOSIT_NOT_DISPUTABLE', before);

    // And once the payment succeeded, an admin's replay of the delivery disputes it
    controls().complete(deposit.reference, 'approved');
    await expect.poll(async () => (await read(deposit.id)).status, { interval: 20 }).toBe('SUCCEEDED');
    const [kept] = await deliveries(t, { eventId });
    const replayed = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: kept!.id }, { key: t.keys.admin });
    expect(replayed.errors).toBeUndefined();
    expect(replayed.data!.replayWebhookDelivery).toMatchObject({ outcome: 'APPLIED', userErrors: [] });
    const after = await read(deposit.id);
    expect(after).toMatchObject({ status: 'SUCCEEDED', disputed: true });
    expect(after.events.filter((event) => event.type === 'deposit.disputed')).toEqual([{ type: 'deposit.disputed', fromStatus: 'SUCCEEDED', toStatus: 'SUCCEEDED' }]);
  });
});
