// The reads of back-office notifications (docs/notifications.md): an endpoint's deliveries and
// their attempts as the API shows them, with the states and outcomes a delivery goes through.
// Apart from the engine that writes them, so the GraphQL types read these shapes alone.

import type { SqlEntityManager } from '@mikro-orm/postgresql';

export type DeliveryState = 'pending' | 'delivered' | 'failed';
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export interface NotificationAttemptView {
  id: string;
  attemptedAt: Date;
  httpStatus: number | null;
  errorCode: string | null;
  durationMs: number;
  responseExcerpt: string | null;
}

export interface NotificationDeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  position: string;
  subjectType: string;
  subjectId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

const DELIVERY_SELECT = `select d.id, d.endpoint_id, d.event_id, e.type as event_type, d.position::text as position, d.subject_type, d.subject_id, d.state, d.attempts,
  d.next_attempt_at, d.delivered_at, d.created_at from notification_delivery d join payment_event e on e.id = d.event_id`;

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  position: string;
  subject_type: string;
  subject_id: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date | string;
  delivered_at: Date | string | null;
  created_at: Date | string;
}

function deliveryView(row: DeliveryRow): NotificationDeliveryView {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    position: row.position,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' ? new Date(row.next_attempt_at) : null,
    deliveredAt: row.delivered_at == null ? null : new Date(row.delivered_at),
    createdAt: new Date(row.created_at),
  };
}

/** An endpoint's deliveries, newest position first, `limit` after the `before` position. */
export async function deliveries(em: SqlEntityManager, options: { endpointId: string; state?: DeliveryState; subjectId?: string; before?: string; limit: number }): Promise<NotificationDeliveryView[]> {
  const where = ['d.endpoint_id = ?'];
  const params: unknown[] = [options.endpointId];
  if (options.state) {
    where.push('d.state = ?');
    params.push(options.state);
  }
  if (options.subjectId) {
    where.push('d.subject_id = ?');
    params.push(options.subjectId);
  }
  if (options.before) {
    where.push('d.position < ?');
    params.push(options.before);
  }
  const rows = await em.execute<DeliveryRow[]>(`${DELIVERY_SELECT} where ${where.join(' and ')} order by d.position desc limit ?`, [...params, options.limit]);
  return rows.map(deliveryView);
}

export async function findDelivery(em: SqlEntityManager, id: string): Promise<NotificationDeliveryView | null> {
  const [row] = await em.execute<DeliveryRow[]>(`${DELIVERY_SELECT} where d.id = ?`, [id]);
  return row ? deliveryView(row) : null;
}

/** Each delivery's attempts, oldest first (one query for a page). */
export async function attempts(em: SqlEntityManager, deliveryIds: readonly string[]): Promise<Map<string, NotificationAttemptView[]>> {
  const grouped = new Map<string, NotificationAttemptView[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return grouped;
  const rows = await em.execute<Array<{ id: string; delivery_id: string; attempted_at: Date | string; http_status: number | null; error_code: string | null; duration_ms: number; response_excerpt: string | null }>>(
    `select id, delivery_id, attempted_at, http_status, error_code, duration_ms, response_excerpt from notification_attempt
     where delivery_id in (${deliveryIds.map(() => '?').join(', ')}) order by attempted_at, id`,
    [...deliveryIds],
  );
  for (const row of rows) {
    grouped.get(row.delivery_id)?.push({
      id: row.id,
      attemptedAt: new Date(row.attempted_at),
      httpStatus: row.http_status,
      errorCode: row.error_code,
      durationMs: row.duration_ms,
      responseExcerpt: row.response_excerpt,
    });
  }
  return grouped;
}
