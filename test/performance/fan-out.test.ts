// Subscription fan-out: subscribers that would execute alike share one execution per event, and
// still each get exactly what they may see, in the frame a subscriber of their own would get. The
// shared execution's context holds the group's visibility and no member's identity.
// Frames are read as raw graphql-transport-ws text, so "the same frame" means byte for byte.

import { randomUUID } from 'node:crypto';
import { execute as executeGraphql, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeCursor } from '../../src/graphql/relay.js';
import WebSocket from 'ws';
import { messageText } from '../../src/lib/ws-message.js';
import { onCommitted } from '../../src/db/commit-signals.js';
import { buildGatewaySchema } from '../../src/graphql/schema/schema.js';
import type { GatewayContext, GroupContext } from '../../src/graphql/context.js';
import { DepositRefundsResolver } from '../../src/modules/refunds/refund.resolver.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { toDepositSnapshot } from '../../src/modules/deposits/deposit-snapshot.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from '../../src/kernel/events/event-notification.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { eventsAfter, subscribed } from '../deposits/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { statementsOf } from '../support/statements.js';

/** Nested lists read from the database: one `events` and one `refunds` batch per execution. */
const NESTED = 'subscription FanOutNested($id: ID!) { depositUpdated(id: $id) { id status refundedAmount { amount } events { type } refunds { status } } }';
const STREAM = 'subscription FanOutStream { depositUpdated { id status } }';
/** Fields of the event's snapshot alone, one of them caller-dependent: nothing to read from the database. */
const SNAPSHOT_ONLY = 'subscription FanOutSnapshotOnly($id: ID!) { depositUpdated(id: $id) { id status statusReason amount { amount currency } } }';
/** Every caller-dependent Deposit field: the admin-only status reason, and the nested lists the policy filters. */
const CALLER_DEPENDENT = 'subscription FanOutCallerDependent { depositUpdated { id status statusReason events { type } refunds { status } } }';

// A group's context has no client a resolver could read: its type is `undefined`, or tsc fails here.
const noClientInGroups = (context: GroupContext): undefined => context.client;
void noClientInGroups;

interface RawSubscriber {
  operationId: string;
  /** Every `next` and `error` frame, as the text received. */
  frames: string[];
  close(): void;
}

let t: TestGateway;
const open: RawSubscriber[] = [];

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(async () => {
  for (const subscriber of open) subscriber.close();
  await t?.close();
});

/** A raw graphql-transport-ws client with one subscription, resolved once the gateway holds it. */
async function rawSubscriber(key: string, query: string, variables: Record<string, unknown> = {}): Promise<RawSubscriber> {
  const socket = new WebSocket(t.gateway.wsUrl, 'graphql-transport-ws');
  const operationId = randomUUID();
  const frames: string[] = [];
  await subscribed(t, () =>
    new Promise<void>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })));
      socket.on('message', (data: WebSocket.RawData) => {
        const text = messageText(data);
        const message = JSON.parse(text) as { type: string };
        if (message.type === 'connection_ack') {
          socket.send(JSON.stringify({ id: operationId, type: 'subscribe', payload: { query, variables } }));
          resolve();
        } else if (message.type === 'next' || message.type === 'error') frames.push(text);
      });
      socket.on('error', reject);
    }),
  );
  const subscriber = { operationId, frames, close: () => socket.terminate() };
  open.push(subscriber);
  return subscriber;
}

/** A card deposit by `key`'s cashier, resolved once it SUCCEEDED and its follow-up work is done. */
async function succeededDeposit(key: string): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key });
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  const id = created.data!.createDeposit.deposit!.id;
  await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key })).data?.deposit?.status).toBe('SUCCEEDED');
  await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
  await jobsSettled(t);
  return id;
}

/** Events executed for subscribers so far, as /metrics counts them (one per group and event). */
async function executions(): Promise<number> {
  const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith('gateway_subscription_executions_total '));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}

/** A web cashier's deposit taken to SUCCEEDED, with the notifications of it published on this instance meanwhile. */
async function succeededDepositNotifications(filter?: (event: EventNotification) => boolean): Promise<{ depositId: string; captured: EventNotification[] }> {
  const published: EventNotification[] = [];
  const capture = t.gateway.services.pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC, filter);
  const reading = (async () => {
    for await (const event of capture) published.push(event);
  })();
  // A subscription is handed what commits after it joins (the bus reads the log's head first): the
  // deposit is made once it has, or a busy machine could commit its first event before the join.
  expect(await t.gateway.services.pubsub.joined(capture)).toBe(true);
  const depositId = await succeededDeposit(t.keys.webCashier);
  const captured = () => published.filter((event) => event.subjectId === depositId);
  // The deposit is settled (its jobs done): every event of it is in the log, and the bus publishes
  // each once it is final. Captured once as many notifications arrived as the log holds events.
  const inLog = async () => (await eventsAfter(t.gateway.graphqlUrl, t.keys.admin)).nodes.filter((node) => node.subjectId === depositId).length;
  await expect.poll(async () => captured().length > 0 && captured().length === (await inLog()), { interval: 20 }).toBe(true);
  await capture.return();
  await reading;
  return { depositId, captured: captured() };
}

/** The payload part of a `next` frame, as text. */
const payloadOf = (frame: string, operationId: string) => {
  const prefix = `{"id":${JSON.stringify(operationId)},"type":"next","payload":`;
  expect(frame.startsWith(prefix), frame).toBe(true);
  return frame.slice(prefix.length, -1);
};

/** Publishes a notification on this instance as the event bus does, and waits until every subscriber has one more frame. */
async function replay(notification: EventNotification, subscribers: RawSubscriber[]): Promise<void> {
  const before = subscribers.map((subscriber) => subscriber.frames.length);
  t.gateway.services.pubsub.publish(PAYMENT_EVENTS_TOPIC, structuredClone(notification));
  await expect.poll(() => subscribers.every((subscriber, index) => subscriber.frames.length === before[index]! + 1), { interval: 10 }).toBe(true);
}

/** How graphql-js executes `query` for one caller with this event, in a context of its own: the frame a lone subscriber gets. */
async function lonelyFrame(key: string, operationId: string, query: string, variables: Record<string, unknown>, notification: EventNotification): Promise<string> {
  const client = await t.gateway.services.clients.authenticate(t.gateway.db.fork(), key);
  const contextValue: GatewayContext = {
    requestId: 'reference',
    logger: t.gateway.logger,
    em: t.gateway.db.fork(),
    client,
    authFailure: 'MISSING',
    viewer: client!,
    services: t.gateway.services,
    introspectionAllowed: client!.isAdmin(),
  };
  const schema = await buildGatewaySchema(t.gateway.services.pubsub);
  const result = await executeGraphql({ schema, document: parse(query), variableValues: variables, rootValue: notification, contextValue });
  // Every message carries its event's cursor (what `after` takes to resume from it).
  return JSON.stringify({ id: operationId, type: 'next', payload: { ...result, extensions: { cursor: encodeCursor(notification.position) } } });
}

describe('subscription fan-out', () => {
  it('executes an event once per group of alike subscribers, however many, and sends each the frame a lone subscriber gets', async () => {
    // given: a settled deposit of the web cashier, and the notification of its last change
    const { depositId, captured } = await succeededDepositNotifications();
    const notification = captured.at(-1)!;
    expect(notification.subjectType).toBe('deposit');
    const variables = { id: depositId };

    // and: one subscriber of each of two classes (an admin, the owning cashier), then the same event once
    const admins = [await rawSubscriber(t.keys.admin, NESTED, variables)];
    const cashiers = [await rawSubscriber(t.keys.webCashier, NESTED, variables)];
    const alone = await statementsOf(t, () => replay(notification, [...admins, ...cashiers]));
    expect(alone).toBeGreaterThan(0);

    // when: five more admins and three more cashiers subscribe, and the same change is delivered again
    for (let i = 0; i < 5; i++) admins.push(await rawSubscriber(t.keys.admin, NESTED, variables));
    for (let i = 0; i < 3; i++) cashiers.push(await rawSubscriber(t.keys.webCashier, NESTED, variables));
    const many = await statementsOf(t, () => replay(notification, [...admins, ...cashiers]));

    // then: the nested lists were read as often as with one subscriber per class: once per group
    expect(many).toBe(alone);

    // and: each subscriber got, byte for byte, the frame graphql-js gives its caller alone
    const adminFrame = (subscriber: RawSubscriber) => lonelyFrame(t.keys.admin, subscriber.operationId, NESTED, variables, notification);
    const cashierFrame = (subscriber: RawSubscriber) => lonelyFrame(t.keys.webCashier, subscriber.operationId, NESTED, variables, notification);
    for (const subscriber of admins) expect(subscriber.frames.at(-1)).toBe(await adminFrame(subscriber));
    for (const subscriber of cashiers) expect(subscriber.frames.at(-1)).toBe(await cashierFrame(subscriber));
    // with its nested lists as they stand (the deposit's events), and one payload text per class
    const adminPayload = payloadOf(admins[0]!.frames.at(-1)!, admins[0]!.operationId);
    expect((JSON.parse(adminPayload) as { data: { depositUpdated: { events: unknown[] } } }).data.depositUpdated.events.length).toBeGreaterThanOrEqual(2);
    expect(new Set(admins.map((subscriber) => payloadOf(subscriber.frames.at(-1)!, subscriber.operationId)))).toEqual(new Set([adminPayload]));
    expect(new Set(cashiers.map((subscriber) => payloadOf(subscriber.frames.at(-1)!, subscriber.operationId))).size).toBe(1);
    for (const subscriber of [...admins, ...cashiers]) subscriber.close();
  });

  it('runs one execution per group and event, however many sockets share it, and keeps each subscription\'s events in order', async () => {
    // given: twelve admins and four of the web cashier's subscriptions, each on its own socket, and a captured notification
    const { captured } = await succeededDepositNotifications((event) => event.subjectType === 'deposit' && Boolean(event.snapshot));
    const opened = t.gateway.services.pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
    const admins = await Promise.all(Array.from({ length: 12 }, () => rawSubscriber(t.keys.admin, STREAM)));
    const cashiers = await Promise.all(Array.from({ length: 4 }, () => rawSubscriber(t.keys.webCashier, STREAM)));
    const everyone = [...admins, ...cashiers];
    // Subscribed at once, each one's wait ends when the first of them joins: wait for all sixteen.
    await expect.poll(() => t.gateway.services.pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC), { interval: 10 }).toBeGreaterThanOrEqual(opened + everyone.length);
    const before = await executions();

    // when: three changes of the deposit are published back to back, as one read of the event log does
    // (each with a status of its own, so that order shows)
    const statuses = ['PENDING', 'AUTHORIZED', 'SUCCEEDED'] as const;
    const last = captured.at(-1)!;
    const changes = statuses.map((status): EventNotification => ({ ...structuredClone(last), snapshot: { ...structuredClone(last.snapshot!), status } }));
    for (const change of changes) t.gateway.services.pubsub.publish(PAYMENT_EVENTS_TOPIC, change);
    await expect.poll(() => everyone.every((subscriber) => subscriber.frames.length === 3), { interval: 10 }).toBe(true);

    // then: two groups (admins, the cashier), three events: six executions for sixteen subscribers
    expect((await executions()) - before).toBe(6);
    // and: every subscriber got the three changes in the order they were published
    for (const subscriber of everyone) expect(subscriber.frames.map((frame) => (JSON.parse(payloadOf(frame, subscriber.operationId)) as { data: { depositUpdated: { status: string } } }).data.depositUpdated.status)).toEqual([...statuses]);
    for (const subscriber of everyone) subscriber.close();
  });

  it('gives subscribers of different classes exactly what each may see, and alike subscribers alike frames', async () => {
    // given: several subscribers of three classes on every deposit they may see, and two on one deposit by id
    const web = [await rawSubscriber(t.keys.webCashier, STREAM), await rawSubscriber(t.keys.webCashier, STREAM), await rawSubscriber(t.keys.webCashier, STREAM)];
    const mobile = [await rawSubscriber(t.keys.mobileCashier, STREAM), await rawSubscriber(t.keys.mobileCashier, STREAM)];
    const admins = [await rawSubscriber(t.keys.admin, STREAM), await rawSubscriber(t.keys.admin, STREAM)];

    // when: each cashier's deposit succeeds, the mobile one first
    const mobileDeposit = await succeededDeposit(t.keys.mobileCashier);
    const byId = [await rawSubscriber(t.keys.admin, NESTED, { id: mobileDeposit }), await rawSubscriber(t.keys.admin, NESTED, { id: mobileDeposit })];
    const webDeposit = await succeededDeposit(t.keys.webCashier);
    const payloads = (subscriber: RawSubscriber) => subscriber.frames.map((frame) => JSON.parse(payloadOf(frame, subscriber.operationId)) as { data: { depositUpdated: { id: string; status: string } } });
    const ids = (subscriber: RawSubscriber) => [...new Set(payloads(subscriber).map((payload) => payload.data.depositUpdated.id))].sort();
    await expect.poll(() => admins.every((subscriber) => ids(subscriber).includes(webDeposit))).toBe(true);
    // every event is published by now (succeededDeposit waits for it); frames in flight still arrive
    const counts = (group: RawSubscriber[]) => new Set(group.map((subscriber) => subscriber.frames.length)).size;
    await expect.poll(() => [web, mobile, admins].every((group) => counts(group) === 1)).toBe(true);

    // then: each cashier sees its own deposit alone, an admin both, the subscribers by id nothing after subscribing
    for (const subscriber of web) expect(ids(subscriber)).toEqual([webDeposit]);
    for (const subscriber of mobile) expect(ids(subscriber)).toEqual([mobileDeposit]);
    for (const subscriber of admins) expect(ids(subscriber)).toEqual([mobileDeposit, webDeposit].sort());
    for (const subscriber of byId) expect(subscriber.frames).toEqual([]);
    // and subscribers of one class got the same payloads, in the same order
    for (const group of [web, mobile, admins]) {
      const texts = group.map((subscriber) => subscriber.frames.map((frame) => payloadOf(frame, subscriber.operationId)));
      for (const other of texts) expect(other).toEqual(texts[0]);
    }
    for (const subscriber of [...web, ...mobile, ...admins, ...byId]) subscriber.close();
  });

  it('executes a group of distinct clients with their visibility and no member\'s identity: one execution, one payload, each only what it may see', async () => {
    // given: two refunds back offices limited to the deposit's account, and two admins: four clients, two classes
    const { captured } = await succeededDepositNotifications((event) => event.subjectType === 'deposit' && Boolean(event.snapshot));
    const last = captured.at(-1)!;
    expect(last.merchantAccount).toBe('dg-test');
    const created = async (name: string, roles: Array<'REFUNDS' | 'ADMIN'>, merchantAccounts?: string[]) => {
      const result = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles, ...(merchantAccounts ? { merchantAccounts } : {}) } }, { key: t.keys.admin });
      expect(result.errors).toBeUndefined();
      expect(result.data!.createApiClient.userErrors).toEqual([]);
      return { id: result.data!.createApiClient.client!.id, key: result.data!.createApiClient.key! };
    };
    const refundsOffices = [await created(`refunds-a-${randomUUID().slice(0, 8)}`, ['REFUNDS'], ['dg-test']), await created(`refunds-b-${randomUUID().slice(0, 8)}`, ['REFUNDS'], ['dg-test'])];
    const admin = await t.gateway.services.clients.authenticate(t.gateway.db.fork(), t.keys.admin);
    const admins = [{ id: admin!.id, key: t.keys.admin }, await created(`admin-${randomUUID().slice(0, 8)}`, ['ADMIN'])];
    const members = [...refundsOffices, ...admins];
    const refundsSubscribers = [await rawSubscriber(refundsOffices[0]!.key, CALLER_DEPENDENT), await rawSubscriber(refundsOffices[1]!.key, CALLER_DEPENDENT)];
    const adminSubscribers = [await rawSubscriber(admins[0]!.key, CALLER_DEPENDENT), await rawSubscriber(admins[1]!.key, CALLER_DEPENDENT)];
    const everyone = [...refundsSubscribers, ...adminSubscribers];

    // when: a change on another merchant account (admins only), then one on the deposit's account with an admin-only status reason
    const hidden: EventNotification = { ...structuredClone(last), merchantAccount: 'qr-test', snapshot: { ...structuredClone(last.snapshot!), merchantAccount: 'qr-test', status: 'PENDING' } };
    const visible: EventNotification = { ...structuredClone(last), snapshot: { ...structuredClone(last.snapshot!), statusReason: 'sandbox-approved' } };
    // (what a caller-dependent Deposit field resolver is handed, as type-graphql calls it)
    const refunds = vi.spyOn(DepositRefundsResolver.prototype, 'refunds');
    const before = await executions();
    let seen: GatewayContext[];
    try {
      t.gateway.services.pubsub.publish(PAYMENT_EVENTS_TOPIC, hidden);
      t.gateway.services.pubsub.publish(PAYMENT_EVENTS_TOPIC, visible);
      await expect.poll(() => refundsSubscribers.every((s) => s.frames.length >= 1) && adminSubscribers.every((s) => s.frames.length === 2), { interval: 10 }).toBe(true);
    } finally {
      seen = refunds.mock.calls.map(([, context]) => context);
      refunds.mockRestore();
    }

    // then: one execution per group and event: the admins' group ran both, the refunds offices' group the visible one
    expect((await executions()) - before).toBe(3);
    // and: every resolver of those executions was handed the group's visibility, and no client, key, name or id of any member
    expect(seen).toHaveLength(3);
    for (const context of seen) {
      expect(context.client).toBeUndefined();
      expect(Object.keys(context).filter((key) => ['client', 'authFailure', 'idempotencyKey', 'requestLine'].includes(key))).toEqual([]);
      expect(Object.keys(context.viewer).sort()).toEqual(['merchantAccounts', 'owner', 'roles']);
      for (const member of members) expect(JSON.stringify(context.viewer)).not.toContain(member.id);
    }
    expect(seen.map((context) => context.viewer)).toEqual(
      expect.arrayContaining([
        { roles: ['REFUNDS'], merchantAccounts: ['dg-test'], owner: null },
        { roles: ['ADMIN'], merchantAccounts: null, owner: null },
      ]),
    );

    // and: the refunds offices got the visible change alone, the admins both; alike members the same payload text
    const changes = (subscriber: RawSubscriber) =>
      subscriber.frames.map((frame) => (JSON.parse(payloadOf(frame, subscriber.operationId)) as { data: { depositUpdated: { status: string; statusReason: string | null } } }).data.depositUpdated).map((deposit) => [deposit.status, deposit.statusReason]);
    for (const subscriber of refundsSubscribers) expect(changes(subscriber)).toEqual([['SUCCEEDED', null]]);
    for (const subscriber of adminSubscribers) expect(changes(subscriber)).toEqual([['PENDING', null], ['SUCCEEDED', 'sandbox-approved']]);
    for (const group of [refundsSubscribers, adminSubscribers]) {
      const texts = group.map((subscriber) => subscriber.frames.map((frame) => payloadOf(frame, subscriber.operationId)));
      expect(texts[1]).toEqual(texts[0]);
    }
    // and: each frame is, byte for byte, what that member's own key gets executing the change alone
    for (const [index, subscriber] of everyone.entries()) {
      expect(subscriber.frames.at(-1)).toBe(await lonelyFrame(members[index]!.key, subscriber.operationId, CALLER_DEPENDENT, {}, visible));
    }
    for (const subscriber of everyone) subscriber.close();
  });

  it('hands a change whose fields need no read to every subscriber\'s socket in its commit, before the committing code goes on', async () => {
    // given: a settled deposit of the web cashier, and three admins subscribed to it with a query the event's snapshot answers
    const depositId = await succeededDeposit(t.keys.webCashier);
    const variables = { id: depositId };
    const admins: RawSubscriber[] = [];
    for (let i = 0; i < 3; i++) admins.push(await rawSubscriber(t.keys.admin, SNAPSHOT_ONLY, variables));
    const published = t.gateway.services.pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC, (event) => event.subjectId === depositId);
    // and: every frame handed to a socket of this process, counted
    const sent = vi.spyOn(WebSocket.prototype, 'send');
    const framesSent = () => sent.mock.calls.filter(([data]) => admins.some((admin) => (data as Buffer | string).toString().startsWith(`{"id":${JSON.stringify(admin.operationId)}`))).length;

    // when: a transaction appends an event of the deposit (a status change that changes nothing), and
    // work registered after the append looks at the sockets once the transaction has committed
    let sentAtCommit = -1;
    try {
      await t.gateway.db.fork().transactional(async (tx) => {
        const deposit = await tx.findOneOrFail(Deposit, { id: depositId });
        await t.gateway.services.events.append(tx, {
          subjectType: 'deposit',
          subjectId: deposit.id,
          clientId: deposit.clientId,
          type: 'deposit.status_changed',
          fromStatus: deposit.status,
          toStatus: deposit.status,
          merchantAccount: deposit.merchantAccount,
          snapshot: toDepositSnapshot(deposit),
        });
        onCommitted(tx, () => (sentAtCommit = framesSent()));
      });
    } finally {
      sent.mockRestore();
    }

    // then: each subscriber's frame was on its socket by then: the commit's own work wrote it
    expect(sentAtCommit).toBe(3);
    // and: each subscriber received it once, the frame a lone subscriber gets
    const notification = (await published.next()).value as EventNotification;
    await published.return();
    await expect.poll(() => admins.map((admin) => admin.frames.length), { interval: 10 }).toEqual([1, 1, 1]);
    for (const admin of admins) expect(admin.frames[0]).toBe(await lonelyFrame(t.keys.admin, admin.operationId, SNAPSHOT_ONLY, variables, notification));
    expect((JSON.parse(payloadOf(admins[0]!.frames[0]!, admins[0]!.operationId)) as { data: { depositUpdated: { id: string; status: string } } }).data.depositUpdated).toMatchObject({ id: depositId, status: 'SUCCEEDED' });
    for (const admin of admins) admin.close();
  });
});
