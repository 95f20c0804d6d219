// Admin-only fields, by the one redaction policy per subject kind (src/kernel/redaction.ts), on all
// four paths a snapshot takes: the subject's query, events(after:), a graphql-ws subscription and
// a back-office notification to a real receiver. Table-driven from the policies the gateway
// registered: for every admin-only field of every subject kind, a subject where it has a value;
// every other reader that sees the subject is shown nothing of it on any path, and an admin is
// shown it wherever the path carries the kind (so the test can fail). And the other way round: a
// field that any reader is shown differently from an admin is one the policy names.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { buildSchema, getNamedType, getNullableType, isLeafType, isListType, isNonNullType, isObjectType, parse, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_TYPES } from '../../src/graphql/schema/schema.js';
import type { RedactionPolicy } from '../../src/kernel/redaction.js';
import { ROLES } from '../../src/kernel/roles.js';
import { declareSubjectKinds, SUBJECT_TYPES } from '../../src/kernel/visibility.fixture.js';
import { grantsOf, type SubjectType } from '../../src/kernel/visibility.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { collect, subscribed, type Collector } from '../deposits/support.js';
import { clientId, createEndpoint, deliveries, FAST_NOTIFICATIONS, startReceiver, type Receiver } from '../notifications/support.js';
import { ACCOUNTS, VALID_PAYOUTS } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { wsClient } from '../support/ws.js';
import { createClient } from './support.js';

type Who = 'admin' | 'webCashier' | 'refundsBackOffice' | 'payoutsBackOffice';
const OTHERS: readonly Who[] = ['webCashier', 'refundsBackOffice', 'payoutsBackOffice'];
const EVERYONE: readonly Who[] = ['admin', ...OTHERS];

/** The subject kinds some client other than an admin may see (withdrawals and endpoints: admins only). */
declareSubjectKinds();
const SHOWN_TO_OTHERS = SUBJECT_TYPES.filter((kind) => ROLES.some((role) => role !== 'ADMIN' && grantsOf({ id: 'cli_any', roles: [role] }).some((grant) => grant.subjects?.includes(kind))));

/** The API's own text for each kind: the query reading one by id and the subscription streaming its changes. */
const ROOT_FIELDS: Partial<Record<SubjectType, { query: string; stream: string }>> = {
  deposit: { query: 'deposit', stream: 'depositUpdated' },
  refund: { query: 'refund', stream: 'refundUpdated' },
  payout: { query: 'payout', stream: 'payoutUpdated' },
};

/** Who may subscribe to which streams (by roles). */
const STREAMS: Record<Who, SubjectType[]> = {
  admin: ['deposit', 'refund', 'payout'],
  webCashier: ['deposit', 'refund'],
  refundsBackOffice: ['deposit', 'refund'],
  payoutsBackOffice: ['payout'],
};

/**
 * What the product promises admins alone (DESIGN.md "Each client sees only its own"): processor
 * codes and full beneficiary account numbers. A policy may name more; it may not name less.
 */
const PROMISED: Partial<Record<SubjectType, string[]>> = {
  deposit: ['statusReason'],
  payout: ['statusReason', 'beneficiary.accountNumber', 'beneficiary.cci'],
};

/** One subject of a kind, made so that every admin-only field of its kind has a value. */
interface Subject {
  id: string;
  /** Its status once everything about it is recorded: each path is read once it shows this. */
  status: string;
  /** Who besides admins sees it (by the visibility policy). */
  readers: readonly Who[];
}

let t: TestGateway;
const keys = {} as Record<Who, string>;
const receivers = {} as Record<Who, Receiver>;
const endpoints = {} as Record<Who, string>;
const streams = {} as Record<Who, Partial<Record<SubjectType, Collector<Record<string, unknown>>>>>;
const sockets: Client[] = [];
const subjects: Partial<Record<SubjectType, Subject>> = {};

/** The committed SDL, which the build checks against the code: what a client of the API is told. */
const sdl: GraphQLSchema = buildSchema(readFileSync(path.resolve(import.meta.dirname, '../../schema/schema.graphql'), 'utf8'));

function typeOf(kind: SubjectType): string {
  const bound = REDACTED_TYPES.find((candidate) => candidate.policy.subjectType === kind);
  if (!bound) throw new Error(`no GraphQL type shows ${kind}`);
  return bound.type;
}

/**
 * Every field of a type that takes no required argument, objects unfolded (each type once on a
 * path), lists left out: they are other subjects' reads, with their own policies.
 */
function everyField(typeName: string, seen: readonly string[] = [typeName]): string {
  const type = sdl.getType(typeName) as GraphQLObjectType;
  const selections: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
    if (isListType(getNullableType(field.type))) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) selections.push(field.name);
    else if (isObjectType(named) && !seen.includes(named.name)) selections.push(`${field.name} { ${everyField(named.name, [...seen, named.name])} }`);
  }
  return selections.join(' ');
}

/** The PaymentEvent fields that show a subject of this kind (`deposit` for deposits): what events(after:) carries of it. */
function eventFieldsShowing(kind: SubjectType): string[] {
  const type = sdl.getType('PaymentEvent') as GraphQLObjectType;
  return Object.values(type.getFields()).filter((field) => getNamedType(field.type).name === typeOf(kind)).map((field) => field.name);
}

/** Every leaf of an answer, by dotted path. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) for (const [leaf, leafValue] of leaves(inner, prefix ? `${prefix}.${key}` : key)) found.set(leaf, leafValue);
  } else {
    found.set(prefix, value);
  }
  return found;
}

/** `who`'s answer to the query of one subject, every field asked, with the response's text. */
async function querySubject(who: Who, kind: SubjectType, id: string): Promise<{ text: string; subject: Record<string, unknown> }> {
  const root = ROOT_FIELDS[kind]!.query;
  const response = await postRaw(t.gateway.graphqlUrl, { query: `query Subject($id: ID!) { ${root}(id: $id) { ${everyField(typeOf(kind))} } }`, variables: { id } }, keys[who]);
  expect(response.body.errors, `${who}: ${root}(id)`).toBeUndefined();
  expect(response.body.data[root], `${who} sees ${id}`).not.toBeNull();
  return { text: JSON.stringify(response.body), subject: response.body.data[root] as Record<string, unknown> };
}

/** The text of every edge of `who`'s events(after:) about the subject, each event with every field of the subject it carries. */
async function eventsOf(who: Who, kind: SubjectType, id: string): Promise<string[]> {
  const carried = eventFieldsShowing(kind).map((field) => `${field} { ${everyField(typeOf(kind))} }`).join(' ');
  const texts: string[] = [];
  let after: string | undefined;
  for (;;) {
    const query = `query Log($after: String) { events(first: 10, after: $after) { edges { node { subjectType subjectId type ${carried} } } pageInfo { hasNextPage endCursor } } }`;
    const response = await postRaw(t.gateway.graphqlUrl, { query, variables: { after } }, keys[who]);
    expect(response.body.errors, `${who}: events(after:)`).toBeUndefined();
    const page = response.body.data.events as { edges: Array<{ node: { subjectId: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string } };
    texts.push(...page.edges.filter((edge) => edge.node.subjectId === id).map((edge) => JSON.stringify(edge)));
    if (!page.pageInfo.hasNextPage) return texts;
    after = page.pageInfo.endCursor;
  }
}

/** `who`'s live frames about the subject, as text. */
function framesOf(who: Who, kind: SubjectType, id: string): string[] {
  return (streams[who][kind]?.messages ?? []).filter((message) => message.id === id).map((message) => JSON.stringify(message));
}

/**
 * The bodies of the notifications `who`'s endpoint was sent about the subject, as received, one per
 * webhook-id: delivery is at least once, and an attempt that outlived NOTIFICATION_TIMEOUT_MS on a
 * busy machine is sent again.
 */
function notificationsOf(who: Who, id: string): string[] {
  const once = new Map(receivers[who].delivered.filter((received) => received.data.id === id).map((received) => [String(received.headers['webhook-id']), received.body]));
  return [...once.values()];
}

async function makeDeposit(amount: string): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount, merchantAccount: 'dg-test' } }, { key: keys.webCashier });
  expect(created.errors).toBeUndefined();
  return created.data!.createDeposit.deposit!.id;
}

async function statusOf(kind: 'deposit' | 'refund', id: string): Promise<string | undefined> {
  if (kind === 'deposit') return (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: keys.admin })).data?.deposit?.status;
  return (await execute(t.gateway.graphqlUrl, RefundQuery, { id }, { key: keys.admin })).data?.refund?.status;
}

/**
 * How to make a subject of each kind others may see, with every admin-only field given a value:
 * a card deposit the processor declines (its code in statusReason); a refund, of a succeeded
 * deposit; a Peruvian payout (account and CCI numbers) on a live account whose live payouts are
 * off, which the provider refuses with its own message (statusReason).
 */
const MAKE: Partial<Record<SubjectType, () => Promise<Subject>>> = {
  deposit: async () => {
    // The sandbox's test mode declines an amount ending in .13 with a processor code.
    const id = await makeDeposit('10.13');
    await expect.poll(() => statusOf('deposit', id)).toBe('DECLINED');
    return { id, status: 'DECLINED', readers: ['webCashier', 'refundsBackOffice'] };
  },
  refund: async () => {
    const depositId = await makeDeposit('10.00');
    await expect.poll(() => statusOf('deposit', depositId)).toBe('SUCCEEDED');
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount: '5.00' } }, { key: keys.refundsBackOffice });
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const id = requested.data!.requestRefund.refund!.id;
    await expect.poll(() => statusOf('refund', id)).toBe('APPROVED');
    return { id, status: 'APPROVED', readers: ['webCashier', 'refundsBackOffice'] };
  },
  payout: async () => {
    const peru = VALID_PAYOUTS.find(([country]) => country === 'PERU')![1];
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...peru, merchantAccount: 'dg-live-sim' } }, { key: keys.payoutsBackOffice });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPayout.payout).toMatchObject({ status: 'FAILED' });
    return { id: created.data!.createPayout.payout!.id, status: 'FAILED', readers: ['payoutsBackOffice'] };
  },
};

/** Every admin-only field of every registered policy: the table this file runs. */
function rows(): Array<{ kind: SubjectType; path: string; policy: RedactionPolicy; inSnapshot: boolean }> {
  return t.gateway.services.redactions.all().flatMap((policy) => [
    ...policy.adminOnly.map((field) => ({ kind: policy.subjectType, path: field, policy, inSnapshot: true })),
    ...policy.unmaskedForAdmins.map((field) => ({ kind: policy.subjectType, path: field, policy, inSnapshot: false })),
  ]);
}

beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS), ...FAST_NOTIFICATIONS } });
  const refundsBackOffice = await createClient(t, 'refunds-dg-test', ['REFUNDS'], ['dg-test']);
  const payoutsBackOffice = await createClient(t, 'payouts-dg-live-sim', ['PAYOUTS'], ['dg-live-sim']);
  Object.assign(keys, { admin: t.keys.admin, webCashier: t.keys.webCashier, refundsBackOffice: refundsBackOffice.key, payoutsBackOffice: payoutsBackOffice.key });
  ids = { admin: clientId(t, 'admin'), webCashier: clientId(t, 'web-cashier'), refundsBackOffice: refundsBackOffice.id, payoutsBackOffice: payoutsBackOffice.id };
});

let ids: Record<Who, string>;
let prepared: Promise<void> | undefined;

/** The subjects and what each path shows of them, made once for the tests below (waits belong in a test). */
function prepare(): Promise<void> {
  return (prepared ??= made());
}

async function made(): Promise<void> {
  // given: each reader with an endpoint of its own at a receiver, and its live streams open
  for (const who of EVERYONE) {
    receivers[who] = await startReceiver();
    endpoints[who] = (await createEndpoint(t, receivers[who], ids[who])).id;
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${keys[who]}` });
    sockets.push(ws);
    streams[who] = {};
    for (const kind of STREAMS[who]) {
      const document = parse(`subscription { ${ROOT_FIELDS[kind]!.stream} { ${everyField(typeOf(kind))} } }`) as TypedDocumentNode<Record<string, Record<string, unknown>>, Record<string, never>>;
      streams[who][kind] = await subscribed(t, () => collect(ws, document, {}));
    }
  }
  // when: a subject of each kind others may see, with every admin-only field of its kind set
  for (const kind of SHOWN_TO_OTHERS) {
    const make = MAKE[kind];
    if (make) subjects[kind] = await make();
  }
  await jobsSettled(t);
  // and every path has caught up with each subject's last status, for admins and for its readers
  for (const [kind, subject] of Object.entries(subjects) as Array<[SubjectType, Subject]>) {
    for (const who of ['admin', ...subject.readers] as Who[]) {
      await streams[who][kind]!.until((message) => message.id === subject.id && message.status === subject.status);
      await expect
        .poll(() => receivers[who].delivered.some((received) => received.data.id === subject.id && received.data.status === subject.status))
        .toBe(true);
    }
  }
  // and whatever followed those (details fetched, their notifications sent) is done too: a
  // notification waiting for its retry is no job due now, so each endpoint's are waited for
  await jobsSettled(t);
  await expect.poll(async () => (await Promise.all(EVERYONE.map((who) => deliveries(t, endpoints[who], { state: 'PENDING' })))).flat().length).toBe(0);
}

afterAll(async () => {
  for (const who of Object.keys(streams) as Who[]) for (const stream of Object.values(streams[who])) stream?.stop();
  await Promise.all(sockets.map(async (socket) => socket.dispose()));
  await t?.close();
  await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
});

describe('admin-only fields, by one policy per subject kind', () => {
  it('cover something: a subject is made for every kind others may see, and the policies name admin-only fields', async () => {
    await prepare();
    expect(SHOWN_TO_OTHERS.filter((kind) => !MAKE[kind])).toEqual([]);
    expect(rows().length).toBeGreaterThan(0);
    // a kind whose policy names a field is one others may see: otherwise nothing of it would need withholding
    for (const row of rows()) expect(SHOWN_TO_OTHERS, `${row.kind}.${row.path}`).toContain(row.kind);
    // and the policies keep every promise: a field dropped from one would be shown to everyone
    for (const [kind, fields] of Object.entries(PROMISED) as Array<[SubjectType, string[]]>) {
      const named = rows().filter((row) => row.kind === kind).map((row) => row.path);
      expect(named, kind).toEqual(expect.arrayContaining(fields));
    }
  });

  it('are withheld from cashiers and back offices on every path, and shown to admins wherever the path carries them', async () => {
    await prepare();
    const values: Array<{ row: string; value: string }> = [];
    for (const row of rows()) {
      const label = `${row.kind}.${row.path}`;
      const subject = subjects[row.kind]!;
      // given: the subject's value of the field, as an admin reads it: the test needs one to look for
      const admin = await querySubject('admin', row.kind, subject.id);
      const value = leaves(admin.subject).get(row.path);
      expect(value, `${label}: the subject made for ${row.kind} gives it no value`).toEqual(expect.any(String));
      expect(String(value).length, label).toBeGreaterThan(3);
      const text = String(value);
      values.push({ row: label, value: text });

      // then: an admin is shown it by its query and its stream, by events(after:) where a PaymentEvent
      // carries the kind, and by a notification where the snapshot holds it (unmasked numbers never are)
      expect(admin.text, `${label}: admin, query`).toContain(text);
      expect(framesOf('admin', row.kind, subject.id).some((frame) => frame.includes(text)), `${label}: admin, subscription`).toBe(true);
      const adminEvents = await eventsOf('admin', row.kind, subject.id);
      expect(adminEvents.length, `${label}: admin, events(after:)`).toBeGreaterThan(0);
      if (eventFieldsShowing(row.kind).length > 0) expect(adminEvents.some((edge) => edge.includes(text)), `${label}: admin, events(after:)`).toBe(true);
      const adminNotifications = notificationsOf('admin', subject.id);
      expect(adminNotifications.length, `${label}: admin, notifications`).toBeGreaterThan(0);
      expect(adminNotifications.some((body) => body.includes(text)), `${label}: admin, notifications`).toBe(row.inSnapshot);

      // and: every other reader of the subject sees the subject on each path, and nothing of the value
      for (const who of subject.readers) {
        const read = await querySubject(who, row.kind, subject.id);
        const shown = leaves(read.subject).get(row.path);
        if (row.inSnapshot) expect(shown, `${label}: ${who}, query`).toBeNull();
        expect(read.text, `${label}: ${who}, query`).not.toContain(text);
        const events = await eventsOf(who, row.kind, subject.id);
        expect(events.length, `${label}: ${who}, events(after:)`).toBe(adminEvents.length);
        for (const edge of events) expect(edge, `${label}: ${who}, events(after:)`).not.toContain(text);
        const frames = framesOf(who, row.kind, subject.id);
        expect(frames.some((frame) => frame.includes(`"status":"${subject.status}"`)), `${label}: ${who}, subscription`).toBe(true);
        for (const frame of frames) expect(frame, `${label}: ${who}, subscription`).not.toContain(text);
        const notifications = notificationsOf(who, subject.id);
        expect(notifications.length, `${label}: ${who}, notifications`).toBe(adminNotifications.length);
        for (const body of notifications) expect(body, `${label}: ${who}, notifications`).not.toContain(text);
      }
    }

    // and: no value reaches any other client on any path, whatever the subject (a cashier reads no payout at all)
    for (const who of OTHERS) {
      const seen: string[] = [...receivers[who].delivered.map((received) => received.body)];
      for (const stream of Object.values(streams[who])) seen.push(...(stream?.messages ?? []).map((message) => JSON.stringify(message)));
      for (const [kind, subject] of Object.entries(subjects) as Array<[SubjectType, Subject]>) {
        seen.push(...(await eventsOf(who, kind, subject.id)));
        if (subject.readers.includes(who)) seen.push((await querySubject(who, kind, subject.id)).text);
      }
      for (const { row, value } of values) expect(seen.filter((text) => text.includes(value)), `${row}: ${who}, anywhere`).toEqual([]);
    }
  });

  it('are all the policies name: a field shown to another reader differently from an admin is one of them', async () => {
    await prepare();
    for (const [kind, subject] of Object.entries(subjects) as Array<[SubjectType, Subject]>) {
      const policy = t.gateway.services.redactions.of(kind);
      const admin = leaves((await querySubject('admin', kind, subject.id)).subject);
      for (const who of subject.readers) {
        const read = leaves((await querySubject(who, kind, subject.id)).subject);
        expect([...read.keys()].sort(), `${kind}: ${who} is asked the same fields`).toEqual([...admin.keys()].sort());
        const differing = [...admin.keys()].filter((leaf) => read.get(leaf) !== admin.get(leaf)).sort();
        // every field the schema shows differently is in the policy, and every one the policy names is shown differently (each has a value here)
        expect(differing, `${kind}: ${who}`).toEqual([...policy.adminOnly, ...policy.unmaskedForAdmins].sort());
      }
    }
  });
});
