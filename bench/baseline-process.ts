// The baselines' own process: a bare node:http + ws server (bench/baseline-server.ts) on a plain
// `pg` pool, nothing of the gateway's stack but the provider adapter that B1 and the webhook floor
// call. Started with --expose-gc so B5 can weigh its idle raw connections as it weighs the
// gateway's subscriptions.

import pg from 'pg';
import type { MerchantAccount } from '../src/providers/provider.js';
import { startBaselineServer, type BaselineServer } from './baseline-server.js';
import { prepareNotificationFloor, runNotificationFloor, type FloorQuery } from './notification-floor.js';
import { serveHarness } from './ipc.js';
import { cpuMs, heapAfterGc } from './process-tools.js';

export interface BaselineProcessInfo {
  url: string;
  wsUrl: string;
}

const databaseUrl = process.env.BENCH_BASELINE_DATABASE_URL || undefined;
const account = process.env.BENCH_BASELINE_ACCOUNT ? (JSON.parse(process.env.BENCH_BASELINE_ACCOUNT) as MerchantAccount) : undefined;
const clientId = process.env.BENCH_BASELINE_CLIENT_ID || undefined;
// As large as the gateway's own pool (src/db/database.ts), so neither side has more connections.
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : undefined;
let server: BaselineServer | undefined;

const harness = serveHarness(
  {
    heap: () => heapAfterGc(),
    cpuMs: () => cpuMs(),
    connections: () => server?.connections() ?? 0,
    followUps: () => server?.followUps() ?? { open: 0, failed: 0 },
    /** B6's floor: a round's rows (untimed), then their delivery (bench/notification-floor.ts). */
    notificationFloorPrepare: (params) => prepareNotificationFloor(floorQuery(), params),
    notificationFloorRun: (params) => runNotificationFloor(floorQuery(), params),
  },
  {
    async onExit() {
      await server?.close();
      await pool?.end();
    },
  },
);

/** The pool as B6's floor queries it (`$n` placeholders); PostgreSQL only. */
function floorQuery(): FloorQuery {
  if (!pool) throw new Error('B6\'s floor runs on PostgreSQL only');
  return async (sql, params) => (await pool.query<Row>(sql, params)).rows;
}

/** A row as the floors read it: the baseline server's queries take their rows as `unknown`. */
type Row = Record<string, unknown>;

/** `?` placeholders (as the ORM's execute takes them) to pg's `$n`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

async function main(): Promise<void> {
  server = await startBaselineServer({
    ...(account ? { account } : {}),
    ...(clientId ? { clientId } : {}),
    ...(pool
      ? {
          query: async (sql: string, params: unknown[]) => (await pool.query<Row>(numbered(sql), params)).rows,
          connect: async () => {
            const client = await pool.connect();
            return {
              query: async (sql: string, params: unknown[]) => {
                if (params.length > 0) return (await client.query<Row>(numbered(sql), params)).rows;
                const result = (await client.query<Row>(sql)) as pg.QueryResult<Row> | pg.QueryResult<Row>[];
                return (Array.isArray(result) ? result[result.length - 1]! : result).rows;
              },
              release: (broken?: Error) => client.release(broken),
            };
          },
        }
      : {}),
  });
  harness.ready({ url: server.url, wsUrl: server.wsUrl } satisfies BaselineProcessInfo);
}

main().catch((error: unknown) => {
  process.stderr.write(`baseline process failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
