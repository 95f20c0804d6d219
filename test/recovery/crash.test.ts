// Crash recovery end to end (PostgreSQL only): the gateway is killed with SIGKILL in the middle of a
// burst of deposits, refunds and payouts while the provider sandbox, a process of its own, keeps
// retrying its webhooks; restarted on the same port and database, with most lost requests re-sent
// under their idempotency key (some clients never come back), it must bring every operation to the
// provider's final state, none applied twice. Gateway and sandbox run compiled, from the project's
// dist/ (built first if a source changed, as `npm start` does). Each phase waits for progress (a
// status, an answer, a count at the provider) and has a generous bound of its own, so a busy machine
// makes the scenario slower, never red; a bound that runs out says what was still missing.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run test/recovery/crash.test.ts

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateDepositInput, CreatePayoutInput } from '../__generated__/graphql.js';
import { CreateDepositMutation, DepositsQuery } from '../deposits/operations.js';
import { eventsAfter } from '../deposits/support.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreatePayoutMutation, PayoutsQuery } from '../payouts/operations.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { DepositRefundsQuery, RequestRefundMutation } from '../refunds/operations.js';
import { compiledDist } from '../support/compiled.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, type GraphQLResponse } from '../support/gateway.js';

const root = path.resolve(import.meta.dirname, '../..');
/** Compiled here by beforeAll; under dist/ so Node resolves node_modules and the package type from the repository. */
/** The compiled project (dist/), set once built. */
let build: string;
const ACCOUNT = {
  code: 'dg-crash',
  provider: 'deposit-gateway',
  livemode: false,
  apiKey: 'svc_test_crash_deposit_gateway',
  webhookSecrets: ['whsec_crash_deposit_gateway'],
} as const;
/**
 * Bounds of the phases, each far above what it takes on a busy machine (the whole scenario takes
 * about 30 s on a quiet one): they only decide when to give up and say what is missing.
 */
const BOUND_MS = { settled: 60_000, inFlight: 30_000, resent: 60_000, convergence: 90_000, chains: 30_000 } as const;
/**
 * The provider call's time-out. An idempotency key the killed gateway held stays leased for the
 * slowest answer, retries included (3 × 5 s + 5 s); a re-sent request does not wait that out, since
 * the restarted gateway sees the key's holder is gone (test/idempotency/dead-holder.test.ts).
 */
const PROVIDER_TIMEOUT_MS = 5_000;
/** Provider calls of each kind in the burst that the provider still processes after holding them; later ones it never receives. */
const PROCESSED_IN_FLIGHT = { payments: 2, refunds: 1, payouts: 1 } as const;

/** A two-decimal amount ("25.00") in minor units, exactly. */
function minorUnits(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** A child process and everything it printed, for the failure message. */
interface Child {
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function watch(child: ChildProcess): Child {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, output, exited };
}

/** Resolves with the first output line `match` accepts; rejects if the process exits or time runs out. */
function waitForLine(child: Child, match: (text: string) => RegExpExecArray | null, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = match(child.output.join(''));
      if (found) {
        cleanup();
        resolve(found);
      }
    };
    const timer = setTimeout(() => (cleanup(), reject(new Error(`no ready line in ${timeoutMs} ms:\n${child.output.join('')}`))), timeoutMs);
    const onExit = (code: number | null) => (cleanup(), reject(new Error(`exited with ${code} before ready:\n${child.output.join('')}`)));
    const cleanup = () => {
      clearTimeout(timer);
      child.process.stdout?.off('data', check);
      child.process.stderr?.off('data', check);
      child.process.off('exit', onExit);
    };
    // The start banner goes to stderr when stdout is not a terminal; log lines to stdout.
    child.process.stdout?.on('data', check);
    child.process.stderr?.on('data', check);
    child.process.once('exit', onExit);
    check();
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The sandbox process: its provider address, and its controls over IPC. */
interface SandboxProcess extends Child {
  baseUrl: string;
  call<T>(command: string, ...args: unknown[]): Promise<T>;
}

interface SandboxRecords {
  payments: Array<{ reference: string; merchant_reference: string | null; status: string; amount: string }>;
  refunds: Array<{ id: string; reference: string; amount: string; status: string }>;
  payouts: Array<{ reference: string; merchant_reference: string | null; status: string; amount: string }>;
}

const children: Child[] = [];
let database: TestDatabase | undefined;
let dataDir: string | undefined;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  // The project's own build, made once per run at most (and by CI before the tests).
  build = await compiledDist();
}, 240_000);

afterAll(async () => {
  // Whatever happened above: no process outlives the test.
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TZ', 'LANG']) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return env;
}

async function startSandbox(gatewayUrl: string): Promise<SandboxProcess> {
  const child = watch(
    fork(path.join(build, 'src/scripts/sandboxes.js'), [], {
      cwd: root,
      env: {
        ...baseEnv(),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: gatewayUrl,
        SANDBOX_TIME_SCALE: '0.01',
        MERCHANT_ACCOUNTS: JSON.stringify([{ ...ACCOUNT, sandbox: true }]),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    }),
  );
  children.push(child);
  const [, line] = await waitForLine(child, (text) => /^(\{"accounts".*)$/m.exec(text), 60_000);
  const ready = JSON.parse(line!) as { accounts: Array<{ code: string; baseUrl: string }> };
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  child.process.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.result);
  });
  return {
    ...child,
    baseUrl: ready.accounts[0]!.baseUrl,
    call<T>(command: string, ...args: unknown[]) {
      const id = (next += 1);
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.process.send({ id, command, args });
      });
    },
  };
}

/** Starts the compiled gateway; resolves with the demo admin's key once it serves. */
async function startGateway(env: Record<string, string>): Promise<{ child: Child; adminKey: string }> {
  const child = watch(spawn(process.execPath, [path.join(build, 'src/main.js')], { cwd: root, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  children.push(child);
  const [, adminKey] = await waitForLine(child, (text) => /^\s*admin\S*.*ADMIN.*Bearer (gw_\S+)/m.exec(text), 60_000);
  return { child, adminKey: adminKey! };
}

/** One client request of the burst, re-sent under its idempotency key until it has an answer. */
interface Request {
  kind: 'deposit' | 'refund' | 'payout';
  key: string;
  send(): Promise<GraphQLResponse<unknown>>;
  /** The answer's object id, once a response carried one. */
  id?: string;
  userErrors?: Array<{ code: string }>;
  /** How the first attempt ended when its answer was lost (the gateway died under it). */
  lost?: string;
  /** How the latest attempt ended, and how long it took: for a failure message. */
  last?: string;
  attempts: number;
}

/** Sends once; records the object or user errors, or that the answer was lost (network error, 5xx, or a top-level error). */
async function attempt(request: Request): Promise<void> {
  request.attempts += 1;
  const started = Date.now();
  const ended = (outcome: string) => {
    request.last = `attempt ${request.attempts}: ${outcome} after ${Date.now() - started} ms`;
  };
  try {
    const response = await request.send();
    const payload = response.data ? (Object.values(response.data as Record<string, unknown>)[0] as Record<string, unknown> | null) : null;
    const object = payload ? (Object.entries(payload).find(([name]) => name !== 'userErrors')?.[1] as { id?: string } | null | undefined) : undefined;
    if (response.status >= 500 || response.errors?.length || !payload) {
      request.lost ??= `HTTP ${response.status} ${JSON.stringify(response.errors ?? null)}`;
      ended(`HTTP ${response.status} ${JSON.stringify(response.errors ?? null)}`);
      return;
    }
    if (object?.id) request.id = object.id;
    request.userErrors = (payload.userErrors as Array<{ code: string }> | undefined) ?? [];
    ended(object?.id ? `answered ${object.id}` : `user errors ${JSON.stringify(request.userErrors)}`);
  } catch (error) {
    request.lost ??= (error as Error).message;
    ended((error as Error).message);
  }
}

/** The data of a read that must succeed: a failed read is a broken harness or gateway, not a finding. */
function ok<T>(response: GraphQLResponse<T>): T {
  if (response.errors?.length || !response.data) throw new Error(`read failed: HTTP ${response.status} ${JSON.stringify(response.errors)}`);
  return response.data;
}

const answered = (request: Request) => request.id !== undefined || (request.userErrors?.length ?? 0) > 0;

describe.skipIf(!process.env.DATABASE_URL)('kill -9 of the gateway mid-burst', () => {
  it('every deposit, refund and payout reaches the provider\'s final state in the gateway, none applied twice', async () => {
    // given: a fresh database, the sandbox in its own process, and the compiled gateway on a fixed port
    database = await createTestDatabase('postgresql');
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-crash-'));
    const port = await freePort();
    const gatewayUrl = `http://127.0.0.1:${port}`;
    const graphqlUrl = `${gatewayUrl}/graphql`;
    const sandbox = await startSandbox(gatewayUrl);
    const gatewayEnv = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: gatewayUrl,
      DATABASE_URL: database.env.DATABASE_URL!,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_CLIENTS: 'true',
      MERCHANT_ACCOUNTS: JSON.stringify([{ ...ACCOUNT, baseUrl: sandbox.baseUrl }]),
      RECONCILE_INTERVAL_MS: '500',
      RECONCILE_AFTER_MS: '1000',
      PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
      SANDBOX_TIME_SCALE: '0.01',
    };
    let gateway = await startGateway(gatewayEnv);
    const key = () => gateway.adminKey;

    const deposit = (i: number, amount: string): Request => ({
      kind: 'deposit',
      key: `crash-deposit-${i}`,
      attempts: 0,
      send: () => {
        const input: CreateDepositInput = { ...CARD_INPUT, amount, merchantAccount: ACCOUNT.code, idempotencyKey: `crash-deposit-${i}`, merchantReference: `crash-deposit-${i}` };
        return execute(graphqlUrl, CreateDepositMutation, { input }, { key: key() });
      },
    });

    // ... ten deposits settled before the burst, to be refunded in it (the .13 one is declined)
    const settled = Array.from({ length: 10 }, (_, i) => deposit(i, i === 9 ? '20.13' : `${20 + i}.00`));
    await Promise.all(settled.map(attempt));
    expect(settled.filter((request) => !request.id), 'deposits created before the burst').toEqual([]);
    /** Every deposit's status, and the deposit ids of each client reference. */
    const depositReferences = new Map<string, Set<string>>();
    /** The client request (its idempotency key) behind each gateway object: merchant reference, or a refund's reason. */
    const requestOf = new Map<string, string>();
    const finalDeposits = async () => {
      const statuses = new Map<string, string>();
      for (let after: string | null | undefined; ; ) {
        const page = ok(await execute(graphqlUrl, DepositsQuery, { first: 50, ...(after ? { after } : {}) }, { key: key() }));
        for (const { node } of page.deposits.edges) {
          statuses.set(node.id, node.status);
          if (node.merchantReference) requestOf.set(node.id, node.merchantReference);
          const ids = depositReferences.get(node.merchantReference ?? '') ?? new Set<string>();
          depositReferences.set(node.merchantReference ?? '', ids.add(node.id));
        }
        if (!page.deposits.pageInfo.hasNextPage) return statuses;
        after = page.deposits.pageInfo.endCursor;
      }
    };
    await expect
      .poll(async () => {
        const statuses = await finalDeposits();
        return settled.filter((request) => !['SUCCEEDED', 'DECLINED'].includes(statuses.get(request.id!) ?? '')).map((request) => `${request.id} ${statuses.get(request.id!) ?? 'MISSING'}`);
      }, { timeout: BOUND_MS.settled, interval: 200, message: 'deposits of before the burst not settled' })
      .toEqual([]);

    // when: a burst of 20 deposits, a refund of each settled deposit, and 10 payouts, all at once;
    // the provider holds every call of the burst for 3 s (a slow provider), and the gateway is
    // killed as soon as calls of every kind are in flight
    const refund = (i: number, depositId: string, amount: string): Request => ({
      kind: 'refund',
      key: `crash-refund-${i}`,
      attempts: 0,
      send: () => execute(graphqlUrl, RequestRefundMutation, { input: { depositId, amount, reason: `crash-refund-${i}`, idempotencyKey: `crash-refund-${i}` } }, { key: key() }),
    });
    const payout = (i: number): Request => {
      // Account numbers ending 13 bounce and 31 are paid then reverted (assumption A11).
      const accountNumber = i === 3 ? '0012345613' : i === 6 ? '0012345631' : `001234${String(i).padStart(2, '0')}22`;
      const input: CreatePayoutInput = { ...CHILE_INPUT, amount: `${150_000 + i}`, merchantAccount: ACCOUNT.code, beneficiary: { ...CHILE_INPUT.beneficiary, accountNumber }, idempotencyKey: `crash-payout-${i}`, merchantReference: `crash-payout-${i}` };
      return { kind: 'payout', key: `crash-payout-${i}`, attempts: 0, send: () => execute(graphqlUrl, CreatePayoutMutation, { input }, { key: key() }) };
    };
    // Interleaved, so that calls of every kind are in flight at once.
    const deposits20 = Array.from({ length: 20 }, (_, i) => deposit(10 + i, i % 7 === 3 ? `${30 + i}.13` : `${30 + i}.00`));
    // Full refunds, one partial, and one the provider rejects (an amount ending in 13 minor units).
    const refunds9 = settled.slice(0, 9).map((request, i) => refund(i, request.id!, i === 0 ? '5.00' : i === 1 ? '1.13' : `${20 + i}.00`));
    const payouts10 = Array.from({ length: 10 }, (_, i) => payout(i));
    const burst: Request[] = deposits20.flatMap((request, i) => [request, refunds9[i], payouts10[i]].filter((item): item is Request => item !== undefined));
    const posted = async () => ({
      payments: await sandbox.call<number>('requestCount', '/payments', 'POST'),
      refunds: await sandbox.call<number>('requestCount', '/refunds', 'POST'),
      payouts: await sandbox.call<number>('requestCount', '/payouts', 'POST'),
    });
    const before = await posted();
    // Of each kind, the first calls are processed once held (the answer dies with the gateway), the
    // later ones never (the connection is cut: the provider has nothing, the gateway a row of
    // unknown outcome). The gateway is killed once each kind has calls of both sorts in flight.
    for (const [kind, processed] of Object.entries(PROCESSED_IN_FLIGHT)) {
      await sandbox.call('failNext', { method: 'POST', path: `/${kind}`, hangMs: 3_000, thenProcess: true, evenIfCallerGone: true, count: processed });
      await sandbox.call('failNext', { method: 'POST', path: `/${kind}`, hangMs: 3_000, count: burst.length });
    }
    const firstAttempts = Promise.all(burst.map(attempt));
    await expect
      .poll(async () => {
        const now = await posted();
        return (Object.keys(PROCESSED_IN_FLIGHT) as Array<keyof typeof PROCESSED_IN_FLIGHT>).filter((kind) => now[kind] - before[kind] <= PROCESSED_IN_FLIGHT[kind]).map((kind) => `${kind}: ${now[kind] - before[kind]} in flight`);
      }, { timeout: BOUND_MS.inFlight, interval: 10, message: 'provider calls of a kind not yet in flight' })
      .toEqual([]);
    gateway.child.process.kill('SIGKILL');
    await gateway.child.exited;
    const inFlight = await posted();
    // The provider is healthy again for the restarted gateway.
    await sandbox.call('clearFailures');
    await firstAttempts;
    const lost = burst.filter((request) => !answered(request));
    // A client that lost its answer may never come back (the player closed the app): of each kind,
    // every third is not re-sent, so only the gateway itself can finish what it started for them.
    const abandoned = new Set((['deposit', 'refund', 'payout'] as const).flatMap((kind) => lost.filter((request) => request.kind === kind).filter((_, i) => i % 3 === 2)));
    const resent = lost.filter((request) => !abandoned.has(request));

    // ... it comes back on the same port and database; the sandbox keeps retrying its webhooks, and
    // the requests whose answer was lost are sent again with their idempotency key, as clients would
    gateway = await startGateway(gatewayEnv);
    await expect
      .poll(
        async () => {
          await Promise.all(resent.filter((request) => !answered(request)).map(attempt));
          return resent.filter((request) => !answered(request)).map((request) => `${request.key}: first lost to ${request.lost}; ${request.last}`);
        },
        { timeout: BOUND_MS.resent, interval: 500, message: 'requests re-sent and never answered' },
      )
      .toEqual([]);

    // ... and the webhooks and the reconciler run until the provider and the gateway agree, or time is up
    const read = async () => {
      const records = await sandbox.call<SandboxRecords>('records');
      const deposits = await finalDeposits();
      const refunds = new Map<string, Array<{ id: string; status: string; amount: string }>>();
      for (const [id] of deposits) {
        const result = ok(await execute(graphqlUrl, DepositRefundsQuery, { id }, { key: key() }));
        refunds.set(id, (result.deposit?.refunds ?? []).map((r) => ({ id: r.id, status: r.status, amount: r.amount.amount })));
        for (const r of result.deposit?.refunds ?? []) if (r.reason) requestOf.set(r.id, r.reason);
      }
      const payouts = new Map<string, { status: string; merchantReference: string | null | undefined }>();
      for (let after: string | null | undefined; ; ) {
        const page = ok(await execute(graphqlUrl, PayoutsQuery, { first: 50, filter: { livemode: false }, ...(after ? { after } : {}) }, { key: key() }));
        for (const edge of page.payouts.edges) {
          payouts.set(edge.node.id, { status: edge.node.status, merchantReference: edge.node.merchantReference });
          if (edge.node.merchantReference) requestOf.set(edge.node.id, edge.node.merchantReference);
        }
        if (!page.payouts.pageInfo.hasNextPage) break;
        after = page.payouts.pageInfo.endCursor;
      }
      return { records, deposits, refunds, payouts };
    };
    const FINAL_PAYMENT = new Set(['approved', 'declined', 'expired', 'cancelled', 'error', 'refunded']);
    const OPEN = new Set(['PENDING', 'AUTHORIZED', 'REQUESTED']);
    const paymentStatus: Record<string, string[]> = { approved: ['SUCCEEDED', 'REFUNDED'], declined: ['DECLINED'] };
    // The spec's `refunded` means returned in full or in part: the deposit is REFUNDED once the
    // provider's approved refunds cover its amount, and stays SUCCEEDED while they do not.
    const expectedStatuses = (records: SandboxRecords, payment: SandboxRecords['payments'][number]): string[] => {
      if (payment.status !== 'refunded') return paymentStatus[payment.status] ?? [];
      const returned = records.refunds.filter((r) => r.reference === payment.reference && r.status === 'approved').reduce((sum, r) => sum + minorUnits(r.amount), 0n);
      return returned >= minorUnits(payment.amount) ? ['REFUNDED'] : ['SUCCEEDED'];
    };
    const refundStatus: Record<string, string> = { approved: 'APPROVED', rejected: 'REJECTED', pending: 'REQUESTED' };
    const payoutStatus: Record<string, string> = { paid: 'PAID', bounced: 'BOUNCED', reverted: 'REVERTED', failed: 'FAILED', pending: 'PENDING' };
    const duplicated = (values: Array<string | null>) => values.filter((value, index) => value !== null && values.indexOf(value) !== index);

    /** A gateway object as a failure line: id, status, and what its client did after losing the answer. */
    const line = (id: string, status: string) => {
      const request = [...settled, ...burst].find((candidate) => candidate.key === requestOf.get(id));
      const story = !request ? 'no request of ours' : !burst.includes(request) ? 'settled before the burst' : !lost.includes(request) ? 'answered before the kill' : abandoned.has(request) ? 'answer lost, never re-sent' : 'answer lost, re-sent';
      return `${id} ${status} (${request?.key ?? '?'}: ${story})`;
    };

    /** What a reconciling merchant would find wrong, by kind; all empty once the two sides agree. */
    const problems = ({ records, deposits, refunds, payouts }: Awaited<ReturnType<typeof read>>) => {
      const paymentByReference = new Map(records.payments.map((payment) => [payment.reference, payment]));
      const depositOf = (paymentReference: string) => paymentByReference.get(paymentReference)?.merchant_reference ?? '';
      const refundsAtProvider = new Map<string, number>();
      for (const r of records.refunds) refundsAtProvider.set(r.reference, (refundsAtProvider.get(r.reference) ?? 0) + 1);
      const knownDeposits = new Set(records.payments.map((payment) => payment.merchant_reference));
      const knownPayouts = new Set(records.payouts.map((p) => p.merchant_reference));
      return {
        'requests re-sent and never answered': resent.filter((request) => !answered(request)).map((request) => `${request.key}: first lost to ${request.lost}; ${request.last}`),
        // No provider object exists twice for one of our ids, nor for one client request.
        'sandbox payments sharing one deposit id': duplicated(records.payments.map((payment) => payment.merchant_reference)),
        'sandbox payouts sharing one payout id': duplicated(records.payouts.map((p) => p.merchant_reference)),
        'one client request, several gateway deposits': [...depositReferences].filter(([, ids]) => ids.size > 1).map(([reference, ids]) => `${reference}: ${[...ids].join(', ')}`),
        'one client request, several gateway payouts': duplicated([...payouts.values()].map((p) => p.merchantReference ?? null)),
        'deposits with more than one gateway refund (one was asked per deposit)': [...refunds].filter(([, list]) => list.length > 1).map(([id, list]) => `${id}: ${list.map((r) => r.id).join(', ')}`),
        'payments refunded more than once at the provider (one refund was asked per deposit)': [...refundsAtProvider].filter(([, count]) => count > 1).map(([reference, count]) => `${depositOf(reference)}: ${count}`),
        // Every provider object is in the gateway with the provider's final status.
        'deposits not at the provider\'s final status': records.payments
          .filter((payment) => !FINAL_PAYMENT.has(payment.status) || !expectedStatuses(records, payment).includes(deposits.get(payment.merchant_reference ?? '') ?? 'MISSING'))
          .map((payment) => `${payment.merchant_reference}: provider ${payment.status}, gateway ${deposits.get(payment.merchant_reference ?? '') ?? 'MISSING'}`),
        'refunds not at the provider\'s final status': records.refunds
          .filter((r) => r.status === 'pending' || !(refunds.get(depositOf(r.reference)) ?? []).some((ours) => ours.amount === r.amount && ours.status === refundStatus[r.status]))
          .map((r) => `${r.id} of ${depositOf(r.reference)}: provider ${r.status} ${r.amount}, gateway ${JSON.stringify(refunds.get(depositOf(r.reference)) ?? [])}`),
        'payouts not at the provider\'s final status': records.payouts
          .filter((p) => p.status === 'pending' || payouts.get(p.merchant_reference ?? '')?.status !== payoutStatus[p.status])
          .map((p) => `${p.merchant_reference}: provider ${p.status}, gateway ${payouts.get(p.merchant_reference ?? '')?.status ?? 'MISSING'}`),
        // Nothing stuck open in the gateway, and nothing there the provider never heard of but FAILED.
        'operations left open in the gateway': [
          ...[...deposits].filter(([, status]) => OPEN.has(status)).map(([id, status]) => line(id, status)),
          ...[...refunds.values()].flat().filter((r) => OPEN.has(r.status)).map((r) => line(r.id, r.status)),
          ...[...payouts].filter(([, p]) => OPEN.has(p.status)).map(([id, p]) => line(id, p.status)),
        ],
        'gateway deposits the provider never received': [...deposits].filter(([id, status]) => !knownDeposits.has(id) && status !== 'FAILED').map(([id, status]) => line(id, status)),
        'gateway refunds the provider never received': [...refunds].flatMap(([depositId, list]) => {
          const atProvider = records.refunds.filter((r) => depositOf(r.reference) === depositId);
          return list.filter((ours) => ours.status !== 'REJECTED' && !atProvider.some((r) => r.amount === ours.amount)).map((ours) => line(ours.id, ours.status));
        }),
        'gateway payouts the provider never received': [...payouts].filter(([id, p]) => !knownPayouts.has(id) && p.status !== 'FAILED').map(([id, p]) => line(id, p.status)),
      };
    };
    // (a poll that times out lists the kinds of problem still found, each with its cases)
    let state!: Awaited<ReturnType<typeof read>>;
    await expect
      .poll(async () => Object.entries(problems((state = await read()))).filter(([, list]) => list.length > 0), {
        timeout: BOUND_MS.convergence,
        interval: 500,
        message: `the provider and the gateway still disagree (answers lost: ${lost.length}, ${abandoned.size} never re-sent)`,
      })
      .toEqual([]);

    // then: each kind of problem reported on its own
    const { records, deposits, refunds, payouts } = state;
    const summary = `in flight at the kill: ${inFlight.payments - before.payments} payments, ${inFlight.refunds - before.refunds} refunds, ${inFlight.payouts - before.payouts} payouts; answers lost: ${lost.length} (${abandoned.size} never re-sent); sandbox: ${records.payments.length} payments, ${records.refunds.length} refunds, ${records.payouts.length} payouts`;
    for (const [kind, list] of Object.entries(problems(state))) expect.soft(list, `${kind} (${summary})`).toEqual([]);

    // The event log has one status change per real transition: a chain from the creation event to
    // the current status, no transition twice. Pages hold committed events once they are final, and
    // a write transaction elsewhere on the PostgreSQL server can hold the last ones back a while, so
    // a chain that ends short is read again (as a client paging from its cursor would).
    const current = new Map<string, string>([...deposits, ...[...refunds.values()].flat().map((r) => [r.id, r.status] as const), ...[...payouts].map(([id, p]) => [id, p.status] as const)]);
    const brokenChains = async (): Promise<string[]> => {
      const chains = new Map<string, Array<{ type: string; from: string | null | undefined; to: string | null | undefined }>>();
      for (const node of (await eventsAfter(graphqlUrl, key())).nodes) {
        chains.set(node.subjectId, [...(chains.get(node.subjectId) ?? []), { type: node.type, from: node.fromStatus, to: node.toStatus }]);
      }
      const broken: string[] = [];
      for (const [subjectId, events] of chains) {
        const changes = events.filter((event) => event.type.endsWith('.created') || event.type.endsWith('.status_changed'));
        const created = changes.filter((event) => event.type.endsWith('.created'));
        if (created.length !== 1) broken.push(`${subjectId}: ${created.length} creation events`);
        let status = created[0]?.to;
        const seen = new Set<string>();
        for (const change of changes.filter((event) => event.type.endsWith('.status_changed'))) {
          const transition = `${change.from}->${change.to}`;
          if (seen.has(transition) || change.from !== status) broken.push(`${subjectId}: ${transition} after ${status}`);
          seen.add(transition);
          status = change.to;
        }
        if (current.has(subjectId) && status !== current.get(subjectId)) broken.push(`${subjectId}: log ends at ${status}, record is ${current.get(subjectId)}`);
      }
      return broken;
    };
    await expect.poll(brokenChains, { timeout: BOUND_MS.chains, interval: 500, message: 'event chains with a missing or repeated transition' }).toEqual([]);
  }, 400_000);
});
