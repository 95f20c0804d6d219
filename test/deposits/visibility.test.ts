// Each client sees only its own deposits; admins see all. Lists batch their lookups.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { statementsOf } from '../support/statements.js';
import { take, wsClient } from '../support/ws.js';
import { CARD_INPUT } from './fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositsQuery, DepositUpdatedSubscription } from './operations.js';

let t: TestGateway;
let webDeposit: string;
beforeAll(async () => {
  t = await startTestGateway();
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, merchantReference: 'order-42' } }, { key: t.keys.webCashier });
  webDeposit = created.data!.createDeposit.deposit!.id;
  await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
});
afterAll(() => t?.close());

describe('visibility', () => {
  it("a cashier cannot read another client's deposit", async () => {
    const other = await execute(t.gateway.graphqlUrl, DepositQuery, { id: webDeposit }, { key: t.keys.mobileCashier });
    expect(other.errors).toBeUndefined();
    expect(other.data!.deposit).toBeNull();
    const list = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 100 }, { key: t.keys.mobileCashier });
    expect(list.data!.deposits.edges.map((edge) => edge.node.id)).not.toContain(webDeposit);
  });

  it("a cashier cannot subscribe to another client's deposit", async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.mobileCashier}` });
    const result = await take(ws, DepositUpdatedSubscription, { id: webDeposit }, 1).catch((error: unknown) => error);
    await ws.dispose();
    expect(JSON.stringify(result)).toMatch(/No deposit with id/);
  });

  it('the owner and admins see it; filters narrow the list', async () => {
    expect((await execute(t.gateway.graphqlUrl, DepositQuery, { id: webDeposit }, { key: t.keys.webCashier })).data!.deposit!.id).toBe(webDeposit);
    expect((await execute(t.gateway.graphqlUrl, DepositQuery, { id: webDeposit }, { key: t.keys.admin })).data!.deposit!.id).toBe(webDeposit);
    const filtered = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 10, filter: { merchantReference: 'order-42', status: 'SUCCEEDED', rail: 'CARD' } }, { key: t.keys.webCashier });
    expect(filtered.data!.deposits.edges.map((edge) => edge.node.id)).toEqual([webDeposit]);
    const none = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 10, filter: { merchantReference: 'order-42', status: 'DECLINED' } }, { key: t.keys.webCashier });
    expect(none.data!.deposits.edges).toEqual([]);
  });
});

describe('deposits list', () => {
  it('is newest first and pages with cursors', async () => {
    for (let i = 0; i < 4; i++) await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.mobileCashier });
    const first = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 2 }, { key: t.keys.mobileCashier });
    const second = await execute(t.gateway.graphqlUrl, DepositsQuery, { first: 2, after: first.data!.deposits.pageInfo.endCursor }, { key: t.keys.mobileCashier });
    const nodes = [...first.data!.deposits.edges, ...second.data!.deposits.edges].map((edge) => edge.node);
    expect(new Set(nodes.map((node) => node.id)).size).toBe(4);
    const times = nodes.map((node) => Date.parse(node.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('costs the same number of SQL statements for 5 deposits as for 50', async () => {
    for (let i = 0; i < 50; i++) await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.admin });
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    const statements = async (first: number) => {
      await execute(t.gateway.graphqlUrl, DepositsQuery, { first }, { key: t.keys.admin }); // warm: key lookup and last-used write
      return statementsOf(t, async () => {
        const response = await execute(t.gateway.graphqlUrl, DepositsQuery, { first }, { key: t.keys.admin });
        expect(response.data!.deposits.edges).toHaveLength(first);
        expect(response.data!.deposits.edges.every((edge) => edge.node.events.length >= 1)).toBe(true);
      });
    };
    const small = await statements(5);
    const large = await statements(50);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(4);
  });
});
