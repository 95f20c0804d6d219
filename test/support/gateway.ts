// Starts real gateway instances for tests: real HTTP server, real database, real sandboxes over
// HTTP. Logs are captured so tests can assert what a log reader would see.

import { Writable } from 'node:stream';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import type { ProviderDefinition } from '../../src/providers/registry.js';
import { startGateway, type Gateway } from '../../src/server/gateway.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestGateway {
  gateway: Gateway;
  /** Every log line written so far, raw JSON text. */
  logs: string[];
  /** Keys of the three demo clients ('' when DEMO_CLIENTS=false). */
  keys: { webCashier: string; mobileCashier: string; admin: string };
  close(): Promise<void>;
}

export interface StartTestGatewayOptions {
  env?: Record<string, string>;
  /** Reuse a database (e.g. a second instance, or a restart); the caller then drops it. */
  database?: TestDatabase;
  /**
   * Providers registered besides the built-in ones, through the public registration API only
   * (their accounts then go in `env.MERCHANT_ACCOUNTS`).
   */
  providers?: readonly ProviderDefinition[];
  /** The gateway's retention clock (test/support/clock.ts `ManualClock`); default: the system clock. */
  clock?: Clock;
}

export async function startTestGateway(options: StartTestGatewayOptions = {}): Promise<TestGateway & { database: TestDatabase }> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'debug',
    DEMO_CLIENTS: 'true',
    SANDBOX_TIME_SCALE: '0.01',
    // Tests send as fast as they can with the demo keys; the per-client limits are the business of
    // the tests that set them (test/hardening/client-limits.test.ts), not a brake on every other.
    CLIENT_REQUESTS_PER_SECOND: '1000000',
    CLIENT_REQUEST_BURST: '1000000',
    CLIENT_MAX_SUBSCRIPTIONS: '1000000',
    // GRAPHQL_COMPILE_AFTER=0 runs the whole suite with every query compiled from its first run.
    ...(process.env.GRAPHQL_COMPILE_AFTER ? { GRAPHQL_COMPILE_AFTER: process.env.GRAPHQL_COMPILE_AFTER } : {}),
    ...database.env,
    ...options.env,
  }, { providers: options.providers ?? [] });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const gateway = await startGateway({ config, logger: createLogger({ level: 'debug', destination: sink }), providers: options.providers ?? [], ...(options.clock ? { clock: options.clock } : {}) });
  const key = (name: string) => gateway.demoClients.find((client) => client.name.startsWith(name))?.key ?? '';
  return {
    gateway,
    logs,
    database,
    keys: { webCashier: key('web-cashier'), mobileCashier: key('mobile-cashier'), admin: key('admin') },
    async close() {
      await gateway.close();
      if (!options.database) await database.drop();
    },
  };
}

export interface GraphQLResponse<T> {
  status: number;
  data?: T | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: Record<string, unknown> }>;
}

/** Sends one typed operation over HTTP, as a client would. */
export async function execute<TResult, TVariables>(
  url: string,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<GraphQLResponse<TResult>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as Omit<GraphQLResponse<TResult>, 'status'>;
  return { status: response.status, ...body };
}

/** Sends raw text, for requests no typed client would produce (batches, malformed queries). */
export async function postRaw(url: string, body: unknown, key?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: response.status, body: parsed };
}

/** A sample of the gateway's /metrics: `pattern`'s first group, as an operator's scrape reads it (0 while it has no sample). */
export async function metric(t: TestGateway, pattern: RegExp): Promise<number> {
  const text = await (await fetch(t.gateway.metricsUrl)).text();
  return Number(pattern.exec(text)?.[1] ?? 0);
}
