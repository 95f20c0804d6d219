// B1: card createDeposit over HTTP, beside a bare server making the same provider call and one
// plain INSERT, and beside B1's floor: the same call with the least a deposit needs around it (its
// row and creation event committed before the call, the answer stored after it). The sandbox's
// auto-completion is off for all three, so none also processes approval webhooks: this is the
// request path alone. Beside them, the gateway's request stack alone: `{ __typename }` from the
// same caller, in each gateway turn, whose CPU per request reads against the floor's per deposit.

import { interleaved, throughput, type Side, type ThroughputSample } from './compare.js';
import { AMOUNT, CURRENCY, CUSTOMER, createCardDeposit, graphql } from './fixtures.js';
import type { BenchSettings } from './settings.js';
import { runAtConcurrency } from './stats.js';
import type { Topology } from './topology.js';

export type CreateDepositResult = Record<Side, ThroughputSample[]> & {
  /** B1's floor (bench/baseline-server.ts `createDepositFloor`), measured right after the baseline in each round. */
  floor: ThroughputSample[];
  /**
   * The request stack alone: `{ __typename }` as the web cashier (HTTP, authentication, the client's
   * limits, the context, Apollo's pipeline, the answer), measured right before the gateway's
   * createDeposits in each round.
   */
  stack: ThroughputSample[];
};

/** The smallest operation the gateway serves: what every request pays before it does anything. */
const TYPENAME = '{ __typename }';

export async function benchCreateDeposit(topology: Topology, settings: BenchSettings): Promise<CreateDepositResult> {
  const gateway = topology.gateways[0]!;
  await topology.sandbox.call('setAutoComplete', { on: false });

  const viaGateway = async (): Promise<void> => {
    await createCardDeposit(gateway.info.graphqlUrl, gateway.info.keys.webCashier);
  };
  const baselineUrl = `${topology.sqlBaseline.url}/create-deposit`;
  const baselineBody = JSON.stringify({ amount: AMOUNT, currency: CURRENCY, customer: CUSTOMER });
  const post = (url: string, label: string) => async (): Promise<void> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: baselineBody });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${text}`);
  };
  const viaBaseline = post(baselineUrl, 'baseline createDeposit');
  const viaFloor = post(`${topology.sqlBaseline.url}/create-deposit-floor`, 'the createDeposit floor');
  const viaStack = async (): Promise<void> => {
    await graphql<{ __typename: string }>(gateway.info.graphqlUrl, gateway.info.keys.webCashier, TYPENAME, {});
  };
  const floor: ThroughputSample[] = [];
  const stack: ThroughputSample[] = [];

  // Warm every path (JIT, connection pools, prepared plans) before anything is timed.
  await runAtConcurrency(settings.warmup, settings.concurrency, viaGateway);
  await runAtConcurrency(settings.warmup, settings.concurrency, viaBaseline);
  await runAtConcurrency(settings.warmup, settings.concurrency, viaFloor);
  await runAtConcurrency(settings.warmup, settings.concurrency, viaStack);

  const rounds = await interleaved(settings.rounds, async (side) => {
    if (side === 'baseline') {
      const sample = await throughput(topology.sqlBaseline.process, settings.operations, settings.concurrency, viaBaseline, topology.database.url);
      floor.push(await throughput(topology.sqlBaseline.process, settings.operations, settings.concurrency, viaFloor, topology.database.url));
      return sample;
    }
    // The stack first: what the gateway's own createDeposits leave running after their round
    // (jobs, the call records' write, garbage) is not counted against it.
    await gateway.call('countStart');
    const stackSample = await throughput(gateway, settings.operations, settings.concurrency, viaStack);
    stack.push({ ...stackSample, statementsPerOp: (await gateway.call<number>('countStop')) / settings.operations });
    const paymentsBefore = await topology.sandbox.call<number>('paymentsCreated');
    await gateway.call('countStart');
    const sample = await throughput(gateway, settings.operations, settings.concurrency, viaGateway, topology.database.url);
    const statements = await gateway.call<number>('countStop');
    // Each mutation must have reached the provider once, or the figure measures something else.
    const payments = (await topology.sandbox.call<number>('paymentsCreated')) - paymentsBefore;
    if (payments !== settings.operations) throw new Error(`the sandbox received ${payments} payments for ${settings.operations} createDeposit calls`);
    return { ...sample, statementsPerOp: statements / settings.operations };
  });
  return { ...rounds, floor, stack };
}
