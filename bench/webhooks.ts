// B3: signed provider webhooks per second, each approving a distinct deposit, beside pgbench
// running one INSERT + pg_notify per transaction against the same PostgreSQL: the floor of "record
// the event durably and tell the listeners" that a webhook's processing is built on. With
// --scale-out, also several gateway instances on the one database, and pgbench with as many clients.

import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { analyzeFixtures, type BenchEnvironment } from './environment.js';
import { createCardDeposit, postApproval, type ApprovedDeposit } from './fixtures.js';
import { databaseCpu, interleaved, throughput, type Side, type ThroughputSample } from './compare.js';
import type { BenchSettings } from './settings.js';
import { runAtConcurrency, waitFor } from './stats.js';
import { webhookUrl, type GatewayChild, type Topology } from './topology.js';
import { sampleWaits, type WaitSummary } from './waits.js';

const PGBENCH_TABLE = 'bench_webhook_baseline';
/** What the floor sends per webhook with its follow-up (bench/baseline-server.ts `webhookFloor`). */
const FLOOR_STATEMENTS_PER_WEBHOOK = 5;
/** About the size of a signed payment.approved envelope, so both sides write rows of one size. */
const PGBENCH_BODY = JSON.stringify({
  id: 'evt_0123456789abcdef0123',
  event: 'payment.approved',
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  data: { reference: 'svc_pay_0123456789abcdef', merchant_reference: 'dep_0123456789ABCDEFGHJKMNPQ', status: 'approved', amount: '25.00', currency: 'EUR' },
});

export interface WebhookRun {
  label: string;
  instances: number;
  inFlight: number;
  /** pgbench clients of the baseline; absent on PGlite. */
  pgbenchClients: number | undefined;
  rounds: Record<Side, ThroughputSample[]>;
  /**
   * The floor (bench/baseline-server.ts `webhookFloor`): the same webhooks' bare work from node:http
   * and pg, measured right after pgbench in each baseline turn. First run on PostgreSQL only.
   */
  floor?: ThroughputSample[];
  /**
   * What the database's sessions waited on during the gateway's rounds (--scale-out runs only: the
   * sampling connection costs the database a little, kept out of the main figure).
   */
  waits?: WaitSummary;
}

export interface WebhooksResult {
  runs: WebhookRun[];
  /** Why there is no baseline (PGlite). */
  baselineMissing?: string;
}

export async function benchWebhooks(env: BenchEnvironment, topology: Topology, settings: BenchSettings): Promise<WebhooksResult> {
  const postgres = topology.database.kind === 'postgresql';
  const pgbench = postgres ? await preparePgbench(env, topology, settings) : undefined;
  const warmup = Math.min(settings.webhooks, settings.warmup);
  const runs: WebhookRun[] = [];

  const measure = async (label: string, gateways: GatewayChild[], writersEach: number, { withFloor = false, waits = false } = {}): Promise<void> => {
    const inFlight = writersEach * gateways.length;
    const floorRounds = withFloor && pgbench ? settings.rounds : 0;
    const deposits = await approvedDeposits(topology, warmup + settings.rounds * settings.webhooks);
    const floorDeposits = floorRounds > 0 ? await approvedDeposits(topology, warmup + floorRounds * settings.webhooks) : [];
    await sendWebhooks(topology, gateways, deposits.splice(0, warmup), inFlight);
    await drain(gateways[0]!);
    if (floorRounds > 0) await measureFloor(topology, floorDeposits.splice(0, warmup), inFlight);
    const floor: ThroughputSample[] = [];
    const sampled: WaitSummary[] = [];
    const rounds = await interleaved(settings.rounds, async (side) => {
      if (side === 'baseline') {
        if (!pgbench) return { perSecond: Number.NaN, serverCpuMsPerOp: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN };
        const sample = await pgbench(inFlight, settings.webhooks);
        if (floorRounds > 0) floor.push(await measureFloor(topology, floorDeposits.splice(0, settings.webhooks), inFlight));
        return sample;
      }
      const sampler = waits && topology.database.url ? await sampleWaits(topology.database.url) : undefined;
      try {
        return await measureGateway(topology, gateways, deposits.splice(0, settings.webhooks), inFlight);
      } finally {
        if (sampler) sampled.push(await sampler.stop());
      }
    });
    runs.push({ label, instances: gateways.length, inFlight, pgbenchClients: pgbench ? inFlight : undefined, rounds, ...(floorRounds > 0 ? { floor } : {}), ...(sampled.length > 0 ? { waits: mergeWaits(sampled) } : {}) });
  };

  await measure('1 instance', [topology.gateways[0]!], settings.concurrency, { withFloor: true });
  if (settings.scaleOut) {
    if (!postgres) throw new Error('--scale-out needs PostgreSQL: PGlite is one process\'s embedded database');
    // One instance at the scale-out concurrency first, alone on the database, so the 4-instance
    // figure can be told apart from "more in flight".
    const total = settings.concurrency * settings.instances;
    await measure('1 instance', [topology.gateways[0]!], total, { waits: true });
    await topology.addGateways(settings.instances - 1);
    try {
      await measure(`${settings.instances} instances`, topology.gateways.slice(), settings.concurrency, { waits: true });
    } finally {
      await topology.removeExtraGateways();
    }
  }
  return postgres ? { runs } : { runs, baselineMissing: 'n/a (PostgreSQL only)' };
}

/** The rounds' wait samples as one. */
function mergeWaits(summaries: readonly WaitSummary[]): WaitSummary {
  const waits = new Map<string, number>();
  for (const summary of summaries) for (const wait of summary.waits) waits.set(wait.on, (waits.get(wait.on) ?? 0) + wait.count);
  return {
    samples: summaries.reduce((sum, summary) => sum + summary.samples, 0),
    busy: summaries.reduce((sum, summary) => sum + summary.busy, 0),
    waits: [...waits].map(([on, count]) => ({ on, count })).sort((a, b) => b.count - a.count),
    serializing: summaries.reduce((sum, summary) => sum + summary.serializing, 0),
  };
}

/** `deposits.length` webhooks, `inFlight` at once, spread evenly over the instances. */
async function sendWebhooks(topology: Topology, gateways: GatewayChild[], deposits: ApprovedDeposit[], inFlight: number): Promise<void> {
  const urls = gateways.map((gateway) => webhookUrl(gateway, topology.account));
  await runAtConcurrency(deposits.length, inFlight, (index) => postApproval(urls[index % urls.length]!, deposits[index]!, topology.account.webhookSecrets));
}

async function measureGateway(topology: Topology, gateways: GatewayChild[], deposits: ApprovedDeposit[], inFlight: number): Promise<ThroughputSample> {
  await Promise.all(gateways.map((gateway) => gateway.call('countStart')));
  const cpuBefore = await Promise.all(gateways.map((gateway) => gateway.call<number>('cpuMs')));
  const database = databaseCpu(topology.database.url);
  // The clock stops at the last answer; the fee/net follow-up jobs the webhooks enqueued run
  // meanwhile as they would in production, and the next round starts once they are all done.
  const sample = await throughput(gateways[0]!, deposits.length, inFlight, async (index) => {
    const gateway = gateways[index % gateways.length]!;
    await postApproval(webhookUrl(gateway, topology.account), deposits[index]!, topology.account.webhookSecrets);
  });
  await drain(gateways[0]!);
  const cpuAfter = await Promise.all(gateways.map((gateway) => gateway.call<number>('cpuMs')));
  const statements = (await Promise.all(gateways.map((gateway) => gateway.call<number>('countStop')))).reduce((sum, count) => sum + count, 0);
  const cpu = cpuAfter.reduce((sum, value, i) => sum + value - cpuBefore[i]!, 0);
  // Statements and CPU include the follow-up jobs: what one webhook costs the gateway in all.
  return { ...sample, serverCpuMsPerOp: cpu / deposits.length, statementsPerOp: statements / deposits.length, ...database.perOp(deposits.length) };
}

/**
 * The floor's webhooks, `inFlight` at once, timed to the last answer as the gateway's are; its
 * follow-ups (run in the baseline process after each answer) finish before the next round.
 */
async function measureFloor(topology: Topology, deposits: ApprovedDeposit[], inFlight: number): Promise<ThroughputSample> {
  const url = `${topology.baseline.info.url}/webhook-floor`;
  const before = await topology.baseline.call<{ open: number; failed: number }>('followUps');
  const cpuBefore = await topology.baseline.call<number>('cpuMs');
  const database = databaseCpu(topology.database.url);
  const sample = await throughput(topology.baseline, deposits.length, inFlight, (index) => postApproval(url, deposits[index]!, topology.account.webhookSecrets));
  await waitFor(async () => (await topology.baseline.call<{ open: number }>('followUps')).open === 0, 'the floor\'s fee/net follow-ups', 120_000);
  const after = await topology.baseline.call<{ open: number; failed: number }>('followUps');
  if (after.failed > before.failed) throw new Error(`${after.failed - before.failed} of the floor's fee/net follow-ups failed`);
  const cpuAfter = await topology.baseline.call<number>('cpuMs');
  // Follow-ups included, as the gateway's CPU includes its jobs. Statements counted as the gateway's
  // are: BEGIN, two statements and COMMIT per webhook, one per follow-up.
  return { ...sample, serverCpuMsPerOp: (cpuAfter - cpuBefore) / deposits.length, statementsPerOp: FLOOR_STATEMENTS_PER_WEBHOOK, ...database.perOp(deposits.length) };
}

async function drain(gateway: GatewayChild): Promise<void> {
  const open = await gateway.call<number>('drain', { timeoutMs: 120_000 });
  if (open > 0) throw new Error(`${open} follow-up jobs still open two minutes after a B3 round`);
}

/** `count` deposits created through the gateway and approved on the provider's side, their webhooks still to come. */
export async function approvedDeposits(topology: Topology, count: number): Promise<ApprovedDeposit[]> {
  const gateway = topology.gateways[0]!;
  await topology.sandbox.call('setAutoComplete', { on: false });
  const ids: string[] = [];
  await runAtConcurrency(count, 8, async () => {
    ids.push(await createCardDeposit(gateway.info.graphqlUrl, gateway.info.keys.webCashier));
  });
  const approved = await topology.sandbox.call<ApprovedDeposit[]>('approveSilently', { depositIds: ids });
  await analyzeFixtures(topology.database);
  return approved;
}

/**
 * pgbench with a custom script against the bench database; returns a runner taking the client
 * count and the number of transactions in all.
 */
async function preparePgbench(env: BenchEnvironment, topology: Topology, settings: BenchSettings): Promise<(clients: number, transactions: number) => Promise<ThroughputSample>> {
  const url = new URL(topology.database.url!);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`create table if not exists ${PGBENCH_TABLE} (id bigint generated always as identity primary key, deposit_id varchar(30) not null, body text not null, received_at timestamptz not null default now())`);
  } finally {
    await client.end();
  }
  const dir = await env.tempDir('gateway-bench-pgbench-');
  const script = path.join(dir, 'webhook.sql');
  await writeFile(
    script,
    [
      '\\set n random(1, 2000000000)',
      'BEGIN;',
      `INSERT INTO ${PGBENCH_TABLE} (deposit_id, body) VALUES ('dep_' || :n, '${PGBENCH_BODY.replace(/'/g, "''")}');`,
      `SELECT pg_notify('${PGBENCH_TABLE}', 'dep_' || :n);`,
      'COMMIT;',
      '',
    ].join('\n'),
  );
  const connection = [
    '-h', url.hostname,
    '-p', url.port || '5432',
    ...(url.username ? ['-U', decodeURIComponent(url.username)] : []),
    decodeURIComponent(url.pathname.slice(1)),
  ];
  const pgEnv = { ...process.env, ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}) };
  const run = async (clients: number, transactions: number): Promise<ThroughputSample> => {
    const perClient = Math.max(1, Math.ceil(transactions / clients));
    const args = ['-n', '-f', script, '-c', String(clients), '-j', String(Math.min(clients, 2)), '-t', String(perClient), ...connection];
    const output = await runProcess(env, settings.pgbench, args, pgEnv);
    const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(output)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
    // pgbench prints a mean latency, not percentiles; PostgreSQL's CPU is not one process's to read.
    return { perSecond: Number(tps), serverCpuMsPerOp: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN };
  };
  await run(settings.concurrency, Math.min(settings.webhooks, 100));
  return run;
}

function runProcess(env: BenchEnvironment, command: string, args: string[], processEnv: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: processEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    env.others.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => {
      env.others.delete(child);
      reject(new Error(`could not run ${command}: ${error.message} (set BENCH_PGBENCH to its path)`));
    });
    child.once('exit', (code) => {
      env.others.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} exited with ${code}:\n${output}`));
    });
  });
}
