// Resumable subscriptions: a subscriber whose socket drops reconnects with the cursor of the last
// message it got (`after`) and receives every change it missed, in order, then live ones, with no
// gap and no repeat, whichever instance committed them, across a gateway restart, and only what
// it may see. Cursors past the replay window or not cursors at all are refused before anything is
// sent. Real graphql-ws clients, resuming as docs/clients.md shows: retryAttempts, and the last cursor
// written into the variables graphql-ws sends again on every reconnect.

import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { toDepositSnapshot } from '../../src/modules/deposits/deposit-snapshot.js';
import type { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { encodeCursor } from '../../src/graphql/relay.js';
import { graphql } from '../__generated__/gql.js';
import { ManualClock } from '../support/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { insertDeposit } from '../webhooks/support.js';
import { eventsAfter } from '../deposits/support.js';

const ResumeDepositsSubscription = graphql(`
  subscription ResumeDeposits($id: ID, $after: String) {
    depositUpdated(id: $id, after: $after) { id status }
  }
`);

const ResumeRefundsSubscription = graphql(`
  subscription ResumeRefunds($after: String) {
    refundUpdated(after: $after) { id status }
  }
`);

const ResumePayoutsSubscription = graphql(`
  subscription ResumePayouts($after: String) {
    payoutUpdated(after: $after) { id status }
  }
`);

interface Received {
  id: string;
  cursor: string;
}

/**
 * A graphql-ws client that resumes: it keeps the cursor of each message in the variables of its
 * one subscription, which graphql-ws sends again when it reconnects. `cut()` drops the socket; the
 * client reconnects only once `reconnect()` is called.
 */
class Resumer {
  readonly received: Received[] = [];
  readonly errors: Array<{ message: string; extensions?: Record<string, unknown> }> = [];
  connections = 0;
  private socket: WebSocket | undefined;
  private release: (() => void) | undefined;
  private readonly client: Client;
  readonly variables: { id?: string; after?: string };

  constructor(url: () => string, key: string, variables: { id?: string; after?: string } = {}, document: string = print(ResumeDepositsSubscription)) {
    this.variables = { ...variables };
    this.client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      lazy: true,
      retryAttempts: Number.MAX_SAFE_INTEGER,
      shouldRetry: () => true,
      retryWait: () => new Promise<void>((resolve) => (this.release = resolve)),
      on: {
        connected: (socket) => {
          this.socket = socket as WebSocket;
          this.connections += 1;
        },
      },
    });
    const payload = { query: document, variables: this.variables };
    this.client.subscribe<Record<string, { id: string }>>(payload, {
      next: (result) => {
        if (result.errors) this.errors.push(...(result.errors as unknown as Resumer['errors']));
        if (!result.data) return;
        const cursor = (result.extensions as { cursor?: unknown } | undefined)?.cursor;
        if (typeof cursor !== 'string') throw new Error(`a message without its cursor: ${JSON.stringify(result)}`);
        this.received.push({ id: Object.values(result.data)[0]!.id, cursor });
        // What a resuming client does: the next subscribe graphql-ws sends carries the last cursor.
        payload.variables.after = cursor;
      },
      error: (error) => this.errors.push({ message: JSON.stringify(error) }),
      complete: () => undefined,
    });
  }

  /** The socket drops (a tunnel, a deploy): the client waits for `reconnect()`. */
  cut(): void {
    this.socket?.terminate();
  }

  /** Lets the client reconnect, once it has noticed the drop. */
  async reconnect(): Promise<void> {
    await expect.poll(() => this.release !== undefined).toBe(true);
    const release = this.release!;
    this.release = undefined;
    release();
  }

  /** Resolves once `count` messages have arrived in all. */
  async until(count: number): Promise<void> {
    await expect.poll(() => this.received.length >= count || this.errors.length > 0).toBe(true);
    expect(this.errors).toEqual([]);
  }

  dispose(): Promise<void> {
    return Promise.resolve(this.client.dispose());
  }
}

/**
 * A card deposit created with `key` through `g`, as a cashier creates one: one change (its
 * creation), as the sandboxes here leave every payment open (SANDBOX_AUTO_COMPLETE=false).
 */
async function createDeposit(g: TestGateway, key: string): Promise<string> {
  const created = await execute(g.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

/** A change of `deposit` (PENDING to PENDING) committed through `g`; resolves with its cursor. */
async function change(g: TestGateway, deposit: Deposit): Promise<string> {
  const event = await g.gateway.db.fork().transactional((tx) =>
    g.gateway.services.events.append(tx, {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      merchantAccount: deposit.merchantAccount,
      type: 'deposit.status_changed',
      fromStatus: 'PENDING',
      toStatus: 'PENDING',
      snapshot: toDepositSnapshot(deposit),
    }),
  );
  return encodeCursor(String(event.position));
}

function clientId(g: TestGateway, name: string): string {
  return g.gateway.demoClients.find((client) => client.name.startsWith(name))!.id;
}

/** Subscribes with `variables` and resolves with the errors it is refused with, and whatever data came. */
function refusal(g: TestGateway, variables: Record<string, unknown>, document = print(ResumeDepositsSubscription)): Promise<{ errors: Array<{ message: string; extensions?: Record<string, unknown> }>; data: unknown[] }> {
  const client = createClient({ url: g.gateway.wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${g.keys.admin}` }, retryAttempts: 0, lazy: true });
  const data: unknown[] = [];
  const errors: Array<{ message: string; extensions?: Record<string, unknown> }> = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the subscription was not refused; got ${JSON.stringify(data)}`)), 15_000);
    client.subscribe(
      { query: document, variables },
      {
        next: (result) => {
          if (result.data) data.push(result.data);
          if (result.errors) errors.push(...(result.errors as unknown as typeof errors));
        },
        error: (error) => {
          errors.push(...(Array.isArray(error) ? (error as typeof errors) : [{ message: String(error) }]));
          clearTimeout(timer);
          void client.dispose();
          resolve({ errors, data });
        },
        complete: () => {
          clearTimeout(timer);
          void client.dispose();
          resolve({ errors, data });
        },
      },
    );
  });
}

const onPostgres = Boolean(process.env.DATABASE_URL);
const clock = new ManualClock();
let t: TestGateway & { database: TestDatabase };
/** A second instance on the same database (PostgreSQL: two processes cannot share one PGlite directory). */
let b: TestGateway | undefined;
beforeAll(async () => {
  // A two-hour replay window (SUBSCRIPTION_RESUME_WINDOW_MS) where the default is a day; payments
  // the sandboxes leave open, so a created deposit is one change.
  const env = { SUBSCRIPTION_RESUME_WINDOW_MS: String(2 * 60 * 60 * 1000), SANDBOX_AUTO_COMPLETE: 'false' };
  t = await startTestGateway({ clock, env });
  if (onPostgres) b = await startTestGateway({ database: t.database, env });
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** Resumes by outcome, as an operator's scrape of this instance reads them. */
const resumes = (gateway: TestGateway, outcome: 'replayed' | 'expired' | 'invalid') => metric(gateway, new RegExp(`gateway_subscription_resumes_total\\{outcome="${outcome}"\\} (\\d+)`));
/** Changes this instance replayed to resuming subscriptions. */
const replayedEvents = (gateway: TestGateway) => metric(gateway, /gateway_subscription_replayed_events_total (\d+)/);

describe(`a subscription resumed after a dropped socket (${onPostgres ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('receives exactly the changes it missed, in order, then live ones, and only what it may see', async () => {
    // given: a cashier subscribed to its deposits, which has received one message
    const resumer = new Resumer(() => t.gateway.wsUrl, t.keys.webCashier);
    await expect.poll(() => resumer.connections).toBe(1);
    await expect.poll(() => t.gateway.services.pubsub.subscriberCount('payment-events')).toBeGreaterThan(0);
    const first = await createDeposit(t, t.keys.webCashier);
    await resumer.until(1);
    expect(resumer.received.map((message) => message.id)).toEqual([first]);

    // when: its socket is cut, and twenty of its deposits are created meanwhile (every other one
    // through the second instance, when there is one), with another cashier's among them
    resumer.cut();
    const missed: string[] = [];
    for (let i = 0; i < 20; i++) {
      missed.push(await createDeposit(i % 2 === 1 && b ? b : t, t.keys.webCashier));
      if (i % 5 === 0) await createDeposit(t, t.keys.mobileCashier);
    }
    // and it reconnects with the last cursor it saw, while more deposits are created
    await resumer.reconnect();
    const during = await Promise.all([createDeposit(t, t.keys.webCashier), createDeposit(b ?? t, t.keys.webCashier), createDeposit(t, t.keys.mobileCashier)]);
    during.pop();
    await expect.poll(() => resumer.connections).toBe(2);

    // then: the twenty in order, then the ones created during the replay, then a live one, once each
    await resumer.until(1 + 20 + 2);
    const live = await createDeposit(b ?? t, t.keys.webCashier);
    await resumer.until(1 + 20 + 2 + 1);
    // (the two created during the replay in the order they committed, as the log has them)
    const logged = async () => (await eventsAfter(t.gateway.graphqlUrl, t.keys.webCashier, { after: resumer.received[0]!.cursor })).nodes.map((node) => node.subjectId);
    await expect.poll(logged).toHaveLength(20 + 2 + 1);
    const later = (await logged()).filter((id) => during.includes(id));
    expect(later).toHaveLength(2);
    expect(resumer.received.map((message) => message.id)).toEqual([first, ...missed, ...later, live]);
    // and each cursor is the one events(after:) takes: reading after the first gives the same changes
    expect(await logged()).toEqual(resumer.received.slice(1).map((message) => message.id));
    expect(new Set(resumer.received.map((message) => message.cursor)).size).toBe(resumer.received.length);
    await resumer.dispose();
  });

  it('resumed with an id, replays only that subject', async () => {
    // given
    const owner = clientId(t, 'web-cashier');
    const watched = await insertDeposit(t, { clientId: owner });
    const other = await insertDeposit(t, { clientId: owner });
    const start = await change(t, other);
    const [replayedBefore, eventsBefore] = [await resumes(t, 'replayed'), await replayedEvents(t)];

    // when: a subscription to one deposit resumes from a cursor before changes of both
    const expected = [await change(t, watched), await change(t, watched)];
    await change(t, other);
    const resumer = new Resumer(() => t.gateway.wsUrl, t.keys.webCashier, { id: watched.id, after: start });

    // then
    await resumer.until(2);
    expect(resumer.received.map((message) => message.cursor)).toEqual(expected);
    // and an operator's scrape counts the resume and the two changes it replayed
    expect(await resumes(t, 'replayed')).toBe(replayedBefore + 1);
    expect(await replayedEvents(t)).toBe(eventsBefore + 2);
    await resumer.dispose();
  });

  it('refuses what is not an event cursor with CURSOR_INVALID, on every subject, before sending anything', async () => {
    const deposit = await insertDeposit(t);
    const cursor = await change(t, deposit);
    const invalidBefore = await resumes(t, 'invalid');
    const notCursors = ['garbage', encodeCursor('abc'), encodeCursor(['2026-01-01T00:00:00.000Z', 'dep_1']), encodeCursor(String(BigInt(Buffer.from(cursor, 'base64url').toString('utf8').replaceAll('"', '')) + 1_000_000n))];
    for (const after of notCursors) {
      const refused = await refusal(t, { after });
      expect(refused.data).toEqual([]);
      expect(refused.errors.map((error) => error.extensions?.code)).toEqual(['CURSOR_INVALID']);
    }
    for (const document of [print(ResumeRefundsSubscription), print(ResumePayoutsSubscription)]) {
      const refused = await refusal(t, { after: 'garbage' }, document);
      expect(refused.errors.map((error) => error.extensions?.code)).toEqual(['CURSOR_INVALID']);
    }
    expect(await resumes(t, 'invalid')).toBe(invalidBefore + notCursors.length + 2);
  });

  // Last: the clock moves past the window, which expires every cursor made before.
  it('refuses a cursor older than the replay window with CURSOR_EXPIRED, before sending anything', async () => {
    // given: a cursor, and changes after it
    const deposit = await insertDeposit(t);
    const old = await change(t, deposit);
    await change(t, deposit);

    const expiredBefore = await resumes(t, 'expired');
    // when: more than the configured two hours later (well within the default day)
    clock.advance(2 * 60 * 60 * 1000 + 60_000);
    const refused = await refusal(t, { after: old });

    // then
    expect(refused.data).toEqual([]);
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0]!.extensions?.code).toBe('CURSOR_EXPIRED');
    expect(refused.errors[0]!.message).toMatch(/older than the 2 hours a subscription can replay: reload the state with a query, then subscribe without after/);
    expect(await resumes(t, 'expired')).toBe(expiredBefore + 1);
  });
});

describe(`a subscription resumed after a gateway restart (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('receives the changes committed by the restarted gateway since its cursor', async () => {
    // given: a gateway on its own database, and a subscriber that got one message
    const database = await createTestDatabase();
    let current = await startTestGateway({ database });
    try {
      const owner = clientId(current, 'web-cashier');
      const deposit = await insertDeposit(current, { clientId: owner });
      const resumer = new Resumer(() => current.gateway.wsUrl, current.keys.webCashier);
      await expect.poll(() => resumer.connections).toBe(1);
      await expect.poll(() => current.gateway.services.pubsub.subscriberCount('payment-events')).toBeGreaterThan(0);
      const first = await change(current, deposit);
      await resumer.until(1);

      // when: the gateway stops (its sockets with it), starts again on the same database, and
      // changes commit before the subscriber is back
      await current.gateway.close();
      current = await startTestGateway({ database });
      const missed = [await change(current, deposit), await change(current, deposit), await change(current, deposit)];
      await resumer.reconnect();

      // then
      await resumer.until(4);
      expect(resumer.received.map((message) => message.cursor)).toEqual([first, ...missed]);
      const live = await change(current, deposit);
      await resumer.until(5);
      expect(resumer.received.at(-1)!.cursor).toBe(live);
      await resumer.dispose();
    } finally {
      await current.gateway.close();
      await database.drop();
    }
  });
});
