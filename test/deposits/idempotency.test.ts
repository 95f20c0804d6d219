// Idempotency keys are per client: the same key and input return the first deposit with one
// provider call even when 20 calls race; other input is IDEMPOTENCY_KEY_REUSED; a provider failure
// after the row exists leaves the deposit recoverable, and the retry makes no second payment.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from './fixtures.js';
import { CreateDepositMutation } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  // Short provider time-out and no automatic retries, so a hung provider call fails fast here.
  t = await startTestGateway({ env: { PROVIDER_TIMEOUT_MS: '1500', PROVIDER_MAX_RETRIES: '0' } });
});
afterAll(() => t?.close());

const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const create = (input: typeof CARD_INPUT, key = t.keys.webCashier, headers?: Record<string, string>) =>
  execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key, ...(headers ? { headers } : {}) });

describe('idempotency', () => {
  it('20 concurrent calls with one key and input make one deposit and one provider call', async () => {
    const idempotencyKey = randomUUID();
    const before = sandbox().requestCount('/payments', 'POST');
    const responses = await Promise.all(Array.from({ length: 20 }, () => create({ ...CARD_INPUT, idempotencyKey })));
    const ids = new Set(responses.map((response) => response.data?.createDeposit.deposit?.id));
    expect(responses.every((response) => response.data?.createDeposit.userErrors.length === 0)).toBe(true);
    expect(ids.size).toBe(1);
    expect(sandbox().requestCount('/payments', 'POST') - before).toBe(1);
    expect(new Set(responses.map((response) => response.data!.createDeposit.deposit!.redirectUrl)).size).toBe(1);
  });

  it('the same key with other input is IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
    const idempotencyKey = randomUUID();
    await create({ ...CARD_INPUT, idempotencyKey });
    const calls = sandbox().requestCount('/payments', 'POST');
    const reused = await create({ ...CARD_INPUT, amount: '99.00', idempotencyKey });
    expect(reused.data!.createDeposit).toMatchObject({ deposit: null, userErrors: [{ field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_REUSED' }] });
    expect(sandbox().requestCount('/payments', 'POST')).toBe(calls);
  });

  it('accepts the key as an Idempotency-Key header', async () => {
    const header = { 'idempotency-key': randomUUID() };
    const first = await create(CARD_INPUT, t.keys.webCashier, header);
    const second = await create(CARD_INPUT, t.keys.webCashier, header);
    expect(second.data!.createDeposit.deposit!.id).toBe(first.data!.createDeposit.deposit!.id);
  });

  it('scopes keys to the client', async () => {
    const idempotencyKey = randomUUID();
    const web = await create({ ...CARD_INPUT, idempotencyKey }, t.keys.webCashier);
    const mobile = await create({ ...CARD_INPUT, idempotencyKey }, t.keys.mobileCashier);
    expect(mobile.data!.createDeposit.deposit!.id).not.toBe(web.data!.createDeposit.deposit!.id);
  });

  it('a provider outage leaves the deposit PENDING and recoverable; the retry makes no second payment', async () => {
    const idempotencyKey = randomUUID();
    // The provider holds the call past our time-out: the outcome is unknown to us. (The sandbox
    // drops a held call once its caller has hung up, so the provider never takes this payment.)
    sandbox().failNext({ hangMs: 2500, thenProcess: true, method: 'POST' });
    const first = await create({ ...CARD_INPUT, idempotencyKey });
    expect(first.data!.createDeposit.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const pending = first.data!.createDeposit.deposit!;
    expect(pending).toMatchObject({ status: 'PENDING', redirectUrl: null });

    const retry = await create({ ...CARD_INPUT, idempotencyKey });
    expect(retry.data!.createDeposit.userErrors).toEqual([]);
    const deposit = retry.data!.createDeposit.deposit!;
    expect(deposit.id).toBe(pending.id);
    // one payment at the provider, whose payment page the retry hands over
    const payments = sandbox().records().payments.filter((payment) => payment.merchant_reference === pending.id);
    expect(payments).toHaveLength(1);
    expect(deposit.redirectUrl).toBe(payments[0]!.redirect_url);

    await sandbox().idle();
    const approvals = sandbox()
      .events()
      .filter((event) => event.event === 'payment.approved' && (event.data as { merchant_reference?: string }).merchant_reference === pending.id);
    expect(approvals).toHaveLength(1);
  });

  it('a provider refusal fails the deposit with the provider code, and the reason only for admins', async () => {
    sandbox().setAccount(t.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!.apiKey, { disabledRails: ['crypto'] });
    try {
      const refused = await create({ amount: '20.00', currency: 'EUR', customer: CARD_INPUT.customer, crypto: {} });
      const { deposit, userErrors } = refused.data!.createDeposit;
      expect(userErrors).toEqual([expect.objectContaining({ code: 'RAIL_DISABLED' })]);
      expect(deposit).toMatchObject({ status: 'FAILED', statusReason: null });
      const asAdmin = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { amount: '20.00', currency: 'EUR', customer: CARD_INPUT.customer, crypto: {} } }, { key: t.keys.admin });
      // the provider's own words, which the cashier above was not shown
      expect(asAdmin.data!.createDeposit.deposit!.statusReason).toBe('This payment method is currently disabled');
    } finally {
      sandbox().setAccount(t.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!.apiKey, { disabledRails: [] });
    }
  });
});
