// A payment's timeline (docs/timeline.md), through the public API of a real gateway and its real
// sandboxes: a card deposit from its creation through the provider's webhook, its detail fetch, a
// notification to a real receiver on 127.0.0.1, its credit claim and a reconciliation, all listed
// in time order with each kind's fields; paging; what the owning cashier and another cashier see;
// what the provider call records hold (never a card number, key or secret); a refund's and a
// payout's timelines; a retried call; and retention.

import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../__generated__/gql.js';
import type { TimelineQuery as TimelineResult } from '../__generated__/graphql.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { cardDeposit, clientId, createEndpoint, deliveries, useNotificationGateway } from '../notifications/support.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { RequestRefundMutation } from '../refunds/operations.js';
import { execute, metric, type TestGateway } from '../support/gateway.js';

const TimelineQuery = graphql(`
  query Timeline($id: ID!, $first: Int, $after: String) {
    deposit(id: $id) {
      id
      timeline(first: $first, after: $after) {
        edges {
          cursor
          node {
            __typename kind at traceId
            ... on EventEntry { eventId type fromStatus toStatus }
            ... on CreditClaimEntry { claimedBy }
            ... on ProviderCallEntry { id provider merchantAccount operation attempt callOutcome httpStatus error durationMs requestSummary responseSummary }
            ... on WebhookDeliveryEntry { id provider eventName providerEventId deliveryOutcome reason }
            ... on JobEntry { id jobKind status attempts maxAttempts lastError finishedAt }
            ... on ReconciliationCheckEntry { id checkOutcome reason }
            ... on NotificationAttemptEntry { id eventId endpointId endpointUrl httpStatus errorCode durationMs }
          }
        }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`);

const RefundTimelineQuery = graphql(`
  query RefundTimeline($id: ID!, $first: Int) {
    refund(id: $id) {
      id
      timeline(first: $first) {
        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }
      }
    }
  }
`);

const PayoutTimelineQuery = graphql(`
  query PayoutTimeline($id: ID!, $first: Int) {
    payout(id: $id) {
      id
      timeline(first: $first) {
        edges { node { kind at ... on ProviderCallEntry { operation attempt callOutcome requestSummary } ... on EventEntry { type toStatus } ... on WebhookDeliveryEntry { eventName deliveryOutcome } } }
      }
    }
  }
`);

const ClaimMutation = graphql(`
  mutation TimelineClaim($input: ClaimDepositCreditInput!) {
    claimDepositCredit(input: $input) { claim { claimedAt firstClaim } userErrors { code message } }
  }
`);

const ReconcileMutation = graphql(`
  mutation TimelineReconcile($id: ID!) {
    reconcileDeposit(id: $id) { outcome reason deposit { id status } }
  }
`);

const DepositStateQuery = graphql(`
  query TimelineDepositState($id: ID!) {
    deposit(id: $id) { id status fee { amount } }
  }
`);

type Entry = NonNullable<TimelineResult['deposit']>['timeline']['edges'][number]['node'];

const notifications = useNotificationGateway();
const { clock, receiver } = notifications;
let t: TestGateway;
beforeAll(() => {
  t = notifications.gateway();
});

async function timeline(key: string, id: string, first = 100, after?: string) {
  const result = await execute(t.gateway.graphqlUrl, TimelineQuery, { id, first, ...(after ? { after } : {}) }, { key });
  expect(result.errors).toBeUndefined();
  return result.data!.deposit;
}

async function entries(key: string, id: string): Promise<Entry[]> {
  return (await timeline(key, id))!.timeline.edges.map((edge) => edge.node);
}


/** The rows of a table, as the database holds them (every column). */
async function rows(table: 'provider_call' | 'reconciliation_check', subjectId?: string): Promise<Array<Record<string, unknown>>> {
  const em = t.gateway.db.fork();
  return subjectId ? em.execute(`select * from ${table} where subject_id = ?`, [subjectId]) : em.execute(`select * from ${table}`);
}

/** Reads until `done` holds (a beforeAll cannot use expect.poll). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;

/** A card deposit that went all the way: SUCCEEDED, details fetched, its events delivered to `endpoint`. */
let depositId: string;
let endpointUrl: string;

describe('a deposit\'s timeline', () => {
  beforeAll(async () => {
    const hooks = await receiver();
    endpointUrl = hooks.url;
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    depositId = await cardDeposit(t, t.keys.webCashier);
    // The provider's webhook approves it, and the detail fetch that follows brings its fee.
    await until(async () => (await execute(t.gateway.graphqlUrl, DepositStateQuery, { id: depositId }, { key: t.keys.admin })).data?.deposit?.fee?.amount ?? null, (fee) => fee !== null);
    const claimed = await execute(t.gateway.graphqlUrl, ClaimMutation, { input: { depositId, claimKey: `claim-${depositId}` } }, { key: t.keys.webCashier });
    expect(claimed.errors).toBeUndefined();
    expect(claimed.data!.claimDepositCredit.claim?.firstClaim).toBe(true);
    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileMutation, { id: depositId }, { key: t.keys.admin });
    expect(reconciled.errors).toBeUndefined();
    expect(reconciled.data!.reconcileDeposit.outcome).toBe('UNCHANGED');
    // Every event delivered to the receiver, each attempt recorded.
    await until(() => deliveries(t, endpoint.id, { subjectId: depositId }), (list) => list.length > 0 && list.every((delivery) => delivery.state === 'DELIVERED' && delivery.attempts.length > 0));
    await t.gateway.services.callRecords.flush();
  });

  it('lists every kind, oldest first, with each kind\'s fields', async () => {
    const list = await entries(t.keys.admin, depositId);
    const times = list.map((entry) => new Date(entry.at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(list.map((entry) => entry.kind))).toEqual(new Set(['EVENT', 'CREDIT_CLAIM', 'PROVIDER_CALL', 'WEBHOOK_DELIVERY', 'JOB', 'RECONCILIATION_CHECK', 'NOTIFICATION_ATTEMPT']));
    expect(list.every((entry) => entry.traceId === null)).toBe(true);
    // The story in order: created, the provider asked, its webhook, the approval, the detail fetch, the claim, the check.
    const first = (kind: string, match: (entry: Entry) => boolean = () => true) => list.findIndex((entry) => entry.kind === kind && match(entry));
    const created = first('EVENT', (entry) => entry.__typename === 'EventEntry' && entry.type === 'deposit.created');
    const create = first('PROVIDER_CALL', (entry) => entry.__typename === 'ProviderCallEntry' && entry.operation === 'createDeposit');
    const webhook = first('WEBHOOK_DELIVERY');
    const approved = first('EVENT', (entry) => entry.__typename === 'EventEntry' && entry.toStatus === 'SUCCEEDED');
    const job = first('JOB');
    const claim = first('CREDIT_CLAIM');
    const check = first('RECONCILIATION_CHECK');
    expect(created).toBeGreaterThanOrEqual(0);
    expect([created, create, webhook, claim, check].every((index, i, all) => i === 0 || index > all[i - 1]!)).toBe(true);
    expect(approved).toBeLessThan(claim);
    expect(job).toBeGreaterThan(create);

    const call = list[create]!;
    expect(call).toMatchObject({ __typename: 'ProviderCallEntry', provider: 'DEPOSIT_GATEWAY', operation: 'createDeposit', attempt: 1, callOutcome: 'SUCCESS', error: null });
    if (call.__typename !== 'ProviderCallEntry') throw new Error('not a provider call');
    expect(call.httpStatus).toBeGreaterThanOrEqual(200);
    expect(call.httpStatus).toBeLessThan(300);
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    expect(call.merchantAccount).toEqual(expect.any(String));
    expect(call.requestSummary).toMatch(/^\{.*amount: /);
    expect(call.responseSummary).toMatch(/^\{/);
    // The detail fetch and the reconciliation each looked the payment up.
    expect(list.filter((entry) => entry.__typename === 'ProviderCallEntry' && entry.operation === 'getDeposit').length).toBeGreaterThanOrEqual(2);
    expect(list.find((entry) => entry.__typename === 'WebhookDeliveryEntry' && entry.deliveryOutcome === 'APPLIED')).toMatchObject({
      provider: 'DEPOSIT_GATEWAY',
      eventName: 'payment.approved',
      providerEventId: expect.any(String),
      reason: null,
    });
    expect(list[job]).toMatchObject({ jobKind: 'deposit.fetch_details', status: 'SUCCEEDED', attempts: 1, lastError: null, finishedAt: expect.any(String) });
    expect(list[claim]).toMatchObject({ claimedBy: clientId(t, 'web-cashier') });
    expect(list[check]).toMatchObject({ checkOutcome: 'noop', reason: null });
    const attempts = list.filter((entry) => entry.__typename === 'NotificationAttemptEntry');
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) expect(attempt).toMatchObject({ endpointUrl, httpStatus: 200, errorCode: null, durationMs: expect.any(Number), eventId: expect.stringMatching(/^evt_/) });
    // The event entries are the deposit's own events, in log order.
    const events = list.flatMap((entry) => (entry.__typename === 'EventEntry' ? [entry.type] : []));
    expect(events.slice(0, 1)).toEqual(['deposit.created']);
    expect(events).toContain('deposit.credit_claimed');
  });

  it('pages through the same entries in the same order, without gaps or repeats', async () => {
    const before = (await timeline(t.keys.admin, depositId))!.timeline;
    expect(before.pageInfo.hasNextPage).toBe(false);
    const paged: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await timeline(t.keys.admin, depositId, 3, after))!.timeline;
      expect(page.edges.length).toBeLessThanOrEqual(3);
      paged.push(...page.edges.map((edge) => edge.cursor));
      expect(page.pageInfo.hasPreviousPage).toBe(after !== undefined);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    // The story may have grown while it was paged (a notification attempt): only at its end.
    const whole = (await timeline(t.keys.admin, depositId))!.timeline.edges.map((edge) => edge.cursor);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged.slice(0, before.edges.length)).toEqual(before.edges.map((edge) => edge.cursor));
    expect(paged).toEqual(whole.slice(0, paged.length));
    const bad = await execute(t.gateway.graphqlUrl, TimelineQuery, { id: depositId, first: 101 }, { key: t.keys.admin });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('shows the owning cashier its entries with admin-only detail withheld, and another cashier nothing', async () => {
    const admin = await entries(t.keys.admin, depositId);
    const mine = await entries(t.keys.webCashier, depositId);
    expect(mine.map((entry) => entry.kind)).toEqual(admin.map((entry) => entry.kind));
    for (const entry of mine) {
      if (entry.__typename === 'ProviderCallEntry') expect([entry.requestSummary, entry.responseSummary, entry.error]).toEqual([null, null, null]);
      if (entry.__typename === 'WebhookDeliveryEntry') expect([entry.providerEventId, entry.reason]).toEqual([null, null]);
      if (entry.__typename === 'JobEntry') expect(entry.lastError).toBeNull();
      if (entry.__typename === 'NotificationAttemptEntry') expect([entry.endpointId, entry.endpointUrl, entry.httpStatus]).toEqual([null, null, 200]);
    }
    expect(admin.some((entry) => entry.__typename === 'ProviderCallEntry' && entry.requestSummary !== null)).toBe(true);
    expect(await timeline(t.keys.mobileCashier, depositId)).toBeNull();
  });

  it('keeps no card number, API key or webhook secret in any provider call record', async () => {
    const card = '4111111111111111';
    const sent = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, customer: { ...CARD_INPUT.customer, address1: `Card ${card}` } } }, { key: t.keys.webCashier });
    expect(sent.errors).toBeUndefined();
    const id = sent.data!.createDeposit.deposit!.id;
    await t.gateway.services.callRecords.flush();
    const own = await rows('provider_call', id);
    expect(own.map((row) => row.operation)).toContain('createDeposit');
    const everything = JSON.stringify(await rows('provider_call'));
    const secrets = t.gateway.config.merchantAccounts.flatMap((account) => [account.apiKey, ...account.webhookSecrets]);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of [card, ...secrets, 'Bearer', 'ana@example.com']) expect(everything).not.toContain(secret);
    // The field that carried it is named, its value masked.
    expect(String(own.find((row) => row.operation === 'createDeposit')!.request_summary)).toMatch(/\*\*\*/);
  });

  it('shows a retried call\'s attempts 1 and 2', async () => {
    const id = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositStateQuery, { id }, { key: t.keys.admin })).data?.deposit?.fee?.amount ?? null).not.toBeNull();
    sandbox().failNext({ method: 'GET', status: 503, count: 1 });
    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileMutation, { id }, { key: t.keys.admin });
    expect(reconciled.errors).toBeUndefined();
    await t.gateway.services.callRecords.flush();
    const lookups = (await entries(t.keys.admin, id)).filter((entry) => entry.__typename === 'ProviderCallEntry' && entry.operation === 'getDeposit');
    const last = lookups.slice(-2);
    expect(last.map((entry) => entry.__typename === 'ProviderCallEntry' && [entry.attempt, entry.callOutcome, entry.httpStatus])).toEqual([
      [1, 'SERVER_ERROR', 503],
      [2, 'SUCCESS', 200],
    ]);
  });
});

describe('a refund\'s and a payout\'s timelines', () => {
  it('lists the refund\'s provider call and its changes', async () => {
    const id = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositStateQuery, { id }, { key: t.keys.admin })).data?.deposit?.status).toBe('SUCCEEDED');
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: id, amount: '5.00', reason: 'timeline', idempotencyKey: `refund-${id}` } }, { key: t.keys.admin });
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const refundId = requested.data!.requestRefund.refund!.id;
    await t.gateway.services.callRecords.flush();
    await expect
      .poll(async () => {
        const result = await execute(t.gateway.graphqlUrl, RefundTimelineQuery, { id: refundId, first: 100 }, { key: t.keys.admin });
        return result.data?.refund?.timeline.edges.map((edge) => edge.node.kind) ?? [];
      })
      .toEqual(expect.arrayContaining(['EVENT', 'PROVIDER_CALL']));
    const result = await execute(t.gateway.graphqlUrl, RefundTimelineQuery, { id: refundId, first: 100 }, { key: t.keys.admin });
    const list = result.data!.refund!.timeline.edges.map((edge) => edge.node);
    // The refund is asked of the provider first; its creation is recorded with the answer.
    expect(list[0]).toMatchObject({ kind: 'PROVIDER_CALL', operation: 'requestRefund', attempt: 1, callOutcome: 'SUCCESS' });
    expect(list.find((entry) => entry.kind === 'EVENT')).toMatchObject({ type: 'refund.created', toStatus: 'REQUESTED' });
    expect(list.some((entry) => entry.kind === 'CREDIT_CLAIM')).toBe(false);
  });

  it('lists the payout\'s provider call, masked, and its changes', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, idempotencyKey: `payout-timeline-${Date.now()}` } }, { key: t.keys.admin });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout.userErrors).toEqual([]);
    const payoutId = created.data!.createPayout.payout!.id;
    await t.gateway.services.callRecords.flush();
    const result = await execute(t.gateway.graphqlUrl, PayoutTimelineQuery, { id: payoutId, first: 100 }, { key: t.keys.admin });
    expect(result.errors).toBeUndefined();
    const list = result.data!.payout!.timeline.edges.map((edge) => edge.node);
    expect(list[0]).toMatchObject({ kind: 'EVENT', type: 'payout.created' });
    const call = list.find((entry) => entry.kind === 'PROVIDER_CALL');
    expect(call).toMatchObject({ operation: 'createPayout', attempt: 1, callOutcome: 'SUCCESS' });
    // The beneficiary's account number is never kept.
    const calls = await rows('provider_call', payoutId);
    expect(JSON.stringify(calls)).not.toContain(CHILE_INPUT.beneficiary.accountNumber);
    // A check of the account's payouts against the provider's list is each payout's own entry:
    // made an hour old, the payout is due for one.
    await t.gateway.db.fork().execute("update payout set created_at = created_at - interval '1 hour' where id = ?", [payoutId]);
    await t.gateway.services.reconciler.reconcilePayoutsOf(t.gateway.db.fork(), String(calls[0]!.merchant_account));
    await t.gateway.services.callRecords.flush();
    const checked = await execute(t.gateway.graphqlUrl, PayoutTimelineQuery, { id: payoutId, first: 100 }, { key: t.keys.admin });
    expect(checked.data!.payout!.timeline.edges.map((edge) => edge.node.kind)).toContain('RECONCILIATION_CHECK');
  });
});

describe('retention', () => {
  it('deletes provider call and reconciliation check records older than the window of webhook bodies', async () => {
    expect((await rows('provider_call', depositId)).length).toBeGreaterThan(0);
    expect((await rows('reconciliation_check', depositId)).length).toBe(1);
    const before = await metric(t, /^gateway_retention_removed_total\{data="provider_calls"\} (\d+)$/m);
    clock.advance(t.gateway.config.retention.webhookBodyMs + 60_000);
    await t.gateway.retention.runOnce();
    expect(await rows('provider_call', depositId)).toEqual([]);
    expect(await rows('reconciliation_check', depositId)).toEqual([]);
    expect(await metric(t, /^gateway_retention_removed_total\{data="provider_calls"\} (\d+)$/m)).toBeGreaterThan(before);
    expect(await metric(t, /^gateway_retention_removed_total\{data="reconciliation_checks"\} (\d+)$/m)).toBeGreaterThan(0);
    // The timeline goes on with what is kept.
    expect((await entries(t.keys.admin, depositId)).some((entry) => entry.kind === 'PROVIDER_CALL')).toBe(false);
  });
});
