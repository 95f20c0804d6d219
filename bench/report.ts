// The one table a run prints, in Markdown so it can be pasted into docs/benchmarks.md as it is:
// medians over the interleaved rounds, the ratio of the medians, and every round's value beside
// them so the spread is visible.

import type { ThroughputSample } from './compare.js';
import { medianOf, type Side } from './compare.js';
import type { DeliveryResult } from './clients-process.js';
import type { LiveUpdatesAtCount } from './live-updates.js';
import type { NotificationsResult } from './notifications.js';
import type { ReadPathResult } from './read-path.js';
import type { CreateDepositResult } from './create-deposit.js';
import type { WebhookRun, WebhooksResult } from './webhooks.js';

export interface RunResults {
  b1?: CreateDepositResult;
  b2?: ReadPathResult;
  b3?: WebhooksResult;
  b4?: LiveUpdatesAtCount[];
  b5?: Record<Side, number[]>;
  b6?: NotificationsResult;
}

type Row = [bench: string, gateway: string, baseline: string, ratio: string, statements: string, cpu: string, rounds: string];

const HEADER: Row = ['Bench', 'Gateway', 'Baseline', 'Gateway / baseline', 'SQL statements per op (gateway / baseline)', 'CPU ms per op (gateway / baseline): the serving process; PostgreSQL where local', 'Rounds (gateway; baseline)'];

export function resultsTable(results: RunResults, options: { rounds: number; concurrency: number; idleSubscribers: number }): string {
  const rows: Row[] = [];
  const { concurrency } = options;

  if (results.b1) {
    rows.push(throughputRow(`B1 createDeposit/s (card, ${concurrency} in flight)`, results.b1, '1'));
    if (results.b1.floor.length > 0) rows.push(createFloorRow(concurrency, results.b1.floor, results.b1));
    if (results.b1.stack.length > 0) rows.push(stackRow(concurrency, results.b1.stack, results.b1.floor));
  }
  if (results.b2) {
    const { deposits, refunds, events } = results.b2.rows;
    for (const { size, rounds } of results.b2.bySize) {
      rows.push(throughputRow(`B2 deposits(first: ${size}) requests/s (admin, ${concurrency} in flight)`, rounds, '3'));
    }
    rows.push([`B2 largest page held`, `${deposits} deposits, ${refunds} refunds, ${events} events`, 'same rows (checked)', '', '', '', '']);
    const smallest = results.b2.bySize[0];
    if (smallest && results.b2.stackOnly.length > 0) {
      const stack = results.b2.stackOnly;
      const rateOf = medianOf(stack, (s) => s.perSecond);
      const baseline = medianOf(smallest.rounds.baseline, (s) => s.perSecond);
      const cpu = medianOf(stack, (s) => s.serverCpuMsPerOp);
      rows.push([
        `B2 the stack alone: { __typename } requests/s (admin, ${concurrency} in flight; B2 first: ${smallest.size} baseline)`,
        rate(rateOf),
        rate(baseline),
        times(rateOf / baseline),
        `${medianOf(stack, (s) => s.statementsPerOp).toFixed(1)} / 3`,
        `${Number.isFinite(cpu) ? cpu.toFixed(2) : 'n/a'} / ${medianOf(smallest.rounds.baseline, (s) => s.serverCpuMsPerOp).toFixed(2)}`,
        `${stack.map((s) => rate(s.perSecond)).join(' ')}; ${smallest.rounds.baseline.map((s) => rate(s.perSecond)).join(' ')}`,
      ]);
    }
  }
  if (results.b3) {
    const single = results.b3.runs.find((run) => run.instances === 1 && run.inFlight === concurrency);
    for (const run of results.b3.runs) {
      const baseline = run.pgbenchClients === undefined ? 'pgbench' : `pgbench tps, ${run.pgbenchClients} clients`;
      const row = throughputRow(`B3 webhooks/s, ${run.label}, ${run.inFlight} in flight (${baseline})`, run.rounds, '4');
      if (results.b3.baselineMissing) {
        row[2] = results.b3.baselineMissing;
        row[3] = 'n/a';
      }
      rows.push(row);
      if (run.floor) rows.push(floorRow(run.inFlight, run.floor, run.rounds));
      if (run.floor) {
        const database = databaseCpuRow(run.inFlight, run.floor, run.rounds);
        if (database) rows.push(database);
      }
      if (run.waits) rows.push(waitsRow(run));
    }
    const spread = results.b3.runs.find((run) => run.instances > 1);
    if (single && spread) {
      const alone = medianOf(single.rounds.gateway, (s) => s.perSecond);
      const together = medianOf(spread.rounds.gateway, (s) => s.perSecond);
      const sameLoad = results.b3.runs.find((run) => run.instances === 1 && run.inFlight === spread.inFlight);
      const sameLoadRate = sameLoad ? medianOf(sameLoad.rounds.gateway, (s) => s.perSecond) : Number.NaN;
      rows.push([
        `B3 scale-out: ${spread.instances} instances vs 1`,
        `${rate(together)} vs ${rate(alone)} webhooks/s`,
        `pgbench ${rate(medianOf(spread.rounds.baseline, (s) => s.perSecond))} vs ${rate(medianOf(single.rounds.baseline, (s) => s.perSecond))} tps`,
        `growth ${times(together / alone)} (vs 1 instance at ${spread.inFlight} in flight: ${times(together / sameLoadRate)}); pgbench ${times(medianOf(spread.rounds.baseline, (s) => s.perSecond) / medianOf(single.rounds.baseline, (s) => s.perSecond))}`,
        '',
        '',
        '',
      ]);
    }
  }
  for (const at of results.b4 ?? []) {
    const subscribers = at.subscribers.toLocaleString('en-US');
    for (const [label, pick] of [['p50', (r: { latency: { p50: number } }) => r.latency.p50], ['p99', (r: { latency: { p99: number } }) => r.latency.p99]] as const) {
      const gateway = medianOf(at.rounds.gateway, pick);
      const baseline = medianOf(at.rounds.baseline, pick);
      rows.push([
        `B4 webhook → ${subscribers} subscribers, ${label} ms (raw ws broadcast)`,
        ms(gateway),
        ms(baseline),
        withSpread(times(gateway / baseline), at.rounds.gateway, at.rounds.baseline, pick),
        '',
        '',
        `${at.rounds.gateway.map((r) => ms(pick(r))).join(' ')}; ${at.rounds.baseline.map((r) => ms(pick(r))).join(' ')}`,
      ]);
      for (const [clients, floorRounds] of [['raw connections', at.floor], ['graphql-ws subscribers', at.floorGraphqlWs]] as const) {
        if (!floorRounds || floorRounds.length === 0) continue;
        const floor = medianOf(floorRounds, pick);
        rows.push([
          `B4 floor: the same webhooks' bare work → ${subscribers} ${clients}, ${label} ms (raw ws broadcast)`,
          ms(floor),
          ms(baseline),
          `${withSpread(times(floor / baseline), floorRounds, at.rounds.baseline, pick)}; gateway / floor ${withSpread(times(gateway / floor), at.rounds.gateway, floorRounds, pick)}`,
          '',
          '',
          `${floorRounds.map((r) => ms(pick(r))).join(' ')}; ${at.rounds.baseline.map((r) => ms(pick(r))).join(' ')}`,
        ]);
      }
    }
    // Each delivery's first and last subscriber: the wait before the frame loop, and the loop's length.
    const frames = (rounds: readonly DeliveryResult[]) => `${ms(medianOf(rounds, (r) => r.firstFrame.p50))} / ${ms(medianOf(rounds, (r) => r.lastFrame.p50))}`;
    const floorFrames = at.floorGraphqlWs && at.floorGraphqlWs.length > 0 ? at.floorGraphqlWs : at.floor;
    rows.push([
      `B4 ${subscribers}: per delivery, first / last subscriber's update, p50 ms (raw ws broadcast)`,
      frames(at.rounds.gateway),
      frames(at.rounds.baseline),
      floorFrames && floorFrames.length > 0 ? `floor to ${floorFrames === at.floor ? 'raw connections' : 'graphql-ws subscribers'}: ${frames(floorFrames)}` : '',
      '',
      '',
      `${at.rounds.gateway.map((r) => `${ms(r.firstFrame.p50)}/${ms(r.lastFrame.p50)}`).join(' ')}; ${at.rounds.baseline.map((r) => `${ms(r.firstFrame.p50)}/${ms(r.lastFrame.p50)}`).join(' ')}`,
    ]);
    const ack = medianOf(at.rounds.gateway, (r) => r.ack?.p50);
    const followed = at.rounds.gateway.reduce((sum, r) => sum + (r.followedUp ?? 0), 0);
    const deliveries = at.rounds.gateway.reduce((sum, r) => sum + r.deliveries, 0);
    const errors = at.rounds.gateway.reduce((sum, r) => sum + (r.webhookErrors ?? 0), 0);
    rows.push([
      `B4 ${subscribers}: webhook ack p50 ms; connect s`,
      `${ms(ack)}; ${(at.connectMs.gateway / 1000).toFixed(1)} s`,
      `—; ${(at.connectMs.baseline / 1000).toFixed(1)} s`,
      '',
      '',
      '',
      `${at.frameBytes}-byte frame, fee/net follow-up in ${followed}/${deliveries}, webhook 5xx answers ${errors} (retried), failed follow-up job runs ${at.failedJobRuns}`,
    ]);
  }
  if (results.b5) {
    const gateway = medianOf(results.b5.gateway, (v) => v);
    const baseline = medianOf(results.b5.baseline, (v) => v);
    rows.push([
      `B5 heap bytes per idle subscription (${options.idleSubscribers.toLocaleString('en-US')}; raw ws connection)`,
      bytes(gateway),
      bytes(baseline),
      withSpread(times(gateway / baseline), results.b5.gateway, results.b5.baseline, (v) => v),
      '',
      '',
      `${results.b5.gateway.map(bytes).join(' ')}; ${results.b5.baseline.map(bytes).join(' ')}`,
    ]);
  }
  if (results.b6) {
    const { rounds, floor, perRound, inFlight, bodyBytes, floorBodyBytes } = results.b6;
    const row = throughputRow(`B6 notifications delivered/s, ${perRound} per round, ${inFlight} in flight (bare node:http POST loop, same receiver)`, rounds, '0');
    // The bare loop's process also runs the receiver: its CPU is not reported.
    row[5] = `${row[5].split(' / ')[0]} / n/a`;
    rows.push(row);
    if (floor && floor.length > 0) rows.push(notificationFloorRow(inFlight, floor, rounds));
    rows.push([`B6 body`, `${bodyBytes} bytes, signed (Standard Webhooks)`, 'same bytes, signed', floorBodyBytes !== undefined ? `floor: ${floorBodyBytes} bytes, signed` : '', '', '', '']);
  }
  return markdown([HEADER, ...rows]);
}

function throughputRow(label: string, rounds: Record<Side, ThroughputSample[]>, baselineStatements: string): Row {
  const gateway = medianOf(rounds.gateway, (s) => s.perSecond);
  const baseline = medianOf(rounds.baseline, (s) => s.perSecond);
  const statements = medianOf(rounds.gateway, (s) => s.statementsPerOp);
  const cpuGateway = medianOf(rounds.gateway, (s) => s.serverCpuMsPerOp);
  const cpuBaseline = medianOf(rounds.baseline, (s) => s.serverCpuMsPerOp);
  return [
    label,
    rate(gateway),
    Number.isFinite(baseline) ? rate(baseline) : 'n/a',
    withSpread(times(gateway / baseline), rounds.gateway, rounds.baseline, (s) => s.perSecond),
    `${Number.isFinite(statements) ? statements.toFixed(1) : 'n/a'} / ${baselineStatements}`,
    `${Number.isFinite(cpuGateway) ? cpuGateway.toFixed(2) : 'n/a'} / ${Number.isFinite(cpuBaseline) ? cpuBaseline.toFixed(2) : 'n/a'}${databaseCpuText(rounds)}`,
    `${rounds.gateway.map((s) => rate(s.perSecond)).join(' ')}; ${rounds.baseline.map((s) => (Number.isFinite(s.perSecond) ? rate(s.perSecond) : 'n/a')).join(' ')}`,
  ];
}

/** `; PostgreSQL a / b`: the database's CPU per operation for each side, when it was measured for both. */
function databaseCpuText(rounds: Record<Side, ThroughputSample[]>): string {
  const gateway = medianOf(rounds.gateway, (s) => s.databaseCpuMsPerOp);
  const baseline = medianOf(rounds.baseline, (s) => s.databaseCpuMsPerOp);
  return Number.isFinite(gateway) && Number.isFinite(baseline) ? `; PostgreSQL ${gateway.toFixed(2)} / ${baseline.toFixed(2)}` : '';
}

/**
 * B1's floor beside its baseline: what share of the baseline the least a createDeposit needs
 * reaches at all (its row and event before the provider call, the answer after), and the
 * gateway's rate as a share of the floor's.
 */
function createFloorRow(inFlight: number, floor: ThroughputSample[], rounds: Record<Side, ThroughputSample[]>): Row {
  const { rateOf, baseline, ratios, perRound } = floorCells(floor, rounds);
  const cpu = medianOf(floor, (s) => s.serverCpuMsPerOp);
  const database = medianOf(floor, (s) => s.databaseCpuMsPerOp);
  return [
    `B1 floor: the deposit and its event before the call, the answer after, hand-written, ${inFlight} in flight (B1 baseline)`,
    rate(rateOf),
    rate(baseline),
    ratios,
    '2 / 1',
    `${Number.isFinite(cpu) ? cpu.toFixed(2) : 'n/a'} / ${medianOf(rounds.baseline, (s) => s.serverCpuMsPerOp).toFixed(2)}${Number.isFinite(database) ? `; PostgreSQL ${database.toFixed(2)} / ${medianOf(rounds.baseline, (s) => s.databaseCpuMsPerOp).toFixed(2)}` : ''}`,
    perRound,
  ];
}

/**
 * B1's request stack alone (`{ __typename }` as B1's caller) beside B1's floor, measured in the same
 * rounds: the ratio cell is the stack's server CPU per request over the floor's per createDeposit.
 */
function stackRow(inFlight: number, stack: ThroughputSample[], floor: ThroughputSample[]): Row {
  const cpu = medianOf(stack, (s) => s.serverCpuMsPerOp);
  const floorCpu = medianOf(floor, (s) => s.serverCpuMsPerOp);
  const known = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
  return [
    `B1 the stack alone: { __typename } requests/s (web cashier, ${inFlight} in flight; B1 floor's createDeposits/s)`,
    rate(medianOf(stack, (s) => s.perSecond)),
    floor.length > 0 ? rate(medianOf(floor, (s) => s.perSecond)) : 'n/a',
    `CPU per request / floor's per deposit ${times(cpu / floorCpu)}`,
    `${known(medianOf(stack, (s) => s.statementsPerOp))} / 2`,
    `${known(cpu)} / ${known(floorCpu)} (rounds ${stack.map((s) => known(s.serverCpuMsPerOp)).join(' ')})`,
    `${stack.map((s) => rate(s.perSecond)).join(' ')}; ${floor.map((s) => rate(s.perSecond)).join(' ')}`,
  ];
}

/** What a floor's row shows beside the gateway's and the baseline's: the rates, floor / baseline and gateway / floor with their spreads, each round's rates. */
function floorCells(floor: ThroughputSample[], rounds: Record<Side, ThroughputSample[]>): { rateOf: number; baseline: number; ratios: string; perRound: string } {
  const rateOf = medianOf(floor, (s) => s.perSecond);
  const baseline = medianOf(rounds.baseline, (s) => s.perSecond);
  const gateway = medianOf(rounds.gateway, (s) => s.perSecond);
  return {
    rateOf,
    baseline,
    ratios: `${withSpread(times(rateOf / baseline), floor, rounds.baseline, (s) => s.perSecond)}; gateway / floor ${withSpread(times(gateway / rateOf), rounds.gateway, floor, (s) => s.perSecond)}`,
    perRound: `${floor.map((s) => rate(s.perSecond)).join(' ')}; ${rounds.baseline.map((s) => rate(s.perSecond)).join(' ')}`,
  };
}

/**
 * B6's floor beside the bare POST loop: the same deliveries' least durable work, by hand
 * (bench/notification-floor.ts), and the gateway's rate as a share of the floor's: B6's ratio.
 */
function notificationFloorRow(inFlight: number, floor: ThroughputSample[], rounds: Record<Side, ThroughputSample[]>): Row {
  const { rateOf, baseline, ratios, perRound } = floorCells(floor, rounds);
  const cpu = medianOf(floor, (s) => s.serverCpuMsPerOp);
  const database = medianOf(floor, (s) => s.databaseCpuMsPerOp);
  const gatewayDatabase = medianOf(rounds.gateway, (s) => s.databaseCpuMsPerOp);
  return [
    `B6 floor: claim the due row, sign, POST, record the answer, hand-written, ${inFlight} in flight (bare POST loop)`,
    rate(rateOf),
    rate(baseline),
    ratios,
    '2 / 0',
    `${Number.isFinite(cpu) ? cpu.toFixed(2) : 'n/a'} / n/a${Number.isFinite(database) && Number.isFinite(gatewayDatabase) ? `; PostgreSQL gateway ${gatewayDatabase.toFixed(2)}, floor ${database.toFixed(2)}` : ''}`,
    perRound,
  ];
}

/**
 * B3's floor beside pgbench: what share of the baseline the bare work of a webhook reaches at all,
 * and the gateway's rate as a share of the floor's.
 */
function floorRow(inFlight: number, floor: ThroughputSample[], rounds: Record<Side, ThroughputSample[]>): Row {
  const { rateOf, baseline, ratios, perRound } = floorCells(floor, rounds);
  const cpu = medianOf(floor, (s) => s.serverCpuMsPerOp);
  return [
    `B3 floor: the same webhooks' bare work, node:http + pg, follow-up included, ${inFlight} in flight (pgbench)`,
    rate(rateOf),
    rate(baseline),
    ratios,
    `${medianOf(floor, (s) => s.statementsPerOp).toFixed(1)} / 4`,
    `${Number.isFinite(cpu) ? cpu.toFixed(2) : 'n/a'} / n/a`,
    perRound,
  ];
}

/**
 * What B3's webhooks cost PostgreSQL itself, gateway beside floor, when it runs on this machine: its
 * CPU shares the cores with the serving process, so it bounds the rate as that process's does.
 */
function databaseCpuRow(inFlight: number, floor: ThroughputSample[], rounds: Record<Side, ThroughputSample[]>): Row | undefined {
  const gateway = medianOf(rounds.gateway, (s) => s.databaseCpuMsPerOp);
  const bare = medianOf(floor, (s) => s.databaseCpuMsPerOp);
  if (!Number.isFinite(gateway) || !Number.isFinite(bare)) return undefined;
  const each = (samples: ThroughputSample[]) => samples.map((s) => (s.databaseCpuMsPerOp === undefined ? 'n/a' : s.databaseCpuMsPerOp.toFixed(2))).join(' ');
  return [
    `B3 PostgreSQL's CPU ms per webhook, follow-up included, ${inFlight} in flight (gateway; floor)`,
    gateway.toFixed(2),
    bare.toFixed(2),
    `gateway / floor ${times(gateway / bare)}`,
    '',
    '',
    `${each(rounds.gateway)}; ${each(floor)}`,
  ];
}

/**
 * What the database's sessions waited on during the gateway's rounds of one B3 run: how many of the
 * busy sessions sampled were waiting, on what (the five most frequent), and how many of those waits
 * serialize one session behind another (a lock, the NOTIFY queue).
 */
function waitsRow(run: WebhookRun): Row {
  const waits = run.waits!;
  const share = (count: number) => (waits.busy > 0 ? `${((count / waits.busy) * 100).toFixed(1)}%` : 'n/a');
  const top = waits.waits.slice(0, 5).map((wait) => `${wait.on} ${wait.count} (${share(wait.count)})`).join('; ');
  return [
    `B3 waits, ${run.label}, ${run.inFlight} in flight: sessions seen waiting / busy, in ${waits.samples.toLocaleString('en-US')} samples`,
    `${waits.waits.reduce((sum, wait) => sum + wait.count, 0)} / ${waits.busy}`,
    '',
    `serializing (locks, NOTIFY queue): ${waits.serializing} (${share(waits.serializing)})`,
    '',
    '',
    top || 'no waits seen',
  ];
}

/**
 * A ratio of medians with its spread across rounds: the lowest and highest of each round's own
 * ratio (round i of one side over round i of the other, measured back to back), so a reader sees
 * whether the median ratio is a steady figure or one of a wide range.
 */
function withSpread<T>(ratioOfMedians: string, numerators: readonly T[], denominators: readonly T[], pick: (sample: T) => number | undefined): string {
  const perRound: number[] = [];
  for (let round = 0; round < Math.min(numerators.length, denominators.length); round++) {
    const top = pick(numerators[round]!);
    const bottom = pick(denominators[round]!);
    if (top !== undefined && bottom !== undefined && Number.isFinite(top) && bottom > 0) perRound.push(top / bottom);
  }
  if (perRound.length < 2) return ratioOfMedians;
  return `${ratioOfMedians} (rounds ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`;
}

function markdown(rows: Row[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(3, ...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

function rate(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : 'n/a';
}

function bytes(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}
