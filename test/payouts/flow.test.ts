// A payout service pays a player out in each LATAM country and sees the payout become PAID (or
// BOUNCED, or PAID then REVERTED) live on payoutUpdated when the sandbox's signed webhooks arrive.
// Missing beneficiary fields and inexact amounts are refused before any provider call. Real
// gateway, database, sandbox over HTTP and graphql-ws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/lib/money.js';
import { PAYOUT_REQUIRED_BENEFICIARY_FIELDS, type LatamCountry } from '../../src/providers/deposit-gateway/assumptions.js';
import { BENEFICIARY_FIELD_NAMES } from '../../src/providers/deposit-gateway/validation.js';
import { collect, subscribed } from '../deposits/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient, VALID_PAYOUTS } from './fixtures.js';
import { CreatePayoutMutation, PayoutQuery, PayoutUpdatedSubscription } from './operations.js';

let t: TestGateway;
let payoutsKey: string;
const postedPayouts = () => t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/payouts', 'POST');

beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(() => t?.close());

const mask = (value: string) => `****${value.slice(-4)}`;

describe.each(VALID_PAYOUTS)('%s', (country, input, currency) => {
  it('goes PENDING -> PAID live over graphql-ws', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    // Subscribed before creating: the sandbox settles test payouts almost at once.
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));

    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout.userErrors).toEqual([]);
    const payout = created.data!.createPayout.payout!;
    expect(payout.id).toMatch(/^pay_/);
    // The amount with its currency's ISO 4217 decimals: COP 200000 is "200000.00" (sent to the provider as "200000").
    expect(payout).toMatchObject({ country, amount: { amount: Money.fromDecimal(input.amount, currency).toDecimal(), currency }, livemode: false, provider: 'DEPOSIT_GATEWAY', merchantAccount: 'dg-test' });
    // The answer shows the payout as it stands when it is sent: the provider's webhook may overtake it.
    expect(['PENDING', 'PAID']).toContain(payout.status);
    expect(payout.beneficiary.accountNumber).toBe(mask(input.beneficiary.accountNumber!));

    await updates.until((update) => update.id === payout.id && update.status === 'PAID');
    await ws.dispose();
    expect(updates.messages.filter((update) => update.id === payout.id).map((update) => update.status)).toEqual(['PENDING', 'PAID']);

    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id: payout.id }, { key: payoutsKey });
    expect(read.data!.payout).toMatchObject({ status: 'PAID', providerStatus: 'paid', statusReason: null });
    expect(read.data!.payout!.events.map((event) => [event.type, event.toStatus])).toEqual([
      ['payout.created', 'PENDING'],
      ['payout.status_changed', 'PAID'],
    ]);
  });

  it('refuses missing beneficiary fields with one userError per field and no provider call', async () => {
    const before = postedPayouts();
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...input, beneficiary: {} } }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout.payout).toBeNull();
    const expected = PAYOUT_REQUIRED_BENEFICIARY_FIELDS[country as LatamCountry].map((field) => ['beneficiary', BENEFICIARY_FIELD_NAMES[field]]);
    expect(created.data!.createPayout.userErrors.map((error) => error.field)).toEqual(expected);
    expect(new Set(created.data!.createPayout.userErrors.map((error) => error.code))).toEqual(new Set(['FIELD_REQUIRED']));
    expect(postedPayouts()).toBe(before);
  });
});

describe('amounts', () => {
  it.each([
    ['CHILE', '150000.50'],
    ['COLOMBIA', '200000.5'],
  ])('%s takes whole amounts only: %s is refused before any provider call', async (country, amount) => {
    const input = VALID_PAYOUTS.find(([name]) => name === country)![1];
    const before = postedPayouts();
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...input, amount } }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout).toMatchObject({ payout: null, userErrors: [{ field: ['amount'], code: 'AMOUNT_TOO_PRECISE' }] });
    expect(postedPayouts()).toBe(before);
  });

  it('a currency other than the country\'s is refused', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, currency: 'USD', amount: '100.00' } }, { key: payoutsKey });
    expect(created.data!.createPayout.payout).toBeNull();
    expect(created.data!.createPayout.userErrors).toMatchObject([{ field: ['currency'], code: 'CURRENCY_NOT_SUPPORTED' }]);
  });
});

describe('bank outcomes (sandbox triggers, assumption A11)', () => {
  it('an account ending in 13 bounces', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));
    const input = { ...CHILE_INPUT, beneficiary: { ...CHILE_INPUT.beneficiary, accountNumber: '0012345613' } };
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    const id = created.data!.createPayout.payout!.id;
    await updates.until((update) => update.id === id && update.status === 'BOUNCED');
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await ws.dispose();
    expect(updates.messages.filter((update) => update.id === id).map((update) => update.status)).toEqual(['PENDING', 'BOUNCED']);
    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(read.data!.payout).toMatchObject({ status: 'BOUNCED', providerStatus: 'bounced' });
  });

  it('an account ending in 31 is paid, then reverted', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));
    const input = { ...CHILE_INPUT, beneficiary: { ...CHILE_INPUT.beneficiary, accountNumber: '0012345631' } };
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    const id = created.data!.createPayout.payout!.id;
    await updates.until((update) => update.id === id && update.status === 'REVERTED');
    await ws.dispose();
    expect(updates.messages.filter((update) => update.id === id).map((update) => update.status)).toEqual(['PENDING', 'PAID', 'REVERTED']);
    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(read.data!.payout!.events.map((event) => `${event.fromStatus}->${event.toStatus}`)).toEqual(['null->PENDING', 'PENDING->PAID', 'PAID->REVERTED']);
  });

  it('an account ending in 41 fails: the provider\'s payout.failed makes it FAILED', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    const updates = await subscribed(t, () => collect(ws, PayoutUpdatedSubscription, {}));
    const input = { ...CHILE_INPUT, beneficiary: { ...CHILE_INPUT.beneficiary, accountNumber: '0012345641' } };
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    const id = created.data!.createPayout.payout!.id;
    await updates.until((update) => update.id === id && update.status === 'FAILED');
    await ws.dispose();
    expect(updates.messages.filter((update) => update.id === id).map((update) => update.status)).toEqual(['PENDING', 'FAILED']);
    const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: payoutsKey });
    expect(read.data!.payout).toMatchObject({ status: 'FAILED', providerStatus: 'failed' });
  });
});

describe('who may pay out', () => {
  it('a cashier cannot pay out, read or subscribe to payouts (FORBIDDEN)', async () => {
    const before = postedPayouts();
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: t.keys.webCashier });
    expect(created.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(created.data?.createPayout ?? null).toBeNull();
    expect(postedPayouts()).toBe(before);
  });
});

describe('idempotency', () => {
  it('the same key and input return the first payout without a second provider call, even when racing', async () => {
    const input = { ...CHILE_INPUT, idempotencyKey: `race-${Date.now()}` };
    const before = postedPayouts();
    const results = await Promise.all(Array.from({ length: 5 }, () => execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey })));
    const ids = new Set(results.map((result) => result.data!.createPayout.payout!.id));
    expect(results.flatMap((result) => result.data!.createPayout.userErrors)).toEqual([]);
    expect(ids.size).toBe(1);
    expect(postedPayouts() - before).toBe(1);
    const again = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    expect(again.data!.createPayout.payout!.id).toBe([...ids][0]);
    expect(postedPayouts() - before).toBe(1);
  });

  it('the same key with other input is IDEMPOTENCY_KEY_REUSED', async () => {
    const key = `reuse-${Date.now()}`;
    await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, idempotencyKey: key } }, { key: payoutsKey });
    const other = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, amount: '160000', idempotencyKey: key } }, { key: payoutsKey });
    expect(other.data!.createPayout).toMatchObject({ payout: null, userErrors: [{ field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_REUSED' }] });
  });

  it('is scoped to the client: another payout service with the same key gets its own payout', async () => {
    const otherKey = await payoutsClient(t, 'payout-service-two');
    const input = { ...CHILE_INPUT, idempotencyKey: `scoped-${Date.now()}` };
    const first = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
    const second = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: otherKey });
    expect(second.data!.createPayout.payout!.id).not.toBe(first.data!.createPayout.payout!.id);
  });
});
