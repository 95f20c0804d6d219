// A refunds back office refunds succeeded card deposits in full and in part; the provider's signed
// refund webhooks move the refund and the deposit, live on refundUpdated and depositUpdated.
// Over-refunds, racing refunds, rejections, idempotency and roles. Real gateway, database, sandbox, ws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentEvent } from '../../src/kernel/events/payment-event.entity.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { Refund } from '../../src/modules/refunds/refund.entity.js';
import type { RequestRefundInput } from '../__generated__/graphql.js';
import { CARD_INPUT, VALID_DEPOSITS } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { execute } from '../support/gateway.js';
import { statementsOf } from '../support/statements.js';
import { wsClient } from '../support/ws.js';
import { DepositRefundsQuery, DepositRefundUpdatedSubscription, DepositsRefundsQuery, DepositsTimesQuery, RefundQuery, RefundUpdatedSubscription, RequestRefundMutation } from './operations.js';
import { refundCalls, startRefundGateway, succeededDeposit, type RefundTestGateway } from './support.js';

let t: RefundTestGateway;
let url: string;
beforeAll(async () => {
  t = await startRefundGateway();
  url = t.gateway.graphqlUrl;
});
afterAll(() => t?.close());

const refund = (input: RequestRefundInput, key = t.refundsKey) => execute(url, RequestRefundMutation, { input }, { key });

const depositOf = async (id: string, key = t.refundsKey) => (await execute(url, DepositRefundsQuery, { id }, { key })).data!.deposit!;

describe('a full refund', () => {
  it('is REQUESTED, then APPROVED live on refundUpdated, and the deposit becomes REFUNDED live on depositUpdated', async () => {
    // Given a succeeded deposit of the web cashier, watched by the back office and by the cashier
    const deposit = await succeededDeposit(t, '25.00');
    const office = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.refundsKey}` });
    const cashier = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const refunds = await subscribed(t, () => collect(office, RefundUpdatedSubscription, {}));
    const officeDeposit = await subscribed(t, () => collect(office, DepositRefundUpdatedSubscription, { id: deposit.id }));
    const cashierDeposits = await subscribed(t, () => collect(cashier, DepositRefundUpdatedSubscription, {}));

    // When the back office refunds it without naming an amount
    const requested = await refund({ depositId: deposit.id, reason: 'player asked' });
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const created = requested.data!.requestRefund.refund!;
    expect(created).toMatchObject({ status: 'REQUESTED', amount: { amount: '25.00', currency: 'EUR' }, reason: 'player asked' });
    expect(created.id).toMatch(/^rfd_/);

    // Then the provider's decision arrives on every stream
    const approved = await refunds.until((update) => update.id === created.id && update.status === 'APPROVED');
    expect(approved).toMatchObject({ providerStatus: 'approved', amount: { amount: '25.00', currency: 'EUR' } });
    const refunded = await officeDeposit.until((update) => update.status === 'REFUNDED');
    expect(refunded).toMatchObject({ id: deposit.id, refundedAmount: { amount: '25.00', currency: 'EUR' }, refundStatus: 'APPROVED' });
    await cashierDeposits.until((update) => update.id === deposit.id && update.status === 'REFUNDED');
    await Promise.all([office.dispose(), cashier.dispose()]);
    expect(refunds.errors).toEqual([]);

    const read = await depositOf(deposit.id);
    expect(read).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: '25.00' }, refundStatus: 'APPROVED', disputed: false });
    expect(read.refunds.map((item) => [item.id, item.status])).toEqual([[created.id, 'APPROVED']]);
    // Refund accepted (refundStatus REQUESTED), then executed in full: one status change.
    expect(read.events.map((event) => `${event.type}:${event.toStatus}`).filter((event) => !event.startsWith('deposit.details_updated')).slice(-2)).toEqual([
      'deposit.refund_updated:SUCCEEDED',
      'deposit.status_changed:REFUNDED',
    ]);
    expect(refundCalls(t)).toBeGreaterThanOrEqual(1);
  });

  it('is visible to the cashier whose deposit it is, not to another cashier', async () => {
    const deposit = await succeededDeposit(t, '12.00');
    const id = (await refund({ depositId: deposit.id })).data!.requestRefund.refund!.id;
    const own = await execute(url, RefundQuery, { id }, { key: t.keys.webCashier });
    expect(own.errors).toBeUndefined();
    expect(own.data!.refund).toMatchObject({ id, deposit: { id: deposit.id } });
    const other = await execute(url, RefundQuery, { id }, { key: t.keys.mobileCashier });
    expect(other.errors).toBeUndefined();
    expect(other.data!.refund).toBeNull();
    const office = await execute(url, RefundQuery, { id }, { key: t.refundsKey });
    expect(office.data!.refund!.id).toBe(id);
  });
});

describe('a partial refund', () => {
  it('leaves the deposit SUCCEEDED with the refunded amount shown, until the rest is refunded too', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const first = await refund({ depositId: deposit.id, amount: '10.5' });
    expect(first.data!.requestRefund.userErrors).toEqual([]);
    expect(first.data!.requestRefund.refund!.amount).toEqual({ amount: '10.50', currency: 'EUR' });
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('10.50');
    expect(await depositOf(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundStatus: 'APPROVED' });

    // The rest: no amount means everything still refundable.
    const rest = await refund({ depositId: deposit.id });
    expect(rest.data!.requestRefund.refund!.amount.amount).toBe('14.50');
    await expect.poll(async () => (await depositOf(deposit.id)).status, { interval: 20 }).toBe('REFUNDED');
    const read = await depositOf(deposit.id);
    expect(read.refundedAmount.amount).toBe('25.00');
    expect(read.refunds.map((item) => [item.amount.amount, item.status])).toEqual([
      ['10.50', 'APPROVED'],
      ['14.50', 'APPROVED'],
    ]);
  });
});

describe('refused before any provider call', () => {
  it('an over-refund is REFUND_EXCEEDS_REFUNDABLE, also counting open refunds', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const before = refundCalls(t);
    const over = await refund({ depositId: deposit.id, amount: '25.01' });
    expect(over.errors).toBeUndefined();
    expect(over.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ field: ['amount'], code: 'REFUND_EXCEEDS_REFUNDABLE' }] });
    expect(refundCalls(t)).toBe(before);

    expect((await refund({ depositId: deposit.id, amount: '20.00' })).data!.requestRefund.userErrors).toEqual([]);
    const beyond = await refund({ depositId: deposit.id, amount: '5.01' });
    expect(beyond.data!.requestRefund.userErrors[0]!.code).toBe('REFUND_EXCEEDS_REFUNDABLE');
    expect(refundCalls(t)).toBe(before + 1);
  });

  it('bad amounts, unknown deposits and deposits that did not succeed are userErrors', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const before = refundCalls(t);
    const cases: Array<[RequestRefundInput, string, string[]]> = [
      [{ depositId: deposit.id, amount: '1.234' }, 'AMOUNT_TOO_PRECISE', ['amount']],
      [{ depositId: deposit.id, amount: '0' }, 'AMOUNT_NOT_POSITIVE', ['amount']],
      [{ depositId: deposit.id, amount: '-1.00' }, 'AMOUNT_NOT_POSITIVE', ['amount']],
      [{ depositId: 'dep_00000000000000000000000000' }, 'NOT_FOUND', ['depositId']],
      [{ depositId: deposit.id, idempotencyKey: 'has space' }, 'INVALID_FORMAT', ['idempotencyKey']],
    ];
    for (const [input, code, field] of cases) {
      const response = await refund(input);
      expect(response.errors).toBeUndefined();
      expect(response.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ code, field }] });
    }
    // A declined deposit (test mode: amount ending in .13) has nothing to refund.
    const declined = await execute(url, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '10.13' } }, { key: t.keys.webCashier });
    const declinedId = declined.data!.createDeposit.deposit!.id;
    await expect.poll(async () => (await execute(url, DepositQuery, { id: declinedId }, { key: t.keys.webCashier })).data!.deposit!.status).toBe('DECLINED');
    const notRefundable = await refund({ depositId: declinedId });
    expect(notRefundable.data!.requestRefund.userErrors).toMatchObject([{ field: ['depositId'], code: 'DEPOSIT_NOT_REFUNDABLE' }]);
    expect(refundCalls(t)).toBe(before);
  });
});

describe('a refund in the provider\'s decimals', () => {
  it('refuses centavos on a COP deposit before any call (the provider takes whole pesos), and sends whole pesos as an integer', async () => {
    // given: a Colombian deposit the sandbox approved
    const colombia = structuredClone(VALID_DEPOSITS.find(([name]) => name === 'LATAM Colombia')![1]);
    const created = await execute(url, CreateDepositMutation, { input: { ...colombia, amount: '50000' } }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createDeposit.deposit!.id;
    expect(created.data!.createDeposit.deposit!.amount).toEqual({ amount: '50000.00', currency: 'COP' });
    const reference = (await t.gateway.db.fork().execute<Array<{ provider_reference: string }>>('select provider_reference from deposit where id = ?', [id]))[0]!.provider_reference;
    t.gateway.sandboxes.get('deposit-gateway')!.controls.complete(reference, 'approved');
    await expect.poll(async () => (await execute(url, DepositQuery, { id }, { key: t.keys.webCashier })).data?.deposit?.status, { interval: 20 }).toBe('SUCCEEDED');
    const before = refundCalls(t);

    // when / then: COP 100.50 is exact in ISO 4217, but not a COP amount the provider takes
    const centavos = await refund({ depositId: id, amount: '100.50' });
    expect(centavos.errors).toBeUndefined();
    expect(centavos.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ field: ['amount'], code: 'AMOUNT_TOO_PRECISE', message: expect.stringMatching(/whole numbers/) }] });
    expect(refundCalls(t)).toBe(before);

    // ... and whole pesos are refunded, sent as the integer the spec asks for
    const pesos = await refund({ depositId: id, amount: '5000.00' });
    expect(pesos.data!.requestRefund.userErrors).toEqual([]);
    expect(pesos.data!.requestRefund.refund!.amount).toEqual({ amount: '5000.00', currency: 'COP' });
    const sent = t.gateway.sandboxes.get('deposit-gateway')!.controls.requestBodies('/refunds', 'POST').map((body) => JSON.parse(body) as { reference: string; amount?: unknown });
    expect(sent.filter((body) => body.reference === reference).map((body) => body.amount)).toEqual(['5000']);
  });
});

describe('racing refunds', () => {
  it('requests that together exceed the amount: only as many as fit are accepted', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const before = refundCalls(t);
    // Five concurrent 10.00 refunds of 25.00: two fit.
    const results = await Promise.all(Array.from({ length: 5 }, () => refund({ depositId: deposit.id, amount: '10.00' })));
    const accepted = results.filter((result) => result.data!.requestRefund.refund);
    const refused = results.filter((result) => !result.data!.requestRefund.refund);
    expect(accepted).toHaveLength(2);
    expect(refused.map((result) => result.data!.requestRefund.userErrors[0]!.code)).toEqual(['REFUND_EXCEEDS_REFUNDABLE', 'REFUND_EXCEEDS_REFUNDABLE', 'REFUND_EXCEEDS_REFUNDABLE']);
    expect(refundCalls(t)).toBe(before + 2);
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('20.00');
    expect((await depositOf(deposit.id)).status).toBe('SUCCEEDED');
  });

  it('two full refunds at once: one is refused', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const results = await Promise.all([refund({ depositId: deposit.id }), refund({ depositId: deposit.id })]);
    expect(results.map((result) => result.data!.requestRefund.userErrors.map((error) => error.code)).sort()).toEqual([[], ['REFUND_EXCEEDS_REFUNDABLE']]);
    await expect.poll(async () => (await depositOf(deposit.id)).status, { interval: 20 }).toBe('REFUNDED');
    expect((await depositOf(deposit.id)).refunds).toHaveLength(1);
  });
});

describe('a rejected refund', () => {
  it('ends REJECTED (sandbox: amount ending in 13 minor units), refunds nothing and frees its share', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.refundsKey}` });
    const updates = await subscribed(t, () => collect(ws, RefundUpdatedSubscription, {}));
    const requested = await refund({ depositId: deposit.id, amount: '5.13' });
    const id = requested.data!.requestRefund.refund!.id;
    const rejected = await updates.until((update) => update.id === id && update.status === 'REJECTED');
    await ws.dispose();
    expect(rejected).toMatchObject({ providerStatus: 'rejected', amount: { amount: '5.13' } });
    await expect.poll(async () => (await depositOf(deposit.id)).refundStatus, { interval: 20 }).toBe('REJECTED');
    expect(await depositOf(deposit.id)).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '0.00' } });

    // The rejected 5.13 no longer holds any of the 25.00.
    const full = await refund({ depositId: deposit.id });
    expect(full.data!.requestRefund.refund!.amount.amount).toBe('25.00');
    await expect.poll(async () => (await depositOf(deposit.id)).status, { interval: 20 }).toBe('REFUNDED');
  });
});

describe('idempotency', () => {
  it('the same key and input return the first refund, once at the provider, also when racing', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const before = refundCalls(t);
    const input = { depositId: deposit.id, amount: '5.00', idempotencyKey: `refund-${deposit.id}` };
    const racing = await Promise.all([refund(input), refund(input), refund(input)]);
    const ids = racing.map((result) => result.data!.requestRefund.refund?.id);
    expect(racing.every((result) => result.data!.requestRefund.userErrors.length === 0)).toBe(true);
    expect(new Set(ids).size).toBe(1);
    const again = await refund(input);
    expect(again.data!.requestRefund.refund!.id).toBe(ids[0]);
    expect(refundCalls(t)).toBe(before + 1);

    const reused = await refund({ ...input, amount: '6.00' });
    expect(reused.data!.requestRefund).toMatchObject({ refund: null, userErrors: [{ field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_REUSED' }] });
    expect((await depositOf(deposit.id)).refunds).toHaveLength(1);
  });

  it('an unknown outcome stays REQUESTED and a retry with the same key settles it', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    // The first attempt and the adapter's two retries all fail.
    controls.failNext({ status: 503, count: 3, method: 'POST' });
    const input = { depositId: deposit.id, amount: '7.00', idempotencyKey: `unknown-${deposit.id}` };
    const first = await refund(input);
    expect(first.data!.requestRefund.userErrors).toMatchObject([{ code: 'PROVIDER_UNAVAILABLE' }]);
    expect(first.data!.requestRefund.refund).toMatchObject({ status: 'REQUESTED' });
    // It still holds its share: 25.00 - 7.00 is all that is left.
    expect((await refund({ depositId: deposit.id, amount: '18.01' })).data!.requestRefund.userErrors[0]!.code).toBe('REFUND_EXCEEDS_REFUNDABLE');

    const retry = await refund(input);
    expect(retry.data!.requestRefund.userErrors).toEqual([]);
    expect(retry.data!.requestRefund.refund!.id).toBe(first.data!.requestRefund.refund!.id);
    await expect.poll(async () => (await depositOf(deposit.id)).refundedAmount.amount, { interval: 20 }).toBe('7.00');
  });
});

describe('roles', () => {
  it('a cashier cannot refund, not even its own deposit: FORBIDDEN, and nothing reaches the provider', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const before = refundCalls(t);
    const response = await refund({ depositId: deposit.id }, t.keys.webCashier);
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(response.data ?? null).toBeNull();
    expect(refundCalls(t)).toBe(before);
  });

  it('an admin can refund', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    const response = await refund({ depositId: deposit.id, amount: '1.00' }, t.keys.admin);
    expect(response.data!.requestRefund.userErrors).toEqual([]);
  });
});

describe('Deposit.refunds', () => {
  it('is batched: a page of 10 deposits with their refunds costs the same statements as a page of 2', async () => {
    const deposit = await succeededDeposit(t, '25.00');
    await refund({ depositId: deposit.id, amount: '2.00' });
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    const statements = async (first: number) => {
      await execute(url, DepositsRefundsQuery, { first }, { key: t.refundsKey }); // warm: key lookup and last-used write
      const pages: Array<Awaited<ReturnType<typeof readPage>>> = [];
      const readPage = () => execute(url, DepositsRefundsQuery, { first }, { key: t.refundsKey });
      const count = await statementsOf(t, async () => {
        pages.push(await readPage());
      });
      const page = pages[0]!;
      expect(page.errors).toBeUndefined();
      expect(page.data!.deposits.edges).toHaveLength(first);
      return { count, edges: page.data!.deposits.edges };
    };
    const small = await statements(2);
    const large = await statements(10);
    expect(large.count).toBe(small.count);
    // The back office reads every cashier's deposits, with their refunds.
    const node = large.edges.find((edge) => edge.node.id === deposit.id)!.node;
    expect(node.refunds.map((item) => [item.status, item.deposit.id])).toEqual([['APPROVED', deposit.id]]);
    expect(large.edges.filter((edge) => edge.node.refunds.length > 0).length).toBeGreaterThan(2);
  });
});

describe('a page of deposits with their refunds and events', () => {
  it('answers every time as the entities\' own Dates written as ISO text', async () => {
    // Given a succeeded deposit with an executed refund
    const deposit = await succeededDeposit(t, '25.00');
    await refund({ depositId: deposit.id, amount: '3.00' });
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();

    // When the page is read with its nested lists, whose rows keep their times as the database's text
    const page = await execute(url, DepositsTimesQuery, { first: 50 }, { key: t.refundsKey });
    expect(page.errors).toBeUndefined();
    const node = page.data!.deposits.edges.find((edge) => edge.node.id === deposit.id)!.node;

    // Then each time is what the entity read through the ORM says
    const em = t.gateway.db.fork();
    const entity = await em.findOneOrFail(Deposit, { id: deposit.id });
    expect([node.createdAt, node.updatedAt, node.approvedAt]).toEqual([entity.createdAt.toISOString(), entity.updatedAt.toISOString(), entity.approvedAt?.toISOString() ?? null]);
    const refunds = await em.find(Refund, { depositId: deposit.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    expect(node.refunds).toEqual(refunds.map((row) => ({ id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() })));
    const events = await em.find(PaymentEvent, { subjectType: 'deposit', subjectId: deposit.id, adminOnly: false }, { orderBy: { position: 'asc' } });
    expect(events.length).toBeGreaterThan(2);
    expect(node.events).toEqual(events.map((row) => ({ id: row.id, createdAt: row.createdAt.toISOString() })));
  });
});
