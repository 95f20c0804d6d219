// node(id) resolves every kind of object by its prefixed id, with the same visibility as the
// object's own query: nothing for a caller who may not see it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const node = async (id: string, key: string) =>
  (await postRaw(t.gateway.graphqlUrl, { query: `{ node(id: "${id}") { __typename id } }` }, key)).body.data.node as { __typename: string; id: string } | null;

describe('node(id)', () => {
  it('finds deposits, refunds and payouts for those who may see them', async () => {
    const deposit = (await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier })).data!.createDeposit.deposit!.id;
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit }, { key: t.keys.webCashier })).data!.deposit!.status).toBe('SUCCEEDED');
    const refund = (
      await postRaw(t.gateway.graphqlUrl, { query: `mutation { requestRefund(input: { depositId: "${deposit}", amount: "5.00" }) { refund { id } userErrors { code } } }` }, t.keys.admin)
    ).body.data.requestRefund.refund.id as string;
    const payout = (
      await postRaw(
        t.gateway.graphqlUrl,
        {
          query:
            'mutation { createPayout(input: { country: "MEXICO", amount: "1200.00", beneficiary: { name: "Ana López", documentType: "CURP", documentNumber: "GODE561231HDFRRN04", accountNumber: "002180000118359710" } }) { payout { id } userErrors { code } } }',
        },
        t.keys.admin,
      )
    ).body.data.createPayout.payout.id as string;

    expect(await node(deposit, t.keys.admin)).toEqual({ __typename: 'Deposit', id: deposit });
    expect(await node(refund, t.keys.admin)).toEqual({ __typename: 'Refund', id: refund });
    expect(await node(payout, t.keys.admin)).toEqual({ __typename: 'Payout', id: payout });

    // The cashier owns the deposit, so it sees the deposit and its refund, but no payout.
    expect(await node(deposit, t.keys.webCashier)).toEqual({ __typename: 'Deposit', id: deposit });
    expect(await node(refund, t.keys.webCashier)).toEqual({ __typename: 'Refund', id: refund });
    expect(await node(payout, t.keys.webCashier)).toBeNull();
    // Another cashier sees none of them.
    for (const id of [deposit, refund, payout]) expect(await node(id, t.keys.mobileCashier)).toBeNull();
  });
});
