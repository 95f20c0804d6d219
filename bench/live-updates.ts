// Webhook-to-subscriber latency with many graphql-ws subscribers, beside a raw `ws` broadcast of the same frame.

import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket, { WebSocketServer } from 'ws';
import { Deposit } from '../src/modules/deposits/deposit.entity.js';
import { PAYMENT_EVENTS_TOPIC } from '../src/modules/events/payment-event.types.js';
import { SIGNATURE_HEADER } from '../src/providers/deposit-gateway/assumptions.js';
import { signatureHeader } from '../src/providers/deposit-gateway/index.js';
import type { Gateway } from '../src/server/gateway.js';
import { createCardDeposit } from './create-deposit.js';
import { summarize, waitFor, type LatencySummary } from './stats.js';

const ACCOUNT = 'dg-test';
const DELIVERY_TIMEOUT_MS = 30_000;
/** After a round, the stream must be silent this long before the next starts (the fee/net follow-up has passed). */
const QUIET_MS = 100;
const CONNECT_BATCH = 100;

const SUBSCRIPTION = `
  subscription BenchDepositUpdated {
    depositUpdated { id status providerStatus declineReason amount { amount currency } fee { amount currency } net { amount currency } }
  }
`;

interface DepositUpdate {
  depositUpdated: { id: string; status: string };
}

export interface LiveUpdatesOptions {
  subscribers: number;
  deposits: number;
}

export interface LiveUpdatesResult {
  gateway: LatencySummary;
  /** Time for the webhook POST to be answered (commit done), as the provider sees it. */
  webhookAck: LatencySummary;
  baseline: LatencySummary;
  /** Size of the graphql-ws `next` frame carrying the SUCCEEDED update, and of the baseline's frame. */
  frameBytes: number;
  /** Messages each gateway subscriber received in all (the SUCCEEDED one and the fee/net follow-up per deposit). */
  messagesPerSubscriber: number;
  /** Rounds in which every subscriber also got the fee/net follow-up before the next round began. */
  followedUp: number;
  connectMs: number;
}

/** One round: which deposit is awaited, since when, and which subscribers have already seen it. */
interface Round {
  depositId: string;
  startedAt: number;
  seen: Uint8Array;
  remaining: number;
  done: () => void;
}

/** Fans in the receipts of every subscriber, gateway or baseline alike. */
class Receipts {
  readonly latencies: number[] = [];
  lastMessageAt = performance.now();
  messages = 0;
  /** Messages about the current round's deposit, whatever their status. */
  roundMessages = 0;
  private round: Round | undefined;

  constructor(private readonly subscribers: number) {}

  /** Starts timing `depositId` now; resolves once every subscriber has received its SUCCEEDED update. */
  expect(depositId: string): { startedAt: number; delivered: Promise<void> } {
    let done = (): void => undefined;
    const delivered = new Promise<void>((resolve) => {
      done = resolve;
    });
    const startedAt = performance.now();
    this.roundMessages = 0;
    this.round = { depositId, startedAt, seen: new Uint8Array(this.subscribers), remaining: this.subscribers, done };
    return { startedAt, delivered };
  }

  /** Waits for the current round, failing with how many subscribers are still missing it. */
  async delivered(round: Promise<void>): Promise<void> {
    await withTimeout(round, DELIVERY_TIMEOUT_MS, () => `${this.round?.remaining ?? 0} of ${this.subscribers} subscribers never got ${this.round?.depositId}`);
  }

  record(subscriber: number, id: string | undefined, status: string | undefined): void {
    const now = performance.now();
    this.messages += 1;
    this.lastMessageAt = now;
    const round = this.round;
    if (round && id === round.depositId) this.roundMessages += 1;
    // Only the first SUCCEEDED per subscriber counts; the fee/net follow-up repeats the status.
    if (!round || id !== round.depositId || status !== 'SUCCEEDED' || round.seen[subscriber]) return;
    round.seen[subscriber] = 1;
    this.latencies.push(now - round.startedAt);
    round.remaining -= 1;
    if (round.remaining === 0) round.done();
  }

  /**
   * Waits (up to a few seconds) until `count` messages about the current deposit have arrived;
   * returns whether they all did.
   */
  async settled(count: number): Promise<boolean> {
    try {
      await waitFor(() => this.roundMessages >= count, `${count} messages`, 5_000, 5);
      return true;
    } catch {
      return false;
    }
  }

  /** Waits until no message has arrived for QUIET_MS, so one round's tail never overlaps the next. */
  async quiet(): Promise<void> {
    await waitFor(() => performance.now() - this.lastMessageAt >= QUIET_MS, 'a quiet stream', 10_000, 5);
  }
}

export async function benchLiveUpdates(gateway: Gateway, keys: { webCashier: string; admin: string }, options: LiveUpdatesOptions): Promise<LiveUpdatesResult> {
  const deposits = await prepareApprovedDeposits(gateway, keys.webCashier, options.deposits);
  const measured = await measureGateway(gateway, keys.admin, deposits, options.subscribers);
  const frame = JSON.stringify({ id: randomUUID(), type: 'next', payload: measured.sample });
  const baseline = await measureRawBroadcast(frame, measured.sample, deposits.map((deposit) => deposit.id), options.subscribers);
  return {
    gateway: summarize(measured.latencies),
    webhookAck: summarize(measured.acks),
    baseline: summarize(baseline),
    frameBytes: Buffer.byteLength(frame),
    messagesPerSubscriber: measured.messagesPerSubscriber,
    followedUp: measured.followedUp,
    connectMs: measured.connectMs,
  };
}

interface PreparedDeposit {
  id: string;
  reference: string;
  amount: string;
  currency: string;
}

/**
 * K PENDING card deposits whose sandbox payments are approved with their webhooks dropped: the
 * provider's record then holds fee and net (which the gateway fetches after the webhook), and the
 * only webhook the gateway ever gets for them is the one the bench sends and times.
 */
async function prepareApprovedDeposits(gateway: Gateway, cashierKey: string, count: number): Promise<PreparedDeposit[]> {
  const sandbox = gateway.sandboxes.depositGateway;
  if (!sandbox) throw new Error('the deposit gateway sandbox is not running in-process');
  sandbox.controls.setAutoComplete(false);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await createCardDeposit(gateway, cashierKey));

  const em = gateway.db.fork();
  const rows = await em.find(Deposit, { id: { $in: ids } });
  const prepared = ids.map((id) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row?.providerReference) throw new Error(`deposit ${id} has no provider reference`);
    return { id, reference: row.providerReference, amount: row.amount, currency: row.currency };
  });

  sandbox.controls.webhooks({ dropNext: Number.MAX_SAFE_INTEGER });
  for (const deposit of prepared) sandbox.controls.complete(deposit.reference, 'approved');
  await sandbox.controls.idle();
  sandbox.controls.webhooks({ dropNext: 0 });
  return prepared;
}

async function measureGateway(
  gateway: Gateway,
  adminKey: string,
  deposits: PreparedDeposit[],
  subscribers: number,
): Promise<{ latencies: number[]; acks: number[]; sample: unknown; messagesPerSubscriber: number; followedUp: number; connectMs: number }> {
  const receipts = new Receipts(subscribers);
  const failures: string[] = [];
  let sample: unknown;
  const clients: Client[] = [];
  const pubsub = gateway.services.pubsub;
  const openedBefore = pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
  const connectStarted = performance.now();

  try {
    for (let first = 0; first < subscribers; first += CONNECT_BATCH) {
      const last = Math.min(subscribers, first + CONNECT_BATCH);
      for (let index = first; index < last; index++) {
        const client = createClient({
          url: gateway.wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${adminKey}` },
          retryAttempts: 0,
          lazy: true,
        });
        clients.push(client);
        client.subscribe<DepositUpdate>(
          { query: SUBSCRIPTION },
          {
            next: (result) => {
              const update = result.data?.depositUpdated;
              if (update?.status === 'SUCCEEDED' && sample === undefined) sample = result;
              receipts.record(index, update?.id, update?.status);
            },
            error: (error) => failures.push(`subscriber ${index}: ${JSON.stringify(error)}`),
            complete: () => undefined,
          },
        );
      }
      // Batches keep the connect storm (each one authenticates against the database) bounded.
      await waitFor(() => pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC) - openedBefore >= last || failures.length > 0, `${last} subscriptions`, 60_000);
      if (failures.length > 0) throw new Error(`subscriptions failed: ${failures.slice(0, 3).join('; ')}`);
    }
    const connectMs = performance.now() - connectStarted;

    const account = gateway.config.merchantAccounts.find((candidate) => candidate.code === ACCOUNT);
    if (!account) throw new Error(`merchant account ${ACCOUNT} is not configured`);
    const webhookUrl = `${gateway.url}/webhooks/deposit-gateway/${ACCOUNT}`;
    const acks: number[] = [];
    let followedUp = 0;
    for (const deposit of deposits) {
      const body = JSON.stringify({
        id: `evt_${randomBytes(10).toString('hex')}`,
        event: 'payment.approved',
        livemode: false,
        created_at: new Date().toISOString(),
        data: { reference: deposit.reference, merchant_reference: deposit.id, status: 'approved', amount: deposit.amount, currency: deposit.currency },
      });
      const headers = { 'content-type': 'application/json', [SIGNATURE_HEADER]: signatureHeader(body, account.webhookSecrets, Math.floor(Date.now() / 1000)) };
      const { startedAt, delivered } = receipts.expect(deposit.id);
      const response = await fetch(webhookUrl, { method: 'POST', headers, body });
      acks.push(performance.now() - startedAt);
      const answer = (await response.json()) as { outcome?: string };
      if (response.status !== 200 || answer.outcome !== 'applied') throw new Error(`webhook for ${deposit.id} answered ${response.status} ${JSON.stringify(answer)}`);
      await receipts.delivered(delivered);
      // The fee/net follow-up fans out to every subscriber too; the next round starts after it.
      if (await receipts.settled(2 * subscribers)) followedUp += 1;
      await receipts.quiet();
    }
    if (failures.length > 0) throw new Error(`subscriptions failed: ${failures.slice(0, 3).join('; ')}`);
    return { latencies: receipts.latencies, acks, sample, messagesPerSubscriber: receipts.messages / subscribers, followedUp, connectMs };
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
  }
}

/** The baseline: one raw `ws` server writing the same frame to every raw `ws` client, K rounds. */
async function measureRawBroadcast(frameTemplate: string, sample: unknown, depositIds: string[], subscribers: number): Promise<number[]> {
  const template = sample as { data?: DepositUpdate };
  const sampleId = template.data?.depositUpdated.id;
  if (!sampleId) throw new Error('no SUCCEEDED message was captured from the gateway');

  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const receipts = new Receipts(subscribers);
  const sockets: WebSocket[] = [];
  try {
    for (let first = 0; first < subscribers; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, subscribers - first) }, (_, offset) => {
        const index = first + offset;
        const socket = new WebSocket(`ws://127.0.0.1:${port}`);
        sockets.push(socket);
        // Parsed and checked as a graphql-ws client would, so the receiving side does comparable work.
        socket.on('message', (data: WebSocket.RawData) => {
          const message = JSON.parse(data.toString()) as { type?: string; payload?: { data?: DepositUpdate } };
          const update = message.type === 'next' ? message.payload?.data?.depositUpdated : undefined;
          receipts.record(index, update?.id, update?.status);
        });
        return new Promise<void>((resolve, reject) => {
          socket.once('open', () => resolve());
          socket.once('error', reject);
        });
      });
      await Promise.all(batch);
    }
    await waitFor(() => server.clients.size >= subscribers, `${subscribers} raw connections`);

    for (const depositId of depositIds) {
      // Deposit ids have one length, so every round's frame is exactly as large as the gateway's.
      const frame = Buffer.from(frameTemplate.split(sampleId).join(depositId));
      const { delivered } = receipts.expect(depositId);
      for (const client of server.clients) client.send(frame, { binary: false });
      await receipts.delivered(delivered);
      await receipts.quiet();
    }
    return receipts.latencies;
  } finally {
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
