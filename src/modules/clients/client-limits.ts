// Per-client limits (docs/clients.md "Client limits"): a request rate with a burst, and a number of live
// subscriptions, held across every instance on one database.
//
// A request is admitted or refused from memory: each instance keeps a token bucket per client
// (`burst` tokens, refilled at `requestsPerSecond`) and a count of the client's live subscriptions.
// The instances share what they used through the database, off the request path
// (`ClientLimitsSync`): every quarter of a second while a client is active, each instance reports
// the requests it admitted and the subscriptions it holds, and reads what the others reported
// since; the others' requests are taken from its own buckets as if it had admitted them. So one
// client's rate is shared by all instances, within what they admit in a quarter of a second, and no
// request waits for a statement of its own.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { ClientLimits } from '../../config.js';
import type { Logger } from '../../lib/logger.js';

/** A client's own limits as stored: null where it takes the gateway's default. */
export interface StoredLimits {
  requestsPerSecond?: number | null;
  requestBurst?: number | null;
  maxSubscriptions?: number | null;
}

export function effectiveLimits(stored: StoredLimits, defaults: ClientLimits): ClientLimits {
  return {
    requestsPerSecond: stored.requestsPerSecond ?? defaults.requestsPerSecond,
    burst: stored.requestBurst ?? defaults.burst,
    maxSubscriptions: stored.maxSubscriptions ?? defaults.maxSubscriptions,
  };
}

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  /** The client's limits as its last request here found them. */
  limits: ClientLimits;
  tokens: number;
  refilledAt: number;
  /** Admitted here since the last report. */
  unreported: number;
  lastActiveAt: number;
}

/** What one instance reports of one client. */
export interface UsageReport {
  clientId: string;
  used: number;
  subscriptions: number;
}

export class ClientLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly subscriptions = new Map<string, number>();
  /** The subscriptions the other instances last reported, by client. */
  private othersSubscriptions = new Map<string, number>();

  constructor(
    readonly defaults: ClientLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request of the client's rate, or says when the next one would be admitted. */
  take(clientId: string, limits: ClientLimits): Admission {
    const bucket = this.refilled(clientId, limits);
    bucket.lastActiveAt = bucket.refilledAt;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.unreported += 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / limits.requestsPerSecond)) };
  }

  /** Opens one of the client's subscriptions, unless it holds its maximum (here and on the other instances). */
  openSubscription(clientId: string, limits: ClientLimits): boolean {
    const here = this.subscriptions.get(clientId) ?? 0;
    if (here + (this.othersSubscriptions.get(clientId) ?? 0) >= limits.maxSubscriptions) return false;
    this.subscriptions.set(clientId, here + 1);
    return true;
  }

  closeSubscription(clientId: string): void {
    const here = (this.subscriptions.get(clientId) ?? 0) - 1;
    if (here > 0) this.subscriptions.set(clientId, here);
    else this.subscriptions.delete(clientId);
  }

  /** What this instance has to report: every client it admitted requests of since the last report, or holds subscriptions of. */
  report(): UsageReport[] {
    const reports = new Map<string, UsageReport>();
    for (const [clientId, bucket] of this.buckets) {
      if (bucket.unreported === 0) continue;
      reports.set(clientId, { clientId, used: bucket.unreported, subscriptions: this.subscriptions.get(clientId) ?? 0 });
      bucket.unreported = 0;
    }
    for (const [clientId, count] of this.subscriptions) if (!reports.has(clientId)) reports.set(clientId, { clientId, used: 0, subscriptions: count });
    return [...reports.values()];
  }

  /**
   * The other instances' requests since the last read, taken from this instance's buckets, and
   * their subscriptions now. A client with no bucket here has sent nothing here lately: its first
   * requests here may take up to its burst before the next read counts the others' use.
   */
  applyOthers(used: ReadonlyMap<string, number>, subscriptions: ReadonlyMap<string, number>): void {
    for (const [clientId, count] of used) {
      const known = this.buckets.get(clientId);
      if (!known) continue;
      const bucket = this.refilled(clientId, known.limits);
      // Down to an empty bucket at most: a debt would punish this instance for another's burst.
      bucket.tokens = Math.max(0, bucket.tokens - count);
    }
    this.othersSubscriptions = new Map(subscriptions);
  }

  /** Whether any client was active here within `withinMs` or holds subscriptions: the sync runs only then. */
  active(withinMs: number): boolean {
    if (this.subscriptions.size > 0) return true;
    const since = this.now() - withinMs;
    for (const bucket of this.buckets.values()) if (bucket.lastActiveAt >= since || bucket.unreported > 0) return true;
    return false;
  }

  /** Forgets buckets that have refilled and gone quiet (memory stays bounded by the active clients). */
  prune(quietMs: number): void {
    const since = this.now() - quietMs;
    for (const [clientId, bucket] of this.buckets) if (bucket.lastActiveAt < since && bucket.unreported === 0) this.buckets.delete(clientId);
  }

  private refilled(clientId: string, limits: ClientLimits): Bucket {
    const now = this.now();
    let bucket = this.buckets.get(clientId);
    if (!bucket) {
      bucket = { limits, tokens: limits.burst, refilledAt: now, unreported: 0, lastActiveAt: now };
      this.buckets.set(clientId, bucket);
      return bucket;
    }
    bucket.limits = limits;
    bucket.tokens = Math.min(limits.burst, bucket.tokens + ((now - bucket.refilledAt) / 1000) * limits.requestsPerSecond);
    bucket.refilledAt = now;
    return bucket;
  }
}

/** How often an active instance reports and reads (ms), and how long reports are kept. */
export const CLIENT_LIMITS_SYNC_MS = 250;
const REPORTS_KEPT_MS = 10_000;
/** The others' subscription counts are their latest reports within this window. */
const SUBSCRIPTIONS_FRESH_MS = 5_000;

/**
 * Shares the limiter's use between the instances on one PostgreSQL database (the embedded database
 * has one process, so nothing to share): one statement per tick while a client is active here,
 * none otherwise.
 */
export class ClientLimitsSync {
  private timer: NodeJS.Timeout | undefined;
  private lastSeen = '0';
  private running: Promise<void> | undefined;

  constructor(
    private readonly options: {
      limiter: ClientLimiter;
      instance: string;
      fork: () => SqlEntityManager;
      logger: Logger;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.tick().finally(() => (this.running = undefined));
    }, this.options.intervalMs ?? CLIENT_LIMITS_SYNC_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One report and read (exported for tests through `start`'s timer). */
  async tick(): Promise<void> {
    const { limiter } = this.options;
    limiter.prune(60_000);
    if (!limiter.active(REPORTS_KEPT_MS)) return;
    const reports = limiter.report();
    try {
      const rows = await this.options.fork().execute<Array<{ client_id: string | null; used: string | null; subscriptions: string | null; last_id: string | null }>>(
        `/* client-limits */ with reported as (
           insert into client_usage (client_id, instance, used, subscriptions, reported_at)
           select client_id, ?, used, subscriptions, now() from jsonb_to_recordset(?::jsonb) as r(client_id text, used int, subscriptions int)
         ), pruned as (
           delete from client_usage where reported_at < now() - make_interval(secs => ?)
         ), others as (
           select client_id, sum(used) as used, max(id) as last_id from client_usage where id > ? and instance <> ? group by client_id
         ), latest as (
           select distinct on (client_id, instance) client_id, subscriptions from client_usage
           where instance <> ? and reported_at > now() - make_interval(secs => ?) order by client_id, instance, id desc
         )
         select coalesce(o.client_id, l.client_id) as client_id, o.used::text as used, l.subscriptions::text as subscriptions, o.last_id::text as last_id
         from others o full join (select client_id, sum(subscriptions) as subscriptions from latest group by client_id) l on l.client_id = o.client_id`,
        [
          this.options.instance,
          JSON.stringify(reports.map((report) => ({ client_id: report.clientId, used: report.used, subscriptions: report.subscriptions }))),
          REPORTS_KEPT_MS / 1000,
          this.lastSeen,
          this.options.instance,
          this.options.instance,
          SUBSCRIPTIONS_FRESH_MS / 1000,
        ],
      );
      const used = new Map<string, number>();
      const subscriptions = new Map<string, number>();
      for (const row of rows) {
        if (!row.client_id) continue;
        if (row.used) used.set(row.client_id, Number(row.used));
        if (row.subscriptions) subscriptions.set(row.client_id, Number(row.subscriptions));
        if (row.last_id && BigInt(row.last_id) > BigInt(this.lastSeen)) this.lastSeen = row.last_id;
      }
      limiter.applyOthers(used, subscriptions);
    } catch (error) {
      // Each instance still holds every client to its limits alone meanwhile; the next tick tries again.
      this.options.logger.warn({ err: error }, 'could not share client limits with the other instances');
    }
  }
}
