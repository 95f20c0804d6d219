// Small measurement helpers for the benchmarks: percentiles, a fixed-concurrency runner and number formatting.

import { performance } from 'node:perf_hooks';

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of already sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? total / sorted.length : Number.NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

export interface ThroughputResult {
  operations: number;
  concurrency: number;
  elapsedMs: number;
  perSecond: number;
  /**
   * This process's CPU time (user + system) per operation, in milliseconds. Client, gateway and
   * sandbox share the process (and PGlite too, when embedded); PostgreSQL's own CPU is not counted.
   */
  cpuPerOpMs: number;
  /** Process CPU time over wall time: near 1 means the one JavaScript thread is the limit. */
  cpuShare: number;
  /** Latency of each operation as its caller saw it, in milliseconds. */
  latency: LatencySummary;
}

/**
 * Runs `task(i)` for i in [0, total) with exactly `concurrency` in flight, and times the whole run.
 * Any failed task fails the run: a benchmark that silently drops errors measures the wrong thing.
 */
export async function runAtConcurrency(total: number, concurrency: number, task: (index: number) => Promise<void>): Promise<ThroughputResult> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const index = next++;
      const t0 = performance.now();
      await task(index);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    operations: total,
    concurrency,
    elapsedMs,
    perSecond: (total / elapsedMs) * 1000,
    cpuPerOpMs: cpuMs / total,
    cpuShare: cpuMs / elapsedMs,
    latency: summarize(latencies),
  };
}

/** Resolves when `condition` holds, polling; rejects after `timeoutMs` with `what` in the message. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Median of the values (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function ratio(numerator: number, denominator: number): string {
  return denominator > 0 && Number.isFinite(numerator) ? `${(numerator / denominator).toFixed(2)}x` : 'n/a';
}
