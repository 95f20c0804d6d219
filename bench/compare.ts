// Gateway beside baseline, in interleaved rounds: each round measures both sides, the order
// alternating (baseline first in odd rounds, gateway first in even ones), so that a machine
// getting busier or quieter during the run weighs on both; the report takes the median of each.

import { isLocalDatabase, postgresCpuMs } from './database-cpu.js';
import type { BenchChild } from './ipc.js';
import { median, runAtConcurrency } from './stats.js';

export type Side = 'gateway' | 'baseline';

/** Runs `measure` for both sides, `rounds` times, in alternating order. */
export async function interleaved<T>(rounds: number, measure: (side: Side, round: number) => Promise<T>): Promise<Record<Side, T[]>> {
  const results: Record<Side, T[]> = { gateway: [], baseline: [] };
  for (let round = 0; round < rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ['baseline', 'gateway'] : ['gateway', 'baseline'];
    for (const side of order) results[side].push(await measure(side, round));
  }
  return results;
}

/** One side's throughput in one round. */
export interface ThroughputSample {
  perSecond: number;
  /** CPU the serving process spent per operation, in milliseconds (its own process.cpuUsage). */
  serverCpuMsPerOp: number;
  p50Ms: number;
  p99Ms: number;
  /** SQL statements per operation the serving side sent (the gateway's, counted through db.watchQueries). */
  statementsPerOp?: number;
  /** CPU the database's processes spent per operation, in milliseconds, when they run on this machine (bench/database-cpu.ts). */
  databaseCpuMsPerOp?: number;
}

/**
 * `total` calls of `task` with `concurrency` in flight, timed from this process, with the CPU
 * `server` spent meanwhile and, given the URL of a database on this machine, the database's.
 */
export async function throughput(server: BenchChild<unknown>, total: number, concurrency: number, task: (index: number) => Promise<void>, databaseUrl?: string): Promise<ThroughputSample> {
  const database = databaseCpu(databaseUrl);
  const cpuBefore = await server.call<number>('cpuMs');
  const run = await runAtConcurrency(total, concurrency, task);
  const cpuAfter = await server.call<number>('cpuMs');
  return { perSecond: run.perSecond, serverCpuMsPerOp: (cpuAfter - cpuBefore) / total, p50Ms: run.latency.p50, p99Ms: run.latency.p99, ...database.perOp(total) };
}

/**
 * The database's CPU from now until `perOp` is called, per operation, when `url` names a database
 * on this machine: the bench runs one side at a time, so it is what that side's work cost it. An
 * empty object otherwise.
 */
export function databaseCpu(url: string | undefined): { perOp(operations: number): { databaseCpuMsPerOp?: number } } {
  const before = isLocalDatabase(url) ? postgresCpuMs() : undefined;
  return {
    perOp(operations) {
      const after = before === undefined ? undefined : postgresCpuMs();
      return after === undefined || before === undefined ? {} : { databaseCpuMsPerOp: (after - before) / operations };
    },
  };
}

/** Median of one field over a side's rounds. */
export function medianOf<T>(samples: readonly T[], pick: (sample: T) => number | undefined): number {
  return median(samples.map(pick).filter((value): value is number => value !== undefined && Number.isFinite(value)));
}
