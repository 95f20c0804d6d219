// The default setup (no MERCHANT_ACCOUNTS) lets everything be tried, hosted checkout included: the
// deposit gateway's sandbox serves a live-mode account `dg-live` beside `dg-test`, the web cashier's
// demo key may use it, and the sandbox's hosted page pays a session made on it. It is marked as a
// sandbox account wherever an account is shown, and it only ever calls the local sandbox.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerLines } from '../../src/server/banner.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('the default setup', () => {
  it('has a live-mode deposit gateway account served by the local sandbox, and says so to a client', async () => {
    expect(t.gateway.config.merchantAccounts.map((account) => account.code)).toEqual(['dg-test', 'dg-live', 'qr-test']);
    const live = t.gateway.config.merchantAccounts.find((account) => account.code === 'dg-live')!;
    expect(live).toMatchObject({ provider: 'deposit-gateway', livemode: true, sandbox: true });
    // Its calls go to the sandbox on this machine, nowhere else.
    expect(live.baseUrl).toBe(t.gateway.sandboxes.get('deposit-gateway')!.baseUrl);
    expect(new URL(live.baseUrl).hostname).toBe('127.0.0.1');

    const listed = await postRaw(t.gateway.graphqlUrl, { query: '{ merchantAccounts { code provider livemode sandbox } }' }, t.keys.webCashier);
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.merchantAccounts).toEqual([
      { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true },
      { code: 'dg-live', provider: 'deposit-gateway', livemode: true, sandbox: true },
      { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true },
    ]);
  });

  it('takes a hosted checkout deposit on dg-live with the web cashier\'s key, which the sandbox\'s hosted page pays', async () => {
    // given: what a shopper's cashier sends, on the account the reference page names
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateDepositMutation,
      { input: { amount: '30.00', merchantAccount: 'dg-live', returnUrl: 'https://shop.example/back', customer: { email: 'ana@example.com' }, hostedCheckout: { expiresInSeconds: 900 } } },
      { key: t.keys.webCashier },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const deposit = created.data!.createDeposit.deposit!;
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'HOSTED_CHECKOUT', livemode: true });
    expect(deposit.redirectUrl!.startsWith(`${t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl}/`)).toBe(true);

    // when: the player's browser opens the page, which says it is the sandbox, and presses Pay
    const page = await fetch(deposit.redirectUrl!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('SANDBOX');
    expect(html).toContain('30.00');
    const action = /formaction="([^"]+)"[^>]*>Pay</.exec(html)![1]!;
    const paid = await fetch(new URL(action, deposit.redirectUrl!), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'cards', email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' }),
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/^https:\/\/shop\.example\/back\?ref=svc_pay_.+&status=approved$/);

    // then: the signed webhook makes the deposit SUCCEEDED
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier })).data!.deposit!.status)
      .toBe('SUCCEEDED');
  });

  it('still refuses hosted checkout on the test account a request gets when it names none', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { amount: '30.00', customer: { email: 'ana@example.com' }, hostedCheckout: {} } }, { key: t.keys.webCashier });
    expect(created.data!.createDeposit).toMatchObject({ deposit: null, userErrors: [{ code: 'HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT' }] });
  });

  it('marks dg-live as a sandbox account in the start banner and the sandbox\'s start log', () => {
    const banner = bannerLines(t.gateway);
    const line = banner.find((text) => /^\s+dg-live\s/.test(text))!;
    expect(line).toMatch(/deposit-gateway\s+live\s+SANDBOX, live mode simulated at http:\/\/127\.0\.0\.1:\d+\/v1 \(no real money\)$/);
    expect(banner).toContain('  Merchant accounts (all served by the local provider sandboxes: no real money moves):');
    expect(banner.join('\n')).not.toContain('REAL MONEY');

    const started = t.logs.map((text) => JSON.parse(text) as { msg?: string; provider?: string; accounts?: unknown }).find((entry) => entry.msg === 'sandbox started' && entry.provider === 'deposit-gateway');
    expect(started?.accounts).toEqual([
      { code: 'dg-test', livemode: false, sandbox: true },
      { code: 'dg-live', livemode: true, sandbox: true },
    ]);
  });
});
