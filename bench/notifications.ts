// B6: back-office notifications delivered per second to a local receiver, beside a bare node:http
// POST loop sending as many bodies of the same size, signed the same way, with as many in flight as
// the gateway's job queue runs at once, to the same receiver in the same run; and, on PostgreSQL,
// beside the floor (bench/notification-floor.ts): the same deliveries' least durable work, written
// by hand (claim the due row, sign, POST, record the answer), against the same database and receiver.
//
// The gateway's side replays an endpoint over events already in the log, so the clock runs over
// the delivery work alone (fan-out, one lane per deposit, signing, the POST, the attempt's record),
// not over the webhooks that made the events.

import { createHmac, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { databaseCpu, interleaved, type Side, type ThroughputSample } from './compare.js';
import { graphql, postApproval } from './fixtures.js';
import type { BenchSettings } from './settings.js';
import { runAtConcurrency, waitFor } from './stats.js';
import { webhookUrl, type Topology } from './topology.js';
import { approvedDeposits } from './webhooks.js';

/** The gateway's job concurrency (JOBS_CONCURRENCY's default): deliveries one instance sends at once. */
const IN_FLIGHT = 4;

const CREATE_ENDPOINT = `mutation BenchCreateEndpoint($input: CreateNotificationEndpointInput!) {
  createNotificationEndpoint(input: $input) { endpoint { id cursor } secret userErrors { code message } }
}`;
const UPDATE_ENDPOINT = `mutation BenchUpdateEndpoint($input: UpdateNotificationEndpointInput!) {
  updateNotificationEndpoint(input: $input) { endpoint { id cursor enabled } userErrors { code message } }
}`;
const REPLAY = `mutation BenchReplay($endpointId: ID!, $after: String!) {
  replayNotificationEndpoint(endpointId: $endpointId, after: $after) { userErrors { code message } }
}`;

export interface NotificationsResult {
  rounds: Record<Side, ThroughputSample[]>;
  /** The floor's rounds (PostgreSQL only), each measured in its round's baseline turn. */
  floor?: ThroughputSample[];
  /** The floor's body bytes (its data is the event's, unredacted). */
  floorBodyBytes?: number;
  perRound: number;
  inFlight: number;
  bodyBytes: number;
}

/** A receiver that answers 204 at once and counts what it got. */
async function startReceiver(): Promise<{ url: string; received: () => number; lastBody: () => string; close: () => Promise<void> }> {
  let received = 0;
  let lastBody = '';
  const server: Server = createServer((incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      received += 1;
      lastBody = Buffer.concat(chunks).toString('utf8');
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notifications`,
    received: () => received,
    lastBody: () => lastBody,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The floor: one POST as a bare sender makes it, signed as Standard Webhooks asks, on a connection of its own. */
function barePost(url: URL, secret: Buffer, body: string): Promise<void> {
  const id = `evt_${randomBytes(10).toString('hex')}`;
  const timestamp = Math.floor(Date.now() / 1000).toString();
  const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64');
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
      },
      (response) => {
        response.resume();
        response.on('end', () => (response.statusCode! < 300 ? resolve() : reject(new Error(`receiver answered ${response.statusCode}`))));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export async function benchNotifications(topology: Topology, settings: BenchSettings): Promise<NotificationsResult> {
  const gateway = topology.gateways[0]!;
  const { graphqlUrl, keys } = gateway.info;
  const receiver = await startReceiver();
  const perRound = settings.notifications;
  try {
    const { viewer } = await graphql<{ viewer: { id: string } }>(graphqlUrl, keys.admin, 'query BenchViewer { viewer { id } }', {});
    const created = await graphql<{ createNotificationEndpoint: { endpoint: { id: string } | null; secret: string | null; userErrors: unknown[] } }>(graphqlUrl, keys.admin, CREATE_ENDPOINT, {
      input: { clientId: viewer.id, url: receiver.url, eventTypes: ['deposit.status_changed'] },
    });
    const endpointId = created.createNotificationEndpoint.endpoint?.id;
    const secret = created.createNotificationEndpoint.secret;
    if (!endpointId || !secret) throw new Error(`createNotificationEndpoint refused: ${JSON.stringify(created.createNotificationEndpoint.userErrors)}`);
    const setEnabled = async (enabled: boolean): Promise<string> => {
      const answer = await graphql<{ updateNotificationEndpoint: { endpoint: { cursor: string } | null; userErrors: unknown[] } }>(graphqlUrl, keys.admin, UPDATE_ENDPOINT, { input: { id: endpointId, enabled } });
      if (!answer.updateNotificationEndpoint.endpoint) throw new Error(`updateNotificationEndpoint refused: ${JSON.stringify(answer.updateNotificationEndpoint.userErrors)}`);
      return answer.updateNotificationEndpoint.endpoint.cursor;
    };
    const secretBytes = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const target = new URL(receiver.url);

    /** The events a gateway round replays: `perRound` approvals, made while the endpoint is off. */
    const prepare = async (): Promise<string> => {
      const after = await setEnabled(false);
      const deposits = await approvedDeposits(topology, perRound);
      const url = webhookUrl(gateway, topology.account);
      await runAtConcurrency(deposits.length, settings.concurrency, (index) => postApproval(url, deposits[index]!, topology.account.webhookSecrets));
      await gateway.call('drain', { timeoutMs: 120_000 });
      await setEnabled(true);
      return after;
    };

    /** One floor round: fresh events (the endpoint off, as for the gateway), their rows, then the clock over their delivery. */
    const floorRound = async (): Promise<ThroughputSample> => {
      const after = await prepare();
      // An endpoint's cursor is an events() cursor: base64url of the JSON of its log position (src/graphql/relay.ts).
      const position: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
      if (typeof position !== 'string' || !/^[0-9]+$/.test(position)) throw new Error(`the endpoint's cursor ${after} holds no log position`);
      const rows = await topology.baseline.call<number>('notificationFloorPrepare', { endpointId, after: position, eventType: 'deposit.status_changed' });
      if (rows !== perRound) throw new Error(`the floor's round has ${rows} events to send, not ${perRound}`);
      const before = receiver.received();
      const database = databaseCpu(topology.database.url);
      const cpuBefore = await topology.baseline.call<number>('cpuMs');
      const started = performance.now();
      const run = await topology.baseline.call<{ delivered: number; failed: number }>('notificationFloorRun', { url: receiver.url, secret, inFlight: IN_FLIGHT });
      await waitFor(() => receiver.received() - before >= perRound, `${perRound} floor notifications`, 300_000, 2);
      const elapsedMs = performance.now() - started;
      const cpuAfter = await topology.baseline.call<number>('cpuMs');
      if (run.delivered !== perRound || run.failed > 0) throw new Error(`the floor delivered ${run.delivered} of ${perRound} (${run.failed} failed)`);
      floorBodyBytes = Buffer.byteLength(receiver.lastBody());
      return { perSecond: (perRound / elapsedMs) * 1000, serverCpuMsPerOp: (cpuAfter - cpuBefore) / perRound, p50Ms: Number.NaN, p99Ms: Number.NaN, statementsPerOp: 2, ...database.perOp(perRound) };
    };
    const withFloor = topology.database.kind === 'postgresql';
    const floor: ThroughputSample[] = [];
    let floorBodyBytes: number | undefined;
    let gatewayBodyBytes = 0;

    const rounds = await interleaved(settings.rounds, async (side): Promise<ThroughputSample> => {
      if (side === 'gateway') {
        const after = await prepare();
        const before = receiver.received();
        const database = databaseCpu(topology.database.url);
        await gateway.call('countStart');
        const cpuBefore = await gateway.call<number>('cpuMs');
        const started = performance.now();
        const replayed = await graphql<{ replayNotificationEndpoint: { userErrors: unknown[] } }>(graphqlUrl, keys.admin, REPLAY, { endpointId, after });
        if (replayed.replayNotificationEndpoint.userErrors.length > 0) throw new Error(`replay refused: ${JSON.stringify(replayed.replayNotificationEndpoint.userErrors)}`);
        await waitFor(() => receiver.received() - before >= perRound, `${perRound} notifications`, 300_000, 2);
        const elapsedMs = performance.now() - started;
        const cpuAfter = await gateway.call<number>('cpuMs');
        const statements = await gateway.call<number>('countStop');
        gatewayBodyBytes = Buffer.byteLength(receiver.lastBody());
        return { perSecond: (perRound / elapsedMs) * 1000, serverCpuMsPerOp: (cpuAfter - cpuBefore) / perRound, p50Ms: Number.NaN, p99Ms: Number.NaN, statementsPerOp: statements / perRound, ...database.perOp(perRound) };
      }
      // The floor in the baseline's turn, so that it alternates with the gateway as the baseline does.
      if (withFloor) floor.push(await floorRound());
      const body = receiver.lastBody() || JSON.stringify({ id: 'evt_0123456789abcdef0123', type: 'deposit.status_changed', createdAt: new Date().toISOString(), data: {} });
      const run = await runAtConcurrency(perRound, IN_FLIGHT, () => barePost(target, secretBytes, body));
      // This process also runs the receiver, so its CPU is not the sender's alone: left out.
      return { perSecond: run.perSecond, serverCpuMsPerOp: Number.NaN, p50Ms: run.latency.p50, p99Ms: run.latency.p99 };
    });
    await setEnabled(false);
    return { rounds, ...(withFloor ? { floor, ...(floorBodyBytes !== undefined ? { floorBodyBytes } : {}) } : {}), perRound, inFlight: IN_FLIGHT, bodyBytes: gatewayBodyBytes };
  } finally {
    await receiver.close();
  }
}
