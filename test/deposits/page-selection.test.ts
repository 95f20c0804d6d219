// A page of deposits reads only the columns its query asks of each deposit and of the refunds read
// ahead with it (src/graphql/selection.ts, FieldReads). Whatever a query asks, the answer is the
// one the whole read gives: each field of Deposit and of Refund asked alone, through fragments,
// under aliases, with the cursors and pages after them, for an admin and for readers who see less
// (their admin-only fields withheld), against `deposit(id:)`, `node(id:)` and the snapshots events
// carry. The deposits are made so that every nullable field has a value on one of them, so a field
// left unread would answer differently here.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, getNullableType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestRefundMutation } from '../refunds/operations.js';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';
import { createClient } from '../visibility/support.js';
import { CARD_INPUT, VALID_DEPOSITS } from './fixtures.js';
import { ClaimDepositCreditMutation, CreateDepositMutation, DepositQuery } from './operations.js';

type Who = 'admin' | 'webCashier' | 'refundsBackOffice';
type Json = Record<string, unknown>;

const sdl: GraphQLSchema = buildSchema(readFileSync(path.resolve(import.meta.dirname, '../../schema/schema.graphql'), 'utf8'));

/**
 * A field of a type asked with all it holds: leaves as they are, objects and lists of objects
 * unfolded (each type once on a path). The timeline is asked by its first cursor: it reads the
 * subject by id alone, and its entries are the timeline's own tests'.
 */
function asked(typeName: string, fieldName: string, onPath: readonly string[], lists = true): string | undefined {
  const field = (sdl.getType(typeName) as GraphQLObjectType).getFields()[fieldName]!;
  if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) return undefined;
  if (fieldName === 'timeline') return lists ? 'timeline(first: 1) { edges { cursor } }' : undefined;
  const named = getNamedType(field.type);
  if (isLeafType(named)) return fieldName;
  if (!isObjectType(named) || onPath.includes(named.name) || (!lists && isListType(getNullableType(field.type)))) return undefined;
  return `${fieldName} { ${everyField(named.name, [...onPath, named.name], lists)} }`;
}

/** Every field of a type, as `asked` asks each; without `lists`, only what the type holds itself (a nested deposit's). */
function everyField(typeName: string, onPath: readonly string[] = [typeName], lists = true): string {
  return fieldsOf(typeName).flatMap((name) => asked(typeName, name, onPath, lists) ?? []).join(' ');
}

function fieldsOf(typeName: string): string[] {
  return Object.keys((sdl.getType(typeName) as GraphQLObjectType).getFields());
}

let t: TestGateway;
const keys = {} as Record<Who, string>;
const WHO: readonly Who[] = ['admin', 'webCashier', 'refundsBackOffice'];

async function gql(who: Who, query: string, variables: Json = {}): Promise<Json> {
  const response = await postRaw(t.gateway.graphqlUrl, { query, variables }, keys[who]);
  expect(response.body.errors, `${who}: ${query}`).toBeUndefined();
  return response.body.data as Json;
}

/** `who`'s page of every deposit it sees, each node with `selection`. */
async function page(who: Who, selection: string, fragments = ''): Promise<Array<{ cursor?: string; node: Json }>> {
  const data = await gql(who, `query Page { deposits(first: 5) { edges { node { ${selection} } } } } ${fragments}`);
  return (data.deposits as { edges: Array<{ node: Json }> }).edges;
}

async function deposit(input: Json): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { merchantAccount: 'dg-test', ...input } as never }, { key: keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

const statusOf = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: keys.admin })).data?.deposit?.status;

beforeAll(async () => {
  t = await startTestGateway();
  keys.admin = t.keys.admin;
  keys.webCashier = t.keys.webCashier;
  keys.refundsBackOffice = (await createClient(t, 'page-selection refunds', ['REFUNDS'], ['dg-test'])).key;
});
afterAll(() => t?.close());

/** The deposits every test below reads, made by the first. */
async function makeDeposits(): Promise<void> {
  // Paid, refunded twice (a reason on one), its credit claimed, with a reference and metadata.
  const paid = await deposit({ ...CARD_INPUT, merchantReference: 'order-7', metadata: [{ key: 'z', value: '1' }, { key: 'a', value: '2' }] });
  // Declined by the processor with its code (admin-only) and a neutral reason.
  const declined = await deposit({ ...CARD_INPUT, amount: '10.13' });
  await deposit(VALID_DEPOSITS.find(([rail]) => rail === 'CRYPTO')![1]);
  await expect.poll(() => statusOf(paid)).toBe('SUCCEEDED');
  await expect.poll(() => statusOf(declined)).toBe('DECLINED');
  for (const [amount, reason] of [['5.00', 'damaged'], ['2.50', undefined]] as const) {
    const refund = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: paid, amount, ...(reason ? { reason } : {}) } }, { key: keys.refundsBackOffice });
    expect(refund.data!.requestRefund.userErrors).toEqual([]);
  }
  expect((await execute(t.gateway.graphqlUrl, ClaimDepositCreditMutation, { input: { depositId: paid } }, { key: keys.webCashier })).data!.claimDepositCredit.userErrors).toEqual([]);
  // Nothing more happens to them once their refunds are decided and the jobs that follow have run.
  await expect.poll(async () => ((await gql('admin', `query R($id: ID!) { deposit(id: $id) { refunds { status } } }`, { id: paid })).deposit as { refunds: Json[] }).refunds.map((refund) => refund.status)).toEqual(['APPROVED', 'APPROVED']);
  await jobsSettled(t);
  // What no call of the API sets on these deposits within a test: a chargeback and a QR code.
  const em = t.gateway.db.fork();
  await em.execute('update deposit set disputed = true where id = ?', [paid]);
  await em.execute("update deposit set qr_payload = '000201010212', qr_expires_at = ? where id = ?", [new Date('2030-01-02T03:04:05.678Z'), declined]);
}

describe('a page of deposits asked for any part of them', () => {
  it('has a value in some deposit for every nullable field, so a field left unread would show', async () => {
    await makeDeposits();
    const edges = await page('admin', everyField('Deposit'));
    expect(edges.length).toBe(3);
    const nodes = edges.map((edge) => edge.node);
    // A non-null field left unread fails the answer; a nullable one answers null, so each has a value somewhere.
    const nullable = (typeName: string) => Object.values((sdl.getType(typeName) as GraphQLObjectType).getFields()).filter((field) => !isNonNullType(field.type)).map((field) => field.name);
    expect(nullable('Deposit').length).toBeGreaterThan(10);
    for (const field of nullable('Deposit')) expect(nodes.some((node) => node[field] != null), field).toBe(true);
    expect(nodes.some((node) => (node.metadata as Json[]).length > 1 && (node.refunds as Json[]).length > 1 && node.disputed === true)).toBe(true);
    const refunds = nodes.flatMap((node) => node.refunds as Json[]);
    expect(refunds).toHaveLength(2);
    for (const field of nullable('Refund')) expect(refunds.some((refund) => refund[field] != null), `Refund.${field}`).toBe(true);
  });

  it.each(WHO)('answers each field of Deposit asked alone as the whole read does (%s)', async (who) => {
    const whole = (await page(who, everyField('Deposit'))).map((edge) => edge.node);
    expect(whole.length).toBeGreaterThan(0);
    if (who !== 'admin') expect(whole.every((node) => node.statusReason === null)).toBe(true);
    for (const field of fieldsOf('Deposit')) {
      const selection = asked('Deposit', field, ['Deposit']);
      if (!selection) continue;
      const alone = (await page(who, selection)).map((edge) => edge.node);
      expect(alone, `${who}: ${selection}`).toEqual(whole.map((node) => ({ [field]: node[field] })));
    }
  });

  it.each(WHO)('answers each field of Refund asked alone as the whole read does (%s)', async (who) => {
    const refundsOf = (edges: Array<{ node: Json }>) => edges.map((edge) => edge.node.refunds as Json[]);
    const whole = refundsOf(await page(who, `refunds { ${everyField('Refund', ['Deposit', 'Refund'])} }`));
    expect(whole.flat()).toHaveLength(2);
    for (const field of fieldsOf('Refund')) {
      const selection = asked('Refund', field, ['Deposit', 'Refund']);
      if (!selection) continue;
      const alone = refundsOf(await page(who, `refunds { ${selection} }`));
      expect(alone, `${who}: refunds { ${selection} }`).toEqual(whole.map((refunds) => refunds.map((refund) => ({ [field]: refund[field] }))));
    }
    // Refund.deposit, which the unfolding above leaves out below a deposit: the refund's own deposit, read whole.
    const withDeposit = await page(who, `id refunds { deposit { ${everyField('Deposit', ['Deposit'], false)} } }`);
    const full = new Map((await page(who, everyField('Deposit', ['Deposit'], false))).map((edge) => [edge.node.id, edge.node]));
    for (const edge of withDeposit) for (const refund of edge.node.refunds as Json[]) expect(refund.deposit).toEqual(full.get(edge.node.id));
  });

  it('answers fragments, inline fragments, aliases and skipped fields as the whole read does', async () => {
    const whole = (await page('admin', everyField('Deposit'))).map((edge) => edge.node);
    const data = await gql(
      'admin',
      `query Page($no: Boolean!) { deposits(first: 5) { ...Connection } }
       fragment Connection on DepositConnection { edges { node { ...Shown price: amount { amount } ... on Deposit { fee @skip(if: $no) { currency } } } } }
       fragment Shown on Deposit { state: status paid: refunds { sum: amount { amount } } qr: qrCode { payload } }`,
      { no: false },
    );
    const nodes = (data.deposits as { edges: Array<{ node: Json }> }).edges.map((edge) => edge.node);
    expect(nodes).toEqual(
      whole.map((node) => ({
        state: node.status,
        paid: (node.refunds as Json[]).map((refund) => ({ sum: { amount: (refund.amount as Json).amount } })),
        qr: node.qrCode === null ? null : { payload: (node.qrCode as Json).payload },
        price: { amount: (node.amount as Json).amount },
        fee: node.fee === null ? null : { currency: (node.fee as Json).currency },
      })),
    );
  });

  it('gives the same cursors and the same next page whatever the nodes are asked for', async () => {
    const pageOf = async (first: number, after: string | null, selection: string) =>
      (await gql('admin', `query Page($first: Int!, $after: String) { deposits(first: $first, after: $after) { edges { cursor ${selection} } pageInfo { hasNextPage endCursor } } }`, { first, after })).deposits as {
        edges: Array<{ cursor: string; node?: Json }>;
        pageInfo: { endCursor: string };
      };
    const whole = await pageOf(2, null, `node { ${everyField('Deposit')} }`);
    const bare = await pageOf(2, null, '');
    expect(bare).toEqual({ ...whole, edges: whole.edges.map((edge) => ({ cursor: edge.cursor })) });
    const next = await pageOf(2, bare.pageInfo.endCursor, 'node { status }');
    const all = await page('admin', 'status');
    expect(next.edges.map((edge) => edge.node)).toEqual(all.slice(2).map((edge) => edge.node));
  });

  it.each(WHO)('shows each deposit as deposit(id:) and node(id:) do, and the snapshots of its events as they do (%s)', async (who) => {
    const selection = everyField('Deposit');
    const eventDeposits = `id events { id deposit { ${everyField('Deposit', ['Deposit', 'PaymentEvent'], false)} } }`;
    const events = new Map((await page(who, eventDeposits)).map((edge) => [edge.node.id, edge.node.events]));
    for (const { node } of await page(who, selection)) {
      const one = await gql(who, `query One($id: ID!) { deposit(id: $id) { ${selection} } node(id: $id) { ... on Deposit { ${selection} } } }`, { id: node.id });
      expect(one.deposit).toEqual(node);
      expect(one.node).toEqual(node);
      const alone = await gql(who, `query One($id: ID!) { deposit(id: $id) { ${eventDeposits} } }`, { id: node.id });
      expect((alone.deposit as Json).events).toEqual(events.get(node.id));
      expect((events.get(node.id) as Json[]).length).toBeGreaterThan(0);
    }
  });
});
