// A payout whose webhook the sandbox drops stays PENDING until reconcilePendingPayouts reads
// GET /payouts and applies the provider's status through the same transition code, once, with
// one subscription message; a second run (another instance) changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcilePendingPayouts } from '../../src/modules/payouts/payout-reconciliation.js';
import { collect, subscribed } from '../deposits/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient } from './fixtures.js';
import { CreatePayoutMutation, PayoutQuery, PayoutUpdatedSubscription } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(() => t?.close());

describe('reconciling pending payouts', () => {
  it('applies a missed payout.paid once', async () => {
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const { services } = t.gateway;
    sandbox.webhooks({ dropNext: 1 });
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: payoutsKey });
    const id = created.data!.createPayout.payout!.id;
    await sandbox.idle();
    expect((await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey })).data!.payout!.status).toBe('PENDING');

    const account = services.accounts.get('dg-test')!;
    const payouts = services.providers.adapterFor(account, 'payouts');
    if (!payouts.ok) throw new Error(payouts.error.message);
    const deps = { provider: payouts.port, events: services.events, transitions: services.transitions };
    const [first, second] = await Promise.all([
      reconcilePendingPayouts(t.gateway.db.fork(), account, deps),
      reconcilePendingPayouts(t.gateway.db.fork(), account, deps),
    ]);
    expect(first.applied + second.applied).toBe(1);
    expect([...first.notFound, ...second.notFound]).not.toContain(id);

    await updates.until((update) => update.id === id && update.status === 'PAID');
    const again = await reconcilePendingPayouts(t.gateway.db.fork(), account, deps);
    expect(again.applied).toBe(0);
    await ws.dispose();
    expect(updates.messages.filter((update) => update.id === id).map((update) => update.status)).toEqual(['PENDING', 'PAID']);
    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(read.data!.payout!.events.map((event) => event.toStatus)).toEqual(['PENDING', 'PAID']);
  });
});
