// Subscribers for B4/B5, in a process of their own (never the gateway's): graphql-ws clients
// subscribed to depositUpdated, or raw `ws` clients of the baseline server. The process also sends
// what triggers each delivery (a signed webhook, or a broadcast request) so that one clock times
// the trigger and every receipt.

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { messageText } from '../src/lib/ws-message.js';
import { DEPOSIT_UPDATED, sendApproval, type ApprovedDeposit } from './fixtures.js';
import { serveHarness } from './ipc.js';
import { summarize, waitFor, type LatencySummary } from './stats.js';

const DELIVERY_TIMEOUT_MS = 60_000;
/** After a delivery, the stream must be silent this long before the next starts (the fee/net follow-up has passed). */
const QUIET_MS = 100;
/** A provider retries a delivery answered 5xx; here sooner than the sandbox's 10 s, and at most this often. */
const WEBHOOK_ATTEMPTS = 5;
const WEBHOOK_RETRY_MS = 1_000;
/** Connections opened at once: each one authenticates against the database, so the storm is bounded. */
const CONNECT_BATCH = 100;

interface DepositUpdate {
  depositUpdated: { id: string; status: string };
}

/** One delivery: which deposit is awaited, since when, and which subscribers have already seen it. */
interface Awaited {
  depositId: string;
  startedAt: number;
  seen: Uint8Array;
  remaining: number;
  /** When the first subscriber got it, since `startedAt`. */
  firstMs?: number;
  done: () => void;
}

/** Fans in the receipts of every subscriber, gateway or baseline alike. */
class Receipts {
  latencies: number[] = [];
  /** Per delivery: when its first subscriber, and when its last, had the update (what the frame loop's length adds to the wait before it). */
  firstFrames: number[] = [];
  lastFrames: number[] = [];
  lastMessageAt = performance.now();
  messages = 0;
  /** Messages about the awaited deposit, whatever their status. */
  awaitedMessages = 0;
  private awaited: Awaited | undefined;

  constructor(private readonly subscribers: number) {}

  /** Starts timing `depositId` now; resolves once every subscriber has received its SUCCEEDED update. */
  expect(depositId: string): { startedAt: number; delivered: Promise<void> } {
    let done = (): void => undefined;
    const delivered = new Promise<void>((resolve) => {
      done = resolve;
    });
    const startedAt = performance.now();
    this.awaitedMessages = 0;
    this.awaited = { depositId, startedAt, seen: new Uint8Array(this.subscribers), remaining: this.subscribers, done };
    return { startedAt, delivered };
  }

  async delivered(delivered: Promise<void>): Promise<void> {
    await withTimeout(delivered, DELIVERY_TIMEOUT_MS, () => `${this.awaited?.remaining ?? 0} of ${this.subscribers} subscribers never got ${this.awaited?.depositId}`);
  }

  record(subscriber: number, id: string | undefined, status: string | undefined): void {
    const now = performance.now();
    this.messages += 1;
    this.lastMessageAt = now;
    const awaited = this.awaited;
    if (awaited && id === awaited.depositId) this.awaitedMessages += 1;
    // Only the first SUCCEEDED per subscriber counts; the fee/net follow-up repeats the status.
    if (!awaited || id !== awaited.depositId || status !== 'SUCCEEDED' || awaited.seen[subscriber]) return;
    awaited.seen[subscriber] = 1;
    const latency = now - awaited.startedAt;
    this.latencies.push(latency);
    awaited.firstMs ??= latency;
    awaited.remaining -= 1;
    if (awaited.remaining === 0) {
      this.firstFrames.push(awaited.firstMs);
      this.lastFrames.push(latency);
      awaited.done();
    }
  }

  /** Starts a run of deliveries: no latency of an earlier run is counted in it. */
  reset(): void {
    this.latencies = [];
    this.firstFrames = [];
    this.lastFrames = [];
  }

  /** What a run of deliveries measured, every subscriber's latency and each delivery's first and last. */
  summary(): Pick<DeliveryResult, 'latency' | 'firstFrame' | 'lastFrame'> {
    return { latency: summarize(this.latencies), firstFrame: summarize(this.firstFrames), lastFrame: summarize(this.lastFrames) };
  }

  /** Waits (up to a few seconds) until `count` messages about the awaited deposit have arrived; returns whether they all did. */
  async settled(count: number): Promise<boolean> {
    try {
      await waitFor(() => this.awaitedMessages >= count, `${count} messages`, 10_000, 5);
      return true;
    } catch {
      return false;
    }
  }

  /** Waits until no message has arrived for QUIET_MS, so one delivery's tail never overlaps the next. */
  async quiet(): Promise<void> {
    await waitFor(() => performance.now() - this.lastMessageAt >= QUIET_MS, 'a quiet stream', 30_000, 5);
  }
}

export interface DeliveryResult {
  latency: LatencySummary;
  /** Per delivery, until its first subscriber had the update. */
  firstFrame: LatencySummary;
  /** Per delivery, until its last subscriber had it. */
  lastFrame: LatencySummary;
  /** Gateway only: time for the webhook POST to be answered (commit done), as the provider sees it. */
  ack?: LatencySummary;
  /** Gateway only: deliveries after which every subscriber also got the fee/net follow-up. */
  followedUp?: number;
  /** Gateway only: webhook POSTs answered 5xx (each retried as the provider would; the clock keeps running from the first). */
  webhookErrors?: number;
  deliveries: number;
}

let receipts: Receipts | undefined;
const graphqlClients: Client[] = [];
const rawSockets: WebSocket[] = [];
const failures: string[] = [];
/** The first SUCCEEDED `next` payload a gateway subscriber received: the baseline sends a frame like it. */
let sample: { frame: string; depositId: string } | undefined;

const harness = serveHarness(
  {
    async connectGateway({ wsUrl, key, count }: { wsUrl: string; key: string; count: number }) {
      await disconnect();
      const started = performance.now();
      const subscribers = new Receipts(count);
      receipts = subscribers;
      for (let first = 0; first < count; first += CONNECT_BATCH) {
        const batch: Array<Promise<void>> = [];
        for (let index = first; index < Math.min(count, first + CONNECT_BATCH); index++) {
          batch.push(
            new Promise<void>((resolve, reject) => {
              const client = createClient({
                url: wsUrl,
                webSocketImpl: WebSocket,
                connectionParams: { authorization: `Bearer ${key}` },
                retryAttempts: 0,
                lazy: true,
                on: { connected: () => resolve(), closed: (event) => reject(new Error(`subscriber ${index} closed before it was connected: ${JSON.stringify(event)}`)) },
              });
              graphqlClients.push(client);
              client.subscribe<DepositUpdate>(
                { query: DEPOSIT_UPDATED },
                {
                  next: (result) => {
                    const update = result.data?.depositUpdated;
                    if (update?.status === 'SUCCEEDED' && !sample) sample = { frame: JSON.stringify({ id: randomUUID(), type: 'next', payload: result }), depositId: update.id };
                    subscribers.record(index, update?.id, update?.status);
                  },
                  error: (error) => failures.push(`subscriber ${index}: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
                  complete: () => undefined,
                },
              );
            }),
          );
        }
        await Promise.all(batch);
        if (failures.length > 0) throw new Error(`subscriptions failed: ${failures.slice(0, 3).join('; ')}`);
      }
      return { connectMs: performance.now() - started };
    },

    async connectRaw({ wsUrl, count }: { wsUrl: string; count: number }) {
      await disconnect();
      const started = performance.now();
      const subscribers = new Receipts(count);
      receipts = subscribers;
      for (let first = 0; first < count; first += CONNECT_BATCH) {
        const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, offset) => {
          const index = first + offset;
          const socket = new WebSocket(wsUrl);
          rawSockets.push(socket);
          // Parsed and checked as a graphql-ws client would, so the receiving side does comparable work.
          socket.on('message', (data: WebSocket.RawData) => {
            const message = JSON.parse(messageText(data)) as { type?: string; payload?: { data?: DepositUpdate } };
            const update = message.type === 'next' ? message.payload?.data?.depositUpdated : undefined;
            subscribers.record(index, update?.id, update?.status);
          });
          return new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
          });
        });
        await Promise.all(batch);
      }
      return { connectMs: performance.now() - started };
    },

    /** The frame the baseline broadcasts: the gateway's own `next` frame for a SUCCEEDED update. */
    sample() {
      if (!sample) throw new Error('no SUCCEEDED message has reached a gateway subscriber yet');
      return sample;
    },

    /** One signed webhook per deposit, one after another; each timed until every subscriber has its SUCCEEDED update. */
    async deliverGateway({ webhookUrl, secrets, deposits }: { webhookUrl: string; secrets: string[]; deposits: ApprovedDeposit[] }): Promise<DeliveryResult> {
      const subscribers = connected();
      subscribers.reset();
      const acks: number[] = [];
      let followedUp = 0;
      let webhookErrors = 0;
      for (const deposit of deposits) {
        const { startedAt, delivered } = subscribers.expect(deposit.id);
        for (let attempt = 1; ; attempt++) {
          const { status, outcome, answer } = await sendApproval(webhookUrl, deposit, secrets);
          // A retry after a 5xx may find the first attempt committed after all.
          if (status === 200 && (outcome === 'applied' || (attempt > 1 && outcome === 'duplicate'))) break;
          if (status < 500 || attempt === WEBHOOK_ATTEMPTS) throw new Error(`webhook for ${deposit.id} answered ${status} ${JSON.stringify(answer)} (attempt ${attempt})`);
          webhookErrors += 1;
          await sleep(WEBHOOK_RETRY_MS);
        }
        acks.push(performance.now() - startedAt);
        await subscribers.delivered(delivered);
        // The fee/net follow-up fans out to every subscriber too; the next delivery starts after it.
        if (await subscribers.settled(2 * graphqlClients.length)) followedUp += 1;
        await subscribers.quiet();
      }
      if (failures.length > 0) throw new Error(`subscriptions failed: ${failures.slice(0, 3).join('; ')}`);
      return { ...subscribers.summary(), ack: summarize(acks), followedUp, webhookErrors, deliveries: deposits.length };
    },

    /**
     * The floor: one signed webhook per deposit to the baseline server's bare webhook route, which
     * writes the change and sends its frame to every connection (raw or graphql-ws); timed as the
     * gateway's are.
     */
    async deliverFloor({ webhookUrl, secrets, deposits }: { webhookUrl: string; secrets: string[]; deposits: ApprovedDeposit[] }): Promise<DeliveryResult> {
      const subscribers = connected();
      subscribers.reset();
      for (const deposit of deposits) {
        const { delivered } = subscribers.expect(deposit.id);
        const { status, outcome, answer } = await sendApproval(webhookUrl, deposit, secrets);
        if (status !== 200 || outcome !== 'applied') throw new Error(`the floor's webhook for ${deposit.id} answered ${status} ${JSON.stringify(answer)}`);
        await subscribers.delivered(delivered);
        await subscribers.quiet();
      }
      // No ack time: the floor answers only after its frames are written, which is what makes it a floor for the subscribers.
      return { ...subscribers.summary(), deliveries: deposits.length };
    },

    /** The baseline: for each id, one request to the raw server, which writes the gateway's frame (with that id) to every connection. */
    async deliverRaw({ broadcastUrl, frame, sampleId, depositIds }: { broadcastUrl: string; frame: string; sampleId: string; depositIds: string[] }): Promise<DeliveryResult> {
      const subscribers = connected();
      subscribers.reset();
      for (const depositId of depositIds) {
        // Deposit ids have one length, so every frame is exactly as large as the gateway's.
        const body = frame.split(sampleId).join(depositId);
        const { delivered } = subscribers.expect(depositId);
        const response = await fetch(broadcastUrl, { method: 'POST', body });
        if (response.status !== 204) throw new Error(`broadcast answered ${response.status}`);
        await subscribers.delivered(delivered);
        await subscribers.quiet();
      }
      return { ...subscribers.summary(), deliveries: depositIds.length };
    },

    disconnect: () => disconnect(),
  },
  {
    async onExit() {
      await disconnect();
    },
  },
);

function connected(): Receipts {
  if (!receipts) throw new Error('no subscribers are connected');
  return receipts;
}

async function disconnect(): Promise<null> {
  const clients = graphqlClients.splice(0);
  // dispose() is typed `void | Promise<void>`; graphql-ws's client returns a promise, waited for here.
  await Promise.all(clients.map(async (client) => client.dispose()));
  for (const socket of rawSockets.splice(0)) socket.terminate();
  receipts = undefined;
  failures.length = 0;
  return null;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

harness.ready({ pid: process.pid });
