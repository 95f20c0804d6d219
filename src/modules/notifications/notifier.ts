// The delivery engine of back-office notifications (docs/notifications.md): the fan-out from the
// event log to each endpoint's deliveries, the lanes that send them in order per subject, the
// retries on the gateway's clock, redelivery and replay, and the sweep that catches up whatever a
// lost wake-up or a crashed instance left behind. Everything runs as jobs of the kernel's queue.

import { randomUUID } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { FINAL_POSITION_SQL, type AppendHook, type EventLog } from '../../kernel/events/event-log.js';
import { PaymentEvent } from '../../kernel/events/payment-event.entity.js';
import { JOBS_CHANNEL, type JobQueue } from '../../kernel/jobs.js';
import { redact, type Reader, type RedactionPolicy, type Redactions } from '../../kernel/redaction.js';
import type { Role } from '../../kernel/roles.js';
import { visibleEventsWhere, type Caller } from '../../kernel/visibility.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { OpenFailure, SecretSealer } from '../../lib/sealed-secrets.js';
import type { FieldError } from '../../providers/provider.js';
import { NOTIFICATION_ENDPOINT_FAILING, secretPlace, textArray } from './notification-endpoints.js';
import { claimLeaseMs, notificationRetryDelayMs, type NotificationSettings } from './notification-settings.js';
import { signedHeaders } from './notification-signing.js';
import { postOnce, type PostResult } from '../../lib/outbound-http.js';

export const NOTIFICATIONS_FANOUT = 'notifications.fanout';
export const NOTIFICATIONS_DELIVER = 'notifications.deliver';
export const NOTIFICATIONS_SWEEP = 'notifications.sweep';

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
  }
}

/** The one waiting fan-out job's dedupe key: every append asks for the same one. */
const FANOUT_KEY = 'fanout';
/** Events one endpoint's fan-out reads in one transaction. */
const FANOUT_BATCH = 500;
/** A fan-out that found events not final yet looks again this soon. */
const FANOUT_AGAIN_MS = 100;
/** An enabled endpoint's cursor is behind the committed log: a fan-out has work. */
const ENDPOINT_BEHIND_SQL = 'exists (select from notification_endpoint where enabled and cursor < (select coalesce(max(position), 0) from payment_event))';
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
/** Deliveries one lane job sends before it hands the lane to a fresh job (so no job outlasts its lease). */
const LANE_BATCH = 50;
/** Lanes one sweep wakes. */
const SWEEP_LANES = 500;
/** Longest response excerpt kept on an attempt. */
const EXCERPT_BYTES = 1_024;
/** The merchant account of an event that belongs to none (an endpoint's): admins alone see those. */
const NO_MERCHANT_ACCOUNT = '-';
/** An attempt's error code when the endpoint's secret does not open under the configured keys: nothing was sent. */
export const SECRET_UNAVAILABLE = 'SECRET_UNAVAILABLE';

/** An attempt that was not made: the delivery could not be signed. */
interface NotSigned {
  kind: 'not_signed';
  code: typeof SECRET_UNAVAILABLE;
  message: string;
  durationMs: 0;
}

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

interface ClaimedDelivery {
  id: string;
  event_id: string;
  attempts: number;
  first_failed_at: Date | string | null;
}

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

interface SendTarget {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  usable: boolean;
  /** The endpoint's client's roles: its reads of the subject's fields are the API's (the redaction policy). */
  client_roles: string[] | string;
  /** The endpoint is FAILING: a delivery makes it HEALTHY again. */
  failing: boolean;
  /** The event, read with the endpoint. */
  event_type: string;
  event_subject_type: string;
  event_created_at: Date | string;
  event_data: unknown;
}

export class Notifier {
  /** Who holds a claim: this instance. */
  private readonly instance = `ntf:${randomUUID().slice(0, 8)}`;
  private readonly listeners: Array<(outcome: DeliveryOutcome) => void> = [];

  constructor(
    private readonly deps: {
      jobs: JobQueue;
      events: EventLog;
      /** What of each subject kind the endpoint's client may read: the API's own redaction policies. */
      redactions: Redactions;
      clock: Clock;
      logger: Logger;
      settings: () => NotificationSettings;
      secrets: SecretSealer;
    },
  ) {}

  /** Told every attempt's outcome (metrics). */
  onAttempt(listener: (outcome: DeliveryOutcome) => void): void {
    this.listeners.push(listener);
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
  appendHook(): AppendHook {
    return {
      channel: JOBS_CHANNEL,
      statement: (requires) =>
        this.deps.jobs.silentInsertStatement(NOTIFICATIONS_FANOUT, {}, {
          onlyIf: {
            sql: `exists (select from notification_endpoint where enabled)
              and not exists (select from job where kind = '${NOTIFICATIONS_FANOUT}' and status = 'pending')${requires ? ` and ${requires}` : ''}`,
            params: [],
          },
        }),
    };
  }

  /**
   * Fans the final events after each enabled endpoint's cursor out to its deliveries, and looks
   * again shortly while events past the final position (or past a batch) remain.
   */
  async fanout(em: SqlEntityManager): Promise<void> {
    const endpoints = await em.execute<Array<{ id: string }>>('select id from notification_endpoint where enabled order by id');
    for (const endpoint of endpoints) await this.fanoutEndpoint(em, endpoint.id);
    // Again shortly while an endpoint is behind the committed log (events not final yet, or past a
    // batch), or while a transaction of this database that may append is running: it may have
    // skipped its own fan-out job because this one was still waiting when it wrote its event.
    const [behind] = await em.execute<Array<{ behind: boolean }>>(
      `select ${ENDPOINT_BEHIND_SQL} or (exists (select from notification_endpoint where enabled) and ${WRITER_RUNNING_SQL}) as behind`,
    );
    if (behind?.behind) {
      await em.transactional((tx) => this.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY, runAt: new Date(Date.now() + FANOUT_AGAIN_MS) }));
    }
  }

  /**
   * One endpoint, in one transaction holding its row: the final events after its cursor that its
   * client may read (exactly `events(after:)` for that client) and of its types become pending
   * deliveries, the cursor moves past them, and each lane that got one is woken. A revoked
   * client's endpoint is sent nothing: its cursor moves on.
   */
  private async fanoutEndpoint(em: SqlEntityManager, endpointId: string): Promise<void> {
    await em.transactional(async (tx) => {
      const [endpoint] = await tx.execute<Array<EndpointReader & { cursor: string }>>(
        `select ${ENDPOINT_READER_COLUMNS}, e.cursor::text as cursor
         from notification_endpoint e join api_client c on c.id = e.client_id
         where e.id = ? and e.enabled for update of e`,
        [endpointId],
      );
      if (!endpoint) return;
      const [bound] = await tx.execute<Array<{ final: string }>>(`select coalesce(${FINAL_POSITION_SQL}, 0)::text as final`);
      const final = bound!.final;
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
      if (events.length > 0) await this.insertDeliveries(tx, endpointId, events);
      await tx.execute('update notification_endpoint set cursor = ? where id = ?', [cursor, endpointId]);
      const lanes = new Map(events.map((event) => [`${event.subjectType}:${event.subjectId}`, { endpointId, subjectType: event.subjectType, subjectId: event.subjectId }]));
      await this.wakeLanes(tx, [...lanes.values()]);
    });
  }

  /**
   * Pending deliveries of these events to one endpoint. An event delivered before (a replay) is
   * pending again, with a fresh retry window; one still pending is left as it is.
   */
  private async insertDeliveries(tx: SqlEntityManager, endpointId: string, events: ReadonlyArray<Pick<PaymentEvent, 'position' | 'id' | 'subjectType' | 'subjectId'>>): Promise<void> {
    const now = this.deps.clock.now();
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

  /** One deliver job per lane (a lane's job already waiting covers it). */
  private async wakeLanes(tx: SqlEntityManager, lanes: readonly Lane[], runAt?: Date): Promise<void> {
    await this.deps.jobs.enqueueMany(tx, NOTIFICATIONS_DELIVER, lanes.map((lane) => ({ payload: lane, dedupeKey: laneKey(lane) })), runAt ? { runAt } : {});
  }

  /**
   * Sends one lane's pending deliveries, oldest position first, while its head is due on the
   * gateway's clock. The head is claimed with a lease (database time) before it is sent, so no two
   * instances send it at once; a failure schedules the lane's next try after its back-off and
   * stops the lane there (other lanes go on); a delivery given up moves the lane on.
   */
  async deliverLane(em: SqlEntityManager, lane: Lane): Promise<void> {
    for (let sent = 0; sent < LANE_BATCH; sent++) {
      const claimed = await this.claimHead(em, lane);
      if (claimed === 'wait') return;
      if ('runInMs' in claimed) {
        await em.transactional((tx) => this.wakeLanes(tx, [lane], new Date(Date.now() + claimed.runInMs)));
        return;
      }
      const outcome = await this.send(em, lane, claimed);
      if (outcome === 'retrying' || outcome === 'stopped') return;
    }
    // More to send: a fresh job goes on, so no run outlasts its lease.
    await em.transactional((tx) => this.wakeLanes(tx, [lane]));
  }

  /**
   * Claims the lane's head if it is due and no live claim holds it: the delivery, or why not:
   * `wait` (nothing pending, or another instance holds the head), `{ runInMs }` (not due yet).
   */
  private async claimHead(em: SqlEntityManager, lane: Lane): Promise<ClaimedDelivery | 'wait' | { runInMs: number }> {
    const now = this.deps.clock.now();
    const claimed = await em.execute<ClaimedDelivery[]>(
      `update notification_delivery d set claimed_by = ?, claim_expires_at = now() + make_interval(secs => ?), updated_at = ?
       where d.id = (select id from notification_delivery where endpoint_id = ? and subject_type = ? and subject_id = ? and state = 'pending' order by position limit 1)
         and d.state = 'pending' and d.next_attempt_at <= ? and (d.claim_expires_at is null or d.claim_expires_at <= now())
       returning d.id, d.event_id, d.attempts, d.first_failed_at`,
      [this.instance, claimLeaseMs(this.deps.settings()) / 1000, new Date(), lane.endpointId, lane.subjectType, lane.subjectId, now],
    );
    if (claimed[0]) return claimed[0];
    const [head] = await em.execute<Array<{ next_attempt_at: Date | string; claimed: boolean }>>(
      `select next_attempt_at, coalesce(claim_expires_at > now(), false) as claimed from notification_delivery
       where endpoint_id = ? and subject_type = ? and subject_id = ? and state = 'pending' order by position limit 1`,
      [lane.endpointId, lane.subjectType, lane.subjectId],
    );
    // Nothing pending, or another instance is sending the head (it goes on with the lane).
    if (!head || head.claimed) return 'wait';
    const waitMs = new Date(head.next_attempt_at).getTime() - now.getTime();
    // Not due on the gateway's clock: the lane's job waits that long (the sweep wakes it sooner if the clock jumps).
    return waitMs > 0 ? { runInMs: waitMs } : 'wait';
  }

  /** POSTs one claimed delivery and records the attempt and its outcome. */
  private async send(em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery): Promise<DeliveryOutcome | 'stopped'> {
    const settings = this.deps.settings();
    const [target] = await em.execute<SendTarget[]>(
      `select e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, (e.enabled and c.revoked_at is null) as usable,
         c.roles as client_roles, e.state = 'failing' as failing,
         ev.type as event_type, ev.subject_type as event_subject_type, ev.created_at as event_created_at, ev.data as event_data
       from notification_endpoint e join api_client c on c.id = e.client_id join payment_event ev on ev.id = ?
       where e.id = ?`,
      [delivery.event_id, lane.endpointId],
    );
    if (!target?.usable) {
      // Disabled, deleted, or its client revoked: the delivery waits, unsent.
      await em.execute('update notification_delivery set claimed_by = null, claim_expires_at = null where id = ? and claimed_by = ?', [delivery.id, this.instance]);
      return 'stopped';
    }
    const secrets = this.openSecrets(lane.endpointId, delivery, target);
    if (!secrets.ok) {
      // Never sent unsigned nor signed with anything else: a failed attempt, retried on the usual
      // back-off (a key configured again lets the next one go), and the endpoint FAILING at once.
      this.deps.logger.error(
        { endpointId: lane.endpointId, deliveryId: delivery.id, eventId: delivery.event_id, errorCode: SECRET_UNAVAILABLE, reason: secrets.code, keyId: secrets.keyId },
        `notification not sent: its endpoint's signing secret does not open (${secrets.message})`,
      );
      return this.record(em, lane, delivery, { kind: 'not_signed', code: SECRET_UNAVAILABLE, message: secrets.message, durationMs: 0 }, target.failing);
    }
    const event = { id: delivery.event_id, type: target.event_type, created_at: target.event_created_at, data: target.event_data };
    const reader: Reader = { roles: textArray(target.client_roles) as Role[] };
    const body = notificationBody(event, this.deps.redactions.of(target.event_subject_type), reader);
    const headers = signedHeaders(secrets.plaintexts, event.id, Math.floor(Date.now() / 1000), body);
    const result = await postOnce({ url: target.url, headers, body, timeoutMs: settings.timeoutMs, policy: settings.policy });
    return this.record(em, lane, delivery, result, target.failing);
  }

  /**
   * The secrets that sign: the current one, and the previous one during a rotation's overlap.
   * A previous secret that does not open is left out (the current one still signs); a current
   * one that does not open means the delivery cannot be signed.
   */
  private openSecrets(endpointId: string, delivery: ClaimedDelivery, target: SendTarget): { ok: true; plaintexts: string[] } | OpenFailure {
    const current = this.deps.secrets.open(target.secret, secretPlace(endpointId, 'secret'));
    if (!current.ok) return current;
    const overlapping = target.previous_secret != null && target.previous_secret_expires_at != null && new Date(target.previous_secret_expires_at) > this.deps.clock.now();
    if (!overlapping) return { ok: true, plaintexts: [current.plaintext] };
    const previous = this.deps.secrets.open(target.previous_secret!, secretPlace(endpointId, 'previous_secret'));
    if (previous.ok) return { ok: true, plaintexts: [current.plaintext, previous.plaintext] };
    this.deps.logger.warn({ endpointId, deliveryId: delivery.id, reason: previous.code, keyId: previous.keyId }, `notification signed with the current secret alone: the previous one does not open (${previous.message})`);
    return { ok: true, plaintexts: [current.plaintext] };
  }

  private async record(em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, result: PostResult | NotSigned, endpointFailing: boolean): Promise<DeliveryOutcome> {
    const settings = this.deps.settings();
    const now = this.deps.clock.now();
    const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
    const attempt = delivery.attempts + 1;
    const firstFailedAt = delivery.first_failed_at == null ? now : new Date(delivery.first_failed_at);
    const outcome: DeliveryOutcome = ok ? 'delivered' : now.getTime() - firstFailedAt.getTime() >= settings.retryForMs ? 'failed' : 'retrying';
    const retryInMs = outcome === 'retrying' ? notificationRetryDelayMs(attempt, settings) : 0;
    const log = {
      endpointId: lane.endpointId,
      deliveryId: delivery.id,
      eventId: delivery.event_id,
      attempt,
      durationMs: result.durationMs,
      ...(result.kind === 'response' ? { httpStatus: result.status } : { errorCode: result.code }),
    };
    await em.transactional(async (tx) => {
      await tx.execute(
        'insert into notification_attempt (id, delivery_id, attempted_at, http_status, error_code, duration_ms, response_excerpt) values (?, ?, ?, ?, ?, ?, ?)',
        [
          newId('nat'),
          delivery.id,
          now,
          result.kind === 'response' ? result.status : null,
          result.kind === 'response' ? null : result.code,
          Math.round(result.durationMs),
          result.kind === 'response' ? excerpt(result.body) : result.message.slice(0, EXCERPT_BYTES),
        ],
      );
      const updated = await tx.execute<Array<{ id: string }>>(
        `update notification_delivery set state = ?, attempts = attempts + 1, delivered_at = ?, first_failed_at = ?, next_attempt_at = ?,
           claimed_by = null, claim_expires_at = null, updated_at = ?
         where id = ? and claimed_by = ? and state = 'pending' returning id`,
        [
          outcome === 'retrying' ? 'pending' : outcome,
          ok ? now : null,
          ok ? delivery.first_failed_at ?? null : firstFailedAt,
          outcome === 'retrying' ? new Date(now.getTime() + retryInMs) : now,
          new Date(),
          delivery.id,
          this.instance,
        ],
      );
      // Another instance took the delivery over after this claim's lease ran out: it decides.
      if (updated.length === 0) return;
      if (ok && endpointFailing) await tx.execute("update notification_endpoint set state = 'healthy', updated_at = ? where id = ? and state = 'failing'", [new Date(), lane.endpointId]);
      // An endpoint that cannot sign is failing now, not after the retry window: nothing it is sent goes out.
      if (outcome === 'failed' || result.kind === 'not_signed') await this.markFailing(tx, lane.endpointId);
      if (outcome === 'retrying') await this.wakeLanes(tx, [lane], new Date(Date.now() + retryInMs));
    });
    for (const listener of this.listeners) listener(outcome);
    if (ok) this.deps.logger.info(log, 'notification delivered');
    else if (outcome === 'failed') this.deps.logger.warn(log, 'notification given up after its retry window; the endpoint is marked failing');
    else this.deps.logger.info({ ...log, retryInMs }, 'notification attempt failed; it will be retried');
    return outcome;
  }

  /** The endpoint is failing: once (until a delivery makes it healthy again), as an admin-only event of the log (which admin endpoints are sent too). */
  private async markFailing(tx: SqlEntityManager, endpointId: string): Promise<void> {
    const [endpoint] = await tx.execute<Array<{ client_id: string; url: string }>>(
      "update notification_endpoint set state = 'failing', updated_at = ? where id = ? and state = 'healthy' returning client_id, url",
      [new Date(), endpointId],
    );
    if (!endpoint) return;
    await this.deps.events.append(tx, {
      subjectType: 'endpoint',
      subjectId: endpointId,
      clientId: null,
      merchantAccount: NO_MERCHANT_ACCOUNT,
      adminOnly: true,
      type: NOTIFICATION_ENDPOINT_FAILING,
      fromStatus: 'healthy',
      toStatus: 'failing',
      snapshot: { id: endpointId, clientId: endpoint.client_id, url: endpoint.url, state: 'failing' },
    });
  }

  /**
   * The safety net, every NOTIFICATION_SWEEP_INTERVAL_MS: wakes every lane whose head is due on
   * the gateway's clock and held by no live claim (a lost wake-up, a crashed instance's claim, a
   * clock moved forward), and a fan-out when an endpoint is behind the log.
   */
  async sweep(em: SqlEntityManager): Promise<void> {
    const due = await em.execute<Array<{ endpoint_id: string; subject_type: string; subject_id: string }>>(
      `select endpoint_id, subject_type, subject_id from (
         select distinct on (d.endpoint_id, d.subject_type, d.subject_id) d.endpoint_id, d.subject_type, d.subject_id, d.next_attempt_at, d.claim_expires_at
         from notification_delivery d join notification_endpoint e on e.id = d.endpoint_id and e.enabled
         where d.state = 'pending'
         order by d.endpoint_id, d.subject_type, d.subject_id, d.position
       ) heads
       where next_attempt_at <= ? and (claim_expires_at is null or claim_expires_at <= now())
       limit ?`,
      [this.deps.clock.now(), SWEEP_LANES],
    );
    const [behind] = await em.execute<Array<{ behind: boolean }>>(
      `select ${ENDPOINT_BEHIND_SQL} as behind`,
    );
    if (due.length === 0 && !behind?.behind) return;
    await em.transactional(async (tx) => {
      await this.wakeLanes(tx, due.map((row) => ({ endpointId: row.endpoint_id, subjectType: row.subject_type, subjectId: row.subject_id })));
      if (behind?.behind) await this.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY });
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
        deliveryId = existing?.id ?? (await this.deliveryForEvent(tx, target.endpointId, target.eventId));
        if (deliveryId === undefined) return { delivery: null, errors: [{ field: ['eventId'], code: 'NOT_FOUND', message: 'No event with this id that the endpoint\'s client may read, of its event types.' }] };
      }
      const [row] = await tx.execute<Array<{ endpoint_id: string; subject_type: string; subject_id: string }>>(
        `update notification_delivery set state = 'pending', next_attempt_at = ?, first_failed_at = null, updated_at = ?
         where id = ? returning endpoint_id, subject_type, subject_id`,
        [this.deps.clock.now(), new Date(), deliveryId],
      );
      if (!row) return { delivery: null, errors: [{ field: ['deliveryId'], code: 'NOT_FOUND', message: 'No notification delivery has this id.' }] };
      await this.wakeLanes(tx, [{ endpointId: row.endpoint_id, subjectType: row.subject_type, subjectId: row.subject_id }]);
      return { delivery: (await this.findDelivery(tx, deliveryId))!, errors: [] };
    });
  }

  private async deliveryForEvent(tx: SqlEntityManager, endpointId: string, eventId: string): Promise<string | undefined> {
    const [endpoint] = await tx.execute<EndpointReader[]>(
      `select ${ENDPOINT_READER_COLUMNS} from notification_endpoint e join api_client c on c.id = e.client_id where e.id = ?`,
      [endpointId],
    );
    if (!endpoint || endpoint.revoked_at != null) return undefined;
    const event = await tx.findOne(PaymentEvent, { $and: [{ id: eventId }, ...readableBy(endpoint)] }, { fields: ['position', 'id', 'subjectType', 'subjectId'] });
    if (!event) return undefined;
    await this.insertDeliveries(tx, endpointId, [event]);
    const [row] = await tx.execute<Array<{ id: string }>>('select id from notification_delivery where endpoint_id = ? and event_id = ?', [endpointId, eventId]);
    return row?.id;
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
      await this.deps.jobs.enqueue(tx, NOTIFICATIONS_FANOUT, {}, { dedupeKey: FANOUT_KEY });
      return [];
    });
  }

  /** An endpoint's deliveries, newest position first, `limit` after the `before` position. */
  async deliveries(em: SqlEntityManager, options: { endpointId: string; state?: DeliveryState; subjectId?: string; before?: string; limit: number }): Promise<NotificationDeliveryView[]> {
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

  async findDelivery(em: SqlEntityManager, id: string): Promise<NotificationDeliveryView | null> {
    const [row] = await em.execute<DeliveryRow[]>(`${DELIVERY_SELECT} where d.id = ?`, [id]);
    return row ? deliveryView(row) : null;
  }

  /** Each delivery's attempts, oldest first (one query for a page). */
  async attempts(em: SqlEntityManager, deliveryIds: readonly string[]): Promise<Map<string, NotificationAttemptView[]>> {
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

/**
 * `{ id, type, createdAt, data }`, `data` the subject's snapshot as the API serves it to the
 * endpoint's client: its subject kind's redaction policy (the one the API's types ask) withholds
 * the admin-only fields from any other reader. The same bytes on every retry.
 */
export function notificationBody(event: { id: string; type: string; created_at: Date | string; data: unknown }, policy: RedactionPolicy, reader: Reader): string {
  const data = (typeof event.data === 'string' ? JSON.parse(event.data) : event.data) as Record<string, unknown>;
  return JSON.stringify({ id: event.id, type: event.type, createdAt: new Date(event.created_at).toISOString(), data: redact(reader, policy, data) });
}

function laneKey(lane: Lane): string {
  return `${lane.endpointId}:${lane.subjectType}:${lane.subjectId}`;
}

/** The start of a response body, at most EXCERPT_BYTES of UTF-8 (never cutting a character in two). */
function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= EXCERPT_BYTES) return body;
  return bytes.subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '');
}

export function registerNotificationJobs(jobs: JobQueue, notifier: Notifier, options: { sweepIntervalMs: number }): void {
  jobs.register(NOTIFICATIONS_FANOUT, (em) => notifier.fanout(em));
  jobs.register(NOTIFICATIONS_DELIVER, (em, lane) => notifier.deliverLane(em, lane));
  jobs.recurring(NOTIFICATIONS_SWEEP, { everyMs: options.sweepIntervalMs, payload: {} }, (em) => notifier.sweep(em));
}
