// What B2's page costs the gateway's process once its rows are read: the compiled query run over
// the page's deposits, refunds and events (the nodes made from their rows, the field resolvers, the
// scalars, graphql-jit's result), then the answer's JSON. No database, HTTP or Apollo: the three
// reads are answered from memory with rows of the columns `deposits` asks for, so what is left is the
// per-object part of the page, told apart by object kind.
//
//   node dist/bench/page-execution.js [iterations]
//
// Three pages of 50 deposits are run, alternating: without refunds or events, with 75 refunds,
// with 75 refunds and 275 events (B2's largest page). A deposit costs the first page's figure over
// 50; a refund, the second's extra over 75; an event, the third's extra over 275.

import 'reflect-metadata';
import { parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildGatewaySchema } from '../src/graphql/schema/schema.js';
import type { GatewayContext } from '../src/graphql/context.js';
import type { SubjectEventRecord } from '../src/kernel/events/event-log.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, type toDepositSnapshot } from '../src/modules/deposits/deposit-snapshot.js';
import { REFUND_SNAPSHOT_PROPERTIES, type RefundFacts, type RefundFactsRead } from '../src/modules/refunds/refund-snapshot.js';
import { DEPOSITS_PAGE } from './fixtures.js';

const DEPOSITS = 50;
const iterations = Number(process.argv[2] ?? '2000');
if (!Number.isInteger(iterations) || iterations < 1) throw new Error(`iterations must be a whole number of at least 1; got ${process.argv[2]}`);

/** An ISO time as the reads give it, a different one for each `n`. */
const time = (n: number): string => `2026-12-07T12:${String(10 + (n % 40)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.${String(100 + (n % 900))}Z`;
const id = (prefix: string, n: number): string => `${prefix}_01KBX${String(n).padStart(21, '0')}`;

/** A card deposit approved by its webhook and refunded, as B2's fixtures leave one, as `deposits` reads it. */
function depositRow(n: number): Parameters<typeof toDepositSnapshot>[0] {
  return {
    id: id('dep', n), clientId: id('cli', 1), merchantAccount: 'dg-bench', provider: 'deposit-gateway', rail: 'CARD', livemode: false,
    status: 'SUCCEEDED', providerStatus: 'approved', statusReason: null, amount: '25.00', currency: 'EUR', fee: '0.75', net: '24.25',
    refundedAmount: '7.50', refundStatus: 'APPROVED', disputed: false, redirectUrl: `http://127.0.0.1:4000/checkout/${n}`,
    merchantReference: null, declineReason: null, qrPayload: null, qrExpiresAt: null, crypto: null, metadata: null,
    approvedAt: time(n), creditClaimedAt: null, createdAt: time(n), updatedAt: time(n + 1),
  };
}

/** A row of only `properties` of `row`, as a read of those columns gives it. */
function readOf<T extends object>(row: T, properties: readonly string[]): Partial<T> {
  const read: Record<string, unknown> = {};
  for (const property of properties) read[property] = (row as Record<string, unknown>)[property];
  return read as Partial<T>;
}

function refundsOf(ids: readonly string[], perDeposit: (index: number) => number, properties: readonly string[] = REFUND_SNAPSHOT_PROPERTIES): Map<string, RefundFactsRead[]> {
  return new Map(ids.map((depositId, index) => [depositId, Array.from({ length: perDeposit(index) }, (_, k) => readOf<RefundFacts>({
    id: id('rfd', index * 3 + k), depositId, clientId: id('cli', 1), origin: 'GATEWAY', status: 'APPROVED', providerStatus: 'approved',
    amount: k === 0 ? '5.00' : '2.50', currency: 'EUR', reason: 'bench', createdAt: time(index + k), updatedAt: time(index + k),
  }, properties) as RefundFactsRead)]));
}

function eventsOf(ids: readonly string[], perDeposit: (index: number) => number): Map<string, SubjectEventRecord[]> {
  return new Map(ids.map((subjectId, index) => [subjectId, Array.from({ length: perDeposit(index) }, (_, k) => ({
    id: id('evt', index * 10 + k), type: k === 0 ? 'deposit.created' : 'deposit.status_changed', subjectType: 'deposit', subjectId,
    clientId: id('cli', 1), merchantAccount: 'dg-bench', adminOnly: false, fromStatus: k === 0 ? null : 'PENDING', toStatus: 'SUCCEEDED', createdAt: time(index + k),
  }))]));
}

interface PageShape {
  name: string;
  refunds: (index: number) => number;
  events: (index: number) => number;
}

/** B2's page: every deposit a refund and every other one a second (75), five or six events each (275). */
const SHAPES: PageShape[] = [
  { name: '50 deposits', refunds: () => 0, events: () => 0 },
  { name: '+ 75 refunds', refunds: (index) => (index % 2 === 0 ? 2 : 1), events: () => 0 },
  { name: '+ 275 events', refunds: (index) => (index % 2 === 0 ? 2 : 1), events: (index) => (index % 2 === 0 ? 6 : 5) },
];

const schema = await buildGatewaySchema();
const compiledOrErrors = compileQuery(schema, parse(DEPOSITS_PAGE), undefined, { disablingCapturingStackErrors: true });
if (!isCompiledQuery(compiledOrErrors)) throw new Error(`the page does not compile: ${JSON.stringify(compiledOrErrors.errors)}`);
const compiled = compiledOrErrors;
const rows = Array.from({ length: DEPOSITS + 1 }, (_, n) => depositRow(n));
const admin = { id: id('cli', 2), roles: ['ADMIN'], merchantAccounts: null };

/** The properties the page's query had its deposits and refunds read with (the gateway's choice, by the query). */
let pageProperties: readonly string[] = DEPOSIT_SNAPSHOT_PROPERTIES;
let refundProperties: readonly string[] = REFUND_SNAPSHOT_PROPERTIES;

/** A request's context with the three reads answered from memory (a new one per run, as per request). */
function contextFor(shape: PageShape): GatewayContext {
  const services = {
    deposits: {
      page: async (_em: unknown, _client: unknown, options: { limit: number; properties?: readonly string[] }) => {
        pageProperties = options.properties ?? DEPOSIT_SNAPSHOT_PROPERTIES;
        return rows.slice(0, options.limit).map((row) => readOf(row, pageProperties));
      },
    },
    refunds: {
      rowsForDeposits: async (_em: unknown, ids: readonly string[], properties: readonly string[]) => {
        refundProperties = properties;
        return refundsOf(ids, shape.refunds, properties);
      },
    },
    events: { forSubjects: async (_em: unknown, _type: unknown, ids: readonly string[]) => eventsOf(ids, shape.events) },
  };
  return { requestId: 'bench', viewer: admin, client: admin, services, authFailure: 'MISSING', introspectionAllowed: true } as unknown as GatewayContext;
}

/** The same reads without the page: what answering them from memory costs, taken off each run. */
function readsAlone(shape: PageShape): Promise<unknown> {
  const read = rows.slice(0, DEPOSITS + 1).map((row) => readOf(row, pageProperties));
  const ids = read.slice(0, DEPOSITS).map((deposit) => deposit.id!);
  return Promise.resolve([refundsOf(ids, shape.refunds, refundProperties), eventsOf(ids, shape.events)]);
}

async function run(shape: PageShape): Promise<string> {
  const result = await compiled.query(undefined, contextFor(shape), { first: DEPOSITS });
  if (result.errors) throw new Error(`the page answered errors: ${JSON.stringify(result.errors)}`);
  return JSON.stringify(result);
}

/** CPU µs per call of `fn`, after a warm-up. */
async function cpuPerCall(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(iterations, 300); i++) await fn();
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const costs = SHAPES.map(() => ({ page: [] as number[], reads: [] as number[], json: [] as number[] }));
for (let round = 0; round < 3; round++) {
  for (const [index, shape] of SHAPES.entries()) {
    const answer = await run(shape);
    const tree = JSON.parse(answer) as unknown;
    costs[index]!.page.push(await cpuPerCall(() => run(shape)));
    costs[index]!.reads.push(await cpuPerCall(() => readsAlone(shape)));
    costs[index]!.json.push(await cpuPerCall(async () => JSON.stringify(tree)));
  }
}
const net = costs.map((cost) => median(cost.page) - median(cost.reads));
console.log(`iterations ${iterations} per measurement, 3 rounds, medians; CPU µs of this process`);
for (const [index, shape] of SHAPES.entries()) {
  const cost = costs[index]!;
  console.log(`${shape.name.padEnd(14)} page ${net[index]!.toFixed(0).padStart(5)} µs (of which the answer's JSON.stringify ${median(cost.json).toFixed(0)} µs)`);
}
console.log(`per deposit ${(net[0]! / DEPOSITS).toFixed(2)} µs, per refund ${((net[1]! - net[0]!) / 75).toFixed(2)} µs, per event ${((net[2]! - net[1]!) / 275).toFixed(2)} µs`);
