// Starts the gateway under test in-process on a database of its own (a fresh PostgreSQL database
// when DATABASE_URL is set, else PGlite in a temp dir) and removes both afterwards.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startGateway, type Gateway } from '../src/server/gateway.js';

export interface BenchGateway {
  gateway: Gateway;
  databaseKind: 'postgresql' | 'pglite';
  keys: { webCashier: string; admin: string };
  /** Closes the gateway, then drops the bench database and deletes the temp directory. */
  close(): Promise<void>;
}

export async function startBenchGateway(databaseUrl: string | undefined): Promise<BenchGateway> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-bench-'));
  // Never the caller's own database: the bench writes thousands of rows, so it gets a fresh one.
  const databaseName = `gw_bench_${randomBytes(6).toString('hex')}`;
  const benchUrl = databaseUrl ? withDatabase(databaseUrl, databaseName) : undefined;
  const dropDatabase = async (): Promise<void> => {
    if (databaseUrl) await dropPostgresDatabase(databaseUrl, databaseName);
    await rm(dataDir, { recursive: true, force: true });
  };

  let gateway: Gateway;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEMO_CLIENTS: 'true',
      DATA_DIR: dataDir,
      DATABASE_URL: benchUrl,
    });
    gateway = await startGateway({ config });
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  const key = (prefix: string): string => {
    const client = gateway.demoClients.find((candidate) => candidate.name.startsWith(prefix));
    if (!client) throw new Error(`demo client ${prefix} is missing`);
    return client.key;
  };
  return {
    gateway,
    databaseKind: gateway.db.kind,
    keys: { webCashier: key('web-cashier'), admin: key('admin') },
    async close() {
      try {
        await gateway.close();
      } finally {
        await dropDatabase();
      }
    },
  };
}

function withDatabase(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgresDatabase(baseUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
