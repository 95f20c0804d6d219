// The processes of a run, laid out as a deployment would be: the provider sandbox, one gateway (or
// several on one database for the scale-out figure), the baselines' bare server, and subscriber
// processes; the harness (this process) drives the load. Every child is started from dist/.

import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { MerchantAccount } from '../src/providers/provider.js';
import type { BaselineProcessInfo } from './baseline-process.js';
import type { BenchDatabase, BenchEnvironment } from './environment.js';
import { BENCH_ACCOUNT } from './fixtures.js';
import type { GatewayProcessInfo } from './gateway-process.js';
import { BenchChild, openFileLimits } from './ipc.js';
import type { SandboxProcessInfo } from './sandbox-process.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = (name: string): string => path.join(here, `${name}.js`);

export type GatewayChild = BenchChild<GatewayProcessInfo>;

export interface Topology {
  database: BenchDatabase;
  sandbox: BenchChild<SandboxProcessInfo>;
  /** The gateway instances; [0] is the one every single-instance bench uses. */
  gateways: GatewayChild[];
  /** The merchant account as the gateway is configured with it (baseUrl: the sandbox process). */
  account: MerchantAccount;
  /** The baselines' own process: the raw ws server always, and on PostgreSQL the B1/B2 server too. */
  baseline: BenchChild<BaselineProcessInfo>;
  /** Where B1/B2's baseline requests go; the process whose CPU they use. */
  sqlBaseline: { url: string; process: BenchChild<unknown> };
  /** Open-file soft limit given to children that hold many sockets. */
  openFiles: number;
  /** Starts more gateway instances on the same database (scale-out). */
  addGateways(count: number): Promise<GatewayChild[]>;
  /** Stops every instance but the first. */
  removeExtraGateways(): Promise<void>;
  /** A subscriber process (B4/B5). */
  spawnClients(name: string): Promise<BenchChild<unknown>>;
}

/**
 * Children that hold many sockets (gateway, raw ws server, subscriber processes) get `ulimit -n`
 * raised to what the largest subscriber count needs; a hard limit below that stops the run here,
 * before anything is measured, with the way to raise it.
 */
export function openFilesNeeded(maxSubscribers: number): number {
  const needed = maxSubscribers + 1_000;
  const limits = openFileLimits();
  if (limits && limits.hard < needed) {
    throw new Error(
      `the hard open-file limit is ${limits.hard}, and ${maxSubscribers} subscribers need about ${needed} per process. ` +
        'Raise it first (as root: `ulimit -Hn 65536` in the shell that runs the bench, or LimitNOFILE= / /etc/security/limits.conf), ' +
        'or lower BENCH_SUBSCRIBERS / BENCH_IDLE_SUBSCRIBERS.',
    );
  }
  return Math.max(needed, limits?.soft ?? 0);
}

export async function startTopology(env: BenchEnvironment, database: BenchDatabase, openFiles: number): Promise<Topology> {
  const dataDir = await env.tempDir('gateway-bench-');
  const sandbox = await BenchChild.spawn<SandboxProcessInfo>(
    {
      name: 'sandbox',
      script: entry('sandbox-process'),
      env: { BENCH_SANDBOX_API_KEY: BENCH_ACCOUNT.apiKey, BENCH_SANDBOX_WEBHOOK_SECRET: BENCH_ACCOUNT.webhookSecrets[0] },
    },
    env.children,
  );
  const account: MerchantAccount = { ...BENCH_ACCOUNT, baseUrl: sandbox.info.baseUrl };

  // What loadConfig reads in the gateway process; everything else keeps the gateway's defaults.
  const gatewayEnv = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.BENCH_GATEWAY_LOG_LEVEL || 'silent',
    DEMO_CLIENTS: 'true',
    // Shared by every instance: the second and later ones read the demo keys the first one wrote.
    DATA_DIR: dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    MERCHANT_ACCOUNTS: JSON.stringify([{ ...account, sandbox: false }]),
    // The reconciler would ask the provider about the PENDING deposits the benches keep for their
    // webhooks (approved on the provider's side) and apply them first; it is a periodic pass that
    // no bench here measures.
    RECONCILER_ENABLED: 'false',
    GRAPHIQL: 'false',
    // The benches drive one demo client far past the per-client defaults (100 a second, 1,000
    // subscriptions): they measure the gateway's cost, the limit check included, not its refusals.
    CLIENT_REQUESTS_PER_SECOND: '1000000',
    CLIENT_REQUEST_BURST: '1000000',
    CLIENT_MAX_SUBSCRIPTIONS: '1000000',
    // OpenTelemetry settings pass through (docs/tracing.md): a run with them measures tracing's cost.
    ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('OTEL_') && entry[1] !== undefined)),
  };
  let started = 0;
  const spawnGateway = (): Promise<GatewayChild> =>
    BenchChild.spawn<GatewayProcessInfo>(
      {
        name: `gateway-${++started}`,
        script: entry('gateway-process'),
        nodeFlags: ['--expose-gc'],
        // NODE_ENV only for the libraries, as in a deployment (graphql-js then skips its development
        // checks); the gateway's own configuration is BENCH_GATEWAY_ENV, read by loadConfig.
        env: { NODE_ENV: 'production', BENCH_GATEWAY_ENV: JSON.stringify(gatewayEnv) },
        openFiles,
      },
      env.children,
    );

  const gateways = [await spawnGateway()];
  const primary = gateways[0]!;
  // The sandbox's own webhooks (B2's fixtures) go to the first instance.
  await sandbox.call('setWebhookUrl', { url: webhookUrl(primary, account) });

  const baseline = await BenchChild.spawn<BaselineProcessInfo>(
    {
      name: 'baseline',
      script: entry('baseline-process'),
      nodeFlags: ['--expose-gc'],
      env: {
        BENCH_BASELINE_DATABASE_URL: database.url ?? '',
        BENCH_BASELINE_ACCOUNT: JSON.stringify(account),
        BENCH_BASELINE_CLIENT_ID: primary.info.webCashierId,
      },
      openFiles,
    },
    env.children,
  );
  const sqlBaseline =
    database.kind === 'postgresql'
      ? { url: baseline.info.url, process: baseline as BenchChild<unknown> }
      : { url: (await primary.call<{ url: string }>('startBaseline', { account, clientId: primary.info.webCashierId })).url, process: primary as BenchChild<unknown> };

  return {
    database,
    sandbox,
    gateways,
    account,
    baseline,
    sqlBaseline,
    openFiles,
    async addGateways(count) {
      const added: GatewayChild[] = [];
      // One after another: each start checks the schema and the demo clients.
      for (let i = 0; i < count; i++) added.push(await spawnGateway());
      gateways.push(...added);
      return added;
    },
    async removeExtraGateways() {
      const extra = gateways.splice(1);
      await Promise.all(extra.map((gateway) => gateway.stop()));
    },
    spawnClients(name) {
      return BenchChild.spawn({ name, script: entry('clients-process'), openFiles }, env.children);
    },
  };
}

export function webhookUrl(gateway: GatewayChild, account: MerchantAccount): string {
  return `${gateway.info.url}/webhooks/deposit-gateway/${account.code}`;
}
