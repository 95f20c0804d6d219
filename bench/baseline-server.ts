// The baselines, as one bare node:http server: what the same work costs without the gateway around
// it. B1: the same provider adapter call plus one plain INSERT; B1's floor: the least a createDeposit
// needs done around that call, by hand-written statements. B2: the same page of deposits, its
// refunds and its events, read by three hand-written statements and sent as JSON. B3's floor: the
// bare work of one signed webhook, the same verification and the same rows written by hand-written
// statements, with its fee/net follow-up. B4/B5: a raw `ws` server that writes one pre-built frame to
// every connection (and speaks enough graphql-transport-ws for B4's floor to serve graphql-ws clients).

import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { newId } from '../src/lib/ids.js';
import { messageText } from '../src/lib/ws-message.js';
import { Money } from '../src/lib/money.js';
import { toDepositSnapshot } from '../src/modules/deposits/deposit-snapshot.js';
import { createProviderTransport } from '../src/kernel/provider-transport.js';
import { createDepositGatewayAdapter } from '../src/providers/deposit-gateway/index.js';
import type { Customer, DepositProvider, MerchantAccount, WebhookEvent } from '../src/providers/provider.js';
import { singleValued } from '../src/lib/http.js';
import { BENCH_SQL_MARK } from './process-tools.js';

/** Runs one statement with `?` placeholders and returns its rows. */
export type BaselineQuery = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * One connection of the pool, held for a transaction, then released. Its `query` takes `?`
 * placeholders; without values it sends the text as is (simple protocol, several statements
 * allowed) and returns the last statement's rows.
 */
export interface BaselineConnection {
  query: BaselineQuery;
  release(broken?: Error): void;
}

export interface BaselineServerOptions {
  /** The database, for B1 and B2; absent where the baseline serves only raw WebSockets. */
  query?: BaselineQuery;
  /** The merchant account the gateway uses, for B1's adapter call and B3's floor. */
  account?: MerchantAccount;
  /** The client B1's floor records its deposits for (the gateway's web cashier). */
  clientId?: string;
  /** A connection of its own, for B3's floor (its transaction); PostgreSQL only. */
  connect?: () => Promise<BaselineConnection>;
}

export interface BaselineServer {
  url: string;
  wsUrl: string;
  /** Raw WebSocket connections currently open. */
  connections(): number;
  /** B3's floor: fee/net follow-ups still running, and how many have failed so far. */
  followUps(): { open: number; failed: number };
  close(): Promise<void>;
}

export const SCRATCH_TABLE = 'bench_baseline_deposit';
/** Where B3's and B4's floor appends its events and jobs: copies of `payment_event` and `job`. */
const FLOOR_EVENT_TABLE = 'bench_floor_event';
const FLOOR_JOB_TABLE = 'bench_floor_job';

export async function startBaselineServer(options: BaselineServerOptions): Promise<BaselineServer> {
  const { query, account } = options;
  // The same adapter the gateway builds (src/services.ts), with the gateway's default time-out and retries.
  const adapter = createDepositGatewayAdapter({ transport: createProviderTransport({ timeoutMs: 10_000, maxRetries: 2 }) });
  if (query) {
    await query(
      `create table if not exists ${SCRATCH_TABLE} (id varchar(30) primary key, reference varchar(255) not null, amount numeric(20,2) not null, currency varchar(3) not null, created_at timestamptz not null default now()) ${BENCH_SQL_MARK}`,
      [],
    );
  }
  if (query) {
    // The floors' events and jobs go to copies of the gateway's tables (columns, defaults,
    // constraints, indexes, and the log's position trigger): the same cost to write, but the
    // gateway's event bus never publishes them and its job worker never claims them.
    await query(`create table if not exists ${FLOOR_EVENT_TABLE} (like payment_event including all) ${BENCH_SQL_MARK}`, []);
    await query(`create or replace trigger ${FLOOR_EVENT_TABLE}_position before insert on ${FLOOR_EVENT_TABLE} for each row execute function payment_event_assign_position() ${BENCH_SQL_MARK}`, []);
    await query(`create table if not exists ${FLOOR_JOB_TABLE} (like job including all) ${BENCH_SQL_MARK}`, []);
  }

  // B4's floor: each change goes to every connection as soon as it commits, in a `next` frame
  // whose id is the connection's graphql-ws subscription (a raw connection's is made up).
  const publish = (frameTail: string): void => {
    for (const client of wss.clients) {
      const operationId = subscriptions.get(client) ?? randomUUID();
      client.send(`{"id":${JSON.stringify(operationId)}${frameTail}`, { binary: false });
    }
  };
  const floor = query && account && options.connect ? webhookFloor(adapter, account, query, options.connect, publish) : undefined;
  const createFloor = query && account && options.clientId ? createDepositFloor(adapter, account, options.clientId, query) : undefined;

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
    'POST /create-deposit-floor': async (request, response) => {
      if (!createFloor) return sendJson(response, 503, { error: 'no database or account in this baseline' });
      const answer = await createFloor(JSON.parse(await readBody(request)) as CreateInput);
      sendJson(response, answer.status, answer.body);
    },
    'GET /deposits': async (_request, response, url) => {
      if (!query) return sendJson(response, 503, { error: 'no database in this baseline' });
      sendJson(response, 200, await depositsPage(query, Number(url.searchParams.get('first') ?? '20')));
    },
    'POST /webhook-floor': async (request, response) => {
      if (!floor) return sendJson(response, 503, { error: 'no database or account in this baseline' });
      const body = Buffer.from(await readBody(request));
      const answer = await floor.receive(body, request.headers);
      sendJson(response, answer.status, answer.body);
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
  // Enough of graphql-transport-ws for graphql-ws clients to subscribe here (B4's floor measured
  // with the gateway's own kind of subscriber): the acknowledgement, pongs, and each connection's
  // subscription id. Raw clients send nothing and are never asked to.
  const subscriptions = new WeakMap<WebSocket, string>();
  wss.on('connection', (socket) => {
    socket.on('message', (data: RawData) => {
      const message = JSON.parse(messageText(data)) as { type?: string; id?: string };
      if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
      else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'subscribe' && typeof message.id === 'string') subscriptions.set(socket, message.id);
      else if (message.type === 'complete') subscriptions.delete(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    connections: () => wss.clients.size,
    followUps: () => floor?.followUps() ?? { open: 0, failed: 0 },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface CreateInput {
  amount: string;
  currency: string;
  customer: Customer;
}

/**
 * B1's floor: the least a card createDeposit needs done around the provider call, written by hand.
 *
 * The deposit is committed before the call, with its `deposit.created` event (the deposit's
 * snapshot, as the gateway writes it) in the same statement, so that a crash, a time-out or a
 * webhook overtaking the answer finds it, and the request it was made with is kept for a
 * resubmission. Then the same adapter call as the baseline's, and one UPDATE storing the
 * provider's answer, returning what the answer shows. Into the gateway's own `deposit` table (its
 * indexes and its client's foreign key; for the web cashier, as the gateway's mutations are),
 * the event into the floor's copy of the log.
 *
 * Left out: GraphQL, authentication, idempotency keys, the other rails, metrics and logs, and the
 * wake-up of other instances after each commit (a NOTIFY on the gateway's relay): it is the least
 * one instance needs, so no gateway can beat it.
 */
function createDepositFloor(adapter: DepositProvider, account: MerchantAccount, client: string, query: BaselineQuery) {
  return async (input: CreateInput): Promise<{ status: number; body: Record<string, unknown> }> => {
    const amount = Money.parse(input.amount, input.currency);
    if (!amount.ok) return { status: 400, body: { error: amount.error.message } };
    const id = newId('dep');
    const now = new Date();
    const decimal = amount.money.toDecimal();
    const snapshot = toDepositSnapshot({
      id, clientId: client, merchantAccount: account.code, provider: account.provider, rail: 'CARD', livemode: account.livemode, status: 'PENDING',
      providerStatus: null, statusReason: null, amount: decimal, currency: input.currency, fee: null, net: null, refundedAmount: '0', refundStatus: null,
      disputed: false, redirectUrl: null, merchantReference: null, declineReason: null, qrPayload: null, qrExpiresAt: null, crypto: null, metadata: null,
      approvedAt: null, creditClaimedAt: null, createdAt: now, updatedAt: now,
    });
    await query(
      `with change as (insert into deposit (id, client_id, merchant_account, provider, rail, livemode, status, amount, currency, refunded_amount, disputed, request, created_at, updated_at)
         values (?, ?, ?, ?, 'CARD', ?, 'PENDING', ?, ?, 0, false, cast(? as jsonb), ?, ?) returning id)
       insert into ${FLOOR_EVENT_TABLE} (id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at)
         select ?, 'deposit', id, ?, ?, false, 'deposit.created', null, 'PENDING', cast(? as jsonb), ? from change ${BENCH_SQL_MARK}`,
      [
        id, client, account.code, account.provider, account.livemode, decimal, input.currency, JSON.stringify({ details: { rail: 'CARD' }, customer: input.customer }), now, now,
        newId('evt'), client, account.code, JSON.stringify(snapshot), now,
      ],
    );
    const result = await adapter.createDeposit(account, { depositId: id, amount: amount.money, details: { rail: 'CARD' }, customer: input.customer });
    if (!result.ok) return { status: 502, body: { error: `${result.error.code}: ${result.error.message}` } };
    const rows = (await query(
      `update deposit set provider_reference = ?, payment_reference = ?, redirect_url = ?, provider_status = ?, updated_at = ? where id = ?
       returning id, status, provider_reference, redirect_url, amount, currency ${BENCH_SQL_MARK}`,
      [result.value.reference, result.value.reference, result.value.redirectUrl ?? null, result.value.providerStatus, new Date(), id],
    )) as Array<{ id: string; status: string; provider_reference: string; redirect_url: string | null; amount: string; currency: string }>;
    const row = rows[0];
    if (!row) throw new Error(`deposit ${id} vanished before its answer was stored`);
    return { status: 200, body: { deposit: { id: row.id, status: row.status, reference: row.provider_reference, redirectUrl: row.redirect_url, amount: { amount: input.amount, currency: row.currency } } } };
  };
}

/**
 * B3's and B4's floor: the least one `payment.approved` webhook needs done, written by hand.
 *
 * The same adapter verifies the signature. One transaction then stores the delivery (the same
 * unique index drops a copy) and locks its deposit in one statement, and writes the new status, its
 * event (the log's position trigger included), the fee/net job and the delivery's outcome in a
 * second; it commits, sends the change's `next` frame to every WebSocket connection at once (no
 * event log read, no subscription executed) and answers 200. The follow-up then runs in this
 * process, with no queue to claim it from: the adapter's lookup of the payment, and one statement
 * with the fee and net, their event and the job's completion. Events and jobs go to copies of the
 * gateway's tables (FLOOR_EVENT_TABLE, FLOOR_JOB_TABLE), so the gateway never publishes or runs them.
 *
 * Left out: the GraphQL and API surface, the state machine's other transitions, deferred refunds,
 * the job queue's claim, retries and leases, metrics and logs. No gateway can beat it; it shows how
 * much of the baseline the work itself leaves.
 */
function webhookFloor(adapter: DepositProvider, account: MerchantAccount, query: BaselineQuery, connect: () => Promise<BaselineConnection>, publish: (frame: string) => void) {
  let open = 0;
  let failed = 0;
  const followUp = async (deposit: FloorDeposit, reference: string): Promise<void> => {
    const found = await adapter.getDeposit(account, reference);
    if (!found.ok || !found.value.fee || !found.value.net) throw new Error(`no fee/net for ${reference}`);
    const fee = found.value.fee.toDecimal();
    const net = found.value.net.toDecimal();
    const now = new Date();
    await query(
      `with change as (update deposit set fee = ?, net = ?, updated_at = ? where id = ? and status = 'SUCCEEDED' returning id),
       event as (insert into ${FLOOR_EVENT_TABLE} (id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at)
         select ?, 'deposit', id, ?, ?, false, 'deposit.details_updated', 'SUCCEEDED', 'SUCCEEDED', cast(? as jsonb), ? from change)
       update ${FLOOR_JOB_TABLE} set status = 'succeeded', finished_at = now(), updated_at = now()
       where kind = 'deposit.fetch_details' and dedupe_key = ? and status = 'pending' and exists (select from change) ${BENCH_SQL_MARK}`,
      [fee, net, now, deposit.id, newId('evt'), deposit.client_id, account.code, JSON.stringify({ ...snapshot(deposit), status: 'SUCCEEDED', fee, net, updatedAt: now }), now, deposit.id],
    );
    publish(frameTail(deposit, found.value.providerStatus, fee, net));
  };

  /** The webhook's transaction on a connection of its own: the approved deposit, committed. */
  async function approve(event: WebhookEvent, subject: { reference: string; merchantReference: string; providerStatus: string }, body: Buffer): Promise<FloorDeposit> {
    const deliveryId = newId('whd');
    const connection = await connect();
    try {
      // BEGIN goes with the first statement in one round trip, as the gateway sends it (src/db/pg-patches.ts, which binds the
      // values in the extended protocol); here one simple query with the floor's own values inlined, as before.
      const rows = (await connection.query(
        inlined(`begin; with inserted as (insert into webhook_delivery (id, provider, merchant_account, event_id, event_name, outcome, raw_body, received_at)
           values (?, ?, ?, ?, ?, 'ignored', ?, ?) on conflict (provider, merchant_account, event_id) do nothing returning id)
         select d.id, d.client_id, d.status, d.rail, d.amount, d.currency, d.provider_reference, d.created_at
         from inserted join lateral (select * from deposit where id = ? and provider = ? and merchant_account = ? for update) d on true ${BENCH_SQL_MARK}`,
        [deliveryId, account.provider, account.code, event.eventId, event.name, body.toString('utf8'), new Date(), subject.merchantReference, account.provider, account.code]),
        [],
      )) as FloorDeposit[];
      const deposit = rows[0];
      if (!deposit || deposit.status !== 'PENDING') throw new Error(`deposit ${subject.merchantReference} is not a PENDING deposit of ${account.code}`);
      const now = new Date();
      await connection.query(
        `with change as (update deposit set status = 'SUCCEEDED', provider_status = ?, approved_at = ?, updated_at = ? where id = ? returning id),
         event as (insert into ${FLOOR_EVENT_TABLE} (id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at)
           select ?, 'deposit', id, ?, ?, false, 'deposit.status_changed', 'PENDING', 'SUCCEEDED', cast(? as jsonb), ? from change),
         job as (insert into ${FLOOR_JOB_TABLE} (id, kind, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at)
           values (?, 'deposit.fetch_details', cast(? as jsonb), 'pending', 0, 10, ?, ?, ?, ?) on conflict (kind, dedupe_key) where status = 'pending' do nothing)
         update webhook_delivery set outcome = 'applied', subject_type = 'deposit', subject_id = ? where id = ? ${BENCH_SQL_MARK}`,
        [
          subject.providerStatus, event.occurredAt ?? now, now, deposit.id,
          newId('evt'), deposit.client_id, account.code, JSON.stringify({ ...snapshot(deposit), status: 'SUCCEEDED', updatedAt: now }), now,
          newId('job'), JSON.stringify({ depositId: deposit.id, reference: subject.reference }), now, deposit.id, now, now,
          deposit.id, deliveryId,
        ],
      );
      await connection.query('commit', []);
      connection.release();
      return deposit;
    } catch (error) {
      // Released as broken: the pool closes it, and the server rolls back what it had open.
      connection.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  return {
    followUps: () => ({ open, failed }),
    async receive(body: Buffer, headers: IncomingMessage['headers']): Promise<{ status: number; body: Record<string, unknown> }> {
      const verification = adapter.verifyWebhook(account, { body, headers: singleValued(headers), receivedAt: new Date() });
      if (!verification.ok) return { status: 401, body: { received: false, reason: verification.reason } };
      const { event } = verification;
      const subject = event.subject;
      if (subject.kind !== 'deposit' || subject.status !== 'SUCCEEDED' || !subject.merchantReference) {
        return { status: 400, body: { received: false, reason: 'the floor applies payment.approved only' } };
      }
      const deposit = await approve(event, { ...subject, merchantReference: subject.merchantReference }, body);
      publish(frameTail(deposit, subject.providerStatus, null, null));
      open += 1;
      void followUp(deposit, subject.reference)
        .catch(() => (failed += 1))
        .finally(() => (open -= 1));
      return { status: 200, body: { received: true, outcome: 'applied' } };
    },
  };
}

/**
 * What follows the id in the `next` frame a `depositUpdated` subscriber (bench/fixtures.ts
 * DEPOSIT_UPDATED) gets for a SUCCEEDED deposit: `,"type":"next","payload":…}`, one for every connection.
 */
function frameTail(deposit: FloorDeposit, providerStatus: string, fee: string | null, net: string | null): string {
  const money = (amount: string | null) => (amount === null ? null : { amount, currency: deposit.currency });
  const depositUpdated = { id: deposit.id, status: 'SUCCEEDED', providerStatus, declineReason: null, amount: money(deposit.amount), fee: money(fee), net: money(net) };
  return `,"type":"next","payload":${JSON.stringify({ data: { depositUpdated } })}}`;
}

/** `sql` with each `?` replaced by its value as a quoted literal (dates as ISO text). */
function inlined(sql: string, params: readonly unknown[]): string {
  let next = 0;
  return sql.replace(/\?/g, () => {
    const value = params[next++];
    // The floors' own values: text, numbers and dates, which String() prints as SQL wants them.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return value === null || value === undefined ? 'null' : pg.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
  });
}

/** The deposit columns B3's floor reads with its lock and puts in its events' snapshots. */
interface FloorDeposit {
  id: string;
  client_id: string;
  status: string;
  rail: string;
  amount: string;
  currency: string;
  provider_reference: string | null;
  created_at: Date;
}

function snapshot(deposit: FloorDeposit): Record<string, unknown> {
  return { id: deposit.id, clientId: deposit.client_id, rail: deposit.rail, amount: deposit.amount, currency: deposit.currency, providerReference: deposit.provider_reference, createdAt: deposit.created_at };
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
