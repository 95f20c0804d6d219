// The baselines, as one bare node:http server: what the same work costs without the gateway around
// it. B1: the same provider adapter call plus one plain INSERT. B2: the same page of deposits, its
// refunds and its events, read by three hand-written statements and sent as JSON. B4/B5: a raw `ws`
// server that writes one pre-built frame to every connection.

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { newId } from '../src/lib/ids.js';
import { Money } from '../src/lib/money.js';
import { createDepositGatewayAdapter } from '../src/providers/deposit-gateway/index.js';
import type { Customer, MerchantAccount } from '../src/providers/provider.js';
import { BENCH_SQL_MARK } from './process-tools.js';

/** Runs one statement with `?` placeholders and returns its rows. */
export type BaselineQuery = (sql: string, params: unknown[]) => Promise<unknown>;

export interface BaselineServerOptions {
  /** The database, for B1 and B2; absent where the baseline serves only raw WebSockets. */
  query?: BaselineQuery;
  /** The merchant account the gateway uses, for B1's adapter call. */
  account?: MerchantAccount;
}

export interface BaselineServer {
  url: string;
  wsUrl: string;
  /** Raw WebSocket connections currently open. */
  connections(): number;
  close(): Promise<void>;
}

export const SCRATCH_TABLE = 'bench_baseline_deposit';

export async function startBaselineServer(options: BaselineServerOptions): Promise<BaselineServer> {
  const { query, account } = options;
  // The same adapter the gateway builds (src/services.ts), with the gateway's default time-out and retries.
  const adapter = createDepositGatewayAdapter({ timeoutMs: 10_000, maxRetries: 2 });
  if (query) {
    await query(
      `create table if not exists ${SCRATCH_TABLE} (id varchar(30) primary key, reference varchar(255) not null, amount numeric(20,2) not null, currency varchar(3) not null, created_at timestamptz not null default now()) ${BENCH_SQL_MARK}`,
      [],
    );
  }

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>> = {
    'POST /create-deposit': async (request, response) => {
      if (!query || !account) return sendJson(response, 503, { error: 'no database or account in this baseline' });
      const input = JSON.parse(await readBody(request)) as { amount: string; currency: string; customer: Customer };
      const amount = Money.parse(input.amount, input.currency);
      if (!amount.ok) return sendJson(response, 400, { error: amount.error.message });
      const id = newId('dep');
      const result = await adapter.createDeposit(account, { depositId: id, amount: amount.money, details: { rail: 'CARD' }, customer: input.customer });
      if (!result.ok) return sendJson(response, 502, { error: `${result.error.code}: ${result.error.message}` });
      await query(`insert into ${SCRATCH_TABLE} (id, reference, amount, currency) values (?, ?, ?, ?) ${BENCH_SQL_MARK}`, [id, result.value.reference, input.amount, input.currency]);
      sendJson(response, 200, { deposit: { id, status: 'PENDING', reference: result.value.reference, redirectUrl: result.value.redirectUrl ?? null, amount: { amount: input.amount, currency: input.currency } } });
    },
    'GET /deposits': async (_request, response, url) => {
      if (!query) return sendJson(response, 503, { error: 'no database in this baseline' });
      sendJson(response, 200, await depositsPage(query, Number(url.searchParams.get('first') ?? '20')));
    },
    'POST /broadcast': async (request, response) => {
      // Timed by the receivers from just before this request, as the gateway's webhook POST is.
      const frame = Buffer.from(await readBody(request));
      for (const client of wss.clients) client.send(frame, { binary: false });
      response.writeHead(204).end();
    },
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://baseline.invalid');
    const route = routes[`${request.method} ${url.pathname}`];
    if (!route) return sendJson(response, 404, { error: 'not found' });
    route(request, response, url).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    connections: () => wss.clients.size,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface DepositRow {
  id: string;
  status: string;
  provider_status: string | null;
  rail: string;
  merchant_account: string;
  amount: string;
  currency: string;
  fee: string | null;
  net: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * The page `deposits(first: N)` shows an admin, newest first, with each deposit's refunds (oldest
 * first) and events (in log order): three statements, the ids passed as one text parameter so the
 * same SQL runs on pg and through the ORM's connection.
 */
async function depositsPage(query: BaselineQuery, first: number): Promise<unknown> {
  const deposits = (await query(
    `select id, status, provider_status, rail, merchant_account, amount, currency, fee, net, created_at, updated_at from deposit order by created_at desc, id desc limit ? ${BENCH_SQL_MARK}`,
    [first + 1],
  )) as DepositRow[];
  const page = deposits.slice(0, first);
  const ids = page.map((row) => row.id).join(',');
  const [refunds, events] = (await Promise.all([
    query(`select id, deposit_id, status, amount, currency, created_at from refund where deposit_id = any(string_to_array(?, ',')) order by created_at, id ${BENCH_SQL_MARK}`, [ids]),
    query(
      `select id, subject_id, type, from_status, to_status, created_at from payment_event where subject_type = 'deposit' and subject_id = any(string_to_array(?, ',')) order by position ${BENCH_SQL_MARK}`,
      [ids],
    ),
  ])) as [Array<Record<string, string>>, Array<Record<string, string>>];
  const refundsOf = groupBy(refunds, 'deposit_id');
  const eventsOf = groupBy(events, 'subject_id');
  const money = (amount: string | null, currency: string) => (amount === null ? null : { amount: String(amount), currency });
  const edges = page.map((row) => ({
    cursor: Buffer.from(JSON.stringify([iso(row.created_at), row.id])).toString('base64url'),
    node: {
      id: row.id,
      status: row.status,
      providerStatus: row.provider_status,
      rail: row.rail,
      merchantAccount: row.merchant_account,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      amount: money(row.amount, row.currency),
      fee: money(row.fee, row.currency),
      net: money(row.net, row.currency),
      refunds: (refundsOf.get(row.id) ?? []).map((refund) => ({ id: refund.id, status: refund.status, amount: money(refund.amount!, refund.currency!), createdAt: iso(refund.created_at!) })),
      events: (eventsOf.get(row.id) ?? []).map((event) => ({ id: event.id, type: event.type, fromStatus: event.from_status, toStatus: event.to_status, createdAt: iso(event.created_at!) })),
    },
  }));
  return { data: { deposits: { edges, pageInfo: { hasNextPage: deposits.length > first, endCursor: edges.at(-1)?.cursor ?? null } } } };
}

function groupBy<T extends Record<string, unknown>>(rows: T[], key: keyof T): Map<unknown, T[]> {
  const grouped = new Map<unknown, T[]>();
  for (const row of rows) {
    const list = grouped.get(row[key]);
    if (list) list.push(row);
    else grouped.set(row[key], [row]);
  }
  return grouped;
}

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
