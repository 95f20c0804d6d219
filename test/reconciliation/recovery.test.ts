// Deposits whose creation outcome is unknown are recovered by the reconciler alone: a provider
// time-out (the provider took the payment, we never heard), a crash between the deposit's commit and
// the provider call (a card payment, a QR code), and a hosted checkout session whose answer was lost
// (found by our id, or EXPIRED once the session can no longer be paid).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import type { ReconcileResult } from '../../src/modules/reconciliation/reconcile-results.js';
import type { Customer } from '../../src/providers/provider.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { eventsOf } from '../webhooks/support.js';

const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_sandbox_simulated_live', webhookSecrets: ['whsec_sandbox_simulated_live'] },
  { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true, apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'] },
];

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({
    env: {
      MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS),
      RECONCILE_INTERVAL_MS: '200',
      RECONCILE_AFTER_MS: '0',
      // A hung provider call fails fast and is not retried by the adapter: the reconciler must recover it.
      PROVIDER_TIMEOUT_MS: '1000',
      PROVIDER_MAX_RETRIES: '0',
    },
  });
});
afterAll(() => t?.close());

const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!;

const statusOf = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data?.deposit?.status;

async function statusChanges(id: string): Promise<string[]> {
  return (await eventsOf(t, id)).filter((event) => event.type === 'deposit.status_changed').map((event) => `${event.fromStatus}->${event.toStatus}`);
}

/** The provider's own list (GET /payments), as its dashboard would show it: the payments carrying our id. */
async function providerPayments(merchantReference: string, apiKey = ACCOUNTS[0]!.apiKey): Promise<Array<{ reference: string; status: string }>> {
  const response = await fetch(`${sandbox().baseUrl}/payments?limit=200`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { data: Array<{ reference: string; status: string; merchant_reference: string | null }> };
  return body.data.filter((payment) => payment.merchant_reference === merchantReference);
}

/** A deposit row as a crashed instance leaves it: committed, never (knowingly) submitted. */
async function insertUnsubmitted(values: Partial<Deposit> & Pick<Deposit, 'rail' | 'request'>): Promise<string> {
  const em = t.gateway.db.fork();
  const client = t.gateway.demoClients.find((candidate) => candidate.name.startsWith('web-cashier'))!;
  const deposit = em.create(Deposit, {
    id: newId('dep'),
    clientId: client.id,
    merchantAccount: 'dg-test',
    provider: 'deposit-gateway',
    livemode: false,
    status: 'PENDING',
    amount: '25.00',
    currency: 'EUR',
    providerReference: null,
    createdAt: new Date(Date.now() - 60 * 60_000),
    updatedAt: new Date(Date.now() - 60 * 60_000),
    ...values,
  });
  await em.flush();
  return deposit.id;
}

describe('a deposit whose creation timed out', () => {
  it('reaches the provider\'s final status through the reconciler alone, with one provider payment and one status change', async () => {
    // given: the provider takes the payment but answers after our time-out, and both of its
    // webhooks are lost; the client sends no retry
    sandbox().controls.webhooks({ dropNext: 2 });
    sandbox().controls.failNext({ hangMs: 1500, thenProcess: true, method: 'POST' });
    const corrections = () => metric(t, /^gateway_reconciler_corrections_total\{from="PENDING",to="SUCCEEDED"\} (\d+)/m);
    const correctedBefore = await corrections();
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const id = created.data!.createDeposit.deposit!.id;
    expect(created.data!.createDeposit.deposit).toMatchObject({ status: 'PENDING', redirectUrl: null });

    // when: only the background reconciler runs
    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('SUCCEEDED');
    await sandbox().controls.idle();

    // then
    expect(await providerPayments(id)).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
    expect(sandbox().controls.deliveries().filter((delivery) => delivery.dropped)).toHaveLength(2);
    // The client sent no retry and the adapter none either: the calls after the first are the
    // reconciler's, under the deposit's own id, and the status change is counted as its correction.
    const submissions = sandbox()
      .controls.requestBodies('/payments', 'POST')
      .map((body) => JSON.parse(body) as { merchant_reference?: string; idempotency_key?: string })
      .filter((body) => body.merchant_reference === id);
    expect(submissions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(submissions.map((body) => body.idempotency_key))).toEqual(new Set([id]));
    expect((await corrections()) - correctedBefore).toBe(1);
  });

  it('a deposit committed but never submitted (a crash before the provider call) is submitted under its own id', async () => {
    const id = await insertUnsubmitted({ rail: 'CARD', request: { details: { rail: 'CARD' }, customer: CARD_INPUT.customer as Customer } });

    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('SUCCEEDED');
    await sandbox().controls.idle();

    expect(await providerPayments(id)).toHaveLength(1);
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
  });
});

describe('a QR code committed but never created at the QR gateway', () => {
  it('is created under the deposit id by the reconciler, and then settles like any QR payment', async () => {
    const client = t.gateway.demoClients.find((candidate) => candidate.name.startsWith('web-cashier'))!;
    const id = await insertUnsubmitted({
      rail: 'THAI_QR',
      provider: 'qr-gateway',
      merchantAccount: 'qr-test',
      amount: '150.00',
      currency: 'THB',
      request: { details: { rail: 'THAI_QR', payer: { name: 'Somchai Jaidee' }, clientId: client.id }, customer: {} },
    });

    const reference = async () => (await t.gateway.db.fork().findOneOrFail(Deposit, { id })).providerReference;
    await expect.poll(reference, { interval: 100 }).toMatch(/^qr_/);
    const qr = t.gateway.sandboxes.get('qr-gateway')!.controls;
    expect(qr.code((await reference())!)).toMatchObject({ reference: id });
    expect(await statusOf(id)).toBe('PENDING');
  });
});

describe('a hosted checkout deposit whose session answer was lost', () => {
  const hosted = { rail: 'HOSTED_CHECKOUT' as const, merchantAccount: 'dg-live-sim', livemode: true, request: { details: { rail: 'HOSTED_CHECKOUT' as const, expiresInSeconds: 900 }, customer: { email: 'ana@example.com' } } };

  it('is found in the provider\'s payments by our id once the player paid, and applied with its payment reference', async () => {
    // given: a session the provider opened for our deposit, its answer lost to us; the player pays
    // and the payment's webhooks are lost too
    const id = await insertUnsubmitted({ ...hosted, submissionError: 'PROVIDER_UNAVAILABLE', createdAt: new Date(), updatedAt: new Date() });
    const opened = await fetch(`${sandbox().baseUrl}/checkout-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNTS[1]!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '25.00', currency: 'EUR', merchant_reference: id, expires_in: 900 }),
    });
    const session = (await opened.json()) as { id: string };
    sandbox().controls.webhooks({ dropNext: 2 });
    const paymentReference = sandbox().controls.complete(session.id, 'approved');

    // then: the reconciler finds and applies it
    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('SUCCEEDED');
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
    const row = await t.gateway.db.fork().findOneOrFail(Deposit, { id });
    expect(row.paymentReference).toBe(paymentReference);
    // A checkout session is never opened a second time: it has no idempotency key.
    expect(sandbox().controls.requestCount('/checkout-sessions', 'POST')).toBe(1);
  });

  it('is EXPIRED once its session can no longer be paid and the provider shows no payment for it', async () => {
    const id = await insertUnsubmitted({ ...hosted, createdAt: new Date(Date.now() - 3 * 3600_000) });

    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('EXPIRED');
    expect(await statusChanges(id)).toEqual(['PENDING->EXPIRED']);
    expect(await providerPayments(id, ACCOUNTS[1]!.apiKey)).toEqual([]);
  });

  it('is left PENDING while its session may still be paid', async () => {
    // A minute old: past the wait for a first provider call still in flight, so the reconciler
    // looks at it now, and far inside its session's 15 minutes.
    const checked: ReconcileResult[] = [];
    t.gateway.services.reconciler.onResult((event) => {
      if (event.subject === 'deposit') checked.push(event.result);
    });
    const id = await insertUnsubmitted({ ...hosted, createdAt: new Date(Date.now() - 60_000), updatedAt: new Date(Date.now() - 60_000) });

    const checks = () => checked.filter((result) => result.deposit?.id === id);
    await expect.poll(() => checks().length, { interval: 20 }).toBeGreaterThan(0);
    expect(checks()[0]).toMatchObject({ outcome: 'noop' });
    expect(await statusOf(id)).toBe('PENDING');
    expect(await statusChanges(id)).toEqual([]);
  });
});
