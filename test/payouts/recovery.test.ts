// Payouts reconciled properly: checked in rotation under row leases, an unknown-outcome payout
// resubmitted under its own id, a PAID payout re-checked for a reversal whose webhook was lost, and
// a payout the provider never shows reported once as an anomaly only admins see.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Payout } from '../../src/modules/payouts/payout.entity.js';
import { EventsQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { sendWebhook } from '../webhooks/support.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient } from './fixtures.js';
import { CreatePayoutMutation, PayoutQuery } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
beforeAll(async () => {
  t = await startTestGateway({
    env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS), RECONCILE_INTERVAL_MS: '200', RECONCILE_AFTER_MS: '0', PAYOUT_MISSING_AFTER_CHECKS: '2' },
  });
  payoutsKey = await payoutsClient(t, 'payout-recovery');
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const apiKey = ACCOUNTS[0]!.apiKey;
const statusOf = async (id: string) => (await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey })).data?.payout?.status;

/** The provider's own payout list (GET /payouts): the payouts carrying our id. */
async function providerPayouts(merchantReference: string): Promise<Array<{ reference: string; status: string }>> {
  const response = await fetch(`${t.gateway.sandboxes.get('deposit-gateway')!.baseUrl}/payouts?limit=200`, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = (await response.json()) as { data: Array<{ reference: string; status: string; merchant_reference: string | null }> };
  return body.data.filter((payout) => payout.merchant_reference === merchantReference);
}

/** Every event of the log the key may read, oldest first. */
async function allEvents(key: string): Promise<Array<{ type: string; subjectId: string }>> {
  const events: Array<{ type: string; subjectId: string }> = [];
  let after: string | undefined;
  for (;;) {
    const page = await execute(t.gateway.graphqlUrl, EventsQuery, { first: 100, ...(after ? { after } : {}) }, { key });
    expect(page.errors).toBeUndefined();
    events.push(...page.data!.events.edges.map((edge) => edge.node));
    if (!page.data!.events.pageInfo.hasNextPage) return events;
    after = page.data!.events.pageInfo.endCursor!;
  }
}

async function createPayout(input = CHILE_INPUT) {
  const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
  expect(created.errors).toBeUndefined();
  return created.data!.createPayout;
}

describe('payout reconciliation', () => {
  it('resubmits a payout whose submission outcome is unknown under its own id: one payout at the provider', async () => {
    // given: every attempt of our payout call fails with 500 (a 503 on payout create means live
    // payouts are not enabled: a definite refusal)
    controls().failNext({ status: 500, count: 3, method: 'POST' });
    const created = await createPayout();
    expect(created.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const id = created.payout!.id;

    // when / then: the reconciler resubmits it, the provider pays it and says so
    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('PAID');
    expect(await providerPayouts(id)).toEqual([expect.objectContaining({ status: 'paid' })]);
  });

  it('re-checks a PAID payout and applies the reversal whose webhook was lost', async () => {
    // given: a payout the provider pays and then reverts (account ending 31), both webhooks lost;
    // the payout.paid webhook is then delivered late, so the gateway knows it PAID only
    controls().webhooks({ dropNext: 2 });
    const created = await createPayout({ ...CHILE_INPUT, beneficiary: { ...CHILE_INPUT.beneficiary, accountNumber: '0012345631' } });
    const id = created.payout!.id;
    await controls().idle();
    const [listed] = await providerPayouts(id);
    expect(listed).toMatchObject({ status: 'reverted' });
    const paid = await sendWebhook(t, {
      id: `evt_late_${id}`,
      event: 'payout.paid',
      livemode: false,
      created_at: new Date().toISOString(),
      data: { reference: listed!.reference, merchant_reference: id, status: 'paid', amount: '150000', currency: 'CLP' },
    });
    expect(paid.status).toBe(200);

    // then: the reconciler finds the reversal in the provider's list
    await expect.poll(() => statusOf(id), { interval: 100 }).toBe('REVERTED');
    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(read.data!.payout!.events.filter((event) => event.type === 'payout.status_changed').map((event) => `${event.fromStatus}->${event.toStatus}`)).toEqual([
      'PENDING->PAID',
      'PAID->REVERTED',
    ]);
  });

  it('reports a payout the provider never shows once, for admins only, after PAYOUT_MISSING_AFTER_CHECKS checks', async () => {
    // given: a pending payout the provider has no record of
    const em = t.gateway.db.fork();
    const client = (await em.execute<Array<{ id: string }>>("select id from api_client where name = 'payout-recovery'"))[0]!;
    const id = newId('pay');
    em.create(Payout, {
      id,
      clientId: client.id,
      merchantAccount: 'dg-test',
      provider: 'deposit-gateway',
      livemode: false,
      country: 'CHILE',
      status: 'PENDING',
      providerStatus: 'pending',
      statusReason: null,
      amount: '150000',
      currency: 'CLP',
      beneficiary: { name: 'Ana Silva', documentType: 'RUT', documentNumber: '****78-5', accountNumber: '****5678', bankCode: '001', accountType: 'checking', cci: null },
      beneficiaryAccountNumber: '0012345678',
      beneficiaryCci: null,
      beneficiaryDocumentNumber: '12345678-5',
      providerReference: 'svc_po_unknown_to_the_provider',
      merchantReference: null,
      submissionError: null,
      createdAt: new Date(Date.now() - 60_000),
      updatedAt: new Date(Date.now() - 60_000),
    });
    await em.flush();

    // when: the reconciler keeps not finding it
    const missing = async () => (await allEvents(t.keys.admin)).filter((event) => event.type === 'payout.missing_at_provider' && event.subjectId === id);
    await expect.poll(async () => (await missing()).length, { interval: 100 }).toBe(1);
    // Reported at its second check (PAYOUT_MISSING_AFTER_CHECKS); two more that did not find it
    // either, each of which would have raised it again in the transaction that counted it.
    const checks = async () => Number((await t.gateway.db.fork().execute<Array<{ missing_checks: number }>>('select missing_checks from payout where id = ?', [id]))[0]?.missing_checks);
    await expect.poll(checks, { interval: 50 }).toBeGreaterThanOrEqual(4);

    // then: raised once, seen by admins only, logged and counted; the payout itself is unchanged
    expect(await missing()).toHaveLength(1);
    expect((await allEvents(payoutsKey)).filter((event) => event.type === 'payout.missing_at_provider')).toEqual([]);
    expect(await statusOf(id)).toBe('PENDING');
    const asAdmin = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: t.keys.admin });
    expect(asAdmin.data!.payout!.events.map((event) => event.type)).toContain('payout.missing_at_provider');
    const asOwner = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(asOwner.data!.payout!.events.map((event) => event.type)).not.toContain('payout.missing_at_provider');
    // the warning in the log docs/reconciliation.md promises, once
    const warned = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.anomaly === 'PAYOUT_MISSING_AT_PROVIDER' && line.payoutId === id);
    expect(warned).toEqual([expect.objectContaining({ level: 40, status: 'PENDING' })]);
    const metrics = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_payouts_missing_at_provider_total 1\b/);
  });
});
