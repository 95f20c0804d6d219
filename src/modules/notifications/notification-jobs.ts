// What the parts of the notification engine share (docs/notifications.md): the job kinds they
// run as, a lane (an endpoint's deliveries about one subject), the engine's dependencies and the
// one way every part wakes a lane. Kept apart so the fan-out, the delivery and the probe can
// each import it without importing one another in a circle.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { EventLog } from '../../kernel/events/event-log.js';
import type { JobQueue } from '../../kernel/jobs.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import type { Redactions } from '../../kernel/redaction.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretSealer } from '../../lib/sealed-secrets.js';
import type { DeliveryOutcome } from './notification-delivery-reads.js';
import type { NotificationSettings } from './notification-settings.js';

export const NOTIFICATIONS_FANOUT = 'notifications.fanout';
export const NOTIFICATIONS_DELIVER = 'notifications.deliver';
export const NOTIFICATIONS_SWEEP = 'notifications.sweep';
export const NOTIFICATIONS_PROBE = 'notifications.probe';

/** One lane: an endpoint's deliveries about one subject, sent oldest position first. */
export interface Lane {
  endpointId: string;
  subjectType: string;
  subjectId: string;
}

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [NOTIFICATIONS_FANOUT]: Record<string, never>;
    [NOTIFICATIONS_DELIVER]: Lane;
    [NOTIFICATIONS_SWEEP]: Record<string, never>;
    [NOTIFICATIONS_PROBE]: { endpointId: string };
  }
}

/** The one waiting fan-out job's dedupe key: every append asks for the same one. */
export const FANOUT_KEY = 'fanout';
/** Lanes one sweep wakes (and probes it starts, and lanes one probe's success wakes). */
export const SWEEP_LANES = 500;

export interface NotifierDeps {
  jobs: JobQueue;
  events: EventLog;
  /** Writes an endpoint's own events (its failing state), as every subject's (the endpoint is registered with it). */
  transitions: Pick<TransitionPath, 'record'>;
  /** What of each subject kind the endpoint's client may read: the API's own redaction policies. */
  redactions: Redactions;
  clock: Clock;
  logger: Logger;
  settings: () => NotificationSettings;
  secrets: SecretSealer;
  /** Told every attempt's outcome (metrics). */
  onAttempt?: (outcome: DeliveryOutcome) => void;
}

/** What every part of the engine is handed: its dependencies, and who holds a claim (this instance). */
export interface NotifierContext {
  deps: NotifierDeps;
  instance: string;
}

/**
 * One deliver job per lane, at `runAt` (default now). A lane's job already waiting covers it, moved
 * up if it waits for later (a retry's back-off): a redelivery or an endpoint back goes now.
 */
export async function wakeLanes(ctx: NotifierContext, tx: SqlEntityManager, lanes: readonly Lane[], runAt?: Date): Promise<void> {
  await ctx.deps.jobs.enqueueMany(tx, NOTIFICATIONS_DELIVER, lanes.map((lane) => ({ payload: lane, dedupeKey: laneKey(lane) })), { sooner: true, ...(runAt ? { runAt } : {}) });
}

function laneKey(lane: Lane): string {
  return `${lane.endpointId}:${lane.subjectType}:${lane.subjectId}`;
}
