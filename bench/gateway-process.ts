// The gateway under test, alone in its own process as in a deployment: started from the compiled
// code with the configuration the harness hands over, answering only what a measurement needs
// from inside (SQL statements counted through db.watchQueries, heap after GC, an empty job queue).
import 'reflect-metadata';

import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.js';
import { PAYMENT_EVENTS_TOPIC } from '../src/kernel/events/event-notification.js';
import { startGateway, type Gateway } from '../src/server/gateway.js';
import { startBaselineServer, type BaselineServer } from './baseline-server.js';
import { serveHarness } from './ipc.js';
import { BENCH_SQL_MARK, cpuMs, heapAfterGc } from './process-tools.js';

export interface GatewayProcessInfo {
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  databaseKind: 'postgresql' | 'pglite';
  keys: { webCashier: string; admin: string };
  /** The web cashier demo client's id: B1's floor records its deposits for it, as the gateway's mutations do. */
  webCashierId: string;
}

/** What the harness passes in BENCH_GATEWAY_ENV: the environment loadConfig reads, nothing else. */
const configEnv = JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>;

let gateway: Gateway | undefined;
let baseline: BaselineServer | undefined;
let counted = 0;
let stopCounting: (() => void) | undefined;
/** BENCH_PROFILE: a directory where each measured gateway round's CPU profile is written. */
const profileDir = process.env.BENCH_PROFILE || undefined;
let profiler: Session | undefined;
let profiles = 0;

const harness = serveHarness(
  {
    /** Starts counting the SQL statements the gateway sends (the harness's own, marked, are left out). */
    async countStart() {
      stopCounting?.();
      counted = 0;
      stopCounting = running().db.watchQueries((sql) => {
        if (!sql.includes(BENCH_SQL_MARK)) counted += 1;
      });
      if (profileDir) await startProfile();
      return null;
    },
    async countStop() {
      stopCounting?.();
      stopCounting = undefined;
      if (profileDir) await stopProfile(profileDir);
      return counted;
    },
    heap: () => heapAfterGc(),
    cpuMs: () => cpuMs(),
    /** Live subscriptions on the payment event topic, where the pub/sub can say (undefined otherwise). */
    subscribers() {
      const pubsub = running().services.pubsub as { subscriberCount?: (topic: string) => number };
      return typeof pubsub.subscriberCount === 'function' ? pubsub.subscriberCount(PAYMENT_EVENTS_TOPIC) : null;
    },
    /** Resolves once no follow-up job is pending or running (every instance's jobs share the table). */
    async drain({ timeoutMs }: { timeoutMs: number }) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = await running().db.fork().execute<Array<{ n: number }>>(`select count(*)::int as n from job where status in ('pending', 'running') and run_at <= now() ${BENCH_SQL_MARK}`);
        const open = rows[0]?.n ?? 0;
        if (open === 0) return 0;
        if (Date.now() > deadline) return open;
        await sleep(20);
      }
    },
    /** Follow-up job runs that failed (each retried later, or kept as failed), over the whole table. */
    async failedJobRuns() {
      const rows = await running().db.fork().execute<Array<{ n: number }>>(`select coalesce(sum(greatest(attempts - 1, 0) + case when status = 'failed' then 1 else 0 end), 0)::int as n from job ${BENCH_SQL_MARK}`);
      return rows[0]?.n ?? 0;
    },
    /**
     * The hand-written-SQL baseline of B1/B2 inside this process: on PGlite the database is reachable
     * only from the process that opened it, so the baseline shares the gateway's process (and its
     * in-process database) instead of having one of its own.
     */
    async startBaseline({ account, clientId }: Pick<Parameters<typeof startBaselineServer>[0], 'account' | 'clientId'>) {
      const db = running().db;
      baseline ??= await startBaselineServer({
        account,
        clientId,
        query: (sql, params) => db.fork().execute(sql, params),
      });
      return { url: baseline.url };
    },
    async stopBaseline() {
      await baseline?.close();
      baseline = undefined;
      return null;
    },
  },
  {
    async onExit() {
      await baseline?.close();
      await gateway?.close();
    },
  },
);

/** Starts sampling this process's CPU (node:inspector) for one measured round. */
async function startProfile(): Promise<void> {
  if (!profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
  }
  await profiler.post('Profiler.start');
}

/** Writes the round's profile as `gateway-<pid>-<n>.cpuprofile`, for Chrome DevTools or speedscope. */
async function stopProfile(dir: string): Promise<void> {
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  profiles += 1;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `gateway-${process.pid}-${profiles}.cpuprofile`), JSON.stringify(profile));
}

function running(): Gateway {
  if (!gateway) throw new Error('the gateway is not running');
  return gateway;
}

async function main(): Promise<void> {
  gateway = await startGateway({ config: loadConfig(configEnv) });
  const demo = (prefix: string) => {
    const client = gateway!.demoClients.find((candidate) => candidate.name.startsWith(prefix));
    if (!client?.key) throw new Error(`demo client ${prefix} is missing or revoked`);
    return { id: client.id, key: client.key };
  };
  harness.ready({
    url: gateway.url,
    graphqlUrl: gateway.graphqlUrl,
    wsUrl: gateway.wsUrl,
    databaseKind: gateway.db.kind,
    keys: { webCashier: demo('web-cashier').key, admin: demo('admin').key },
    webCashierId: demo('web-cashier').id,
  } satisfies GatewayProcessInfo);
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway process failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
