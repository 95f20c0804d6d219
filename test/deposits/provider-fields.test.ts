// The deposit fields the provider's spec offers, through the API against the sandbox over HTTP:
// `metadata` (kept, shown on the deposit, sent to the provider and echoed back), hosted checkout's
// partner return addresses `success_url` / `cancel_url`, its `currency` field (A10), the account's
// `white_label` choice, and the LATAM currency override (A30).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTED_CHECKOUT_CURRENCY_FIELD } from '../../src/providers/deposit-gateway/assumptions.js';
import type { CreateDepositInput } from '../__generated__/graphql.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { readDeposit } from '../webhooks/support.js';
import { CARD_INPUT, VALID_DEPOSITS } from './fixtures.js';
import { CreateDepositMutation, DepositMetadataQuery, DepositQuery } from './operations.js';

const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_sandbox_simulated_live', webhookSecrets: ['whsec_sandbox_simulated_live'] },
  { code: 'dg-white', provider: 'deposit-gateway', livemode: false, sandbox: true, whiteLabel: true, apiKey: 'svc_test_sandbox_white_label', webhookSecrets: ['whsec_sandbox_white_label'] },
];

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  // The payer decides on the sandbox's pages, not the test-mode amount rule.
  t.gateway.sandboxes.get('deposit-gateway')!.controls.setAutoComplete(false);
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const create = (input: CreateDepositInput) => execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
/** The JSON bodies the sandbox received on a path, newest last. */
const bodies = (path: string): Array<Record<string, unknown>> => controls().requestBodies(path, 'POST').map((body) => JSON.parse(body) as Record<string, unknown>);

describe('metadata', () => {
  it('is kept and shown on the deposit, sent to the provider as an object, and echoed back on the payment', async () => {
    const created = await create({ ...CARD_INPUT, metadata: [{ key: 'session', value: 'cs-42' }, { key: 'campaign', value: 'spring' }] });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const id = created.data!.createDeposit.deposit!.id;

    const read = await execute(t.gateway.graphqlUrl, DepositMetadataQuery, { id }, { key: t.keys.webCashier });
    expect(read.errors).toBeUndefined();
    expect(read.data!.deposit!.metadata).toEqual([{ key: 'campaign', value: 'spring' }, { key: 'session', value: 'cs-42' }]);

    const sent = bodies('/payments').find((body) => body.merchant_reference === id)!;
    expect(sent.metadata).toEqual({ session: 'cs-42', campaign: 'spring' });
    const reference = (await readDeposit(t, id)).providerReference!;
    expect(controls().payment(reference)!.metadata).toEqual({ session: 'cs-42', campaign: 'spring' });
  });

  it('a deposit without metadata shows an empty list and sends none', async () => {
    const created = await create(CARD_INPUT);
    const id = created.data!.createDeposit.deposit!.id;
    expect((await execute(t.gateway.graphqlUrl, DepositMetadataQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.metadata).toEqual([]);
    expect(bodies('/payments').find((body) => body.merchant_reference === id)).not.toHaveProperty('metadata');
  });

  it.each([
    ['too many entries', Array.from({ length: 21 }, (_, index) => ({ key: `k${index}`, value: 'v' })), ['metadata'], 'METADATA_TOO_LARGE'],
    ['a key with a space', [{ key: 'player id', value: '1' }], ['metadata', '0', 'key'], 'INVALID_FORMAT'],
    ['an empty key', [{ key: '', value: '1' }], ['metadata', '0', 'key'], 'INVALID_FORMAT'],
    ['a key given twice', [{ key: 'a', value: '1' }, { key: 'a', value: '2' }], ['metadata', '1', 'key'], 'INVALID_VALUE'],
    ['a value of 501 characters', [{ key: 'note', value: 'x'.repeat(501) }], ['metadata', '0', 'value'], 'METADATA_TOO_LARGE'],
    ['more than 4 KB in all', Array.from({ length: 9 }, (_, index) => ({ key: `note${index}`, value: 'x'.repeat(499) })), ['metadata'], 'METADATA_TOO_LARGE'],
  ])('%s is a userError and calls no provider', async (_label, metadata, field, code) => {
    const before = controls().requestCount('/payments', 'POST');
    const created = await create({ ...CARD_INPUT, metadata });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createDeposit).toMatchObject({ deposit: null, userErrors: [{ field, code }] });
    expect(controls().requestCount('/payments', 'POST')).toBe(before);
  });
});

describe('hosted checkout', () => {
  async function hosted(input: Record<string, unknown>) {
    const created = await create({ amount: '30.00', merchantAccount: 'dg-live-sim', customer: { email: 'ana@example.com' }, ...input, hostedCheckout: { ...(input.hostedCheckout as object) } });
    expect(created.errors).toBeUndefined();
    return created.data!.createDeposit;
  }

  /** The player presses `button` on the hosted page; resolves with where the page sends them. */
  async function press(redirectUrl: string, button: 'pay' | 'decline' | 'cancel'): Promise<URL> {
    const page = new URL(redirectUrl);
    const answer = await fetch(`${page.origin}${page.pathname}/${button}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'cards', email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' }),
    });
    expect(answer.status).toBe(303);
    return new URL(answer.headers.get('location')!);
  }

  it('sends successUrl and cancelUrl as success_url and cancel_url; the player goes to the one for the outcome', async () => {
    const urls = { successUrl: 'https://shop.example/paid', cancelUrl: 'https://shop.example/cancelled' };
    const paid = await hosted({ returnUrl: 'https://shop.example/back', hostedCheckout: urls });
    expect(paid.userErrors).toEqual([]);
    const session = bodies('/checkout-sessions').find((body) => body.merchant_reference === paid.deposit!.id)!;
    expect(session).toMatchObject({ success_url: urls.successUrl, cancel_url: urls.cancelUrl, return_url: 'https://shop.example/back' });
    const afterPay = await press(paid.deposit!.redirectUrl!, 'pay');
    expect(`${afterPay.origin}${afterPay.pathname}`).toBe(urls.successUrl);
    expect(afterPay.searchParams.get('status')).toBe('approved');

    const cancelled = await hosted({ hostedCheckout: urls });
    const afterCancel = await press(cancelled.deposit!.redirectUrl!, 'cancel');
    expect(`${afterCancel.origin}${afterCancel.pathname}`).toBe(urls.cancelUrl);
    expect(afterCancel.searchParams.get('status')).toBe('cancelled');
  });

  it.each([
    ['successUrl', { successUrl: 'http://shop.example/paid' }],
    ['cancelUrl', { cancelUrl: 'shop.example/cancelled' }],
  ])('a %s that is not https is a userError', async (field, hostedCheckout) => {
    const created = await hosted({ hostedCheckout });
    expect(created.deposit).toBeNull();
    expect(created.userErrors).toEqual([expect.objectContaining({ field: ['hostedCheckout', field] })]);
  });

  it(`names its currency in the session's ${HOSTED_CHECKOUT_CURRENCY_FIELD} field (A10), and settles in it`, async () => {
    const created = await hosted({ currency: 'GBP' });
    expect(created.userErrors).toEqual([]);
    const id = created.deposit!.id;
    expect(bodies('/checkout-sessions').find((body) => body.merchant_reference === id)).toMatchObject({ [HOSTED_CHECKOUT_CURRENCY_FIELD]: 'GBP', amount: '30.00' });
    expect(await (await fetch(created.deposit!.redirectUrl!)).text()).toContain('30.00 GBP');
    await press(created.deposit!.redirectUrl!, 'pay');
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.status, { interval: 20 }).toBe('SUCCEEDED');
    expect((await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.amount).toEqual({ amount: '30.00', currency: 'GBP' });
  });

  it('a provider that ignored the currency and settled in another is held, never SUCCEEDED', async () => {
    // Given a GBP session the player paid, with the payment's own webhook lost
    const created = await hosted({ currency: 'GBP' });
    const id = created.deposit!.id;
    controls().webhooks({ dropNext: 2 });
    const location = await press(created.deposit!.redirectUrl!, 'pay');
    const reference = location.searchParams.get('ref')!;
    // When the provider reports the payment approved in the account's own currency instead
    controls().emitEvent('svc_live_sandbox_simulated_live', 'payment.approved', { reference, merchant_reference: id, status: 'approved', amount: '30.00', currency: 'EUR' });
    await controls().idle();
    // Then the amount check holds the deposit
    const deposit = (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!;
    expect(deposit.status).not.toBe('SUCCEEDED');
    expect(deposit.amount).toEqual({ amount: '30.00', currency: 'GBP' });
  });
});

describe('white label', () => {
  it('an account configured whiteLabel sends white_label and its players go to the checkout host, not the acquirer', async () => {
    const white = await create({ ...CARD_INPUT, merchantAccount: 'dg-white' });
    expect(white.data!.createDeposit.userErrors).toEqual([]);
    const plain = await create({ ...CARD_INPUT, merchantAccount: 'dg-test' });
    const checkout = t.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl;
    expect(white.data!.createDeposit.deposit!.redirectUrl!.startsWith(`${checkout}/r/`)).toBe(true);
    expect(plain.data!.createDeposit.deposit!.redirectUrl!.startsWith(`${checkout}/acquirer/`)).toBe(true);
    expect(bodies('/payments').find((body) => body.merchant_reference === white.data!.createDeposit.deposit!.id)).toMatchObject({ white_label: true });
    expect(bodies('/payments').find((body) => body.merchant_reference === plain.data!.createDeposit.deposit!.id)).not.toHaveProperty('white_label');
  });
});

describe('LATAM currency override (A30)', () => {
  it('a Peru deposit in USD is sent with currency USD and settles in USD', async () => {
    const input = { ...VALID_DEPOSITS.find(([label]) => label === 'LATAM Peru bank in USD')![1] };
    const created = await create(input);
    expect(created.data!.createDeposit.userErrors).toEqual([]);
    const id = created.data!.createDeposit.deposit!.id;
    expect(bodies('/payments').find((body) => body.merchant_reference === id)).toMatchObject({ country: 'PERU', currency: 'USD', amount: '50.25' });
    controls().complete((await readDeposit(t, id)).providerReference!, 'approved');
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.status, { interval: 20 }).toBe('SUCCEEDED');
  });
});
