// The fan-out of back-office notifications (docs/notifications.md): the event log's append hook
// that asks for it, and the job that turns the final events after each enabled endpoint's cursor
// into that endpoint's pending deliveries (exactly what its client may read, of its types), then
// wakes their lanes. A redelivery of an event never fanned out to an endpoint goes through here too.

import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { AppendHook } from '../../kernel/events/event-log.js';
import { PaymentEvent } from '../../kernel/events/payment-event.entity.js';
import type { JobQueue } from '../../kernel/jobs.js';
import type { Role } from '../../kernel/roles.js';
import { visibleEventsWhere, type Caller } from '../../kernel/visibility.js';
import { newId } from '../../lib/ids.js';
import { textArray } from './notification-endpoints.js';
import { FANOUT_KEY, NOTIFICATIONS_FANOUT, wakeLanes, type NotifierContext } from './notification-jobs.js';

/** Events one endpoint's fan-out reads in one transaction. */
const FANOUT_BATCH = 500;
/** A fan-out that found events not final yet looks again this soon. */
const FANOUT_AGAIN_MS = 100;
/** An enabled endpoint's cursor is behind the committed log: a fan-out has work. */
export const ENDPOINT_BEHIND_SQL = 'exists (select from notification_endpoint where enabled and cursor < (select coalesce(max(position), 0) from payment_event))';
/**
 * Another session of this database runs a transaction that has an id, so it may be appending an
 * event this statement cannot see yet: a gateway instance's, or any other writer's.
 *
 * It reads only `datid` and `backend_xid` of pg_stat_activity, which PostgreSQL shows every role
 * for every session, whatever the session's role: no privilege is needed, and pg_read_all_stats
 * would change nothing. Seen on PostgreSQL 15.20 by a role that is no superuser and a member of
 * no role: another role's session shows its datid, backend_xid and backend_xmin, while its state
 * is null and its query reads "<insufficient privilege>" (pg_stat_get_activity gives pid, datid,
 * usesysid, application_name, backend_xid and backend_xmin to all callers, the rest to members
 * of the session's role and of pg_read_all_stats). So a writer of another role counts as one of
 * the gateway's own, e.g. an instance logged in under other credentials or an admin's session
 * (test/db/plain-role.test.ts). A writer missed here, on a server that published less, would
 * still be sent after the sweep's next look (NOTIFICATION_SWEEP_INTERVAL_MS later), never lost.
 */
export const WRITER_RUNNING_SQL = `exists (
  select from pg_stat_activity
  where datid = (select oid from pg_database where datname = current_database()) and backend_xid is not null and pid <> pg_backend_pid()
)`;

/** An endpoint's client and event types, as `readableBy` reads them (ENDPOINT_READER_COLUMNS, `e` the endpoint and `c` its client). */
interface EndpointReader {
  client_id: string;
  event_types: string[] | string;
  roles: string[] | string;
  merchant_accounts: string[] | string | null;
  revoked_at: Date | null;
}

const ENDPOINT_READER_COLUMNS = 'e.client_id, e.event_types, c.roles, c.merchant_accounts, c.revoked_at';

/**
 * The conditions on the event log of what an endpoint is sent: exactly what its client's
 * `events(after:)` shows (the visibility policy, its client as the viewer), of the endpoint's types.
 */
function readableBy(endpoint: EndpointReader): object[] {
  const viewer: Caller = {
    id: endpoint.client_id,
    roles: textArray(endpoint.roles) as Role[],
    merchantAccounts: endpoint.merchant_accounts == null ? null : textArray(endpoint.merchant_accounts),
  };
  const types = textArray(endpoint.event_types);
  return [visibleEventsWhere(viewer), ...(types.length > 0 ? [{ type: { $in: types } }] : [])];
}

/**
 * The event log's append hook: a fan-out job, in the append's own statement, only while an
 * enabled endpoint exists (with none, the append writes nothing more) and no fan-out job waits
 * already.
 *
 * Deliberately not by the queue's dedupe key: two appends inserting the same key wait for each
 * other's commit (the unique index), so every event-writing transaction would queue behind
 * whichever one inserted the job first. Without the key nothing waits; two appends that both see
 * no waiting job may both add one, and the second fan-out finds nothing left to do. An append
 * that saw a job waiting, which a worker then runs before the append commits, is caught by that
 * run's last look (`fanout`): it goes again while transactions that may append are running.
 */
export function notificationFanoutHook(jobs: JobQueue): AppendHook {
  return jobs.appendHook(NOTIFICATIONS_FANOUT, {}, {
    onlyIf: [
      { exists: { table: 'notification_endpoint', where: { enabled: true } } },
      { none: { table: 'job', where: { kind: NOTIFICATIONS_FANOUT, status: 'pending' } } },
    ],
  });
}

/**
 * Fans the final events after each enabled endpoint's cursor out to its deliveries, and looks
 * again shortly while events past the final position (or past a batch) remain.
 */
export async function fanout(ctx: NotifierContext, em: SqlEntityManager): Promise<void> {
  const endpoints = await em.execute<Array<{ id: string }>>('select id from notification_endpoint where enabled order by id');
  for (const endpoint of endpoints) await fanoutEndpoint(ctx, em, endpoint.id);
  // Again shortly while an endpoint is behind the committed log (events not final yet, or past a
  // batch), or while a transaction of this database that may append is running: it may have
  // skipped its own fan-out job because this one was still waiting when it wrote its event.
  const [behind] = await em.execute<Array<{ behind: boolean }>>(
    `select ${ENDPOINT_BEHIND_SQL} or (exists (select from notification_endpoint where enabled) and ${WRITER_RUNNING_SQL}) as behind`,
  );
  if (behind?.behind) {
    await em.transactional((tx) => ctx.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY, runAt: new Date(Date.now() + FANOUT_AGAIN_MS) }));
  }
}

/**
 * One endpoint, in one transaction holding its row: the final events after its cursor that its
 * client may read (exactly `events(after:)` for that client) and of its types become pending
 * deliveries, the cursor moves past them, and each lane that got one is woken. A revoked
 * client's endpoint is sent nothing: its cursor moves on.
 */
async function fanoutEndpoint(ctx: NotifierContext, em: SqlEntityManager, endpointId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const [endpoint] = await tx.execute<Array<EndpointReader & { cursor: string }>>(
      `select ${ENDPOINT_READER_COLUMNS}, e.cursor::text as cursor
       from notification_endpoint e join api_client c on c.id = e.client_id
       where e.id = ? and e.enabled for update of e`,
      [endpointId],
    );
    if (!endpoint) return;
    const final = await ctx.deps.events.finalPosition(tx);
    if (BigInt(final) <= BigInt(endpoint.cursor)) return;
    let cursor = final;
    const events: Array<Pick<PaymentEvent, 'position' | 'id' | 'subjectType' | 'subjectId'>> = [];
    if (endpoint.revoked_at == null) {
      const found = await tx.find(
        PaymentEvent,
        { $and: [{ position: { $gt: endpoint.cursor, $lte: raw(`${final}`) } }, ...readableBy(endpoint)] },
        { orderBy: { position: 'asc' }, limit: FANOUT_BATCH, fields: ['position', 'id', 'subjectType', 'subjectId'] },
      );
      events.push(...found);
      if (found.length === FANOUT_BATCH) cursor = String(found.at(-1)!.position);
    }
    if (events.length > 0) await insertDeliveries(ctx, tx, endpointId, events);
    await tx.execute('update notification_endpoint set cursor = ? where id = ?', [cursor, endpointId]);
    const lanes = new Map(events.map((event) => [`${event.subjectType}:${event.subjectId}`, { endpointId, subjectType: event.subjectType, subjectId: event.subjectId }]));
    await wakeLanes(ctx, tx, [...lanes.values()]);
  });
}

/**
 * Pending deliveries of these events to one endpoint. An event delivered before (a replay) is
 * pending again, with a fresh retry window; one still pending is left as it is.
 */
async function insertDeliveries(ctx: NotifierContext, tx: SqlEntityManager, endpointId: string, events: ReadonlyArray<Pick<PaymentEvent, 'position' | 'id' | 'subjectType' | 'subjectId'>>): Promise<void> {
  const now = ctx.deps.clock.now();
  const created = new Date();
  const values = events.map(() => "(?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)").join(', ');
  await tx.execute(
    `insert into notification_delivery (id, endpoint_id, event_id, position, subject_type, subject_id, state, attempts, next_attempt_at, created_at, updated_at)
     values ${values}
     on conflict (endpoint_id, event_id) do update set state = 'pending', next_attempt_at = excluded.next_attempt_at, first_failed_at = null,
       claimed_by = null, claim_expires_at = null, updated_at = excluded.updated_at
     where notification_delivery.state <> 'pending'`,
    events.flatMap((event) => [newId('ndl'), endpointId, event.id, String(event.position), event.subjectType, event.subjectId, now, created, created]),
  );
}

export async function deliveryForEvent(ctx: NotifierContext, tx: SqlEntityManager, endpointId: string, eventId: string): Promise<string | undefined> {
  const [endpoint] = await tx.execute<EndpointReader[]>(
    `select ${ENDPOINT_READER_COLUMNS} from notification_endpoint e join api_client c on c.id = e.client_id where e.id = ?`,
    [endpointId],
  );
  if (!endpoint || endpoint.revoked_at != null) return undefined;
  const event = await tx.findOne(PaymentEvent, { $and: [{ id: eventId }, ...readableBy(endpoint)] }, { fields: ['position', 'id', 'subjectType', 'subjectId'] });
  if (!event) return undefined;
  await insertDeliveries(ctx, tx, endpointId, [event]);
  const [row] = await tx.execute<Array<{ id: string }>>('select id from notification_delivery where endpoint_id = ? and event_id = ?', [endpointId, eventId]);
  return row?.id;
}
