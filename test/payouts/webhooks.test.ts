// payout.* webhooks through the inbox: verified, deduplicated, promote-only through the payout
// state machine; a mismatched amount or an impossible move is kept as an anomaly and changes nothing.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Payout } from '../../src/modules/payouts/payout.entity.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveries, sendWebhook, type Envelope } from '../webhooks/support.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient } from './fixtures.js';
import { CreatePayoutMutation } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(() => t?.close());

function payoutEnvelope(payout: Payout, status: string, data: Record<string, unknown> = {}): Envelope {
  return {
    id: `evt_${randomBytes(10).toString('hex')}`,
    event: `payout.${status}`,
    livemode: false,
    created_at: new Date().toISOString(),
    data: { reference: payout.providerReference, merchant_reference: payout.id, status, amount: payout.amountMoney().toDecimal(), currency: payout.currency, ...data },
  };
}

const read = (id: string) => t.gateway.db.fork().findOneOrFail(Payout, { id });

describe('payout webhooks', () => {
  it('apply once, promote only, and flag a mismatched amount', async () => {
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    sandbox.webhooks({ dropNext: 1 });
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: payoutsKey });
    await sandbox.idle();
    const payout = await read(created.data!.createPayout.payout!.id);
    expect(payout.status).toBe('PENDING');
    expect(payout.providerReference).toMatch(/^svc_po_/);

    const wrongAmount = payoutEnvelope(payout, 'paid', { amount: '1' });
    expect((await sendWebhook(t, wrongAmount)).status).toBe(200);
    expect((await read(payout.id)).status).toBe('PENDING');
    expect((await deliveries(t, { eventId: wrongAmount.id }))[0]).toMatchObject({ outcome: 'anomaly', reason: expect.stringMatching(/^AMOUNT_MISMATCH/), subjectId: payout.id });

    const paid = payoutEnvelope(payout, 'paid');
    expect((await sendWebhook(t, paid)).status).toBe(200);
    expect((await sendWebhook(t, paid)).status).toBe(200);
    expect((await read(payout.id)).status).toBe('PAID');
    expect((await deliveries(t, { eventId: paid.id })).map((delivery) => delivery.outcome)).toEqual(['applied']);

    // Found by the provider reference alone too; a late bounce never undoes a paid payout.
    const lateBounce = payoutEnvelope(payout, 'bounced', { merchant_reference: undefined });
    expect((await sendWebhook(t, lateBounce)).status).toBe(200);
    expect((await read(payout.id)).status).toBe('PAID');
    expect((await deliveries(t, { eventId: lateBounce.id }))[0]).toMatchObject({ outcome: 'anomaly', reason: expect.stringMatching(/^TRANSITION_NOT_ALLOWED/) });

    const unknown = payoutEnvelope(payout, 'paid', { reference: 'svc_po_unknown', merchant_reference: 'pay_unknown' });
    expect((await sendWebhook(t, unknown)).status).toBe(200);
    expect((await deliveries(t, { eventId: unknown.id }))[0]).toMatchObject({ outcome: 'unmatched', reason: expect.stringMatching(/^PAYOUT_NOT_FOUND/) });
  });
});
