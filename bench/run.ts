// `npm run bench`: starts one gateway, runs the createDeposit and live-update benchmarks with their baselines, prints one table.
import 'reflect-metadata';

import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchCreateDeposit } from './create-deposit.js';
import { startBenchGateway } from './environment.js';
import { benchLiveUpdates } from './live-updates.js';
import { fixed, ratio, type LatencySummary } from './stats.js';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number; got ${raw}`);
  return value;
}

const settings = {
  operations: intFromEnv('BENCH_N', 300),
  warmup: intFromEnv('BENCH_WARMUP', 30),
  concurrency: intFromEnv('BENCH_CONCURRENCY', 8),
  deposits: intFromEnv('BENCH_K', 20),
  subscribers: intFromEnv('BENCH_SUBSCRIBERS', 1000),
};

/** Soft limit on open files (Linux /proc), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  } catch {
    return undefined;
  }
}

function openFileCount(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  // Both ends of every subscriber socket live in this process, plus the database, sandbox and HTTP pools.
  const neededFiles = settings.subscribers * 2 + 300;
  const fileLimit = openFileLimit();
  if (fileLimit !== undefined && fileLimit < neededFiles) {
    throw new Error(`open-file limit is ${fileLimit}, the bench needs about ${neededFiles}: raise it first (e.g. \`ulimit -n 4096\`) or lower BENCH_SUBSCRIBERS`);
  }
  let peakFiles = openFileCount() ?? 0;
  const sampler = setInterval(() => {
    peakFiles = Math.max(peakFiles, openFileCount() ?? 0);
  }, 100);
  sampler.unref();

  const bench = await startBenchGateway(process.env.DATABASE_URL);
  try {
    process.stderr.write(`bench: gateway on ${bench.databaseKind}; createDeposit x${settings.operations}…\n`);
    const create = await benchCreateDeposit(bench.gateway, bench.keys.webCashier, settings);
    if (create.sandboxPaymentsPerRun !== settings.operations) {
      throw new Error(`expected ${settings.operations} provider calls during the gateway run, saw ${create.sandboxPaymentsPerRun}`);
    }
    process.stderr.write(`bench: ${settings.subscribers} subscribers x ${settings.deposits} webhooks…\n`);
    const live = await benchLiveUpdates(bench.gateway, bench.keys, settings);
    clearInterval(sampler);

    const cpus = os.cpus();
    const ms = (summary: LatencySummary) => `p50 ${fixed(summary.p50, 2)} ms  p99 ${fixed(summary.p99, 2)} ms  (n=${summary.count})`;
    const rows: Array<[string, string]> = [
      ['machine', `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`],
      ['node', process.version],
      ['database', bench.databaseKind === 'postgresql' ? `PostgreSQL (${redact(process.env.DATABASE_URL)}, fresh database)` : 'PGlite (embedded, temp dir)'],
      ['open files', `limit ${fileLimit ?? 'unknown'}, peak ${peakFiles || 'unknown'}`],
      ['createDeposit', `N=${settings.operations} (+${settings.warmup} warm-up), concurrency ${settings.concurrency}`],
      ['  gateway', `${fixed(create.gateway.perSecond)} mutations/s   latency ${ms(create.gateway.latency)}`],
      ['  baseline', `${fixed(create.baseline.perSecond)} ops/s         latency ${ms(create.baseline.latency)}`],
      ['  process CPU', `gateway ${fixed(create.gateway.cpuPerOpMs, 2)} ms/op (${fixed(create.gateway.cpuShare * 100, 0)}% of a core), baseline ${fixed(create.baseline.cpuPerOpMs, 2)} ms/op (${fixed(create.baseline.cpuShare * 100, 0)}%)`],
      ['  SQL per mutation', `${fixed(create.statementsPerMutation, 1)} statements counted by the gateway's query hook (baseline: 1 INSERT)`],
      ['  gateway/baseline', `${ratio(create.gateway.perSecond, create.baseline.perSecond)} of baseline throughput`],
      ['live updates', `K=${settings.deposits} webhooks x ${settings.subscribers} subscribers, ${live.frameBytes}-byte frame`],
      ['  gateway', `${ms(live.gateway)}   (connect ${fixed(live.connectMs / 1000, 1)} s, ${fixed(live.messagesPerSubscriber, 1)} msgs/subscriber, fee/net follow-up in ${live.followedUp}/${settings.deposits} rounds)`],
      ['  webhook ack', ms(live.webhookAck)],
      ['  raw ws', ms(live.baseline)],
      ['  gateway/raw', `p50 ${ratio(live.gateway.p50, live.baseline.p50)}  p99 ${ratio(live.gateway.p99, live.baseline.p99)}`],
    ];
    await bench.close();
    rows.push(['total run time', `${fixed((performance.now() - started) / 1000, 1)} s`]);
    const width = Math.max(...rows.map(([label]) => label.length));
    process.stdout.write(`\n${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n`);
  } catch (error) {
    await bench.close();
    throw error;
  }
}

/** The connection string without its password, for the printed table. */
function redact(url: string | undefined): string {
  if (!url) return '';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
