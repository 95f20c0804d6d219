// Text PostgreSQL cannot store (NUL, lone surrogates) is refused at the boundary with the field
// named, never an internal error: a userError in a mutation payload, BAD_USER_INPUT for a query
// argument, and a signed webhook carrying it is kept as rejected and acknowledged, retries too.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { deliveries, insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';
import { wsClient } from '../support/ws.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const CREATE_DEPOSIT = 'mutation ($input: CreateDepositInput!) { createDeposit(input: $input) { deposit { id } userErrors { field code message } } }';

describe('text the database cannot store', () => {
  it('in a mutation input is a userError naming the field, and nothing is created', async () => {
    const providerCalls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/', 'POST');
    const before = providerCalls();
    const answer = await postRaw(t.gateway.graphqlUrl, { query: CREATE_DEPOSIT, variables: { input: { ...CARD_INPUT, merchantReference: 'a\u0000b' } } }, t.keys.webCashier);

    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.createDeposit.deposit).toBeNull();
    expect(answer.body.data.createDeposit.userErrors).toEqual([{ field: ['merchantReference'], code: 'INVALID_TEXT', message: expect.stringContaining('NUL') }]);
    expect(providerCalls()).toBe(before);
  });

  it('is refused by authorization first: a caller who may not use the field learns nothing of its arguments', async () => {
    const bad = { query: CREATE_DEPOSIT, variables: { input: { ...CARD_INPUT, merchantReference: 'a\u0000b' } } };
    const anonymous = await postRaw(t.gateway.graphqlUrl, bad);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const revoke = { query: 'mutation ($id: ID!) { revokeApiClient(input: { id: $id }) { userErrors { code } } }', variables: { id: 'cli_\u0000' } };
    const cashier = await postRaw(t.gateway.graphqlUrl, revoke, t.keys.webCashier);
    expect(cashier.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const admin = await postRaw(t.gateway.graphqlUrl, revoke, t.keys.admin);
    expect(admin.body.data.revokeApiClient.userErrors).toEqual([{ code: 'INVALID_TEXT' }]);
  });

  it('in the id of settleCardDeposit or reconcileDeposit is the userError INVALID_TEXT, as in every other mutation', async () => {
    const settle = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'mutation ($input: SettleCardDepositInput!) { settleCardDeposit(input: $input) { deposit { id } alreadyProcessed userErrors { field code } } }', variables: { input: { depositId: 'dep_\u0000' } } },
      t.keys.webCashier,
    );
    expect(settle.body.errors).toBeUndefined();
    expect(settle.body.data.settleCardDeposit).toEqual({ deposit: null, alreadyProcessed: false, userErrors: [{ field: ['depositId'], code: 'INVALID_TEXT' }] });

    const reconcile = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'mutation ($id: ID!) { reconcileDeposit(id: $id) { deposit { id } outcome userErrors { field code } } }', variables: { id: 'dep_\ud800' } },
      t.keys.admin,
    );
    expect(reconcile.body.errors).toBeUndefined();
    expect(reconcile.body.data.reconcileDeposit).toEqual({ deposit: null, outcome: 'NOT_FOUND', userErrors: [{ field: ['id'], code: 'INVALID_TEXT' }] });
  });

  it('in a literal nested input field is named with its path', async () => {
    const query = `mutation { createDeposit(input: { amount: "10.00", currency: "EUR", card: {}, customer: { firstName: "Ana\\u0000" } }) { userErrors { field code } } }`;
    const answer = await postRaw(t.gateway.graphqlUrl, { query }, t.keys.webCashier);

    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.createDeposit.userErrors).toEqual([{ field: ['customer', 'firstName'], code: 'INVALID_TEXT' }]);
  });

  it('in a query filter is BAD_USER_INPUT naming the argument', async () => {
    const answer = await postRaw(
      t.gateway.graphqlUrl,
      { query: 'query ($filter: DepositFilter) { deposits(filter: $filter) { edges { node { id } } } }', variables: { filter: { merchantReference: 'x\ud800' } } },
      t.keys.webCashier,
    );

    expect(answer.status).toBe(200);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(answer.body.errors[0].message).toContain('filter.merchantReference');
  });

  it('over graphql-ws is refused the same way', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      const results = [];
      for await (const result of ws.iterate({ query: CREATE_DEPOSIT, variables: { input: { ...CARD_INPUT, merchantReference: '\udfff' } } })) results.push(result);
      expect(results).toEqual([{ data: { createDeposit: { deposit: null, userErrors: [{ field: ['merchantReference'], code: 'INVALID_TEXT', message: expect.stringContaining('surrogate') }] } } }]);
    } finally {
      await ws.dispose();
    }
  });

  it('in a signed webhook event id is acknowledged, kept as rejected without its body, and so is a retry', async () => {
    const deposit = await insertDeposit(t);
    const envelope = { ...paymentEnvelope(deposit, 'approved'), id: 'evt_\u0000bad' };
    const bytes = JSON.stringify(envelope); // the id travels as the escape \u0000
    expect(bytes).toContain('\\u0000');

    const first = await sendWebhook(t, bytes);
    const retry = await sendWebhook(t, bytes);

    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'rejected', reason: 'TEXT_NOT_STORABLE' } });
    expect(retry.status).toBe(200);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const kept = (await deliveries(t)).filter((row) => row.bodySha256 === sha);
    expect(kept.map((row) => [row.outcome, row.reason, row.rawBody])).toEqual([
      ['rejected', 'TEXT_NOT_STORABLE', ''],
      ['rejected', 'TEXT_NOT_STORABLE', ''],
    ]);
    // nothing applied: the deposit is still PENDING
    expect((await deliveries(t, { subjectId: deposit.id }))).toHaveLength(0);
  });

  it('in a signed webhook event name or reference, or longer than its column, is acknowledged as rejected, never a 5xx', async () => {
    const deposit = await insertDeposit(t);
    const named = { ...paymentEnvelope(deposit, 'approved'), event: 'payment.\u0000' };
    const referenced = paymentEnvelope(deposit, 'approved', { reference: 'pay_\ud800' });
    const tooLong = paymentEnvelope(deposit, 'declined', { decline_reason: 'card declined by the issuer; '.repeat(4) });

    for (const envelope of [named, referenced, tooLong]) {
      expect(await sendWebhook(t, envelope)).toEqual({ status: 200, body: { received: true, outcome: 'rejected', reason: 'TEXT_NOT_STORABLE' } });
    }
    expect((await deliveries(t, { subjectId: deposit.id }))).toHaveLength(0);
  });
});
