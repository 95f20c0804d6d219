// Hosted checkout end to end on a live-mode account served by the sandbox (hosted checkout is
// refused on test accounts: the spec says a test-key session makes a real charge). The player
// opens redirectUrl and presses Pay, as in a browser; the signed webhook makes it SUCCEEDED; a
// refund names the payment the session produced, not the session.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from './operations.js';
import { collect, subscribed } from './support.js';

const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_sandbox_simulated_live', webhookSecrets: ['whsec_sandbox_simulated_live'] },
];

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
});
afterAll(() => t?.close());

describe('hosted checkout', () => {
  it.each([
    ['Pay', 'SUCCEEDED'],
    ['Decline', 'DECLINED'],
  ])('the player presses %s on the hosted page: %s live', async (button, status) => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateDepositMutation,
      { input: { amount: '30.00', merchantAccount: 'dg-live-sim', returnUrl: 'https://shop.example/back', customer: { email: 'ana@example.com' }, hostedCheckout: { expiresInSeconds: 900 } } },
      { key: t.keys.webCashier },
    );
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const deposit = created.data!.createDeposit.deposit!;
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'HOSTED_CHECKOUT', livemode: true });

    // The player's browser: open the page, choose cards, press the button.
    const page = await fetch(deposit.redirectUrl!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('30.00');
    const action = new RegExp(`formaction="([^"]+)"[^>]*>${button}<`).exec(html)![1]!;
    const submitted = await fetch(new URL(action, deposit.redirectUrl!), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'cards', email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' }),
    });
    expect(submitted.status).toBeGreaterThanOrEqual(300);
    expect(submitted.headers.get('location')).toMatch(/^https:\/\/shop\.example\/back\?ref=.+&status=/);

    const update = await updates.until((message) => message.id === deposit.id && message.status === status);
    await ws.dispose();
    expect(update.status).toBe(status);
    const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier });
    expect(read.data!.deposit!.status).toBe(status);
  });

  it('when its webhooks are lost, reconciliation finds the payment by our id and applies it', async () => {
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateDepositMutation,
      { input: { amount: '45.00', merchantAccount: 'dg-live-sim', customer: { email: 'ana@example.com' }, hostedCheckout: {} } },
      { key: t.keys.webCashier },
    );
    const deposit = created.data!.createDeposit.deposit!;
    const sessionId = new URL(deposit.redirectUrl!).pathname.split('/').pop()!;
    controls.webhooks({ dropNext: 2 });
    controls.complete(sessionId, 'approved');
    await controls.idle();
    expect((await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier })).data!.deposit!.status).toBe('PENDING');

    const reconciled = await postRaw(t.gateway.graphqlUrl, { query: `mutation { reconcileDeposit(id: "${deposit.id}") { outcome deposit { status } userErrors { code } } }` }, t.keys.admin);
    expect(reconciled.body.data.reconcileDeposit).toMatchObject({ deposit: { status: 'SUCCEEDED' }, userErrors: [] });
  });

  it('a refund is requested for the payment the session produced, not for the session', async () => {
    // given: a hosted checkout deposit the player paid
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateDepositMutation,
      { input: { amount: '40.00', merchantAccount: 'dg-live-sim', customer: { email: 'ana@example.com' }, hostedCheckout: {} } },
      { key: t.keys.webCashier },
    );
    const deposit = created.data!.createDeposit.deposit!;
    const sessionId = new URL(deposit.redirectUrl!).pathname.split('/').pop()!;
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const paymentReference = controls.complete(sessionId, 'approved');
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier })).data!.deposit!.status)
      .toBe('SUCCEEDED');

    // when
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '15.00' } }, { key: t.keys.admin });

    // then: the provider received the refund for the payment reference, and decides it
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    expect(controls.refunds(paymentReference)).toEqual([expect.objectContaining({ reference: paymentReference, amount: '15.00' })]);
    expect(controls.refunds(sessionId)).toEqual([]);
    const refundId = requested.data!.requestRefund.refund!.id;
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, RefundQuery, { id: refundId }, { key: t.keys.admin })).data!.refund!.status)
      .toBe('APPROVED');
    const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier });
    expect(read.data!.deposit!.status).toBe('SUCCEEDED');
  });
});
