// A page of deposits with their refunds and events costs the same few SQL statements whatever its
// size: the page itself, then one batched query per nested list (src/graphql/loaders.ts). Not
// timed: speed is measured outside the test suite.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestRefundMutation } from '../refunds/operations.js';
import { startRefundGateway, succeededDeposit, type RefundTestGateway } from '../refunds/support.js';
import { execute, postRaw } from '../support/gateway.js';
import { statementsOf } from '../support/statements.js';
import { DepositsWithRefundsAndEventsQuery } from './operations.js';

const DEPOSITS = 8;
const REFUNDED = 6;

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
});
afterAll(() => t?.close());

let created: Promise<Array<{ id: string }>> | undefined;
/** Succeeded deposits, the first REFUNDED of them partly refunded; made once, by the first test that asks (expect.poll runs only inside a test). */
function givenDeposits(): Promise<Array<{ id: string }>> {
  created ??= (async () => {
    const deposits = await Promise.all(Array.from({ length: DEPOSITS }, () => succeededDeposit(t, '30.00')));
    for (const deposit of deposits.slice(0, REFUNDED)) {
      const refunded = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '4.00' } }, { key: t.refundsKey });
      expect(refunded.errors).toBeUndefined();
      expect(refunded.data!.requestRefund.userErrors).toEqual([]);
    }
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    return deposits;
  })();
  return created;
}

async function page(first: number) {
  const response = await execute(t.gateway.graphqlUrl, DepositsWithRefundsAndEventsQuery, { first }, { key: t.keys.admin });
  expect(response.errors).toBeUndefined();
  return response.data!.deposits;
}

describe('deposits with nested refunds and events', () => {
  it('cost the same statements for a page of 5 as for a page of 50: the page, the refunds, the events, the refunds\' deposits', async () => {
    // given: the deposits, and the admin key known (its lookup is not part of the page's cost)
    await givenDeposits();
    await page(5);

    // when
    let small: Awaited<ReturnType<typeof page>> | undefined;
    let large: Awaited<ReturnType<typeof page>> | undefined;
    const smallCount = await statementsOf(t, async () => {
      small = await page(5);
    });
    const largeCount = await statementsOf(t, async () => {
      large = await page(50);
    });

    // then
    expect(small!.edges).toHaveLength(5);
    expect(large!.edges).toHaveLength(DEPOSITS);
    expect(largeCount).toBe(smallCount);
    expect(largeCount).toBe(4);
  });

  it('answer each deposit with its own refunds and events, oldest first', async () => {
    const deposits = await givenDeposits();
    const { edges } = await page(50);
    const byId = new Map(edges.map((edge) => [edge.node.id, edge.node]));
    deposits.forEach((deposit, index) => {
      const node = byId.get(deposit.id)!;
      expect(node.amount).toEqual({ amount: '30.00', currency: 'EUR' });
      if (index < REFUNDED) {
        expect(node.refunds).toEqual([{ id: expect.stringMatching(/^rfd_/), status: 'APPROVED', amount: { amount: '4.00', currency: 'EUR' }, deposit: { id: deposit.id } }]);
        expect(node.refundedAmount).toEqual({ amount: '4.00', currency: 'EUR' });
      } else {
        expect(node.refunds).toEqual([]);
      }
      expect(node.events.length).toBeGreaterThanOrEqual(2);
      expect(node.events[0]).toMatchObject({ type: 'deposit.created', deposit: { id: deposit.id } });
      expect(node.events.map((event) => event.toStatus)).toContain('SUCCEEDED');
      expect(node.events.every((event) => event.deposit?.id === deposit.id)).toBe(true);
    });
  });
});

/**
 * The page as a client may spell it: the lists inside a fragment, under aliases, one of them
 * asking for each event's deposit and one not.
 */
const SPELLED_OTHERWISE = `
  query DepositsSpelledOtherwise($first: Int) {
    deposits(first: $first) { edges { node { id ...Lists } } }
  }
  fragment Lists on Deposit {
    paid: refunds { id status amount { amount currency } deposit { id } }
    history: events { id type toStatus }
    ... on Deposit { withDeposit: events { id deposit { id status } } }
  }
`;

describe('deposits spelled with fragments and aliases', () => {
  it('answer the same lists as the plain query, for the same statements', async () => {
    const deposits = await givenDeposits();
    await page(5);
    let answer: { status: number; body: any } | undefined;
    const count = await statementsOf(t, async () => {
      answer = await postRaw(t.gateway.graphqlUrl, { query: SPELLED_OTHERWISE, variables: { first: 50 } }, t.keys.admin);
    });
    expect(answer!.status).toBe(200);
    expect(answer!.body.errors).toBeUndefined();
    expect(count).toBe(4);
    const plain = new Map((await page(50)).edges.map((edge) => [edge.node.id, edge.node]));
    const spelled = answer!.body.data.deposits.edges as Array<{ node: { id: string; paid: unknown[]; history: Array<{ id: string; type: string; toStatus: string | null }>; withDeposit: Array<{ id: string; deposit: { id: string; status: string } }> } }>;
    expect(spelled.map((edge) => edge.node.id).sort()).toEqual(deposits.map((deposit) => deposit.id).sort());
    for (const { node } of spelled) {
      const expected = plain.get(node.id)!;
      expect(node.paid).toEqual(expected.refunds);
      expect(node.history).toEqual(expected.events.map((event) => ({ id: event.id, type: event.type, toStatus: event.toStatus })));
      expect(node.withDeposit).toEqual(expected.events.map((event) => ({ id: event.id, deposit: event.deposit })));
    }
  });
});

describe('GraphQL answers', () => {
  it('are never kept by a shared cache (Cache-Control: no-store), over POST and GET', async () => {
    const post = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.admin}` },
      body: JSON.stringify({ query: '{ deposits(first: 1) { edges { node { id } } } }' }),
    });
    expect(post.status).toBe(200);
    expect((await post.json()).errors).toBeUndefined();
    expect(post.headers.get('cache-control')).toBe('no-store');
    const get = await fetch(`${t.gateway.graphqlUrl}?query=${encodeURIComponent('{ viewer { id } }')}`, {
      headers: { authorization: `Bearer ${t.keys.admin}`, 'apollo-require-preflight': 'true', accept: 'application/json' },
    });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ data: { viewer: { id: expect.stringMatching(/^cli_/) } } });
    expect(get.headers.get('cache-control')).toBe('no-store');
  });
});
