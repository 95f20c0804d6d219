// Notifications across instances (PostgreSQL only: PGlite is one process's database). Two gateway
// instances sharing a database send each event once, never the same one at the same moment (the
// receiver records overlapping requests); and a gateway killed with SIGKILL while a POST is in
// flight loses nothing: once its claim's lease runs out another instance sends the event again,
// with the same webhook-id, and the receiver gets it.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledDist } from '../support/compiled.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { cardDeposit, clientId, createEndpoint, FAST_NOTIFICATIONS, startReceiver, typesOf, type Receiver } from './support.js';

const root = path.resolve(import.meta.dirname, '../..');
/** The key every instance seals and opens the endpoints' secrets with, as in production: one for all. */
const SECRETS = { GATEWAY_SECRETS_KEY: `k1:${randomBytes(32).toString('base64')}` };
const receivers: Receiver[] = [];
const gateways: TestGateway[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const gateway of gateways.reverse()) await gateway.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('send every event, each once, never one event twice at the same moment', async () => {
    const a = await startTestGateway({ env: { ...FAST_NOTIFICATIONS, ...SECRETS, JOBS_CONCURRENCY: '4', RECONCILER_ENABLED: 'false' } });
    gateways.push(a);
    const b = await startTestGateway({ database: a.database, env: { ...FAST_NOTIFICATIONS, ...SECRETS, JOBS_CONCURRENCY: '4', RECONCILER_ENABLED: 'false', DEMO_CLIENTS: 'false' } });
    gateways.push(b);
    const hooks = await receiver();
    // A receiver a little slow to answer, so that a second send of one event would overlap the first.
    hooks.answer = () => new Promise((resolve) => setTimeout(() => resolve(200), 20));
    await createEndpoint(a, hooks, clientId(a, 'web-cashier'));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await cardDeposit(a, a.keys.webCashier, `${20 + i}.00`));
    for (const id of ids) await expect.poll(() => typesOf(hooks, id)).toContain('deposit.status_changed');
    expect(hooks.overlaps).toEqual([]);
    const eventIds = hooks.delivered.map((item) => item.id);
    expect(new Set(eventIds).size).toBe(eventIds.length);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a gateway killed mid-delivery', () => {
  let build: string;
  let dataDir: string;

  beforeAll(async () => {
    build = await compiledDist();
    dataDir = await mkdtemp(path.join(tmpdir(), 'notify-crash-'));
  });

  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: after the restart the event arrives, with the webhook-id of the attempt that died', async () => {
    // Instance A takes the API's requests and runs no jobs; instance B, a process of its own, sends.
    const a = await startTestGateway({ env: { ...FAST_NOTIFICATIONS, ...SECRETS, JOBS_ENABLED: 'false', RECONCILER_ENABLED: 'false' } });
    gateways.push(a);
    const hooks = await receiver();
    const held: string[] = [];
    // The first POST is never answered: B dies while it waits.
    hooks.answer = (received) => (held.length === 0 ? (held.push(received.id), new Promise<number>(() => undefined)) : 200);
    await createEndpoint(a, hooks, clientId(a, 'web-cashier'), ['deposit.created']);
    const env: Record<string, string> = {};
    for (const name of ['PATH', 'HOME', 'TZ', 'LANG']) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    const b = spawn(process.execPath, [path.join(build, 'src/main.js')], {
      cwd: root,
      stdio: 'ignore',
      env: { ...env, ...FAST_NOTIFICATIONS, ...SECRETS, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: a.database.env.DATABASE_URL!, DATA_DIR: dataDir, DEMO_CLIENTS: 'false', RECONCILER_ENABLED: 'false', LOG_LEVEL: 'warn' },
    });
    children.push(b);
    const depositId = await cardDeposit(a, a.keys.webCashier);
    await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
    // When B is killed with the POST in flight
    b.kill('SIGKILL');
    await new Promise((resolve) => b.once('exit', resolve));
    // and another instance runs the jobs
    const c = await startTestGateway({ database: a.database, env: { ...FAST_NOTIFICATIONS, ...SECRETS, RECONCILER_ENABLED: 'false', DEMO_CLIENTS: 'false' } });
    gateways.push(c);
    // Then the event arrives, under the webhook-id the dead attempt carried
    await expect.poll(() => typesOf(hooks, depositId)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === depositId)!.id).toBe(held[0]);
  });
});
