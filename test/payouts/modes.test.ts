// Live and test payouts: a live payout while live payouts are disabled is PAYOUTS_NOT_ENABLED;
// once enabled it is paid like a test one; lists never mix the two modes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, subscribed } from '../deposits/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ACCOUNTS, CHILE_INPUT, LIVE_API_KEY, payoutsClient } from './fixtures.js';
import { CreatePayoutMutation, PayoutsQuery, PayoutUpdatedSubscription } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(() => t?.close());

const listIds = async (filter: { livemode?: boolean } | undefined, key = payoutsKey) => {
  const listed = await execute(t.gateway.graphqlUrl, PayoutsQuery, { first: 100, ...(filter ? { filter } : {}) }, { key });
  expect(listed.errors).toBeUndefined();
  return listed.data!.payouts.edges.map((edge) => edge.node);
};

describe('live payouts', () => {
  it('while disabled at the provider (503) are PAYOUTS_NOT_ENABLED and FAILED', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount: 'dg-live-sim' } }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout.userErrors).toMatchObject([{ field: null, code: 'PAYOUTS_NOT_ENABLED' }]);
    expect(created.data!.createPayout.payout).toMatchObject({ status: 'FAILED', livemode: true, failureCode: 'PAYOUTS_NOT_ENABLED', statusReason: null });
  });

  it('once enabled are paid, and test and live payouts never share a list', async () => {
    t.gateway.sandboxes.get('deposit-gateway')!.controls.setAccount(LIVE_API_KEY, { livePayoutsEnabled: true });
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));
    const live = (await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount: 'dg-live-sim' } }, { key: payoutsKey })).data!.createPayout.payout!;
    const test = (await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: payoutsKey })).data!.createPayout.payout!;
    expect([live.livemode, test.livemode]).toEqual([true, false]);
    await updates.until((update) => update.id === live.id && update.status === 'PAID');
    await updates.until((update) => update.id === test.id && update.status === 'PAID');
    await ws.dispose();

    const liveList = await listIds({ livemode: true });
    const testList = await listIds({ livemode: false });
    expect(liveList.map((node) => node.id)).toContain(live.id);
    expect(testList.map((node) => node.id)).toContain(test.id);
    expect(liveList.every((node) => node.livemode)).toBe(true);
    expect(testList.every((node) => !node.livemode)).toBe(true);
    // With no filter: the mode of the account a payout goes to by default (here the test account).
    const defaulted = await listIds(undefined);
    expect(defaulted.map((node) => node.id)).toContain(test.id);
    expect(defaulted.every((node) => !node.livemode)).toBe(true);
    // Admins too see one mode at a time.
    expect((await listIds({ livemode: true }, t.keys.admin)).every((node) => node.livemode)).toBe(true);
  });
});
