// Adding a provider is adding a folder: a provider defined only under test/ (its own adapter, its
// own typed settings, its own sandbox over real HTTP) is registered through the public API and runs
// beside the two built-in ones: it takes deposits through every path they use, refunds follow a
// deposit to it, payouts on its account reach it while payouts on a deposit-gateway account reach
// that provider, and its webhook registration is made at start beside the QR gateway's. Nothing in
// src/ names it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, providerVariables } from '../../src/config.js';
import { buildGatewaySchema, printGatewaySchema } from '../../src/graphql/schema/schema.js';
import { collect, eventsAfter, subscribed } from '../deposits/support.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from '../deposits/operations.js';
import { MerchantAccountsQuery } from '../foundation/operations.js';
import { CreatePayoutMutation, PayoutQuery } from '../payouts/operations.js';
import { CHILE_INPUT, payoutsClient } from '../payouts/fixtures.js';
import { QrWebhookRegistrationsQuery } from '../qr/operations.js';
import { ReconcileDepositMutation } from '../reconciliation/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { thirdProvider, THIRD_PROVIDER } from './third-provider/provider.js';
import { THIRD_API_KEY, THIRD_WEBHOOK_SECRET, type ThirdSandbox } from './third-provider/sandbox.js';

const ACCOUNT = 'tp-test';
/** The built-in providers' sandbox test accounts, beside the third provider's. */
const BUILT_IN_ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'qr-test', provider: 'qr-gateway', sandbox: true, livemode: false, apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'] },
];

/** The problems `loadConfig` reports with the third provider registered. */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, { providers: [thirdProvider] });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("a third provider's own settings", () => {
  it('are variables named after it, each with its default, and its sandbox has a port variable of its own', () => {
    expect(providerVariables({ providers: [thirdProvider] }).filter((variable) => variable.provider === THIRD_PROVIDER)).toEqual([
      { provider: THIRD_PROVIDER, key: 'SIGNATURE_HEADER', variable: 'THIRD_GATEWAY_SIGNATURE_HEADER', alias: undefined },
      { provider: THIRD_PROVIDER, key: 'FRESHNESS_SECONDS', variable: 'THIRD_GATEWAY_FRESHNESS_SECONDS', alias: 'THIRD_FRESHNESS' },
      { provider: THIRD_PROVIDER, key: 'SANDBOX_PORT', variable: 'THIRD_GATEWAY_SANDBOX_PORT', alias: undefined },
    ]);
    const config = loadConfig({ NODE_ENV: 'development' }, { providers: [thirdProvider] });
    expect(config.providers.byProvider[THIRD_PROVIDER]).toEqual({ signatureHeader: 'tp-signature', freshnessSeconds: 300 });
    // A sandbox without a default port takes any free one, even where the built-in ones are fixed.
    expect(config.sandbox.ports[THIRD_PROVIDER]).toEqual({ port: 0, variable: 'THIRD_GATEWAY_SANDBOX_PORT' });
    expect(loadConfig({ NODE_ENV: 'development', THIRD_GATEWAY_SANDBOX_PORT: '5301' }, { providers: [thirdProvider] }).sandbox.ports[THIRD_PROVIDER]?.port).toBe(5301);
  });

  it('are read under their own name or their alias, and each bad one is a problem naming its variable as given', () => {
    expect(loadConfig({ THIRD_GATEWAY_FRESHNESS_SECONDS: '60' }, { providers: [thirdProvider] }).providers.byProvider[THIRD_PROVIDER]).toMatchObject({ freshnessSeconds: 60 });
    expect(loadConfig({ THIRD_FRESHNESS: '90' }, { providers: [thirdProvider] }).providers.byProvider[THIRD_PROVIDER]).toMatchObject({ freshnessSeconds: 90 });
    expect(problems({ THIRD_GATEWAY_FRESHNESS_SECONDS: 'soon', THIRD_GATEWAY_SIGNATURE_HEADER: 'not a header', THIRD_GATEWAY_SANDBOX_PORT: '70000' })).toEqual([
      'THIRD_GATEWAY_SANDBOX_PORT: Too big: expected number to be <=65535',
      'THIRD_GATEWAY_SIGNATURE_HEADER: must be a header name',
      'THIRD_GATEWAY_FRESHNESS_SECONDS: must be a whole number',
    ]);
    expect(problems({ THIRD_FRESHNESS: '0' })).toEqual([expect.stringMatching(/^THIRD_FRESHNESS: /)]);
    expect(problems({ THIRD_FRESHNESS: '90', THIRD_GATEWAY_FRESHNESS_SECONDS: '60' })).toEqual([
      'THIRD_FRESHNESS: THIRD_GATEWAY_FRESHNESS_SECONDS is set too, to another value; give one of them (THIRD_FRESHNESS is its older name)',
    ]);
    // Without the provider registered, its variables are nobody's: not read, not refused.
    expect(() => loadConfig({ THIRD_GATEWAY_FRESHNESS_SECONDS: 'soon' })).not.toThrow();
  });
});

describe('a third provider registered from test/', () => {
  let sandbox: ThirdSandbox;
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({
      providers: [thirdProvider],
      env: {
        // The background reconciler stays off: the test reconciles on demand, and sees what it did.
        RECONCILER_ENABLED: 'false',
        // Its own setting, given to its adapter and its sandbox alike: deliveries signed under another header.
        THIRD_GATEWAY_SIGNATURE_HEADER: 'X-Third-Signature',
        // A sandbox account: the gateway's sandbox host starts the sandbox the definition declares.
        MERCHANT_ACCOUNTS: JSON.stringify([{ code: ACCOUNT, provider: THIRD_PROVIDER, sandbox: true, apiKey: THIRD_API_KEY, webhookSecrets: [THIRD_WEBHOOK_SECRET] }, ...BUILT_IN_ACCOUNTS]),
      },
    });
    sandbox = t.gateway.sandboxes.get(THIRD_PROVIDER)!;
  });
  afterAll(() => t?.close());

  it('has its sandbox started by the gateway through its hook, with its settings, over real HTTP, and reported in readiness', async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.signatureHeader).toBe('x-third-signature');
    expect(t.gateway.config.merchantAccounts.find((account) => account.code === ACCOUNT)?.baseUrl).toBe(sandbox.baseUrl);
    const ready = (await (await fetch(`${t.gateway.url}/readyz`)).json()) as { sandboxes: Record<string, string> };
    expect(ready.sandboxes).toEqual({ 'deposit-gateway': 'up', 'qr-gateway': 'up', [THIRD_PROVIDER]: 'up' });
  });

  it('registered the gateway\'s webhook with the third provider at start, beside the QR gateway\'s registration', async () => {
    // The provider's own record: one registration of our webhook route for every event it sends, with the account's secret.
    expect(sandbox.registrations).toEqual([
      expect.objectContaining({ url: `${t.gateway.url}/webhooks/${THIRD_PROVIDER}/${ACCOUNT}`, events: ['payment.paid', 'refund.approved', 'payout.paid'], secret: THIRD_WEBHOOK_SECRET }),
    ]);
    const listed = await execute(t.gateway.graphqlUrl, QrWebhookRegistrationsQuery, {}, { key: t.keys.admin });
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.qrWebhookRegistrations.map((registration) => registration.url).sort()).toEqual(
      [`${t.gateway.url}/webhooks/${THIRD_PROVIDER}/${ACCOUNT}`, `${t.gateway.url}/webhooks/qr-gateway/qr-test`].sort(),
    );
  });

  async function createDeposit(amount: string): Promise<{ id: string; reference: string }> {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { amount, merchantAccount: ACCOUNT, pix: {} } }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const deposit = created.data!.createDeposit.deposit!;
    // The enum value is derived from the registered name, in this gateway's schema only.
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'PIX', provider: 'THIRD_GATEWAY', merchantAccount: ACCOUNT, amount: { amount, currency: 'BRL' } });
    // One payment at the provider, for this deposit's amount, waiting to be paid
    const payments = [...sandbox.payments.values()].filter((candidate) => candidate.merchant_reference === deposit.id);
    expect(payments).toEqual([{ id: expect.any(String), merchant_reference: deposit.id, amount, currency: 'BRL', status: 'pending', created_at: expect.any(String) }]);
    return { id: deposit.id, reference: payments[0]!.id };
  }

  it('takes a deposit through create, a signed webhook, a live subscription, reconciliation and events(after:)', async () => {
    // given: a client caught up on the event log, and a live subscription
    const { cursor } = await eventsAfter(t.gateway.graphqlUrl, t.keys.webCashier);
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      const live = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));

      // when: a deposit is created at the third provider and its sandbox reports it paid, signed
      const paid = await createDeposit('25.00');
      const answer = await sandbox.pay(paid.reference);

      // then: the webhook was verified by the registered adapter and applied once
      expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
      await live.until((message) => message.id === paid.id && message.status === 'SUCCEEDED');
      expect(live.errors).toEqual([]);
      expect(await metric(t, new RegExp(`gateway_webhooks_total\\{provider="${THIRD_PROVIDER}",outcome="applied"[^}]*\\} (\\d+)`))).toBe(1);

      // when: a second payment is paid but its webhook is lost, and an admin reconciles it
      const lost = await createDeposit('40.00');
      await sandbox.pay(lost.reference, { webhook: false });
      const reconciled = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: lost.id }, { key: t.keys.admin });

      // then: the adapter's status lookup moved it through the same transition path
      expect(reconciled.errors).toBeUndefined();
      expect(reconciled.data!.reconcileDeposit).toMatchObject({ outcome: 'APPLIED', userErrors: [], deposit: { id: lost.id, status: 'SUCCEEDED' } });
      await live.until((message) => message.id === lost.id && message.status === 'SUCCEEDED');

      // and: a client catching up after its cursor reads both changes, in order (reading again
      // when a page stops short of events not final yet, as on a busy machine)
      const changes = async () => {
        const { nodes } = await eventsAfter(t.gateway.graphqlUrl, t.keys.webCashier, { after: cursor });
        return nodes.filter((node) => node.type === 'deposit.status_changed').map((node) => `${node.subjectId}:${node.fromStatus}->${node.toStatus}`);
      };
      await expect.poll(changes).toEqual([`${paid.id}:PENDING->SUCCEEDED`, `${lost.id}:PENDING->SUCCEEDED`]);
      live.stop();
    } finally {
      await ws.dispose();
    }
  });

  it('refuses a delivery signed with another secret, as the adapter decides, and changes nothing', async () => {
    const { id, reference } = await createDeposit('10.00');
    const forged = JSON.stringify({ id: 'tp_evt_forged', type: 'payment.paid', object: { ...sandbox.payments.get(reference)!, status: 'paid' } });

    const answer = await sandbox.send(forged, 'whsec_not_the_secret');

    expect(answer).toEqual({ status: 401, body: { received: false, reason: 'SIGNATURE_MISMATCH' } });
    const deposit = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
    expect(deposit.data!.deposit!.status).toBe('PENDING');
  });

  it('sends a refund to the deposit\'s own provider, and applies that provider\'s signed answer', async () => {
    // given: a paid PIX deposit at the third provider (the deposit gateway serves PIX too)
    const { id, reference } = await createDeposit('30.00');
    await sandbox.pay(reference);
    await waitForStatus(id, 'SUCCEEDED');

    // when: the back office refunds part of it
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: id, amount: '12.50' } }, { key: t.keys.admin });

    // then: the refund reached the third provider's sandbox, for this payment and amount
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const refund = requested.data!.requestRefund.refund!;
    expect(refund).toMatchObject({ status: 'REQUESTED', amount: { amount: '12.50', currency: 'BRL' } });
    const atProvider = [...sandbox.refunds.values()].filter((candidate) => candidate.refund_id === refund.id);
    expect(atProvider).toEqual([expect.objectContaining({ payment_id: reference, amount: '12.50', status: 'pending' })]);

    // and: its approval, reported by the third provider, is applied to the refund
    expect(await sandbox.approveRefund(atProvider[0]!.id)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    const after = await execute(t.gateway.graphqlUrl, RefundQuery, { id: refund.id }, { key: t.keys.admin });
    expect(after.data!.refund).toMatchObject({ status: 'APPROVED', deposit: { id } });
  });

  it('sends a payout to the provider of the account it names: the third provider for tp-test, the deposit gateway for dg-test', async () => {
    const key = await payoutsClient(t, 'third-provider-payouts');
    const depositGatewayPayouts = () => t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/payouts', 'POST');
    const before = depositGatewayPayouts();

    // when: one payout on each provider's account
    const third = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { country: 'BRAZIL', amount: '80.00', merchantAccount: ACCOUNT, beneficiary: { name: 'Ana Souza', accountNumber: '12345678' } } }, { key });
    const deposit = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount: 'dg-test' } }, { key });

    // then: each is at its own provider, and only there
    expect(third.data!.createPayout.userErrors).toEqual([]);
    expect(third.data!.createPayout.payout).toMatchObject({ status: 'PENDING', provider: 'THIRD_GATEWAY', merchantAccount: ACCOUNT, amount: { amount: '80.00', currency: 'BRL' } });
    const thirdId = third.data!.createPayout.payout!.id;
    expect([...sandbox.payouts.values()].map((payout) => payout.merchant_reference)).toEqual([thirdId]);
    expect(deposit.data!.createPayout.userErrors).toEqual([]);
    expect(deposit.data!.createPayout.payout).toMatchObject({ status: 'PENDING', provider: 'DEPOSIT_GATEWAY', merchantAccount: 'dg-test' });
    expect(depositGatewayPayouts()).toBe(before + 1);
    // Sent by the gateway's one transport: counted per provider and operation.
    expect(await metric(t, new RegExp(`gateway_provider_calls_total\\{provider="${THIRD_PROVIDER}",operation="createPayout",outcome="success"\\} (\\d+)`))).toBe(1);
    expect(await metric(t, /gateway_provider_calls_total\{provider="deposit-gateway",operation="createPayout",outcome="success"\} (\d+)/)).toBeGreaterThanOrEqual(1);

    // and: the third provider's signed report settles its payout
    expect(await sandbox.payPayout([...sandbox.payouts.values()][0]!.id)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect((await execute(t.gateway.graphqlUrl, PayoutQuery, { id: thirdId }, { key })).data!.payout).toMatchObject({ status: 'PAID' });
  });

  it('tells a client what each account\'s provider offers', async () => {
    const accounts = await execute(t.gateway.graphqlUrl, MerchantAccountsQuery, {}, { key: t.keys.admin });
    expect(accounts.data!.merchantAccounts).toEqual([
      { code: ACCOUNT, provider: THIRD_PROVIDER, livemode: false, rails: ['PIX'], capabilities: ['REFUNDS', 'PAYOUTS', 'WEBHOOK_REGISTRATION'] },
      { code: 'dg-test', provider: 'deposit-gateway', livemode: false, rails: ['HOSTED_CHECKOUT', 'CARD', 'OPEN_BANKING', 'LATAM', 'UPI', 'PIX', 'CRYPTO'], capabilities: ['REFUNDS', 'PAYOUTS', 'CARD_FORM', 'DEPOSIT_LISTING'] },
      { code: 'qr-test', provider: 'qr-gateway', livemode: false, rails: ['THAI_QR'], capabilities: ['WEBHOOK_REGISTRATION', 'SIMULATION'] },
    ]);
  });

  it('refuses, as a user error, what an account\'s provider does not offer', async () => {
    const key = await payoutsClient(t, 'qr-payouts');
    const payout = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { country: 'BRAZIL', amount: '10.00', merchantAccount: 'qr-test', beneficiary: { accountNumber: '1' } } }, { key });
    expect(payout.errors).toBeUndefined();
    expect(payout.data!.createPayout).toEqual({ payout: null, userErrors: [{ field: ['merchantAccount'], code: 'CAPABILITY_NOT_SUPPORTED', message: 'Merchant account "qr-test" is at qr-gateway, which offers no payouts' }] });
  });

  async function waitForStatus(id: string, status: string): Promise<void> {
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.status).toBe(status);
  }

  it('shows PaymentProvider.THIRD_GATEWAY in its own schema only: a gateway without it keeps the committed SDL', async () => {
    expect(printGatewaySchema(await buildGatewaySchema(undefined, [thirdProvider]))).toMatch(/THIRD_GATEWAY/);
    expect(printGatewaySchema(await buildGatewaySchema())).not.toMatch(/THIRD_GATEWAY/);
  });
});
