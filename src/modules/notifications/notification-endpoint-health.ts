// The health of a notification endpoint (docs/notifications.md): what an attempt's answer does to
// its endpoint. A 2xx makes a failing endpoint HEALTHY and wakes the lanes that waited for its
// probe; a failure starts or extends its failing streak, starts probing it once it has failed for a
// probe interval, and gives up deliveries whose retry window has run out; FAILING is announced
// once, as an admin-only event of the log.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { NOTIFICATION_ENDPOINT_FAILING, notificationEndpointRows } from './notification-endpoints.js';
import { NOTIFICATIONS_PROBE, SWEEP_LANES, wakeLanes, type NotifierContext } from './notification-jobs.js';

/** What a failed or successful attempt did to its endpoint's health. */
export interface EndpointHealth {
  /** The endpoint is being probed: its lanes wait for the probe. */
  probing: boolean;
  /** This failure started the probing. */
  startedProbing: boolean;
  /** Deliveries given up with this failure, besides the attempt's own. */
  gaveUp: number;
  /** This success ended the probing and woke every lane. */
  resumedLanes: boolean;
}

/**
 * A 2xx from an endpoint that was failing: it is HEALTHY, and its failing streak is over. If it
 * was being probed, every lane that waited for the probe goes now, whatever its own back-off:
 * their heads are due at once and (up to a sweep's worth) woken here, the rest by the sweep.
 * True when it was being probed.
 */
export async function endpointAnswered(ctx: NotifierContext, tx: SqlEntityManager, endpointId: string, now: Date): Promise<boolean> {
  const [endpoint] = await tx.execute<Array<{ probed: boolean }>>(
    `update notification_endpoint e set state = 'healthy', failed_since = null, next_probe_at = null,
       updated_at = case when e.state = 'failing' then ? else e.updated_at end
     from (select next_probe_at from notification_endpoint where id = ?) before
     where e.id = ? and (e.state = 'failing' or e.failed_since is not null or e.next_probe_at is not null)
     returning before.next_probe_at is not null as probed`,
    [new Date(), endpointId, endpointId],
  );
  if (!endpoint?.probed) return false;
  await tx.execute("update notification_delivery set next_attempt_at = ?, updated_at = ? where endpoint_id = ? and state = 'pending' and next_attempt_at > ?", [now, new Date(), endpointId, now]);
  const lanes = await tx.execute<Array<{ subject_type: string; subject_id: string }>>(
    "select distinct subject_type, subject_id from notification_delivery where endpoint_id = ? and state = 'pending' limit ?",
    [endpointId, SWEEP_LANES],
  );
  await wakeLanes(ctx, tx, lanes.map((row) => ({ endpointId, subjectType: row.subject_type, subjectId: row.subject_id })));
  return true;
}

/**
 * A failed attempt: the endpoint's failing streak starts, or goes on. Once it has failed every
 * attempt for a probe interval it is probed: its lanes wait, and one probe goes every
 * NOTIFICATION_PROBE_INTERVAL_MS (the first scheduled here). While it is probed, a failure gives
 * up every delivery of it whose retry window has run out (the receiver still refuses), so the
 * window holds however many lanes wait for their turn to be probed.
 */
export async function endpointFailed(ctx: NotifierContext, tx: SqlEntityManager, endpointId: string, now: Date): Promise<EndpointHealth> {
  const settings = ctx.deps.settings();
  const [endpoint] = await tx.execute<Array<{ probing: boolean; started: boolean }>>(
    `update notification_endpoint e set failed_since = coalesce(e.failed_since, ?),
       next_probe_at = case when e.next_probe_at is null and e.failed_since <= ? then ? else e.next_probe_at end
     from (select next_probe_at from notification_endpoint where id = ?) before
     where e.id = ?
     returning e.next_probe_at is not null as probing, before.next_probe_at is null and e.next_probe_at is not null as started`,
    [now, new Date(now.getTime() - settings.probeIntervalMs), new Date(now.getTime() + settings.probeIntervalMs), endpointId, endpointId],
  );
  if (!endpoint?.probing) return { probing: false, startedProbing: false, gaveUp: 0, resumedLanes: false };
  if (endpoint.started) await ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId }, { runAt: new Date(Date.now() + settings.probeIntervalMs) });
  const gaveUp = await tx.execute<Array<{ id: string }>>(
    `update notification_delivery set state = 'failed', next_attempt_at = ?, updated_at = ?
     where endpoint_id = ? and state = 'pending' and first_failed_at <= ? and (claim_expires_at is null or claim_expires_at <= now())
     returning id`,
    [now, new Date(), endpointId, new Date(now.getTime() - settings.retryForMs)],
  );
  return { probing: true, startedProbing: endpoint.started, gaveUp: gaveUp.length, resumedLanes: false };
}

/**
 * The endpoint is failing: once (until a delivery makes it healthy again), as an admin-only event
 * of the log (which admin endpoints are sent too). Its state and that event are one statement the
 * transition path writes, only while the endpoint is healthy; `endpoint` is it as the attempt read it.
 */
export async function markFailing(ctx: NotifierContext, tx: SqlEntityManager, endpoint: { id: string; clientId: string; url: string }): Promise<void> {
  const healthy = { ...endpoint, state: 'healthy' as const };
  await ctx.deps.transitions.record(tx, notificationEndpointRows, {
    event: NOTIFICATION_ENDPOINT_FAILING,
    row: healthy,
    next: { ...healthy, state: 'failing' },
    adminOnly: true,
    update: { set: { state: 'failing', updated_at: new Date() }, returning: { columns: ['id'] }, only: { state: 'healthy' } },
  });
}
