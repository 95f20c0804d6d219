// A query document sent again runs as compiled code (src/graphql/compiled-execution.ts). What a
// client reads must not change with it: the same bytes, the same errors at the same paths, the same
// status for a bad variable. Mutations never run compiled.

import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { RequestRefundMutation } from '../refunds/operations.js';
import { startRefundGateway, succeededDeposit, type RefundTestGateway } from '../refunds/support.js';
import { databaseOutage } from '../support/database.js';
import { execute } from '../support/gateway.js';
import { DepositsWithRefundsAndEventsQuery } from './operations.js';

let t: RefundTestGateway;
beforeAll(async () => {
  // The second run of a document is compiled.
  t = await startRefundGateway({ env: { GRAPHQL_COMPILE_AFTER: '1' } });
});
afterAll(() => t?.close());

let given: Promise<string> | undefined;
/** Two succeeded deposits, the first partly refunded; made once, by the first test that asks (expect.poll runs only inside a test). Resolves to the refunded one's id. */
function refundedDeposit(): Promise<string> {
  given ??= (async () => {
    const deposits = [await succeededDeposit(t, '30.00'), await succeededDeposit(t, '12.50')];
    const depositId = deposits[0]!.id;
    const refunded = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount: '4.00' } }, { key: t.refundsKey });
    expect(refunded.data!.requestRefund.userErrors).toEqual([]);
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    return depositId;
  })();
  return given;
}

/** The exact answer: status and body text. */
async function post(body: unknown, key: string): Promise<{ status: number; text: string }> {
  const response = await fetch(t.gateway.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** `gateway_graphql_executions_total` by mode, read from /metrics. */
async function executions(): Promise<{ compiled: number; interpreted: number }> {
  const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
  const count = (mode: string) => Number(new RegExp(`^gateway_graphql_executions_total\\{mode="${mode}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { compiled: count('compiled'), interpreted: count('interpreted') };
}

/** Sends `body` twice (graphql-js, then compiled) and returns both answers and how each ran. */
async function twice(body: unknown, key: string) {
  const before = await executions();
  const first = await post(body, key);
  const between = await executions();
  const second = await post(body, key);
  const after = await executions();
  return {
    first,
    second,
    firstRan: { compiled: between.compiled - before.compiled, interpreted: between.interpreted - before.interpreted },
    secondRan: { compiled: after.compiled - between.compiled, interpreted: after.interpreted - between.interpreted },
  };
}

describe('a query document sent again', () => {
  it('runs compiled the second time and answers the same bytes: a page with nested refunds, events, money and times', async () => {
    // given: a page query, with a unique alias so no other test's runs count for it
    const depositId = await refundedDeposit();
    const query = print(DepositsWithRefundsAndEventsQuery).replace('deposits(first: $first)', 'pageForCompiledRun: deposits(first: $first)');

    // when
    const runs = await twice({ query, variables: { first: 10 } }, t.keys.admin);

    // then
    expect(runs.firstRan).toEqual({ compiled: 0, interpreted: 1 });
    expect(runs.secondRan).toEqual({ compiled: 1, interpreted: 0 });
    expect(runs.first.status).toBe(200);
    expect(runs.second).toEqual(runs.first);
    const page = JSON.parse(runs.second.text).data.pageForCompiledRun;
    expect(page.edges).toHaveLength(2);
    expect(page.edges.find((edge: { node: { id: string } }) => edge.node.id === depositId).node.refunds).toEqual([
      { id: expect.stringMatching(/^rfd_/), status: 'APPROVED', amount: { amount: '4.00', currency: 'EUR' }, deposit: { id: depositId } },
    ]);
  });

  it('answers an abstract type (node with fragments) and typename the same', async () => {
    const depositId = await refundedDeposit();
    const query = `query NodeForCompiledRun($id: ID!) { node(id: $id) { __typename id ... on Deposit { status amount { amount currency } createdAt refunds { id } } } missing: node(id: "dep_00000000000000000000000000") { id } }`;
    const runs = await twice({ query, variables: { id: depositId } }, t.keys.admin);
    expect(runs.secondRan.compiled).toBe(1);
    expect(runs.second).toEqual(runs.first);
    expect(JSON.parse(runs.second.text).data).toMatchObject({ node: { __typename: 'Deposit', id: depositId, status: 'SUCCEEDED' }, missing: null });
  });

  it('reports a refused field with the same error, path and code, and propagates its null the same', async () => {
    // given: a cashier key asking for an admin-only list (non-null) beside a deposit lookup
    const query = `query RefusedForCompiledRun { deposit(id: "dep_00000000000000000000000000") { id } apiClients(first: 1) { edges { node { id } } } }`;

    // when
    const runs = await twice({ query }, t.keys.webCashier);

    // then: the refused non-null field takes the whole data with it, in both runs
    expect(runs.secondRan.compiled).toBe(1);
    expect(runs.second).toEqual(runs.first);
    const body = JSON.parse(runs.second.text);
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({ path: ['apiClients'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
  });

  it('refuses a bad variable with the same 400 answer, compiled or not', async () => {
    const query = `query BadVariableForCompiledRun($first: Int) { deposits(first: $first) { edges { node { id } } } }`;
    await post({ query, variables: { first: 1 } }, t.keys.admin);
    const runs = await twice({ query, variables: { first: 'ten' } }, t.keys.admin);
    expect(runs.first.status).toBe(400);
    expect(runs.second).toEqual(runs.first);
    expect(JSON.parse(runs.second.text).errors[0].message).toMatch(/Variable "\$first" got invalid value "ten"/);
  });

  it('is never a mutation: the same mutation document runs through graphql-js every time', async () => {
    const mutation = `mutation CompiledNever($input: CreateDepositInput!) { createDeposit(input: $input) { deposit { id status } userErrors { code } } }`;
    const input = (amount: string) => ({ ...CARD_INPUT, amount });
    const before = await executions();
    for (const amount of ['6.00', '7.00', '8.00']) {
      const answer = JSON.parse((await post({ query: mutation, variables: { input: input(amount) } }, t.keys.webCashier)).text);
      expect(answer.data.createDeposit.userErrors).toEqual([]);
    }
    const after = await executions();
    expect(after.compiled - before.compiled).toBe(0);
    expect(after.interpreted - before.interpreted).toBe(3);
  });

  it('masks an unexpected error (the database gone) as graphql-js does: "Internal error" with a logged correlation id', async (test) => {
    // PostgreSQL only: a closed PGlite fails every request before it executes (the health test covers that).
    if (t.database.kind !== 'postgresql') test.skip();
    // given: a query run once (through graphql-js) while the database is up, then an outage
    const query = `query OutageForCompiledRun { apiClients(first: 1) { edges { node { id } } } }`;
    expect((await post({ query }, t.keys.admin)).status).toBe(200);
    const outage = await databaseOutage(t.database, () => t.gateway.db.close());
    try {
      // when: it runs compiled
      const before = await executions();
      const answer = await post({ query }, t.keys.admin);
      const after = await executions();

      // then
      expect(after.compiled - before.compiled).toBe(1);
      const body = JSON.parse(answer.text);
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([
        { message: 'Internal error', locations: [{ line: 1, column: 30 }], path: ['apiClients'], extensions: { code: 'INTERNAL_SERVER_ERROR', correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) } },
      ]);
      // The correlation id is what an operator finds the failure by: the error line carrying it (docs/security.md)
      const logged = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.correlationId === body.errors[0].extensions.correlationId);
      expect(logged).toEqual([expect.objectContaining({ level: 50, err: expect.objectContaining({ message: expect.any(String) }) })]);
    } finally {
      await outage.end();
    }
  });
});
