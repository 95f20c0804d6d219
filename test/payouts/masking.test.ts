// Beneficiary account numbers are masked for everyone but admins: in responses, in subscription
// messages, in the event log; and the full number never reaches a log line. Payout services see
// the payouts of the merchant accounts they may use.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, subscribed } from '../deposits/support.js';
import { EventsQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ACCOUNTS, payoutsClient, VALID_PAYOUTS } from './fixtures.js';
import { CreatePayoutMutation, PayoutQuery, PayoutsQuery, PayoutUpdatedSubscription } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(() => t?.close());

const PERU = VALID_PAYOUTS.find(([country]) => country === 'PERU')![1];

describe('beneficiary account numbers', () => {
  it('are masked for a payout service and shown in full to admins; never in logs', async () => {
    const accountNumber = '19399988877766';
    const cci = '00219399988877766655';
    const input = { ...PERU, beneficiary: { ...PERU.beneficiary, accountNumber, cci } };
    const wsService = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const wsAdmin = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.admin}` });
    const serviceUpdates = await subscribed(t, () => collect(wsService, PayoutUpdatedSubscription, {}));
    const adminUpdates = await subscribed(t, () => collect(wsAdmin, PayoutUpdatedSubscription, {}));

    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    const payout = created.data!.createPayout.payout!;
    expect(payout.beneficiary).toEqual({ ...PERU.beneficiary, accountNumber: '****7766', cci: '****6655', documentNumber: '****5678' });

    const serviceUpdate = await serviceUpdates.until((update) => update.id === payout.id && update.status === 'PAID');
    const adminUpdate = await adminUpdates.until((update) => update.id === payout.id && update.status === 'PAID');
    await Promise.all([wsService.dispose(), wsAdmin.dispose()]);
    expect(serviceUpdate.beneficiary).toEqual({ accountNumber: '****7766', cci: '****6655' });
    expect(adminUpdate.beneficiary).toEqual({ accountNumber, cci });

    const asService = await execute(t.gateway.graphqlUrl, PayoutQuery, { id: payout.id }, { key: payoutsKey });
    expect(asService.data!.payout!.beneficiary).toMatchObject({ accountNumber: '****7766', cci: '****6655' });
    const asAdmin = await execute(t.gateway.graphqlUrl, PayoutQuery, { id: payout.id }, { key: t.keys.admin });
    expect(asAdmin.data!.payout!.beneficiary).toMatchObject({ accountNumber, cci });

    // The durable event log holds the masked snapshot only.
    const events = await execute(t.gateway.graphqlUrl, EventsQuery, { first: 100 }, { key: t.keys.admin });
    expect(events.errors).toBeUndefined();
    const log = t.logs.join('\n');
    expect(log).toContain(payout.id);
    expect(log).not.toContain(accountNumber);
    expect(log).not.toContain(cci);
    const stored = await t.gateway.db.fork().getConnection().execute<Array<{ data: unknown }>>('select data from payment_event where subject_id = ?', [payout.id]);
    expect(JSON.stringify(stored)).not.toContain(accountNumber);
    expect(JSON.stringify(stored)).not.toContain(cci);
  });
});

describe('visibility', () => {
  it('a payout service sees the payouts of its merchant accounts only', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: VALID_PAYOUTS[1]![1] }, { key: payoutsKey });
    const id = created.data!.createPayout.payout!.id;
    const colleague = await payoutsClient(t, 'payout-backoffice', ['dg-test']);
    const elsewhere = await payoutsClient(t, 'payout-live-only', ['dg-live-sim']);

    expect((await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: colleague })).data!.payout!.id).toBe(id);
    expect((await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: elsewhere })).data!.payout).toBeNull();
    const listed = await execute(t.gateway.graphqlUrl, PayoutsQuery, { first: 100, filter: { livemode: false } }, { key: elsewhere });
    expect(listed.data!.payouts.edges.map((edge) => edge.node.id)).not.toContain(id);

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${elsewhere}` });
    const refused = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: 'subscription($id: ID) { payoutUpdated(id: $id) { id } }', variables: { id } }, { next: resolve, error: resolve, complete: () => undefined });
    });
    await ws.dispose();
    expect(JSON.stringify(refused)).toMatch(/No payout with id/);
  });
});
