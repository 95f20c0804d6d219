// `npm run bench`: the issue-11 harness. Starts the gateway in its own process (from dist/) with
// the provider sandbox, the baselines and the subscribers in processes of their own, runs B1-B5
// (or BENCH_ONLY's subset) each beside its baseline in interleaved rounds, prints one table, and
// leaves nothing behind: no database, no process, no temp dir, also on failure or Ctrl-C.

import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchCreateDeposit } from './create-deposit.js';
import { BenchEnvironment } from './environment.js';
import { benchIdleSubscriptions, benchLiveUpdates } from './live-updates.js';
import { benchReadPath } from './read-path.js';
import { benchNotifications } from './notifications.js';
import { resultsTable, type RunResults } from './report.js';
import { readSettings, type BenchName } from './settings.js';
import { openFilesNeeded, startTopology } from './topology.js';
import { benchWebhooks } from './webhooks.js';

const env = new BenchEnvironment();

async function main(): Promise<void> {
  const started = performance.now();
  const settings = readSettings();
  const loadBefore = os.loadavg();
  const runs = (name: BenchName): boolean => settings.only.has(name);
  const maxSubscribers = Math.max(0, ...(runs('B4') ? settings.subscribers : []), ...(runs('B5') ? [settings.idleSubscribers] : []));
  const openFiles = openFilesNeeded(maxSubscribers);

  const database = await env.database(process.env.DATABASE_URL || undefined);
  progress(`database: ${database.kind === 'postgresql' ? `PostgreSQL, fresh database ${database.name}` : 'PGlite in a temp dir'}; starting processes`);
  const topology = await startTopology(env, database, openFiles);
  const results: RunResults = {};

  if (runs('B1')) {
    progress('B1 createDeposit');
    results.b1 = await benchCreateDeposit(topology, settings);
  }
  if (runs('B2')) {
    progress('B2 deposits page');
    results.b2 = await benchReadPath(topology, settings);
  }
  if (runs('B3')) {
    progress(`B3 webhooks${settings.scaleOut ? ` (with ${settings.instances} instances)` : ''}`);
    results.b3 = await benchWebhooks(env, topology, settings);
  }
  if (runs('B4')) {
    progress(`B4 live updates at ${settings.subscribers.join(', ')} subscribers`);
    results.b4 = await benchLiveUpdates(topology, settings);
  }
  if (runs('B5')) {
    progress(`B5 idle subscriptions (${settings.idleSubscribers})`);
    results.b5 = await benchIdleSubscriptions(topology, settings);
  }
  if (runs('B6')) {
    progress(`B6 back-office notifications (${settings.notifications} per round)`);
    results.b6 = await benchNotifications(topology, settings);
  }

  await env.cleanup();
  const loadAfter = os.loadavg();
  const cpus = os.cpus();
  const lines = [
    `machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}; node ${process.version}`,
    `load average (1/5/15 min): before ${loadBefore.map((v) => v.toFixed(2)).join(' ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' ')}`,
    `database: ${database.kind === 'postgresql' ? `PostgreSQL (${redact(process.env.DATABASE_URL)} → fresh ${database.name}, dropped)` : 'PGlite (embedded in the gateway process, temp dir)'}; commit ${commit()}`,
    `settings: BENCH_ONLY=${[...settings.only].join(',')} BENCH_ROUNDS=${settings.rounds} BENCH_CONCURRENCY=${settings.concurrency} BENCH_N=${settings.operations} BENCH_WARMUP=${settings.warmup} ` +
      `BENCH_READS=${settings.reads} BENCH_PAGE_SIZES=${settings.pageSizes.join(',')} BENCH_WEBHOOKS=${settings.webhooks} BENCH_SUBSCRIBERS=${settings.subscribers.join(',')} BENCH_K=${settings.deliveries} ` +
      `BENCH_IDLE_SUBSCRIBERS=${settings.idleSubscribers} BENCH_NOTIFICATIONS=${settings.notifications}${settings.scaleOut ? ` scale-out BENCH_INSTANCES=${settings.instances}` : ''}`,
    `medians of ${settings.rounds} interleaved rounds; total run time ${((performance.now() - started) / 1000).toFixed(0)} s`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n${resultsTable(results, settings)}\n`);
}

function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** The connection string without its password, for the printed table. */
function redact(url: string | undefined): string {
  if (!url) return '';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

let interrupted = 0;
process.on('SIGINT', () => {
  interrupted += 1;
  if (interrupted > 1) {
    env.killAll();
    process.exit(130);
  }
  process.stderr.write('\nbench interrupted: stopping its processes, dropping its database, removing its temp dirs (Ctrl-C again to kill at once)\n');
  void env.cleanup().finally(() => process.exit(130));
});

main().catch(async (error: unknown) => {
  // After Ctrl-C, whatever was in flight fails as its processes stop: that is not news.
  if (interrupted > 0) return;
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await env.cleanup();
  process.exitCode = 1;
});
