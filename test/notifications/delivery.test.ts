// Back-office notifications delivered (docs/notifications.md), through the public surface: an
// admin registers endpoints over GraphQL, deposits are taken by cashiers, and real receivers on
// 127.0.0.1 verify every POST with the Standard Webhooks reference library. The gateway's clock is
// moved forward by hand, so an hour of a receiver's downtime, or three days of failures, pass at once.

import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../__generated__/gql.js';
import { execute, type TestGateway } from '../support/gateway.js';
import { cardDeposit, clientId, createEndpoint, deliveries, RedeliverMutation, typesOf, useNotificationGateway } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const EventsQuery = graphql(`
  query NotificationEvents($after: String) {
    events(first: 100, after: $after) { edges { cursor node { id type subjectId } } }
  }
`);

const ReplayMutation = graphql(`
  mutation ReplayNotificationEndpoint($endpointId: ID!, $after: String!) {
    replayNotificationEndpoint(endpointId: $endpointId, after: $after) {
      endpoint { id cursor }
      userErrors { field code message }
    }
  }
`);

const notifications = useNotificationGateway();
const { clock, receiver } = notifications;
let t: TestGateway;
beforeAll(() => {
  t = notifications.gateway();
});

/** The deposit's events, as its cashier's events(after:) lists them. */
async function depositEvents(key: string, depositId: string) {
  const result = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key });
  expect(result.errors).toBeUndefined();
  return result.data!.events.edges.filter((edge) => edge.node.subjectId === depositId);
}

describe('what an endpoint is sent', () => {
  it('a deposit\'s life, in order, each POST verifying under standardwebhooks, with the API\'s snapshot and the event id as webhook-id', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    const depositId = await cardDeposit(t, t.keys.webCashier);
    // The cashier's own catch-up log says what it should be sent.
    await expect.poll(async () => (await depositEvents(t.keys.webCashier, depositId)).map((edge) => edge.node.type)).toContain('deposit.status_changed');
    // Every event of the deposit arrives, in log order (its fee and net may still be on their way: compare again until both agree).
    let events: string[] = [];
    const arrived = () => hooks.delivered.filter((item) => item.data.id === depositId).map((item) => item.id);
    await expect
      .poll(async () => {
        events = (await depositEvents(t.keys.webCashier, depositId)).map((edge) => edge.node.id);
        return JSON.stringify(arrived()) === JSON.stringify(events);
      })
      .toBe(true);
    expect(arrived()).toEqual(events);
    const received = hooks.delivered.filter((item) => item.data.id === depositId);
    for (const item of received) {
      expect(item.verifiedBy).toEqual([0]);
      expect(item.headers['webhook-id']).toBe(item.id);
      expect(item.data).toMatchObject({ id: depositId, currency: 'EUR', amount: '25.00', clientId: clientId(t, 'web-cashier') });
      // Admin-only fields are not a cashier's, as in its queries.
      expect(item.data.statusReason ?? null).toBeNull();
    }
    expect(received.at(-1)!.data.status).toBe('SUCCEEDED');
    // Admins read each delivery and its one attempt (recorded once the receiver's answer is in).
    await expect
      .poll(async () => (await deliveries(t, endpoint.id, { subjectId: depositId })).map((delivery) => [delivery.state, delivery.attempts.map((attempt) => attempt.httpStatus)]))
      .toEqual(events.map(() => ['DELIVERED', [200]]));
  });

  it('a cashier\'s endpoint gets only its own client\'s events, and an event-type filter holds', async () => {
    const web = await receiver();
    const filtered = await receiver();
    await createEndpoint(t, web, clientId(t, 'web-cashier'));
    await createEndpoint(t, filtered, clientId(t, 'web-cashier'), ['deposit.created']);
    const mine = await cardDeposit(t, t.keys.webCashier);
    const theirs = await cardDeposit(t, t.keys.mobileCashier);
    await expect.poll(() => typesOf(web, mine)).toContain('deposit.status_changed');
    await expect.poll(() => typesOf(filtered, mine)).toEqual(['deposit.created']);
    // Everything after the mobile cashier's deposit has been fanned out: none of it is here.
    const later = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(web, later)).toContain('deposit.created');
    expect(typesOf(web, theirs)).toEqual([]);
    expect(typesOf(filtered, theirs)).toEqual([]);
    expect(filtered.delivered.every((item) => item.type === 'deposit.created')).toBe(true);
  });
});

describe('a receiver that is down', () => {
  it('is sent everything once it is back an hour later, in order per subject, nothing lost', async () => {
    const hooks = await receiver();
    hooks.answer = () => 503;
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    const ids = [await cardDeposit(t, t.keys.webCashier, '11.00'), await cardDeposit(t, t.keys.webCashier, '12.00')];
    // Every lane has tried and failed at least once.
    await expect.poll(async () => (await deliveries(t, endpoint.id)).filter((delivery) => delivery.attemptCount > 0).length).toBeGreaterThanOrEqual(2);
    expect(hooks.delivered).toEqual([]);
    const failed = (await deliveries(t, endpoint.id)).find((delivery) => delivery.attemptCount > 0)!;
    expect(failed).toMatchObject({ state: 'PENDING' });
    expect(failed.attempts[0]).toMatchObject({ httpStatus: 503, responseExcerpt: 'not now' });
    // When the receiver is back an hour later. An attempt sent while it was down may still be on
    // its way back: it is recorded before the clock moves, as the failure it was, not as one an hour
    // into the outage (which would rightly start probing the endpoint, a minute away).
    hooks.answer = () => 200;
    const inFlight = async () =>
      (await t.gateway.db.fork().execute<Array<{ n: number }>>('select count(*)::int as n from notification_delivery where endpoint_id = ? and claimed_by is not null', [endpoint.id]))[0]!.n;
    await expect.poll(inFlight).toBe(0);
    clock.advance(HOUR);
    for (const id of ids) await expect.poll(() => typesOf(hooks, id)).toContain('deposit.status_changed');
    for (const id of ids) {
      let events: string[] = [];
      const arrived = () => hooks.delivered.filter((item) => item.data.id === id).map((item) => item.id);
      await expect
        .poll(async () => {
          events = (await depositEvents(t.keys.webCashier, id)).map((edge) => edge.node.id);
          return JSON.stringify(arrived()) === JSON.stringify(events);
        })
        .toBe(true);
      // In log order per subject, each once.
      expect(arrived()).toEqual(events);
    }
    expect(hooks.delivered.every((item) => item.verifiedBy.length === 1)).toBe(true);
  });

  it('a subject whose lane keeps failing does not hold up another subject\'s', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    // Known by its amount: its first event may arrive before the deposit's id is back here.
    hooks.answer = (received) => (received.data.amount === '13.00' ? 500 : 200);
    const stuck = await cardDeposit(t, t.keys.webCashier, '13.00');
    const other = await cardDeposit(t, t.keys.webCashier, '14.00');
    await expect.poll(() => typesOf(hooks, other)).toContain('deposit.status_changed');
    expect(typesOf(hooks, stuck)).toEqual([]);
    // The stuck lane's head waits for its back-off; the rest of its lane waits behind it.
    await expect.poll(async () => (await deliveries(t, endpoint.id, { subjectId: stuck })).some((delivery) => delivery.attemptCount > 0)).toBe(true);
    const lane = await deliveries(t, endpoint.id, { subjectId: stuck });
    expect(lane.every((delivery) => delivery.state === 'PENDING')).toBe(true);
    expect(lane.filter((delivery) => delivery.attemptCount > 0)).toHaveLength(1);
  });

  it('after three days of failures the delivery is given up, the endpoint is failing and admins see an event; the lane moves on', async () => {
    const hooks = await receiver();
    hooks.answer = () => 500;
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    const depositId = await cardDeposit(t, t.keys.webCashier, '15.00');
    await expect.poll(async () => (await deliveries(t, endpoint.id))[0]?.attemptCount ?? 0).toBeGreaterThanOrEqual(1);
    clock.advance(3 * DAY + HOUR);
    await expect.poll(async () => (await deliveries(t, endpoint.id))[0]?.state).toBe('FAILED');
    const admin = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.admin });
    const failing = admin.data!.events.edges.filter((edge) => edge.node.type === 'notification_endpoint.failing' && edge.node.subjectId === endpoint.id);
    expect(failing).toHaveLength(1);
    // The endpoint as it turned failing, belonging to no client nor merchant account.
    const [row] = await t.gateway.db.fork().execute<Array<Record<string, unknown>>>(
      "select client_id, merchant_account, admin_only, from_status, to_status, data from payment_event where type = 'notification_endpoint.failing' and subject_type = 'endpoint' and subject_id = ?",
      [endpoint.id],
    );
    expect(row).toMatchObject({ client_id: null, merchant_account: '-', admin_only: true, from_status: 'healthy', to_status: 'failing', data: { id: endpoint.id, clientId: clientId(t, 'web-cashier'), url: hooks.url, state: 'failing' } });
    // A cashier never sees it.
    const cashier = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.webCashier });
    expect(cashier.data!.events.edges.some((edge) => edge.node.type === 'notification_endpoint.failing')).toBe(false);
    const { data } = await execute(t.gateway.graphqlUrl, graphql(`query FailingEndpoints { notificationEndpoints { id state } }`), {}, { key: t.keys.admin });
    expect(data!.notificationEndpoints.find((item) => item.id === endpoint.id)!.state).toBe('FAILING');
    // Redelivered once the receiver works again: delivered, and the endpoint healthy again.
    hooks.answer = () => 200;
    const failed = (await deliveries(t, endpoint.id))[0]!;
    const redelivered = await execute(t.gateway.graphqlUrl, RedeliverMutation, { deliveryId: failed.id }, { key: t.keys.admin });
    expect(redelivered.data!.redeliverNotification).toMatchObject({ delivery: { id: failed.id, state: 'PENDING' }, userErrors: [] });
    await expect.poll(() => typesOf(hooks, depositId)).toEqual(['deposit.created']);
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, graphql(`query HealedEndpoints { notificationEndpoints { id state } }`), {}, { key: t.keys.admin })).data!.notificationEndpoints.find((item) => item.id === endpoint.id)!.state).toBe('HEALTHY');
  });
});

describe('redelivery and replay', () => {
  it('redelivers one event by event and endpoint, and replays an endpoint from a cursor, with the same webhook-ids', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    const first = await cardDeposit(t, t.keys.webCashier, '16.00');
    const second = await cardDeposit(t, t.keys.webCashier, '17.00');
    // Two subjects, two lanes: neither waits for the other, so wait for both.
    await expect.poll(() => [typesOf(hooks, first), typesOf(hooks, second)]).toEqual([['deposit.created'], ['deposit.created']]);
    const created = hooks.delivered.find((item) => item.data.id === first)!;
    // Redeliver by event and endpoint
    const again = await execute(t.gateway.graphqlUrl, RedeliverMutation, { eventId: created.id, endpointId: endpoint.id }, { key: t.keys.admin });
    expect(again.data!.redeliverNotification.userErrors).toEqual([]);
    await expect.poll(() => typesOf(hooks, first)).toEqual(['deposit.created', 'deposit.created']);
    const copies = hooks.delivered.filter((item) => item.data.id === first);
    expect(copies[1]!.id).toBe(copies[0]!.id);
    expect(copies[1]!.body).toBe(copies[0]!.body);
    // An event the endpoint's client may not read is refused.
    const theirs = await cardDeposit(t, t.keys.mobileCashier, '18.00');
    // The log shows an event once it is final, as a catching-up reader sees it: read until it is there.
    let adminEvents = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.admin });
    await expect
      .poll(async () => {
        adminEvents = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.admin });
        return adminEvents.data!.events.edges.some((edge) => edge.node.subjectId === theirs);
      })
      .toBe(true);
    const foreign = adminEvents.data!.events.edges.find((edge) => edge.node.subjectId === theirs)!;
    const refused = await execute(t.gateway.graphqlUrl, RedeliverMutation, { eventId: foreign.node.id, endpointId: endpoint.id }, { key: t.keys.admin });
    expect(refused.data!.redeliverNotification).toMatchObject({ delivery: null, userErrors: [{ code: 'NOT_FOUND' }] });
    // Replay from the cursor just before the first deposit's creation: both sent again, in order.
    const before = adminEvents.data!.events.edges.findIndex((edge) => edge.node.id === created.id);
    const cursor = adminEvents.data!.events.edges[before - 1]!.cursor;
    const replay = await execute(t.gateway.graphqlUrl, ReplayMutation, { endpointId: endpoint.id, after: cursor }, { key: t.keys.admin });
    expect(replay.data!.replayNotificationEndpoint.userErrors).toEqual([]);
    await expect
      .poll(() => [typesOf(hooks, first), typesOf(hooks, second)])
      .toEqual([['deposit.created', 'deposit.created', 'deposit.created'], ['deposit.created', 'deposit.created']]);
    expect(typesOf(hooks, theirs)).toEqual([]);
  });
});
