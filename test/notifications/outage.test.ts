// A receiver's outage longer than the back-off cap (docs/notifications.md "Probing a receiver that
// fails every attempt"), through the public surface: real receivers on 127.0.0.1 that answer 503,
// the gateway's clock moved forward a probe interval at a time. While the receiver is down it is
// sent one request per interval, however many lanes wait; once it is back, every lane is sent
// within one interval, whatever its own back-off says; and a delivery's retry window still holds.

import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../__generated__/gql.js';
import { execute, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { cardDeposit, clientId, createEndpoint, deliveries, EndpointsQuery, typesOf, useNotificationGateway, type Receiver } from './support.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** NOTIFICATION_PROBE_INTERVAL_MS and NOTIFICATION_BACKOFF_MAX_MS: their defaults. */
const PROBE_INTERVAL = MINUTE;
const BACKOFF_CAP = HOUR;
/**
 * NOTIFICATION_BACKOFF_BASE_MS: five minutes rather than the default 5 s, so a lane's back-off
 * reaches the cap in five failures rather than eleven (each one a probe interval of the test).
 */
const BACKOFF_BASE = 5 * MINUTE;
/** A lane's retry number 5 waits the cap: 5 min · 2^4 is more than an hour. */
const ATTEMPTS_AT_CAP = 5;

const EventsQuery = graphql(`
  query OutageEvents {
    events(first: 100) { edges { node { id type subjectId } } }
  }
`);

// The default time-out: a busy machine's slow answer must not count as one more failure of a lane
// whose back-off is at its cap once the receiver is back.
const notifications = useNotificationGateway({
  NOTIFICATION_PROBE_INTERVAL_MS: String(PROBE_INTERVAL),
  NOTIFICATION_BACKOFF_BASE_MS: String(BACKOFF_BASE),
  NOTIFICATION_BACKOFF_MAX_MS: String(BACKOFF_CAP),
  NOTIFICATION_TIMEOUT_MS: '10000',
});
const { clock, receiver } = notifications;
let t: TestGateway;
beforeAll(() => {
  t = notifications.gateway();
});

async function endpointState(id: string) {
  const result = await execute(t.gateway.graphqlUrl, EndpointsQuery, {}, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  return result.data!.notificationEndpoints.find((endpoint) => endpoint.id === id)!;
}

/** Each lane's head (its oldest pending delivery), by subject. */
async function heads(endpointId: string) {
  // Newest first: the last one set per subject is its oldest.
  const pending = await deliveries(t, endpointId, { state: 'PENDING' });
  return [...new Map(pending.map((delivery) => [delivery.subjectId, delivery])).values()];
}

async function attemptsMade(endpointId: string): Promise<number> {
  return (await deliveries(t, endpointId)).reduce((sum, delivery) => sum + delivery.attemptCount, 0);
}

/**
 * The receiver has failed every lane once; then their first retries (each due within the back-off
 * base, more than a probe interval on) fail too, and the endpoint is probed.
 */
async function untilProbed(hooks: Receiver, endpointId: string, lanes: number): Promise<void> {
  await expect.poll(async () => (await heads(endpointId)).filter((head) => head.attemptCount > 0).length).toBe(lanes);
  clock.advance(BACKOFF_BASE + 1_000);
  await expect.poll(async () => (await endpointState(endpointId)).nextProbeAt).not.toBeNull();
  // Lanes whose retry was already on its way when the probing began have been sent it.
  await jobsSettled(t);
  expect(hooks.delivered).toEqual([]);
}

describe('a receiver down for longer than the back-off cap', () => {
  it('is sent one probe per interval while down, however many lanes wait, and every lane within one interval once it is back', async () => {
    const hooks = await receiver();
    hooks.answer = () => 503;
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    const ids = [await cardDeposit(t, t.keys.webCashier, '31.00'), await cardDeposit(t, t.keys.webCashier, '32.00'), await cardDeposit(t, t.keys.webCashier, '33.00')];
    await untilProbed(hooks, endpoint.id, ids.length);
    const probedFrom = (await endpointState(endpoint.id)).failedSince;
    expect(probedFrom).not.toBeNull();

    // While it is down: each probe interval, one request (the probe), until every lane's own back-off is at its cap
    const requestsBefore = hooks.requests;
    let intervals = 0;
    while ((await heads(endpoint.id)).some((head) => head.attemptCount < ATTEMPTS_AT_CAP)) {
      expect(intervals, 'lanes still below the back-off cap after 60 probe intervals').toBeLessThan(60);
      const requests = hooks.requests;
      const attempts = await attemptsMade(endpoint.id);
      clock.advance(PROBE_INTERVAL);
      intervals++;
      await expect.poll(() => attemptsMade(endpoint.id)).toBe(attempts + 1);
      expect(hooks.requests).toBe(requests + 1);
    }
    await jobsSettled(t);
    expect(hooks.requests - requestsBefore).toBe(intervals);
    const state = await endpointState(endpoint.id);
    expect(state).toMatchObject({ state: 'HEALTHY', failedSince: probedFrom });
    expect(state.nextProbeAt).not.toBeNull();
    // Every lane waits its own back-off; the one probed last would wait most of an hour.
    const waiting = await heads(endpoint.id);
    expect(waiting).toHaveLength(ids.length);
    expect(Math.max(...waiting.map((head) => new Date(head.nextAttemptAt!).getTime()))).toBeGreaterThan(clock.now().getTime() + BACKOFF_CAP / 2 - PROBE_INTERVAL);

    // When the receiver is back, one probe interval later
    hooks.answer = () => 200;
    clock.advance(PROBE_INTERVAL);

    // Then every lane is sent, in log order per subject, without the clock moving further: what
    // the cashier's own events(after:) lists
    const own = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.webCashier });
    const expected = (id: string) => own.data!.events.edges.filter((edge) => edge.node.subjectId === id).map((edge) => edge.node.id);
    for (const id of ids) {
      await expect.poll(() => hooks.delivered.filter((item) => item.data.id === id).map((item) => item.id)).toEqual(expected(id));
      expect(typesOf(hooks, id)).toContain('deposit.status_changed');
    }
    await expect.poll(async () => (await deliveries(t, endpoint.id, { state: 'PENDING' })).length).toBe(0);
    expect(await endpointState(endpoint.id)).toMatchObject({ state: 'HEALTHY', failedSince: null, nextProbeAt: null });
  });

  it('still gives a delivery up after its retry window: one failed probe gives up every lane past it, and admins are told once', async () => {
    const hooks = await receiver();
    hooks.answer = () => 503;
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    const ids = [await cardDeposit(t, t.keys.webCashier, '34.00'), await cardDeposit(t, t.keys.webCashier, '35.00')];
    await untilProbed(hooks, endpoint.id, ids.length);
    const requests = hooks.requests;

    // When three days pass with the receiver down
    clock.advance(3 * DAY + HOUR);

    // Then one probe fails, and with it every delivery whose window has run out is given up
    await expect.poll(async () => (await deliveries(t, endpoint.id)).map((delivery) => delivery.state)).toEqual(['FAILED', 'FAILED']);
    await jobsSettled(t);
    expect(hooks.requests).toBe(requests + 1);
    expect(await endpointState(endpoint.id)).toMatchObject({ state: 'FAILING' });
    const events = await execute(t.gateway.graphqlUrl, EventsQuery, {}, { key: t.keys.admin });
    expect(events.data!.events.edges.filter((edge) => edge.node.type === 'notification_endpoint.failing' && edge.node.subjectId === endpoint.id)).toHaveLength(1);
    expect(hooks.delivered).toEqual([]);
  });
});
