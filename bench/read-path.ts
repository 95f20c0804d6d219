// B2: a page of deposits with their refunds and events, read by an admin, beside the same rows
// read by three hand-written statements and served as JSON by a bare node:http server. Also the
// stack alone (`{ __typename }`): what any request costs the gateway before it reads anything.

import { analyzeFixtures } from './environment.js';
import { interleaved, throughput, type Side, type ThroughputSample } from './compare.js';
import { DEPOSITS_PAGE, createCardDeposit, graphql } from './fixtures.js';
import type { BenchSettings } from './settings.js';
import { runAtConcurrency } from './stats.js';
import type { Topology } from './topology.js';

const REQUEST_REFUND = `
  mutation BenchRequestRefund($input: RequestRefundInput!) {
    requestRefund(input: $input) { refund { id status } userErrors { code message } }
  }
`;

interface PageNode {
  id: string;
  refunds: Array<{ id: string }>;
  events: Array<{ id: string }>;
}
interface Page {
  deposits: { edges: Array<{ node: PageNode }> };
}

export interface ReadPathResult {
  /** Per page size: both sides' rounds. */
  bySize: Array<{ size: number; rounds: Record<Side, ThroughputSample[]> }>;
  /** What the largest page held: deposits, refunds and events. */
  rows: { deposits: number; refunds: number; events: number };
  /**
   * The stack alone: `{ __typename }` as the admin, through the same HTTP server, authentication,
   * context and Apollo pipeline, reading nothing; one sample per round, after the pages.
   */
  stackOnly: ThroughputSample[];
}

/** The smallest operation the gateway serves: what every request pays before it reads anything. */
const TYPENAME = '{ __typename }';

export async function benchReadPath(topology: Topology, settings: BenchSettings): Promise<ReadPathResult> {
  const gateway = topology.gateways[0]!;
  const largest = Math.max(...settings.pageSizes);
  await prepareDeposits(topology, largest);
  await analyzeFixtures(topology.database);

  const { graphqlUrl, keys } = gateway.info;
  const viaGateway = (size: number) => async (): Promise<void> => {
    await graphql<Page>(graphqlUrl, keys.admin, DEPOSITS_PAGE, { first: size });
  };
  const viaBaseline = (size: number) => async (): Promise<void> => {
    const response = await fetch(`${topology.sqlBaseline.url}/deposits?first=${size}`);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`baseline deposits page answered ${response.status}: ${text}`);
  };

  // Both sides must serve the same rows, or the ratio compares different work.
  const fromGateway = await graphql<Page>(graphqlUrl, keys.admin, DEPOSITS_PAGE, { first: largest });
  const fromBaseline = ((await (await fetch(`${topology.sqlBaseline.url}/deposits?first=${largest}`)).json()) as { data: Page }).data;
  const shape = (page: Page): string => JSON.stringify(page.deposits.edges.map(({ node }) => [node.id, node.refunds.map((r) => r.id), node.events.map((e) => e.id)]));
  if (shape(fromGateway) !== shape(fromBaseline)) throw new Error('the baseline page differs from the gateway page: the hand-written SQL no longer reads what deposits(first) shows');
  const nodes = fromGateway.deposits.edges.map((edge) => edge.node);
  const rows = { deposits: nodes.length, refunds: nodes.reduce((sum, node) => sum + node.refunds.length, 0), events: nodes.reduce((sum, node) => sum + node.events.length, 0) };

  const bySize: ReadPathResult['bySize'] = [];
  for (const size of settings.pageSizes) {
    await runAtConcurrency(settings.warmup, settings.concurrency, viaGateway(size));
    await runAtConcurrency(settings.warmup, settings.concurrency, viaBaseline(size));
    const rounds = await interleaved(settings.rounds, async (side) => {
      if (side === 'baseline') return { ...(await throughput(topology.sqlBaseline.process, settings.reads, settings.concurrency, viaBaseline(size), topology.database.url)), statementsPerOp: 3 };
      await gateway.call('countStart');
      const sample = await throughput(gateway, settings.reads, settings.concurrency, viaGateway(size), topology.database.url);
      return { ...sample, statementsPerOp: (await gateway.call<number>('countStop')) / settings.reads };
    });
    bySize.push({ size, rounds });
  }

  const viaStack = async (): Promise<void> => {
    await graphql<{ __typename: string }>(graphqlUrl, keys.admin, TYPENAME, {});
  };
  await runAtConcurrency(settings.warmup, settings.concurrency, viaStack);
  const stackOnly: ThroughputSample[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    await gateway.call('countStart');
    const sample = await throughput(gateway, settings.reads, settings.concurrency, viaStack);
    stackOnly.push({ ...sample, statementsPerOp: (await gateway.call<number>('countStop')) / settings.reads });
  }
  return { bySize, rows, stackOnly };
}

/**
 * The newest `count` deposits, as a back office sees them after a while: approved by the
 * provider's own webhook (so each has its created, status and fee/net events), each with a
 * refund and every other one with a second.
 */
async function prepareDeposits(topology: Topology, count: number): Promise<void> {
  const gateway = topology.gateways[0]!;
  const { graphqlUrl, keys } = gateway.info;
  await topology.sandbox.call('setAutoComplete', { on: true });
  try {
    const ids: string[] = [];
    await runAtConcurrency(count, 8, async () => {
      ids.push(await createCardDeposit(graphqlUrl, keys.webCashier));
    });
    await settle(topology);
    await runAtConcurrency(ids.length, 8, async (index) => {
      const amounts = index % 2 === 0 ? ['5.00', '2.50'] : ['5.00'];
      for (const amount of amounts) {
        const data = await graphql<{ requestRefund: { refund: { id: string } | null; userErrors: unknown[] } }>(graphqlUrl, keys.admin, REQUEST_REFUND, {
          input: { depositId: ids[index], amount, reason: 'bench' },
        });
        if (!data.requestRefund.refund) throw new Error(`requestRefund refused: ${JSON.stringify(data.requestRefund.userErrors)}`);
      }
    });
    await settle(topology);
  } finally {
    await topology.sandbox.call('setAutoComplete', { on: false });
  }
}

/** Until the sandbox has delivered its webhooks and the gateway has run the follow-up jobs. */
async function settle(topology: Topology): Promise<void> {
  await topology.sandbox.call('idle');
  const open = await topology.gateways[0]!.call<number>('drain', { timeoutMs: 60_000 });
  if (open > 0) throw new Error(`${open} follow-up jobs still open a minute after the B2 fixtures were created`);
}
