// Live updates across instances and the faults of webhook delivery: a dropped webhook leaves the
// deposit PENDING; two gateway instances on one database deliver a webhook received by A to a
// subscriber on B, once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { CARD_INPUT } from './fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from './operations.js';
import { collect, subscribed, type Collector } from './support.js';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import { accountSecrets, paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';

let a: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  a = await startTestGateway();
});
afterAll(() => a?.close());

/**
 * Resolves once the subscription has the message of a deposit created now. Its event comes after
 * every event committed so far, and a subscription's frames leave in event order: whatever those
 * earlier events sent this subscriber (a duplicate included) has arrived by then.
 */
async function barrier(updates: Collector<{ id: string; status: string }>): Promise<void> {
  const created = await execute(a.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: a.keys.webCashier });
  const id = created.data!.createDeposit.deposit!.id;
  await updates.until((update) => update.id === id);
}

describe('webhook faults', () => {
  it('the same signed webhook 50 times at once: one status change, one subscription message', async () => {
    const controls = a.gateway.sandboxes.get('deposit-gateway')!.controls;
    controls.setAutoComplete(false); // the test sends the provider's webhook itself
    try {
      const created = await execute(a.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: a.keys.webCashier });
      const id = created.data!.createDeposit.deposit!.id;
      const ws = wsClient(a.gateway.wsUrl, { authorization: `Bearer ${a.keys.webCashier}` });
      const updates = await subscribed(a, () => collect(ws, DepositUpdatedSubscription, { id }));

      const bytes = Buffer.from(JSON.stringify(paymentEnvelope(await readDeposit(a, id), 'approved')));
      const header = signatureHeader(bytes, accountSecrets(a), Math.floor(Date.now() / 1000));
      const responses = await Promise.all(Array.from({ length: 50 }, () => sendWebhook(a, bytes, { header })));
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect(responses.filter((response) => response.body.outcome === 'applied')).toHaveLength(1);

      await updates.until((update) => update.status === 'SUCCEEDED');
      // The provider's details (the fee) come last, from the job the status change scheduled: a
      // subscription's frames leave in event order, so every copy of the change's message is here
      // once the details' message is.
      await updates.until((update) => update.status === 'SUCCEEDED' && update.fee !== null);
      await ws.dispose();
      // One message for the change; the provider's details follow in one more (with the fee).
      expect(updates.messages.filter((update) => update.status === 'SUCCEEDED' && update.fee === null)).toHaveLength(1);
      const read = await execute(a.gateway.graphqlUrl, DepositQuery, { id }, { key: a.keys.webCashier });
      expect(read.data!.deposit!.events.filter((event) => event.type === 'deposit.status_changed')).toHaveLength(1);
    } finally {
      controls.setAutoComplete(true);
    }
  });

  it('a dropped webhook leaves the deposit PENDING (reconciliation recovers it later)', async () => {
    const controls = a.gateway.sandboxes.get('deposit-gateway')!.controls;
    controls.webhooks({ dropNext: 2 }); // payment.pending and payment.approved
    const created = await execute(a.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: a.keys.webCashier });
    const deposit = created.data!.createDeposit.deposit!;
    await controls.idle();
    // The provider approved it (its truth); only the news of it was lost.
    const approved = controls.events().find((event) => event.event === 'payment.approved' && (event.data as { merchant_reference?: string }).merchant_reference === deposit.id);
    expect(controls.payment((approved!.data as { reference: string }).reference)!.status).toBe('approved');
    expect(controls.deliveries().filter((delivery) => delivery.eventId === approved!.id).every((delivery) => delivery.dropped)).toBe(true);
    const read = await execute(a.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: a.keys.webCashier });
    expect(read.data!.deposit!.status).toBe('PENDING');
  });

  it('duplicated deliveries change the status once and notify once', async () => {
    const controls = a.gateway.sandboxes.get('deposit-gateway')!.controls;
    const ws = wsClient(a.gateway.wsUrl, { authorization: `Bearer ${a.keys.webCashier}` });
    const updates = await subscribed(a, () => collect(ws, DepositUpdatedSubscription, {}));
    controls.webhooks({ duplicate: true });
    try {
      const created = await execute(a.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: a.keys.webCashier });
      const id = created.data!.createDeposit.deposit!.id;
      await updates.until((update) => update.id === id && update.status === 'SUCCEEDED');
      await controls.idle();
      controls.webhooks({ duplicate: false });
      await barrier(updates);
      // One message for the status change (the details follow in one more, with the fee).
      expect(updates.messages.filter((update) => update.id === id && update.status === 'SUCCEEDED' && update.fee === null)).toHaveLength(1);
      const read = await execute(a.gateway.graphqlUrl, DepositQuery, { id }, { key: a.keys.webCashier });
      expect(read.data!.deposit!.events.filter((event) => event.type === 'deposit.status_changed').map((event) => event.toStatus)).toEqual(['SUCCEEDED']);
    } finally {
      controls.webhooks({ duplicate: false });
      await ws.dispose();
    }
  });
});

// Two instances need one shared database server: PGlite lives inside one process, so this runs
// on PostgreSQL only (CI runs the suite on both).
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('a webhook received by instance A reaches a subscriber on instance B, once', async () => {
    // B asks A's sandbox, as two instances of one gateway ask one provider: whichever instance
    // runs the deposit's detail fetch finds the payment.
    const sandbox = a.gateway.sandboxes.get('deposit-gateway')!;
    const dg = a.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!;
    const b = await startTestGateway({
      database: a.database,
      env: { MERCHANT_ACCOUNTS: JSON.stringify([{ code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: sandbox.baseUrl, apiKey: dg.apiKey, webhookSecrets: dg.webhookSecrets }]) },
    });
    try {
      const ws = wsClient(b.gateway.wsUrl, { authorization: `Bearer ${b.keys.webCashier}` });
      const updates = await subscribed(b, () => collect(ws, DepositUpdatedSubscription, {}));
      // Created through A: A's sandbox sends its webhooks to A.
      const created = await execute(a.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: a.keys.webCashier });
      const id = created.data!.createDeposit.deposit!.id;
      await updates.until((update) => update.id === id && update.status === 'SUCCEEDED' && update.fee !== null);
      await a.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
      await barrier(updates);
      expect(updates.messages.filter((update) => update.id === id).map((update) => `${update.status}${update.fee ? '+details' : ''}`)).toEqual(['PENDING', 'SUCCEEDED', 'SUCCEEDED+details']);
      await ws.dispose();
    } finally {
      await b.close();
    }
  });
});
