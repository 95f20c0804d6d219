// A cashier creates a deposit on each rail, sends the player to redirectUrl, and sees it become
// SUCCEEDED (or DECLINED) live on depositUpdated when the provider's signed webhook arrives; a
// client that was offline catches up from events(after:). Real gateway, database, sandbox, ws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { CARD_INPUT, VALID_DEPOSITS } from './fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from './operations.js';
import { collect, eventsAfter, subscribed, type EventNode } from './support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe.each(VALID_DEPOSITS)('%s', (_label, input, currency) => {
  it('goes PENDING -> SUCCEEDED live over graphql-ws, with fee and net', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    // Subscribed before creating: the sandbox approves test payments at once.
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));

    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const deposit = created.data!.createDeposit.deposit!;
    expect(deposit).toMatchObject({ amount: { currency }, livemode: false, provider: 'DEPOSIT_GATEWAY' });
    // The answer shows the deposit as it stands when it is sent: the provider's webhook may overtake it.
    expect(['PENDING', 'SUCCEEDED']).toContain(deposit.status);
    expect(deposit.id).toMatch(/^dep_/);
    expect(deposit.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    const succeeded = await updates.until((update) => update.id === deposit.id && update.status === 'SUCCEEDED');
    expect(succeeded.amount).toEqual(deposit.amount);
    // Then the provider's record fills in fee and net (webhooks carry only the status).
    const detailed = await updates.until((update) => update.id === deposit.id && update.fee !== null);
    await ws.dispose();
    expect(BigInt(detailed.fee!.amount.replace('.', '')) + BigInt(detailed.net!.amount.replace('.', ''))).toBe(BigInt(deposit.amount.amount.replace('.', '')));
    expect(detailed).toMatchObject({ status: 'SUCCEEDED', fee: { currency }, net: { currency } });

    const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier });
    expect(read.data!.deposit).toMatchObject({ status: 'SUCCEEDED', providerStatus: 'approved', approvedAt: expect.any(String) });
    expect(read.data!.deposit!.events.map((event) => [event.type, event.toStatus])).toEqual([
      ['deposit.created', 'PENDING'],
      ['deposit.status_changed', 'SUCCEEDED'],
      ['deposit.details_updated', 'SUCCEEDED'],
    ]);
  });
});

describe('declines', () => {
  it('an amount ending in .13 is DECLINED, with a decline reason and no credit', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '10.13' } }, { key: t.keys.webCashier });
    const id = created.data!.createDeposit.deposit!.id;
    const declined = await updates.until((update) => update.id === id && update.declineReason !== null);
    await ws.dispose();
    expect(declined).toMatchObject({ status: 'DECLINED', declineReason: 'declined' });
  });
});

describe('hosted checkout', () => {
  it('is refused on a test-mode account: a test key there makes a real charge (spec)', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { amount: '30.00', hostedCheckout: {} } }, { key: t.keys.webCashier });
    expect(created.data!.createDeposit).toMatchObject({ deposit: null, userErrors: [{ code: 'HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT' }] });
  });
});

describe('catching up', () => {
  it('a client that was offline reads events(after:) and misses nothing', async () => {
    const { cursor } = await eventsAfter(t.gateway.graphqlUrl, t.keys.mobileCashier);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.mobileCashier });
      ids.push(created.data!.createDeposit.deposit!.id);
    }
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    // Each deposit's details arrive just after its approval; wait until all three have them.
    for (const id of ids) {
      await expect
        .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.mobileCashier })).data!.deposit!.events.length)
        .toBe(3);
    }

    // A page holds committed events once they are final; while a write transaction elsewhere on
    // the PostgreSQL server is open (another test file's, on a busy machine) that can take longer
    // than a page's own short wait, so the client reads from its cursor again, as it would.
    const readFrom = async () => (await eventsAfter(t.gateway.graphqlUrl, t.keys.mobileCashier, { after: cursor, first: 2 })).nodes;
    const timelines = (seen: EventNode[]) => ids.map((id) => seen.filter((event) => event.subjectId === id).map((event) => `${event.type}:${event.toStatus}`));
    await expect.poll(async () => timelines(await readFrom()), { timeout: 30_000 }).toEqual(
      ids.map(() => ['deposit.created:PENDING', 'deposit.status_changed:SUCCEEDED', 'deposit.details_updated:SUCCEEDED']),
    );
    const seen = await readFrom();
    // Only the caller's own deposits are in its log.
    expect(seen.every((event) => ids.includes(event.subjectId))).toBe(true);
  });
});
