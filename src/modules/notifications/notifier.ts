// The delivery engine of back-office notifications (docs/notifications.md), as the rest of the
// gateway sees it: the Notifier the API and the job handlers call, the safety-net sweep, the
// operator's redelivery and replay, and the registration of the engine's jobs. Each part lives in
// its own file: the fan-out from the event log (notification-fanout.ts), the sending of a lane's
// deliveries (notification-delivery.ts), an endpoint's health (notification-endpoint-health.ts),
// its probe (notification-probe.ts) and the reads (notification-delivery-reads.ts). Everything
// runs as jobs of the kernel's queue.

import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { JobHandlers } from '../../kernel/jobs.js';
import type { FieldError } from '../../providers/provider.js';
import { attempts, deliveries, findDelivery, type DeliveryState, type NotificationAttemptView, type NotificationDeliveryView } from './notification-delivery-reads.js';
import { deliverLane } from './notification-delivery.js';
import { deliveryForEvent, ENDPOINT_BEHIND_SQL, fanout } from './notification-fanout.js';
import {
  FANOUT_KEY,
  NOTIFICATIONS_DELIVER,
  NOTIFICATIONS_FANOUT,
  NOTIFICATIONS_PROBE,
  NOTIFICATIONS_SWEEP,
  SWEEP_LANES,
  wakeLanes,
  type Lane,
  type NotifierContext,
  type NotifierDeps,
} from './notification-jobs.js';
import { probe } from './notification-probe.js';

/** An enabled endpoint (`e`) whose probe is due on the gateway's clock (the one parameter). */
const PROBE_DUE_WHERE = 'e.enabled and e.next_probe_at <= ?';
const PROBE_DUE_SQL = `exists (select from notification_endpoint e where ${PROBE_DUE_WHERE})`;

export class Notifier {
  private readonly ctx: NotifierContext;

  constructor(deps: NotifierDeps) {
    // Who holds a claim: this instance.
    this.ctx = { deps, instance: `ntf:${randomUUID().slice(0, 8)}` };
  }

  /**
   * Fans the final events after each enabled endpoint's cursor out to its deliveries, and looks
   * again shortly while events past the final position (or past a batch) remain.
   */
  fanout(em: SqlEntityManager): Promise<void> {
    return fanout(this.ctx, em);
  }

  /**
   * Sends one lane's pending deliveries, oldest position first, while its head is due on the
   * gateway's clock. The head is claimed with a lease (database time) before it is sent, so no two
   * instances send it at once; a failure schedules the lane's next try after its back-off and
   * stops the lane there (other lanes go on); a delivery given up moves the lane on. While the
   * endpoint is being probed the lane sends nothing: the probe's first success wakes it.
   */
  deliverLane(em: SqlEntityManager, lane: Lane): Promise<void> {
    return deliverLane(this.ctx, em, lane);
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
  probe(em: SqlEntityManager, endpointId: string): Promise<void> {
    return probe(this.ctx, em, endpointId);
  }

  /**
   * The safety net, every NOTIFICATION_SWEEP_INTERVAL_MS: wakes every lane whose head is due on
   * the gateway's clock and held by no live claim (a lost wake-up, a crashed instance's claim, a
   * clock moved forward), of an enabled endpoint not being probed; a probe of each endpoint whose
   * probe is due; and a fan-out when an endpoint is behind the log. A disabled endpoint's lanes
   * (a revoked client's among them) are never woken.
   */
  async sweep(em: SqlEntityManager): Promise<void> {
    const now = this.ctx.deps.clock.now();
    const due = await em.execute<Array<{ endpoint_id: string; subject_type: string; subject_id: string }>>(
      `select endpoint_id, subject_type, subject_id from (
         select distinct on (d.endpoint_id, d.subject_type, d.subject_id) d.endpoint_id, d.subject_type, d.subject_id, d.next_attempt_at, d.claim_expires_at
         from notification_delivery d join notification_endpoint e on e.id = d.endpoint_id and e.enabled and e.next_probe_at is null
         where d.state = 'pending'
         order by d.endpoint_id, d.subject_type, d.subject_id, d.position
       ) heads
       where next_attempt_at <= ? and (claim_expires_at is null or claim_expires_at <= now())
       limit ?`,
      [now, SWEEP_LANES],
    );
    const [behind] = await em.execute<Array<{ behind: boolean; probes: boolean }>>(
      `select ${ENDPOINT_BEHIND_SQL} as behind, ${PROBE_DUE_SQL} as probes`,
      [now],
    );
    const probes = behind?.probes
      ? await em.execute<Array<{ id: string }>>(`select id from notification_endpoint e where ${PROBE_DUE_WHERE} order by next_probe_at limit ?`, [now, SWEEP_LANES])
      : [];
    if (due.length === 0 && !behind?.behind && probes.length === 0) return;
    await em.transactional(async (tx) => {
      await wakeLanes(this.ctx, tx, due.map((row) => ({ endpointId: row.endpoint_id, subjectType: row.subject_type, subjectId: row.subject_id })));
      await this.ctx.deps.jobs.enqueueMany(tx, NOTIFICATIONS_PROBE, probes.map((row) => ({ payload: { endpointId: row.id }, dedupeKey: row.id })));
      if (behind?.behind) await this.ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY });
    });
  }

  /**
   * Sends one event to one endpoint again (with the same webhook-id), now: the delivery by its id,
   * or by event and endpoint, which makes one if the event was never fanned out to it (the event
   * must be one its client may read and of its types).
   */
  async redeliver(em: SqlEntityManager, target: { deliveryId: string } | { eventId: string; endpointId: string }): Promise<{ delivery: NotificationDeliveryView | null; errors: FieldError[] }> {
    return em.transactional(async (tx) => {
      let deliveryId: string | undefined;
      if ('deliveryId' in target) {
        deliveryId = target.deliveryId;
      } else {
        const [existing] = await tx.execute<Array<{ id: string }>>('select id from notification_delivery where endpoint_id = ? and event_id = ?', [target.endpointId, target.eventId]);
        deliveryId = existing?.id ?? (await deliveryForEvent(this.ctx, tx, target.endpointId, target.eventId));
        if (deliveryId === undefined) return { delivery: null, errors: [{ field: ['eventId'], code: 'NOT_FOUND', message: 'No event with this id that the endpoint\'s client may read, of its event types.' }] };
      }
      const [row] = await tx.execute<Array<{ endpoint_id: string; subject_type: string; subject_id: string }>>(
        `update notification_delivery set state = 'pending', next_attempt_at = ?, first_failed_at = null, updated_at = ?
         where id = ? returning endpoint_id, subject_type, subject_id`,
        [this.ctx.deps.clock.now(), new Date(), deliveryId],
      );
      if (!row) return { delivery: null, errors: [{ field: ['deliveryId'], code: 'NOT_FOUND', message: 'No notification delivery has this id.' }] };
      await wakeLanes(this.ctx, tx, [{ endpointId: row.endpoint_id, subjectType: row.subject_type, subjectId: row.subject_id }]);
      // An endpoint being probed is probed at once: its lanes, this one's too, wait for a probe.
      const probed = await tx.execute<Array<{ id: string }>>(
        'update notification_endpoint set next_probe_at = least(next_probe_at, ?) where id = ? and next_probe_at is not null returning id',
        [this.ctx.deps.clock.now(), row.endpoint_id],
      );
      if (probed.length > 0) await this.ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId: row.endpoint_id }, { dedupeKey: row.endpoint_id, sooner: true });
      return { delivery: (await findDelivery(tx, deliveryId))!, errors: [] };
    });
  }

  /**
   * Sets the endpoint's cursor back to `after` (a position, e.g. an event's cursor): every event
   * after it that the endpoint takes is sent again, in order, delivered ones included.
   */
  async replay(em: SqlEntityManager, endpointId: string, after: string): Promise<FieldError[]> {
    return em.transactional(async (tx) => {
      const [endpoint] = await tx.execute<Array<{ cursor: string }>>('select cursor::text as cursor from notification_endpoint where id = ? for update', [endpointId]);
      if (!endpoint) return [{ field: ['endpointId'], code: 'NOT_FOUND', message: 'No notification endpoint has this id.' }];
      if (BigInt(after) > BigInt(endpoint.cursor)) return [{ field: ['after'], code: 'INVALID_VALUE', message: `A replay goes back: the endpoint has been sent everything up to ${endpoint.cursor} already.` }];
      await tx.execute('update notification_endpoint set cursor = ?, updated_at = ? where id = ?', [after, new Date(), endpointId]);
      await this.ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY });
      return [];
    });
  }

  /** An endpoint's deliveries, newest position first, `limit` after the `before` position. */
  deliveries(em: SqlEntityManager, options: { endpointId: string; state?: DeliveryState; subjectId?: string; before?: string; limit: number }): Promise<NotificationDeliveryView[]> {
    return deliveries(em, options);
  }

  findDelivery(em: SqlEntityManager, id: string): Promise<NotificationDeliveryView | null> {
    return findDelivery(em, id);
  }

  /** Each delivery's attempts, oldest first (one query for a page). */
  attempts(em: SqlEntityManager, deliveryIds: readonly string[]): Promise<Map<string, NotificationAttemptView[]>> {
    return attempts(em, deliveryIds);
  }
}

export function registerNotificationJobs(handlers: JobHandlers, notifier: Notifier, options: { sweepIntervalMs: number }): void {
  handlers.register(NOTIFICATIONS_FANOUT, (em) => notifier.fanout(em));
  handlers.register(NOTIFICATIONS_DELIVER, (em, lane) => notifier.deliverLane(em, lane));
  handlers.register(NOTIFICATIONS_PROBE, (em, { endpointId }) => notifier.probe(em, endpointId));
  handlers.recurring(NOTIFICATIONS_SWEEP, { everyMs: options.sweepIntervalMs, payload: {} }, (em) => notifier.sweep(em));
}
