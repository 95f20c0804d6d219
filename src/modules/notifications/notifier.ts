// The delivery engine of back-office notifications (docs/notifications.md): the fan-out from the
// event log to each endpoint's deliveries, the lanes that send them in order per subject, the
// retries on the gateway's clock, the probe of a receiver that fails every attempt, redelivery and
// replay, and the sweep that catches up whatever a lost wake-up or a crashed instance left behind.
// Everything runs as jobs of the kernel's queue.

import { randomUUID } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { FINAL_POSITION_SQL, type AppendHook, type EventLog } from '../../kernel/events/event-log.js';
import { PaymentEvent } from '../../kernel/events/payment-event.entity.js';
import type { JobHandlers, JobQueue } from '../../kernel/jobs.js';
import { redact, type Reader, type RedactionPolicy, type Redactions } from '../../kernel/redaction.js';
import type { Role } from '../../kernel/roles.js';
import { visibleEventsWhere, type Caller } from '../../kernel/visibility.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { tracingOn } from '../../lib/tracing/sdk.js';
import { inSpan, SpanKind, SpanStatusCode } from '../../lib/tracing/spans.js';
import { currentTraceId, storedLinks, withTraceparent } from '../../lib/tracing/trace-context.js';
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
/** Lanes one sweep wakes (and probes it starts, and lanes one probe's success wakes). */
const SWEEP_LANES = 500;
/** An enabled endpoint (`e`) whose probe is due on the gateway's clock (the one parameter). */
const PROBE_DUE_WHERE = 'e.enabled and e.next_probe_at <= ?';
const PROBE_DUE_SQL = `exists (select from notification_endpoint e where ${PROBE_DUE_WHERE})`;
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

/** A probe's delivery: the head of one of the endpoint's lanes. */
interface ClaimedProbe extends ClaimedDelivery {
  subject_type: string;
  subject_id: string;
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

/** What a failed or successful attempt did to its endpoint's health. */
interface EndpointHealth {
  /** The endpoint is being probed: its lanes wait for the probe. */
  probing: boolean;
  /** This failure started the probing. */
  startedProbing: boolean;
  /** Deliveries given up with this failure, besides the attempt's own. */
  gaveUp: number;
  /** This success ended the probing and woke every lane. */
  resumedLanes: boolean;
}

interface SendTarget {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  usable: boolean;
  /** The endpoint's client's roles: its reads of the subject's fields are the API's (the redaction policy). */
  client_roles: string[] | string;
  /** The endpoint is FAILING, or its attempts have been failing: a delivery makes it HEALTHY again (and wakes its lanes). */
  failing: boolean;
  /** The event, read with the endpoint. */
  event_type: string;
  event_subject_type: string;
  event_created_at: Date | string;
  event_data: unknown;
  /** The `traceparent` of the request that made the event's payment, read only while tracing is on. */
  payment_trace_context: string | null;
}

/** The trace context stored with the event's payment (docs/tracing.md). */
const PAYMENT_TRACE_SQL = `case ev.subject_type
  when 'deposit' then (select trace_context from deposit where id = ev.subject_id)
  when 'refund' then (select trace_context from refund where id = ev.subject_id)
  when 'payout' then (select trace_context from payout where id = ev.subject_id)
end`;

/**
 * One notification attempt in its HTTP client span, linked to the trace of the request that made
 * the payment; the POST carries the span's `traceparent`. The endpoint's host and id, the event's
 * id and type, the answer's status: never the URL's path or query, a header, the body or the signature.
 */
function tracedPost(endpointId: string, target: SendTarget, eventId: string, post: () => Promise<PostResult>): Promise<PostResult> {
  let host: URL | undefined;
  try {
    host = new URL(target.url);
  } catch {
    // postOnce reports the URL; the span goes without its host.
  }
  const attributes = {
    'http.request.method': 'POST',
    ...(host ? { 'server.address': host.hostname, 'server.port': Number(host.port) || (host.protocol === 'https:' ? 443 : 80), 'url.scheme': host.protocol.slice(0, -1) } : {}),
    'payments.notification.endpoint_id': endpointId,
    'payments.event.id': eventId,
    'payments.event.type': target.event_type,
  };
  const links = storedLinks([target.payment_trace_context]);
  return inSpan('POST', { kind: SpanKind.CLIENT, attributes, links }, post, (span, result) => {
    if (result.kind === 'response') {
      span.setAttribute('http.response.status_code', result.status);
      if (result.status < 400) return;
      span.setAttribute('error.type', String(result.status));
    } else span.setAttribute('error.type', result.kind === 'failed' ? result.code : result.kind);
    span.setStatus({ code: SpanStatusCode.ERROR });
  });
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

export class Notifier {
  /** Who holds a claim: this instance. */
  private readonly instance = `ntf:${randomUUID().slice(0, 8)}`;

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
      /** Told every attempt's outcome (metrics). */
      onAttempt?: (outcome: DeliveryOutcome) => void;
    },
  ) {}

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

  /**
   * One deliver job per lane, at `runAt` (default now). A lane's job already waiting covers it, moved
   * up if it waits for later (a retry's back-off): a redelivery or an endpoint back goes now.
   */
  private async wakeLanes(tx: SqlEntityManager, lanes: readonly Lane[], runAt?: Date): Promise<void> {
    await this.deps.jobs.enqueueMany(tx, NOTIFICATIONS_DELIVER, lanes.map((lane) => ({ payload: lane, dedupeKey: laneKey(lane) })), { sooner: true, ...(runAt ? { runAt } : {}) });
  }

  /**
   * Sends one lane's pending deliveries, oldest position first, while its head is due on the
   * gateway's clock. The head is claimed with a lease (database time) before it is sent, so no two
   * instances send it at once; a failure schedules the lane's next try after its back-off and
   * stops the lane there (other lanes go on); a delivery given up moves the lane on. While the
   * endpoint is being probed the lane sends nothing: the probe's first success wakes it.
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
   * Claims the lane's head if it is due, no live claim holds it and its endpoint is not being
   * probed: the delivery, or why not: `wait` (nothing pending, another instance holds the head, or
   * the endpoint is being probed), `{ runInMs }` (not due yet).
   */
  private async claimHead(em: SqlEntityManager, lane: Lane): Promise<ClaimedDelivery | 'wait' | { runInMs: number }> {
    const now = this.deps.clock.now();
    const claimed = await em.execute<ClaimedDelivery[]>(
      `update notification_delivery d set claimed_by = ?, claim_expires_at = now() + make_interval(secs => ?), updated_at = ?
       where d.id = (select id from notification_delivery where endpoint_id = ? and subject_type = ? and subject_id = ? and state = 'pending' order by position limit 1)
         and d.state = 'pending' and d.next_attempt_at <= ? and (d.claim_expires_at is null or d.claim_expires_at <= now())
         and not exists (select from notification_endpoint e where e.id = d.endpoint_id and e.next_probe_at is not null)
       returning d.id, d.event_id, d.attempts, d.first_failed_at`,
      [this.instance, claimLeaseMs(this.deps.settings()) / 1000, new Date(), lane.endpointId, lane.subjectType, lane.subjectId, now],
    );
    if (claimed[0]) return claimed[0];
    const [head] = await em.execute<Array<{ next_attempt_at: Date | string; claimed: boolean; probing: boolean }>>(
      `select d.next_attempt_at, coalesce(d.claim_expires_at > now(), false) as claimed, e.next_probe_at is not null as probing
       from notification_delivery d join notification_endpoint e on e.id = d.endpoint_id
       where d.endpoint_id = ? and d.subject_type = ? and d.subject_id = ? and d.state = 'pending' order by d.position limit 1`,
      [lane.endpointId, lane.subjectType, lane.subjectId],
    );
    // Nothing pending, another instance is sending the head (it goes on with the lane), or the
    // endpoint is being probed (its first success wakes the lane).
    if (!head || head.claimed || head.probing) return 'wait';
    const waitMs = new Date(head.next_attempt_at).getTime() - now.getTime();
    // Not due on the gateway's clock: the lane's job waits that long (the sweep wakes it sooner if the clock jumps).
    return waitMs > 0 ? { runInMs: waitMs } : 'wait';
  }

  /** POSTs one claimed delivery (a lane's, or a probe's) and records the attempt and its outcome. */
  private async send(em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, probe = false): Promise<DeliveryOutcome | 'stopped'> {
    const settings = this.deps.settings();
    const [target] = await em.execute<SendTarget[]>(
      `select e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, (e.enabled and c.revoked_at is null) as usable,
         c.roles as client_roles, (e.state = 'failing' or e.failed_since is not null) as failing,
         ev.type as event_type, ev.subject_type as event_subject_type, ev.created_at as event_created_at, ev.data as event_data,
         ${tracingOn() ? PAYMENT_TRACE_SQL : 'null'} as payment_trace_context
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
      return this.record(em, lane, delivery, { kind: 'not_signed', code: SECRET_UNAVAILABLE, message: secrets.message, durationMs: 0 }, target.failing, probe);
    }
    const event = { id: delivery.event_id, type: target.event_type, created_at: target.event_created_at, data: target.event_data };
    const reader: Reader = { roles: textArray(target.client_roles) as Role[] };
    const body = notificationBody(event, this.deps.redactions.of(target.event_subject_type), reader);
    const headers = signedHeaders(secrets.plaintexts, event.id, Math.floor(Date.now() / 1000), body);
    const post = (sent: Record<string, string>) => postOnce({ url: target.url, headers: sent, body, timeoutMs: settings.timeoutMs, policy: settings.policy });
    const result = tracingOn() ? await tracedPost(lane.endpointId, target, event.id, () => post(withTraceparent(headers))) : await post(headers);
    return this.record(em, lane, delivery, result, target.failing, probe);
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

  private async record(em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, result: PostResult | NotSigned, endpointFailing: boolean, probe: boolean): Promise<DeliveryOutcome> {
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
      ...(probe ? { probe } : {}),
      ...(result.kind === 'response' ? { httpStatus: result.status } : { errorCode: result.code }),
    };
    let health: EndpointHealth = { probing: false, startedProbing: false, gaveUp: 0, resumedLanes: false };
    // The attempt's trace, for the payment's timeline (docs/timeline.md): a column only while a sampled span runs.
    const traceId = currentTraceId();
    await em.transactional(async (tx) => {
      await tx.execute(
        `insert into notification_attempt (id, delivery_id, attempted_at, http_status, error_code, duration_ms, response_excerpt${traceId ? ', trace_id' : ''}) values (?, ?, ?, ?, ?, ?, ?${traceId ? ', ?' : ''})`,
        [
          newId('nat'),
          delivery.id,
          now,
          result.kind === 'response' ? result.status : null,
          result.kind === 'response' ? null : result.code,
          Math.round(result.durationMs),
          result.kind === 'response' ? excerpt(result.body) : result.message.slice(0, EXCERPT_BYTES),
          ...(traceId ? [traceId] : []),
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
      if (ok) {
        if (endpointFailing) health = { ...health, resumedLanes: await this.endpointAnswered(tx, lane.endpointId, now) };
      } else {
        health = await this.endpointFailed(tx, lane.endpointId, now);
      }
      // An endpoint that cannot sign is failing now, not after the retry window: nothing it is sent goes out.
      if (outcome === 'failed' || result.kind === 'not_signed' || health.gaveUp > 0) await this.markFailing(tx, lane.endpointId);
      // While the endpoint is probed, the probe goes before the lane's own retry.
      if (outcome === 'retrying' && !health.probing) await this.wakeLanes(tx, [lane], new Date(Date.now() + retryInMs));
    });
    this.deps.onAttempt?.(outcome);
    if (ok) this.deps.logger.info(log, 'notification delivered');
    else if (outcome === 'failed') this.deps.logger.warn(log, 'notification given up after its retry window; the endpoint is marked failing');
    else this.deps.logger.info({ ...log, retryInMs }, 'notification attempt failed; it will be retried');
    if (health.resumedLanes) this.deps.logger.info({ endpointId: lane.endpointId }, 'notification endpoint answers again; its lanes resume');
    if (health.startedProbing) {
      this.deps.logger.warn(
        { endpointId: lane.endpointId, probeIntervalMs: settings.probeIntervalMs },
        'notification endpoint has failed every attempt for a probe interval; its lanes wait while one probe goes each interval',
      );
    }
    if (health.gaveUp > 0) this.deps.logger.warn({ endpointId: lane.endpointId, deliveries: health.gaveUp }, 'notifications given up with a failed probe: their retry window had run out');
    return outcome;
  }

  /**
   * A 2xx from an endpoint that was failing: it is HEALTHY, and its failing streak is over. If it
   * was being probed, every lane that waited for the probe goes now, whatever its own back-off:
   * their heads are due at once and (up to a sweep's worth) woken here, the rest by the sweep.
   * True when it was being probed.
   */
  private async endpointAnswered(tx: SqlEntityManager, endpointId: string, now: Date): Promise<boolean> {
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
    await this.wakeLanes(tx, lanes.map((row) => ({ endpointId, subjectType: row.subject_type, subjectId: row.subject_id })));
    return true;
  }

  /**
   * A failed attempt: the endpoint's failing streak starts, or goes on. Once it has failed every
   * attempt for a probe interval it is probed: its lanes wait, and one probe goes every
   * NOTIFICATION_PROBE_INTERVAL_MS (the first scheduled here). While it is probed, a failure gives
   * up every delivery of it whose retry window has run out (the receiver still refuses), so the
   * window holds however many lanes wait for their turn to be probed.
   */
  private async endpointFailed(tx: SqlEntityManager, endpointId: string, now: Date): Promise<EndpointHealth> {
    const settings = this.deps.settings();
    const [endpoint] = await tx.execute<Array<{ probing: boolean; started: boolean }>>(
      `update notification_endpoint e set failed_since = coalesce(e.failed_since, ?),
         next_probe_at = case when e.next_probe_at is null and e.failed_since <= ? then ? else e.next_probe_at end
       from (select next_probe_at from notification_endpoint where id = ?) before
       where e.id = ?
       returning e.next_probe_at is not null as probing, before.next_probe_at is null and e.next_probe_at is not null as started`,
      [now, new Date(now.getTime() - settings.probeIntervalMs), new Date(now.getTime() + settings.probeIntervalMs), endpointId, endpointId],
    );
    if (!endpoint?.probing) return { probing: false, startedProbing: false, gaveUp: 0, resumedLanes: false };
    if (endpoint.started) await this.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId }, { runAt: new Date(Date.now() + settings.probeIntervalMs) });
    const gaveUp = await tx.execute<Array<{ id: string }>>(
      `update notification_delivery set state = 'failed', next_attempt_at = ?, updated_at = ?
       where endpoint_id = ? and state = 'pending' and first_failed_at <= ? and (claim_expires_at is null or claim_expires_at <= now())
       returning id`,
      [now, new Date(), endpointId, new Date(now.getTime() - settings.retryForMs)],
    );
    return { probing: true, startedProbing: endpoint.started, gaveUp: gaveUp.length, resumedLanes: false };
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
  async probe(em: SqlEntityManager, endpointId: string): Promise<void> {
    const settings = this.deps.settings();
    const now = this.deps.clock.now();
    const turn = await em.transactional(async (tx) => {
      const taken = await tx.execute<Array<{ id: string }>>(
        'update notification_endpoint set next_probe_at = ? where id = ? and enabled and next_probe_at <= ? returning id',
        [new Date(now.getTime() + settings.probeIntervalMs), endpointId, now],
      );
      if (taken.length === 0) return false;
      await this.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId }, { runAt: new Date(Date.now() + settings.probeIntervalMs) });
      return true;
    });
    if (!turn) return;
    const claimed = await this.claimProbe(em, endpointId);
    if (claimed === 'none') {
      await em.execute('update notification_endpoint set next_probe_at = null where id = ?', [endpointId]);
      return;
    }
    if (claimed === 'busy') return;
    await this.send(em, { endpointId, subjectType: claimed.subject_type, subjectId: claimed.subject_id }, claimed, true);
  }

  /**
   * Claims the probe's delivery: of the heads of the endpoint's lanes that no live claim holds, the
   * one due earliest. `none`: nothing pending; `busy`: every head is being sent already.
   */
  private async claimProbe(em: SqlEntityManager, endpointId: string): Promise<ClaimedProbe | 'none' | 'busy'> {
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
      [this.instance, claimLeaseMs(this.deps.settings()) / 1000, new Date(), endpointId],
    );
    if (claimed) return claimed;
    const [pending] = await em.execute<Array<{ pending: boolean }>>("select exists (select from notification_delivery where endpoint_id = ? and state = 'pending') as pending", [endpointId]);
    return pending?.pending ? 'busy' : 'none';
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
   * clock moved forward), of an enabled endpoint not being probed; a probe of each endpoint whose
   * probe is due; and a fan-out when an endpoint is behind the log. A disabled endpoint's lanes
   * (a revoked client's among them) are never woken.
   */
  async sweep(em: SqlEntityManager): Promise<void> {
    const now = this.deps.clock.now();
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
      await this.wakeLanes(tx, due.map((row) => ({ endpointId: row.endpoint_id, subjectType: row.subject_type, subjectId: row.subject_id })));
      await this.deps.jobs.enqueueMany(tx, NOTIFICATIONS_PROBE, probes.map((row) => ({ payload: { endpointId: row.id }, dedupeKey: row.id })));
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
      // An endpoint being probed is probed at once: its lanes, this one's too, wait for a probe.
      const probed = await tx.execute<Array<{ id: string }>>(
        'update notification_endpoint set next_probe_at = least(next_probe_at, ?) where id = ? and next_probe_at is not null returning id',
        [this.deps.clock.now(), row.endpoint_id],
      );
      if (probed.length > 0) await this.deps.jobs.enqueue(tx, NOTIFICATIONS_PROBE, { endpointId: row.endpoint_id }, { dedupeKey: row.endpoint_id, sooner: true });
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

export function registerNotificationJobs(handlers: JobHandlers, notifier: Notifier, options: { sweepIntervalMs: number }): void {
  handlers.register(NOTIFICATIONS_FANOUT, (em) => notifier.fanout(em));
  handlers.register(NOTIFICATIONS_DELIVER, (em, lane) => notifier.deliverLane(em, lane));
  handlers.register(NOTIFICATIONS_PROBE, (em, { endpointId }) => notifier.probe(em, endpointId));
  handlers.recurring(NOTIFICATIONS_SWEEP, { everyMs: options.sweepIntervalMs, payload: {} }, (em) => notifier.sweep(em));
}
