// What load balancers and monitoring ask: GET /healthz (the process answers), GET /readyz (started,
// the database answers, the sandboxes' health, the event log's lag), and the event log's lag the
// metrics' gauges read too.

import type { RequestHandler } from 'express';
import type { Database } from '../db/database.js';
import type { EventLog, EventLogLag } from '../kernel/events/event-log.js';

/** Longest wait for the event log's lag in a probe, as for the database ping: a hung database must not hang /readyz or /metrics. */
const EVENT_LOG_LAG_DEADLINE_MS = 1_000;

/** The event log's part of /readyz. */
export interface EventLogReadiness {
  /**
   * `current`: committed events become final as they should; `stalled`: the oldest one not final
   * has waited `stalledAfterMs` or more (an open transaction of the gateway's database holds it
   * back); `unknown`: the database did not answer.
   */
  status: 'current' | 'stalled' | 'unknown';
  unfinalSeconds?: number;
  unfinalPositions?: number;
}

/**
 * A stalled log is reported, never made a reason to be not ready: payments, webhooks and queries
 * go on, only live updates and `events(after:)` wait. The cause is a transaction in the shared
 * database, so every instance would report it at once: taking them out of rotation (or restarting
 * them) would turn late live updates into an outage and end nothing.
 */
export function eventLogReadiness(lag: EventLogLag | undefined, stalledAfterMs: number): EventLogReadiness {
  if (!lag) return { status: 'unknown' };
  const stalled = lag.unfinalPositions > 0 && lag.unfinalSeconds * 1000 >= stalledAfterMs;
  return { status: stalled ? 'stalled' : 'current', unfinalSeconds: lag.unfinalSeconds, unfinalPositions: lag.unfinalPositions };
}

/**
 * How far the event log's final part lags (readiness and the metrics' gauges), or undefined when
 * the database does not answer within the deadline.
 */
export async function eventLogLag(db: Database, events: EventLog): Promise<EventLogLag | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      events.lag(db.fork()),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), EVENT_LOG_LAG_DEADLINE_MS);
      }),
    ]);
  } catch {
    // The database is failing: the ping reports it.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export interface ProbeOptions {
  db: Database;
  /** Whether start-up is over and the close has not begun. */
  started: () => boolean;
  /** Each in-process sandbox's health; undefined while none runs. */
  sandboxes: () => Promise<Record<string, 'up' | 'down'>> | undefined;
  eventLogLag: () => Promise<EventLogLag | undefined>;
  /** EVENT_LOG_STALLED_AFTER_MS: when /readyz reports the log as stalled. */
  stalledAfterMs: number;
}

/** The two probes' handlers, each routed on its own path (`GET /healthz`, `GET /readyz`). */
export function probes(options: ProbeOptions): { healthz: RequestHandler; readyz: RequestHandler } {
  return {
    healthz: (_req, res) => {
      res.json({ status: 'ok' });
    },
    readyz: async (_req, res) => {
      // Side by side: a hung database answers within the ping's own deadline, not after the sandboxes.
      const [database, sandboxes, lag] = await Promise.all([options.db.ping(), options.sandboxes(), options.eventLogLag()]);
      const ok = options.started() && database;
      res.status(ok ? 200 : 503).json({
        status: ok ? 'ready' : 'not ready',
        database: database ? 'up' : 'down',
        sandboxes,
        eventLog: eventLogReadiness(lag, options.stalledAfterMs),
      });
    },
  };
}
