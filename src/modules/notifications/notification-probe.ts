// The probe of a notification endpoint whose receiver fails every attempt (docs/notifications.md):
// while it is probed its lanes wait, and one real delivery goes each probe interval, whichever
// instance takes the turn; its success wakes every lane, its failure is that delivery's attempt.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { claimLeaseMs } from './notification-settings.js';
import { send, type ClaimedDelivery } from './notification-delivery.js';
import { NOTIFICATIONS_PROBE, type NotifierContext } from './notification-jobs.js';

/** A probe's delivery: the head of one of the endpoint's lanes. */
interface ClaimedProbe extends ClaimedDelivery {
  subject_type: string;
  subject_id: string;
}

/**
 * One probe of an endpoint whose receiver fails every attempt, at most one per
 * NOTIFICATION_PROBE_INTERVAL_MS on the gateway's clock whichever instance runs it: the run that
 * takes the turn schedules the next one, then sends the head of the endpoint's lanes that has
 * waited longest for its next try (a real delivery, signed as any other, so a receiver that is
 * back applies it). Its success wakes every lane (`endpointAnswered`); its failure is that
 * delivery's attempt, with its back-off and retry window. With nothing pending, probing stops
 * until a lane fails again.
 */
export async function probe(ctx: NotifierContext, em: SqlEntityManager, endpointId: string): Promise<void> {
  const settings = ctx.deps.settings();
  const now = ctx.deps.clock.now();
  const turn = await em.transactional(async (tx) => {
    const taken = await tx.execute<Array<{ id: string }>>(
      'update notification_endpoint set next_probe_at = ? where id = ? and enabled and next_probe_at <= ? returning id',
      [new Date(now.getTime() + settings.probeIntervalMs), endpointId, now],
    );
    if (taken.length === 0) return false;
    await ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId }, { runAt: new Date(Date.now() + settings.probeIntervalMs) });
    return true;
  });
  if (!turn) return;
  const claimed = await claimProbe(ctx, em, endpointId);
  if (claimed === 'none') {
    await em.execute('update notification_endpoint set next_probe_at = null where id = ?', [endpointId]);
    return;
  }
  if (claimed === 'busy') return;
  await send(ctx, em, { endpointId, subjectType: claimed.subject_type, subjectId: claimed.subject_id }, claimed, true);
}

/**
 * Claims the probe's delivery: of the heads of the endpoint's lanes that no live claim holds, the
 * one due earliest. `none`: nothing pending; `busy`: every head is being sent already.
 */
async function claimProbe(ctx: NotifierContext, em: SqlEntityManager, endpointId: string): Promise<ClaimedProbe | 'none' | 'busy'> {
  const [claimed] = await em.execute<ClaimedProbe[]>(
    `update notification_delivery d set claimed_by = ?, claim_expires_at = now() + make_interval(secs => ?), updated_at = ?
     where d.id = (
       select id from (
         select distinct on (subject_type, subject_id) id, position, next_attempt_at, claim_expires_at
         from notification_delivery where endpoint_id = ? and state = 'pending'
         order by subject_type, subject_id, position
       ) heads
       where claim_expires_at is null or claim_expires_at <= now()
       order by next_attempt_at, position limit 1
     ) and d.state = 'pending' and (d.claim_expires_at is null or d.claim_expires_at <= now())
     returning d.id, d.event_id, d.attempts, d.first_failed_at, d.subject_type, d.subject_id`,
    [ctx.instance, claimLeaseMs(ctx.deps.settings()) / 1000, new Date(), endpointId],
  );
  if (claimed) return claimed;
  const [pending] = await em.execute<Array<{ pending: boolean }>>("select exists (select from notification_delivery where endpoint_id = ? and state = 'pending') as pending", [endpointId]);
  return pending?.pending ? 'busy' : 'none';
}
