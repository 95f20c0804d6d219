// The harness's knobs: environment variables with defaults that keep a full run near five minutes
// on two cores, and `--scale-out` (or BENCH_SCALE_OUT=1) for the multi-instance B3 figure.

export const BENCH_NAMES = ['B1', 'B2', 'B3', 'B4', 'B5', 'B6'] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

export interface BenchSettings {
  only: ReadonlySet<BenchName>;
  rounds: number;
  /** In flight at once, per gateway instance, for B1-B3. */
  concurrency: number;
  /** B1: createDeposit calls per side per round. */
  operations: number;
  /**
   * Untimed calls per side before the first round: B1's createDeposits, B2's requests (each page
   * size and the stack alone), B3's webhooks (at most a round's). At 30, the bare servers were
   * still warming through the timed rounds (B1's baseline 571 → 870 requests/s from round 1 to 3).
   */
  warmup: number;
  /** B2: requests per side, page size and round. */
  reads: number;
  pageSizes: number[];
  /** B3: webhooks (and pgbench transactions) per side per round. */
  webhooks: number;
  /**
   * B4: subscriber counts, and webhooks timed per side per round at each: enough (50) that a
   * round's p99 is more than its slowest webhook.
   */
  subscribers: number[];
  deliveries: number;
  /** B5: idle subscriptions opened per side per round. */
  idleSubscribers: number;
  /** B6: notifications delivered per side per round. */
  notifications: number;
  scaleOut: boolean;
  instances: number;
  pgbench: string;
}

function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min}; got ${raw}`);
  return value;
}

function intListFromEnv(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${name} must be a comma-separated list of positive whole numbers; got ${raw}`);
  return values;
}

function flag(name: string, argv: readonly string[], option: string): boolean {
  const raw = process.env[name];
  return argv.includes(option) || raw === '1' || raw === 'true' || raw === 'yes';
}

export function readSettings(argv: readonly string[] = process.argv.slice(2)): BenchSettings {
  const unknown = argv.filter((arg) => arg !== '--scale-out');
  if (unknown.length > 0) throw new Error(`unknown argument(s) ${unknown.join(' ')}; the only one is --scale-out (every other knob is an environment variable, see docs/benchmarks.md)`);
  const onlyRaw = process.env.BENCH_ONLY;
  const only = onlyRaw
    ? onlyRaw.split(',').map((part) => part.trim().toUpperCase())
    : [...BENCH_NAMES];
  const wrong = only.filter((name) => !(BENCH_NAMES as readonly string[]).includes(name));
  if (wrong.length > 0) throw new Error(`BENCH_ONLY names ${wrong.join(', ')}; choose among ${BENCH_NAMES.join(', ')}`);
  return {
    only: new Set(only as BenchName[]),
    rounds: intFromEnv('BENCH_ROUNDS', 3),
    concurrency: intFromEnv('BENCH_CONCURRENCY', 8),
    operations: intFromEnv('BENCH_N', 300),
    warmup: intFromEnv('BENCH_WARMUP', 300, 0),
    reads: intFromEnv('BENCH_READS', 100),
    pageSizes: intListFromEnv('BENCH_PAGE_SIZES', [5, 50]),
    webhooks: intFromEnv('BENCH_WEBHOOKS', 300),
    subscribers: intListFromEnv('BENCH_SUBSCRIBERS', [1000, 10000]),
    deliveries: intFromEnv('BENCH_K', 50),
    idleSubscribers: intFromEnv('BENCH_IDLE_SUBSCRIBERS', 1000),
    notifications: intFromEnv('BENCH_NOTIFICATIONS', 300),
    scaleOut: flag('BENCH_SCALE_OUT', argv, '--scale-out'),
    instances: intFromEnv('BENCH_INSTANCES', 4, 2),
    pgbench: process.env.BENCH_PGBENCH || '/usr/bin/pgbench',
  };
}
