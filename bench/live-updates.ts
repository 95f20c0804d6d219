// B4: webhook-to-subscriber latency with many graphql-ws `depositUpdated` subscribers, beside a raw
// `ws` server broadcasting the same frame to as many raw clients. B5: the heap each idle
// subscription costs the gateway's process, beside what an idle raw connection costs a bare ws
// server. Subscribers live in processes of their own, one per side.

import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryResult } from './clients-process.js';
import { interleaved, type Side } from './compare.js';
import type { BenchChild } from './ipc.js';
import type { BenchSettings } from './settings.js';
import { waitFor } from './stats.js';
import { webhookUrl, type GatewayChild, type Topology } from './topology.js';
import { approvedDeposits } from './webhooks.js';

const CONNECT_TIMEOUT_MS = 600_000;

export interface LiveUpdatesAtCount {
  subscribers: number;
  frameBytes: number;
  connectMs: Record<Side, number>;
  rounds: Record<Side, DeliveryResult[]>;
  /**
   * The floor (bench/baseline-server.ts `webhookFloor`): the same webhooks' bare work, its frame sent
   * to the raw connections at the commit; measured after the raw broadcast in each baseline turn.
   * PostgreSQL only.
   */
  floor?: DeliveryResult[];
  /**
   * The floor again, to graphql-ws clients of the same kind as the gateway's subscribers (the
   * baseline server answers enough of the protocol): measured after the interleaved rounds, with the
   * raw clients gone. PostgreSQL only.
   */
  floorGraphqlWs?: DeliveryResult[];
  /** Follow-up job runs that failed while this count was measured (a blocked event loop times out queries). */
  failedJobRuns: number;
}

export async function benchLiveUpdates(topology: Topology, settings: BenchSettings): Promise<LiveUpdatesAtCount[]> {
  const gateway = topology.gateways[0]!;
  const gatewaySide = await topology.spawnClients('subscribers-gateway');
  const rawSide = await topology.spawnClients('subscribers-raw');
  const results: LiveUpdatesAtCount[] = [];
  try {
    for (const count of settings.subscribers) {
      const deposits = await approvedDeposits(topology, 1 + settings.rounds * settings.deliveries);
      const floorDeposits = topology.database.kind === 'postgresql' ? await approvedDeposits(topology, 2 * (1 + settings.rounds * settings.deliveries)) : [];
      const failedBefore = await gateway.call<number>('failedJobRuns');
      const warmup = deposits.shift()!;
      const rawIds = deposits.map((deposit) => deposit.id);
      const target = { webhookUrl: webhookUrl(gateway, topology.account), secrets: topology.account.webhookSecrets };

      const gatewayConnect = await gatewaySide.call<{ connectMs: number }>('connectGateway', { wsUrl: gateway.info.wsUrl, key: gateway.info.keys.admin, count }, CONNECT_TIMEOUT_MS);
      await subscribed(gateway, count);
      // Untimed: proves every subscription is live, warms the path, and captures the frame the baseline sends.
      await gatewaySide.call('deliverGateway', { ...target, deposits: [warmup] }, CONNECT_TIMEOUT_MS);
      const sample = await gatewaySide.call<{ frame: string; depositId: string }>('sample');

      const rawConnect = await rawSide.call<{ connectMs: number }>('connectRaw', { wsUrl: topology.baseline.info.wsUrl, count }, CONNECT_TIMEOUT_MS);
      await waitFor(async () => (await topology.baseline.call<number>('connections')) >= count, `${count} raw connections`);
      const broadcast = { broadcastUrl: `${topology.baseline.info.url}/broadcast`, frame: sample.frame, sampleId: sample.depositId };
      await rawSide.call('deliverRaw', { ...broadcast, depositIds: [warmup.id] }, CONNECT_TIMEOUT_MS);
      const floorTarget = { webhookUrl: `${topology.baseline.info.url}/webhook-floor`, secrets: topology.account.webhookSecrets };
      if (floorDeposits.length > 0) await rawSide.call('deliverFloor', { ...floorTarget, deposits: floorDeposits.splice(0, 1) }, CONNECT_TIMEOUT_MS);

      const floor: DeliveryResult[] = [];
      const rounds = await interleaved(settings.rounds, async (side) => {
        if (side === 'gateway') return gatewaySide.call<DeliveryResult>('deliverGateway', { ...target, deposits: deposits.splice(0, settings.deliveries) }, CONNECT_TIMEOUT_MS);
        const raw = await rawSide.call<DeliveryResult>('deliverRaw', { ...broadcast, depositIds: rawIds.splice(0, settings.deliveries) }, CONNECT_TIMEOUT_MS);
        if (floorDeposits.length > 0) floor.push(await rawSide.call<DeliveryResult>('deliverFloor', { ...floorTarget, deposits: floorDeposits.splice(0, settings.deliveries) }, CONNECT_TIMEOUT_MS));
        return raw;
      });
      const floorGraphqlWs: DeliveryResult[] = [];
      if (floorDeposits.length > 0) {
        await rawSide.call('disconnect');
        await waitFor(async () => (await topology.baseline.call<number>('connections')) === 0, 'raw connections to close');
        await rawSide.call('connectGateway', { wsUrl: topology.baseline.info.wsUrl, key: 'floor', count }, CONNECT_TIMEOUT_MS);
        await waitFor(async () => (await topology.baseline.call<number>('connections')) >= count, `${count} graphql-ws connections to the floor`);
        await rawSide.call('deliverFloor', { ...floorTarget, deposits: floorDeposits.splice(0, 1) }, CONNECT_TIMEOUT_MS);
        for (let round = 0; round < settings.rounds; round++) {
          floorGraphqlWs.push(await rawSide.call<DeliveryResult>('deliverFloor', { ...floorTarget, deposits: floorDeposits.splice(0, settings.deliveries) }, CONNECT_TIMEOUT_MS));
        }
      }
      const failedJobRuns = (await gateway.call<number>('failedJobRuns')) - failedBefore;
      results.push({ subscribers: count, frameBytes: Buffer.byteLength(sample.frame), connectMs: { gateway: gatewayConnect.connectMs, baseline: rawConnect.connectMs }, rounds, ...(floor.length > 0 ? { floor, floorGraphqlWs } : {}), failedJobRuns });
      await Promise.all([gatewaySide.call('disconnect'), rawSide.call('disconnect')]);
      await unsubscribed(gateway);
    }
  } finally {
    await Promise.all([gatewaySide.stop(), rawSide.stop()]);
  }
  return results;
}

/** Heap growth per idle subscription (gateway) and per idle raw connection (baseline), in bytes, per round. */
export async function benchIdleSubscriptions(topology: Topology, settings: BenchSettings): Promise<Record<Side, number[]>> {
  const gateway = topology.gateways[0]!;
  const count = settings.idleSubscribers;
  const clients = await topology.spawnClients('subscribers-idle');
  try {
    return await interleaved(settings.rounds, async (side) => {
      const server: BenchChild<unknown> = side === 'gateway' ? gateway : topology.baseline;
      const before = await server.call<number>('heap');
      if (side === 'gateway') {
        await clients.call('connectGateway', { wsUrl: gateway.info.wsUrl, key: gateway.info.keys.admin, count }, CONNECT_TIMEOUT_MS);
        await subscribed(gateway, count);
      } else {
        await clients.call('connectRaw', { wsUrl: topology.baseline.info.wsUrl, count }, CONNECT_TIMEOUT_MS);
        await waitFor(async () => (await topology.baseline.call<number>('connections')) >= count, `${count} raw connections`);
      }
      const after = await server.call<number>('heap');
      await clients.call('disconnect');
      if (side === 'gateway') await unsubscribed(gateway);
      else await waitFor(async () => (await topology.baseline.call<number>('connections')) === 0, 'raw connections to close');
      return (after - before) / count;
    });
  } finally {
    await clients.stop();
  }
}

/**
 * Until the gateway holds `count` subscriptions. Where its pub/sub no longer tells (the fan-out
 * is being reworked), a pause proportional to the count stands in, and B4's untimed first
 * delivery, which every subscriber must receive, is the proof.
 */
async function subscribed(gateway: GatewayChild, count: number): Promise<void> {
  if ((await gateway.call<number | null>('subscribers')) === null) {
    await sleep(2_000 + count / 2);
    return;
  }
  await waitFor(async () => ((await gateway.call<number | null>('subscribers')) ?? count) >= count, `${count} subscriptions`, CONNECT_TIMEOUT_MS, 50);
}

async function unsubscribed(gateway: GatewayChild): Promise<void> {
  if ((await gateway.call<number | null>('subscribers')) === null) {
    await sleep(2_000);
    return;
  }
  await waitFor(async () => ((await gateway.call<number | null>('subscribers')) ?? 0) === 0, 'subscriptions to close', 120_000, 50);
}
