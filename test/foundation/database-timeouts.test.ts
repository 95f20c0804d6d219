// A PostgreSQL that accepts connections but never answers, and a row lock held forever: /readyz,
// webhooks and GraphQL answer within bounded time instead of hanging, and a webhook refused
// meanwhile is applied exactly once when the provider retries. PostgreSQL only: PGlite runs in
// the process and cannot hang this way.

import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { accountSecrets, DG_ACCOUNT, deliveries, eventsOf, insertDeposit, paymentEnvelope, readDeposit, type Envelope } from '../webhooks/support.js';

/**
 * A TCP proxy in front of PostgreSQL that forwards normally until `holdTraffic()`; from then on it
 * accepts and keeps connections but passes no byte either way (a hung server or a network black
 * hole), until `forward()` delivers what it held, as TCP would once the path is back.
 */
class BlackHoleProxy {
  private holding = false;
  private readonly links = new Set<{ client: Socket; server: Socket; toServer: Buffer[]; toClient: Buffer[] }>();

  private constructor(private readonly server: Server) {}

  static async start(target: { host: string; port: number }): Promise<BlackHoleProxy> {
    const server = createServer();
    const proxy = new BlackHoleProxy(server);
    server.on('connection', (client) => {
      const upstream = connect(target.port, target.host);
      const link = { client, server: upstream, toServer: [] as Buffer[], toClient: [] as Buffer[] };
      proxy.links.add(link);
      client.on('data', (chunk: Buffer) => (proxy.holding ? link.toServer.push(chunk) : upstream.write(chunk)));
      upstream.on('data', (chunk: Buffer) => (proxy.holding ? link.toClient.push(chunk) : client.write(chunk)));
      // Either side gone: the other goes too, with whatever was held for it.
      const drop = () => {
        proxy.links.delete(link);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on('close', drop);
        socket.on('error', drop);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('proxy is not listening');
    return address.port;
  }

  holdTraffic(): void {
    this.holding = true;
  }

  forward(): void {
    for (const link of this.links) {
      for (const chunk of link.toServer.splice(0)) link.server.write(chunk);
      for (const chunk of link.toClient.splice(0)) link.client.write(chunk);
    }
    this.holding = false;
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.server.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Long enough for any time-out below to fire, short enough that a hang fails the test. */
const BOUND_MS = 10_000;

/** A signed delivery of `envelope` as the deposit gateway sends it; aborted after `timeoutMs`. */
async function deliver(t: TestGateway, envelope: Envelope, timeoutMs = BOUND_MS): Promise<{ status: number; outcome?: string }> {
  const bytes = Buffer.from(JSON.stringify(envelope));
  const response = await fetch(`${t.gateway.url}/webhooks/deposit-gateway/${DG_ACCOUNT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': signatureHeader(bytes, [accountSecrets(t)[0]!], Math.floor(Date.now() / 1000)) },
    body: new Uint8Array(bytes),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as { outcome?: string };
  return { status: response.status, outcome: body.outcome };
}

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL that never answers', () => {
  let database: TestDatabase;
  let proxy: BlackHoleProxy;
  let t: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    const real = new URL(database.env.DATABASE_URL!);
    proxy = await BlackHoleProxy.start({ host: real.hostname, port: Number(real.port || 5432) });
    const viaProxy = new URL(real);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    t = await startTestGateway({
      database: { ...database, env: { ...database.env, DATABASE_URL: viaProxy.toString() } },
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000', RECONCILER_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    proxy?.forward();
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** Runs `during` with the database silent, then lets it answer again and waits until the gateway is ready. */
  async function withSilentDatabase(during: () => Promise<void>): Promise<void> {
    proxy.holdTraffic();
    try {
      await during();
    } finally {
      proxy.forward();
    }
    await expect.poll(async () => (await fetch(`${t.gateway.url}/readyz`)).status, { timeout: BOUND_MS }).toBe(200);
  }

  it('/readyz answers 503 before a 2.5 s probe gives up', async () => {
    await withSilentDatabase(async () => {
      const ready = await fetch(`${t.gateway.url}/readyz`, { signal: AbortSignal.timeout(2_500) });
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not ready', database: 'down' });
    });
  });

  it('a query gets the masked error, without SQL or driver details, instead of hanging', async () => {
    await withSilentDatabase(async () => {
      const response = await Promise.race([
        postRaw(t.gateway.graphqlUrl, { query: '{ viewer { id } }' }, t.keys.admin),
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the query hung')), BOUND_MS)),
      ]);
      const error = response.body.errors[0];
      expect(error.message).toBe('Internal error');
      expect(error.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.extensions.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(response.body)).not.toMatch(/select|api_client|timeout|connect|terminat/i);
    });
  });

  it('a webhook gets a 5xx the provider retries, and the retry is applied exactly once', async () => {
    // Given a pending deposit
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved');

    // When its payment's delivery arrives while the database is silent
    await withSilentDatabase(async () => {
      // Then it is refused with a 5xx, which the provider retries (spec: Webhook retry window)
      expect((await deliver(t, envelope)).status).toBeGreaterThanOrEqual(500);
    });

    // And when the provider retries (twice) with the database back, it is applied once
    expect(await deliver(t, envelope)).toEqual({ status: 200, outcome: 'applied' });
    expect(await deliver(t, envelope)).toEqual({ status: 200, outcome: 'duplicate' });
    expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
    expect((await eventsOf(t, deposit.id)).map((event) => [event.type, event.toStatus])).toEqual([['deposit.status_changed', 'SUCCEEDED']]);
    expect(await deliveries(t, { eventId: envelope.id })).toHaveLength(1);
  });

  it('recovers every pooled connection that was waiting when the database went silent', async () => {
    // Given a pool whose every connection (10) is open and idle
    await Promise.all(Array.from({ length: 10 }, () => t.gateway.db.fork().execute('select pg_sleep(0.2)')));
    const deposits = await Promise.all(Array.from({ length: 10 }, () => insertDeposit(t)));
    const envelopes = deposits.map((deposit) => paymentEnvelope(deposit, 'approved'));

    // When a delivery for each deposit arrives while the database is silent
    await withSilentDatabase(async () => {
      const statuses = await Promise.all(envelopes.map(async (envelope) => (await deliver(t, envelope)).status));
      expect(statuses.every((status) => status >= 500)).toBe(true);
    });

    // Then, the database back, the provider's retries are applied: no connection stayed stuck
    for (const envelope of envelopes) expect(await deliver(t, envelope)).toEqual({ status: 200, outcome: 'applied' });
    for (const deposit of deposits) expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
  });

  it('a webhook for a deposit locked by another session gets a 5xx, and is applied once the lock is gone', async () => {
    // Given a deposit row locked by a transaction that does not end
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved');
    const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select id from deposit where id = $1 for update', [deposit.id]);

      // Then the delivery is refused after the statement time-out instead of waiting on the lock
      expect((await deliver(t, envelope)).status).toBeGreaterThanOrEqual(500);
      expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
      expect(await deliveries(t, { eventId: envelope.id })).toHaveLength(0);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }

    // When the provider retries with the lock released
    expect(await deliver(t, envelope)).toEqual({ status: 200, outcome: 'applied' });

    // Then it is applied, once
    expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
    expect((await eventsOf(t, deposit.id)).map((event) => [event.type, event.toStatus])).toEqual([['deposit.status_changed', 'SUCCEEDED']]);
  });
});
