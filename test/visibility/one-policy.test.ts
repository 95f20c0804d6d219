// One visibility policy everywhere: for each kind of client, its lists, node(id), its catch-up log
// (events) and its live streams (subscriptions without an id) show exactly the same records.
// A cashier: its deposits and their refunds; a refunds back office limited to one merchant account:
// that account's deposits and refunds; a payouts back office limited to one account: that
// account's payouts; an admin: everything.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { collect, subscribed, type Collector } from '../deposits/support.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation, PayoutQuery } from '../payouts/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { wsClient } from '../support/ws.js';
import { DepositStream, PayoutStream, RefundStream, VisibleDepositsQuery, VisibleEventsQuery, VisiblePayoutsQuery } from './operations.js';
import { createClient } from './support.js';

/** Two test-mode accounts of the deposit gateway, both served by the in-process sandbox. */
const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-other', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_other_account', webhookSecrets: ['whsec_sandbox_other_account'] },
];

type Who = 'admin' | 'webCashier' | 'mobileCashier' | 'refundsBackOffice' | 'payoutsBackOffice';

let t: TestGateway;
const keys = {} as Record<Who, string>;
const sockets: Client[] = [];
const streams = {} as Record<Who, Array<Collector<{ id: string; status: string }>>>;

/** Opens `who`'s live streams (no id: everything it may see) and waits until the gateway holds them. */
async function listen(who: Who, documents: Array<typeof DepositStream | typeof RefundStream | typeof PayoutStream>): Promise<void> {
  const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${keys[who]}` });
  sockets.push(ws);
  streams[who] = [];
  for (const document of documents) {
    streams[who].push(await subscribed(t, () => collect(ws, document as typeof DepositStream, {})));
  }
}

async function deposit(who: Who, merchantAccount: string): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, merchantAccount } }, { key: keys[who] });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  const id = created.data!.createDeposit.deposit!.id;
  await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: keys.admin })).data!.deposit!.status).toBe('SUCCEEDED');
  return id;
}

async function refund(who: Who, depositId: string): Promise<string> {
  const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount: '5.00' } }, { key: keys[who] });
  expect(requested.errors).toBeUndefined();
  expect(requested.data!.requestRefund.userErrors).toEqual([]);
  const id = requested.data!.requestRefund.refund!.id;
  await expect.poll(async () => (await execute(t.gateway.graphqlUrl, RefundQuery, { id }, { key: keys.admin })).data!.refund!.status).toBe('APPROVED');
  return id;
}

async function payout(who: Who, merchantAccount: string): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount } }, { key: keys[who] });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createPayout.userErrors).toEqual([]);
  const id = created.data!.createPayout.payout!.id;
  await expect.poll(async () => (await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: keys.admin })).data!.payout!.status).toBe('PAID');
  return id;
}

/** Every subject id in `who`'s catch-up log, paging from the start. */
async function logIds(who: Who): Promise<string[]> {
  const ids = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = await execute(t.gateway.graphqlUrl, VisibleEventsQuery, { first: 50, ...(after ? { after } : {}) }, { key: keys[who] });
    expect(page.errors).toBeUndefined();
    for (const edge of page.data!.events.edges) ids.add(edge.node.subjectId);
    if (!page.data!.events.pageInfo.hasNextPage) return [...ids].sort();
    after = page.data!.events.pageInfo.endCursor!;
  }
}

/** Every deposit, refund and payout id `who`'s lists show (lists its roles may not ask for count as empty). */
async function queryIds(who: Who): Promise<string[]> {
  const ids: string[] = [];
  const deposits = await execute(t.gateway.graphqlUrl, VisibleDepositsQuery, { first: 100 }, { key: keys[who] });
  if (deposits.errors?.[0]?.extensions?.code !== 'FORBIDDEN') {
    expect(deposits.errors).toBeUndefined();
    for (const { node } of deposits.data!.deposits.edges) ids.push(node.id, ...node.refunds.map((r) => r.id));
  }
  const payouts = await execute(t.gateway.graphqlUrl, VisiblePayoutsQuery, { first: 100 }, { key: keys[who] });
  if (payouts.errors?.[0]?.extensions?.code !== 'FORBIDDEN') {
    expect(payouts.errors).toBeUndefined();
    ids.push(...payouts.data!.payouts.edges.map((edge) => edge.node.id));
  }
  return ids.sort();
}

const liveIds = (who: Who) => [...new Set(streams[who].flatMap((stream) => stream.messages.map((message) => message.id)))].sort();

const nodeVisible = async (who: Who, id: string) =>
  ((await postRaw(t.gateway.graphqlUrl, { query: `{ node(id: "${id}") { id } }` }, keys[who])).body.data.node as { id: string } | null) !== null;

const ids = {} as Record<string, string>;

beforeAll(async () => {
  const started = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
  t = started;
  Object.assign(keys, { admin: started.keys.admin, webCashier: started.keys.webCashier, mobileCashier: started.keys.mobileCashier });
  keys.refundsBackOffice = (await createClient(t, 'refunds-dg-test', ['REFUNDS'], ['dg-test'])).key;
  keys.payoutsBackOffice = (await createClient(t, 'payouts-dg-test', ['PAYOUTS'], ['dg-test'])).key;
});

afterAll(async () => {
  for (const stream of Object.values(streams).flat()) stream.stop();
  // dispose() is typed `void | Promise<void>`; graphql-ws's client returns a promise, waited for here.
  await Promise.all(sockets.map(async (socket) => socket.dispose()));
  await t?.close();
});

describe('one visibility policy', () => {
  it('shows each client the same records in its lists, node(id), catch-up log and live streams, and nothing of other accounts', async () => {
    // given: everyone listening live from before the first record
    await listen('admin', [DepositStream, RefundStream, PayoutStream]);
    await listen('webCashier', [DepositStream, RefundStream]);
    await listen('refundsBackOffice', [DepositStream, RefundStream]);
    await listen('payoutsBackOffice', [PayoutStream]);

    // when: deposits, refunds and payouts on both accounts, by several clients
    ids.webOnTest = await deposit('webCashier', 'dg-test');
    ids.webOnOther = await deposit('webCashier', 'dg-other');
    ids.mobileOnTest = await deposit('mobileCashier', 'dg-test');
    ids.mobileOnOther = await deposit('mobileCashier', 'dg-other');
    ids.refundOfWebOnTest = await refund('refundsBackOffice', ids.webOnTest);
    ids.refundOfWebOnOther = await refund('admin', ids.webOnOther);
    ids.refundOfMobileOnOther = await refund('admin', ids.mobileOnOther);
    ids.payoutOnTest = await payout('payoutsBackOffice', 'dg-test');
    ids.payoutOnOther = await payout('admin', 'dg-other');
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await jobsSettled(t);

    // and last, one record each stream should show: a stream that shows it has handled every
    // earlier event (each stream is delivered in log order), so nothing seen later can be a leak
    ids.lastDeposit = await deposit('webCashier', 'dg-test');
    ids.lastRefund = await refund('refundsBackOffice', ids.lastDeposit);
    ids.lastPayout = await payout('payoutsBackOffice', 'dg-test');
    const last = { deposit: ids.lastDeposit, refund: ids.lastRefund, payout: ids.lastPayout };
    for (const who of Object.keys(streams) as Who[]) {
      for (const [index, stream] of streams[who].entries()) {
        const kind = streams[who].length === 1 ? 'payout' : (['deposit', 'refund', 'payout'] as const)[index]!;
        await stream.until((message) => message.id === last[kind]);
      }
    }

    // then: what each client may see, by the product rules
    const expected: Record<Who, string[]> = {
      admin: Object.values(ids).sort(),
      webCashier: [ids.webOnTest, ids.webOnOther, ids.lastDeposit, ids.refundOfWebOnTest, ids.refundOfWebOnOther, ids.lastRefund].map(String).sort(),
      mobileCashier: [ids.mobileOnTest, ids.mobileOnOther, ids.refundOfMobileOnOther].map(String).sort(),
      refundsBackOffice: [ids.webOnTest, ids.mobileOnTest, ids.lastDeposit, ids.refundOfWebOnTest, ids.lastRefund].map(String).sort(),
      payoutsBackOffice: [ids.payoutOnTest, ids.lastPayout].map(String).sort(),
    };
    for (const who of Object.keys(expected) as Who[]) {
      expect(await queryIds(who), `${who}: lists`).toEqual(expected[who]);
      expect(await logIds(who), `${who}: events(after:)`).toEqual(expected[who]);
      if (streams[who]) expect(liveIds(who), `${who}: live streams`).toEqual(expected[who]);
      for (const id of Object.values(ids)) expect(await nodeVisible(who, id), `${who}: node(${id})`).toBe(expected[who].includes(id));
    }

    // and acting follows seeing: a refunds back office cannot refund a deposit of another account
    const refused = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: ids.mobileOnOther, amount: '1.00' } }, { key: keys.refundsBackOffice });
    expect(refused.errors).toBeUndefined();
    expect(refused.data!.requestRefund.userErrors).toMatchObject([{ field: ['depositId'], code: 'NOT_FOUND' }]);
  });
});
