// The embedded card form end to end over HTTP: the card session never carries `integrity`, settling
// is promote-only and idempotent (one change, one event), a `.13` amount is declined with its
// reason, and a settle result about another order is refused.

import { readFile } from 'node:fs/promises';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { execute, startTestGateway } from '../support/gateway.js';
import { CARD_INPUT, VALID_DEPOSITS } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { CardSessionQuery, SettleCardDepositMutation } from './operations.js';

let t: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  t = await startTestGateway();
  // The shopper completes the embedded form: payments stay open until the settle call.
  t.gateway.sandboxes.depositGateway!.controls.setAutoComplete(false);
});
afterAll(() => t?.close());

async function createCardDeposit(amount = '25.00'): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount } }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

async function statusChanges(id: string): Promise<string[]> {
  const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!.events.filter((event) => event.type === 'deposit.status_changed').map((event) => `${event.fromStatus}->${event.toStatus}`);
}

describe('cardSession', () => {
  it('gives the script address and brands, and never the integrity value', async () => {
    const id = await createCardDeposit();
    const response = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
    expect(response.errors).toBeUndefined();
    const session = response.data!.cardSession!;
    expect(session).toMatchObject({ depositId: id, settled: false, status: 'PENDING', amount: { amount: '25.00', currency: 'EUR' }, brands: ['VISA', 'MASTER'] });
    expect(session.scriptUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/js\/loader\/.+\.js\?checkout=/);
    expect(JSON.stringify(response)).not.toMatch(/integrity|sha384-/);
    // Not even selectable: the type has no such field.
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const fields = Object.keys((schema.getType('CardSession') as GraphQLObjectType).getFields());
    expect(fields.sort()).toEqual(['amount', 'brands', 'depositId', 'scriptUrl', 'settled', 'status']);
  });

  it('is null for another cashier\'s deposit and refused for a deposit on another rail', async () => {
    const id = await createCardDeposit();
    const other = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.mobileCashier });
    expect(other.errors).toBeUndefined();
    expect(other.data!.cardSession).toBeNull();

    const bank = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: VALID_DEPOSITS[2]![1] }, { key: t.keys.webCashier });
    const bankId = bank.data!.createDeposit.deposit!.id;
    const refused = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: bankId }, { key: t.keys.webCashier });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'NOT_A_CARD_DEPOSIT' });
    const settle = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: bankId } }, { key: t.keys.webCashier });
    expect(settle.errors).toBeUndefined();
    expect(settle.data!.settleCardDeposit.userErrors.map((error) => error.code)).toEqual(['NOT_A_CARD_DEPOSIT']);
  });

  it('names the provider\'s refusal when the provider no longer knows the payment, never "Internal error"', async () => {
    const id = await createCardDeposit();
    // The provider lost the payment (or it is another environment's): its card session answers 404.
    await t.gateway.db.fork().execute('update deposit set provider_reference = ? where id = ?', ['pay_unknown_to_the_provider', id]);
    const response = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
    expect(response.data?.cardSession ?? null).toBeNull();
    expect(response.errors?.[0]).toMatchObject({ message: expect.stringMatching(/provider rejected/), extensions: { code: 'PROVIDER_REJECTED' } });
  });
});

describe('settleCardDeposit', () => {
  it('settling twice makes one change and one event', async () => {
    // given
    const id = await createCardDeposit();

    // when
    const first = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    const second = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });

    // then
    expect(first.errors).toBeUndefined();
    expect(first.data!.settleCardDeposit).toMatchObject({ alreadyProcessed: false, userErrors: [], deposit: { id, status: 'SUCCEEDED', declineReason: null } });
    expect(second.errors).toBeUndefined();
    expect(second.data!.settleCardDeposit).toMatchObject({ alreadyProcessed: true, userErrors: [], deposit: { id, status: 'SUCCEEDED' } });
    // The provider's own payment.approved webhook (fired by the settle call) changes nothing either.
    await t.gateway.sandboxes.depositGateway!.controls.idle();
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
  });

  it('two settle calls at once still make one change', async () => {
    const id = await createCardDeposit();
    const results = await Promise.all(
      [1, 2].map(() => execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier })),
    );
    expect(results.map((result) => result.data!.settleCardDeposit.deposit!.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
  });

  it('a .13 amount is DECLINED with its decline reason', async () => {
    const id = await createCardDeposit('10.13');
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ userErrors: [], deposit: { status: 'DECLINED', declineReason: 'declined', providerStatus: 'declined' } });
    expect(await statusChanges(id)).toEqual(['PENDING->DECLINED']);
  });

  it('refuses a settle result that echoes another order, and applies nothing', async () => {
    // given: deposit A's provider reference points at deposit B's payment
    const a = await createCardDeposit();
    const b = await createCardDeposit();
    const em = t.gateway.db.fork();
    const [depositA, depositB] = await Promise.all([em.findOneOrFail(Deposit, { id: a }), em.findOneOrFail(Deposit, { id: b })]);
    const referenceOfB = depositB.providerReference!;
    depositB.providerReference = `${referenceOfB}-moved`;
    await em.flush();
    depositA.providerReference = referenceOfB;
    await em.flush();

    // when
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: a } }, { key: t.keys.webCashier });

    // then
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit.userErrors.map((error) => error.code)).toEqual(['MERCHANT_REFERENCE_MISMATCH']);
    expect(settled.data!.settleCardDeposit.deposit).toMatchObject({ id: a, status: 'PENDING' });
    expect(await statusChanges(a)).toEqual([]);
    expect(t.logs.some((line) => line.includes('MERCHANT_REFERENCE_MISMATCH') && line.includes(a))).toBe(true);
  });

  it('an unknown deposit is a NOT_FOUND user error', async () => {
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: 'dep_00000000000000000000000000' } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ deposit: null, userErrors: [{ code: 'NOT_FOUND', field: ['depositId'] }] });
  });
});
