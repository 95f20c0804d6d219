// The sending of back-office notifications (docs/notifications.md): a lane's job claims the
// lane's head with a lease, signs it per Standard Webhooks, POSTs it (in a client span while
// tracing is on), and records the attempt: delivered, retried after its back-off, or given up,
// with what that does to the endpoint's health. A probe sends its delivery through here too.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/prepared.js';
import { redact, type Reader, type RedactionPolicy } from '../../kernel/redaction.js';
import type { Role } from '../../kernel/roles.js';
import { paymentTraceContextSql } from '../../kernel/payment-scope.js';
import { newId } from '../../lib/ids.js';
import { postOnce, type PostResult } from '../../lib/outbound-http.js';
import type { OpenFailure } from '../../lib/sealed-secrets.js';
import { tracingOn } from '../../lib/tracing/sdk.js';
import { inSpan, SpanKind, SpanStatusCode } from '../../lib/tracing/spans.js';
import { currentTraceId, storedLinks, withTraceparent } from '../../lib/tracing/trace-context.js';
import type { DeliveryOutcome } from './notification-delivery-reads.js';
import { endpointAnswered, endpointFailed, markFailing, type EndpointHealth } from './notification-endpoint-health.js';
import { secretPlace, textArray } from './notification-endpoints.js';
import { wakeLanes, type Lane, type NotifierContext } from './notification-jobs.js';
import { claimLeaseMs, notificationRetryDelayMs } from './notification-settings.js';
import { signedHeaders } from './notification-signing.js';

/** Deliveries one lane job sends before it hands the lane to a fresh job (so no job outlasts its lease). */
const LANE_BATCH = 50;
/** Longest response excerpt kept on an attempt. */
const EXCERPT_BYTES = 1_024;
/** An attempt's error code when the endpoint's secret does not open under the configured keys: nothing was sent. */
export const SECRET_UNAVAILABLE = 'SECRET_UNAVAILABLE';

/** An attempt that was not made: the delivery could not be signed. */
interface NotSigned {
  kind: 'not_signed';
  code: typeof SECRET_UNAVAILABLE;
  message: string;
  durationMs: 0;
}

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  attempts: number;
  first_failed_at: Date | string | null;
  /** What it is sent to and with, where the claim read it in the same statement. */
  target?: SendTarget;
}

interface SendTarget {
  url: string;
  /** The endpoint's client, for its events' snapshot. */
  client_id: string;
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

/** A SendTarget's columns, of endpoint `e`, its client `c` and the event `ev`. */
function targetColumns(): string {
  return `e.url, e.client_id, e.secret, e.previous_secret, e.previous_secret_expires_at, (e.enabled and c.revoked_at is null) as usable,
    c.roles as client_roles, (e.state = 'failing' or e.failed_since is not null) as failing,
    ev.type as event_type, ev.subject_type as event_subject_type, ev.created_at as event_created_at, ev.data as event_data,
    ${tracingOn() ? paymentTraceContextSql('ev.subject_type', 'ev.subject_id') : 'null'} as payment_trace_context`;
}

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
 * Sends one lane's pending deliveries, oldest position first, while its head is due on the
 * gateway's clock. The head is claimed with a lease (database time) before it is sent, so no two
 * instances send it at once; a failure schedules the lane's next try after its back-off and
 * stops the lane there (other lanes go on); a delivery given up moves the lane on. While the
 * endpoint is being probed the lane sends nothing: the probe's first success wakes it.
 */
export async function deliverLane(ctx: NotifierContext, em: SqlEntityManager, lane: Lane): Promise<void> {
  for (let sent = 0; sent < LANE_BATCH; sent++) {
    const claimed = await claimHead(ctx, em, lane);
    if (claimed === 'wait') return;
    if ('runInMs' in claimed) {
      await em.transactional((tx) => wakeLanes(ctx, tx, [lane], new Date(Date.now() + claimed.runInMs)));
      return;
    }
    const { outcome, laneEmpty } = await sendOne(ctx, em, lane, claimed, false);
    if (outcome === 'retrying' || outcome === 'stopped') return;
    // Nothing else pending in the lane when its delivery was recorded: a delivery added since is
    // woken by whoever added it (the fan-out wakes its lanes), as after a claim that finds none.
    if (laneEmpty) return;
  }
  // More to send: a fresh job goes on, so no run outlasts its lease.
  await em.transactional((tx) => wakeLanes(ctx, tx, [lane]));
}

/**
 * Claims the lane's head if it is due, no live claim holds it and its endpoint is not being
 * probed: the delivery, or why not: `wait` (nothing pending, another instance holds the head, or
 * the endpoint is being probed), `{ runInMs }` (not due yet).
 */
async function claimHead(ctx: NotifierContext, em: SqlEntityManager, lane: Lane): Promise<ClaimedDelivery | 'wait' | { runInMs: number }> {
  const now = ctx.deps.clock.now();
  // The claim reads what the delivery is sent to and with (endpoint, client, event) in the same
  // statement; the endpoint's row is only read there, never locked or written.
  // Prepared (src/db/prepared.ts): sent before every delivery, its rows found by key.
  const claimed = await executePrepared<Omit<ClaimedDelivery, 'target'> & SendTarget>(
    em,
    `update notification_delivery d set claimed_by = ?, claim_expires_at = now() + make_interval(secs => ?), updated_at = ?
     from notification_endpoint e join api_client c on c.id = e.client_id, payment_event ev
     where d.id = (select id from notification_delivery where endpoint_id = ? and subject_type = ? and subject_id = ? and state = 'pending' order by position limit 1)
       and d.state = 'pending' and d.next_attempt_at <= ? and (d.claim_expires_at is null or d.claim_expires_at <= now())
       and e.id = d.endpoint_id and e.next_probe_at is null and ev.id = d.event_id
     returning d.id, d.event_id, d.attempts, d.first_failed_at, ${targetColumns()}`,
    [ctx.instance, claimLeaseMs(ctx.deps.settings()) / 1000, new Date(), lane.endpointId, lane.subjectType, lane.subjectId, now],
  );
  if (claimed[0]) {
    const { id, event_id, attempts, first_failed_at, ...target } = claimed[0];
    return { id, event_id, attempts, first_failed_at, target };
  }
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

/** What one send did, and whether its lane had nothing else pending once it was recorded (known on a delivery's one-statement record alone). */
interface Sent {
  outcome: DeliveryOutcome | 'stopped';
  laneEmpty: boolean;
}

/** POSTs one claimed delivery (a lane's, or a probe's) and records the attempt and its outcome. */
export async function send(ctx: NotifierContext, em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, probe = false): Promise<DeliveryOutcome | 'stopped'> {
  return (await sendOne(ctx, em, lane, delivery, probe)).outcome;
}

async function sendOne(ctx: NotifierContext, em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, probe: boolean): Promise<Sent> {
  const settings = ctx.deps.settings();
  // A lane's claim read its target with it; a probe's did not.
  const [target] = delivery.target
    ? [delivery.target]
    : await em.execute<SendTarget[]>(
        `select ${targetColumns()} from notification_endpoint e join api_client c on c.id = e.client_id join payment_event ev on ev.id = ? where e.id = ?`,
        [delivery.event_id, lane.endpointId],
      );
  if (!target?.usable) {
    // Disabled, deleted, or its client revoked: the delivery waits, unsent.
    await em.execute('update notification_delivery set claimed_by = null, claim_expires_at = null where id = ? and claimed_by = ?', [delivery.id, ctx.instance]);
    return { outcome: 'stopped', laneEmpty: false };
  }
  const secrets = openSecrets(ctx, lane.endpointId, delivery, target);
  if (!secrets.ok) {
    // Never sent unsigned nor signed with anything else: a failed attempt, retried on the usual
    // back-off (a key configured again lets the next one go), and the endpoint FAILING at once.
    ctx.deps.logger.error(
      { endpointId: lane.endpointId, deliveryId: delivery.id, eventId: delivery.event_id, errorCode: SECRET_UNAVAILABLE, reason: secrets.code, keyId: secrets.keyId },
      `notification not sent: its endpoint's signing secret does not open (${secrets.message})`,
    );
    return record(ctx, em, lane, delivery, { kind: 'not_signed', code: SECRET_UNAVAILABLE, message: secrets.message, durationMs: 0 }, target, probe);
  }
  const event = { id: delivery.event_id, type: target.event_type, created_at: target.event_created_at, data: target.event_data };
  const reader: Reader = { roles: textArray(target.client_roles) as Role[] };
  const body = notificationBody(event, ctx.deps.redactions.of(target.event_subject_type), reader);
  const headers = signedHeaders(secrets.plaintexts, event.id, Math.floor(Date.now() / 1000), body);
  const post = (sent: Record<string, string>) => postOnce({ url: target.url, headers: sent, body, timeoutMs: settings.timeoutMs, policy: settings.policy });
  const result = tracingOn() ? await tracedPost(lane.endpointId, target, event.id, () => post(withTraceparent(headers))) : await post(headers);
  return record(ctx, em, lane, delivery, result, target, probe);
}

/**
 * The secrets that sign: the current one, and the previous one during a rotation's overlap.
 * A previous secret that does not open is left out (the current one still signs); a current
 * one that does not open means the delivery cannot be signed.
 */
function openSecrets(ctx: NotifierContext, endpointId: string, delivery: ClaimedDelivery, target: SendTarget): { ok: true; plaintexts: string[] } | OpenFailure {
  const current = ctx.deps.secrets.open(target.secret, secretPlace(endpointId, 'secret'));
  if (!current.ok) return current;
  const overlapping = target.previous_secret != null && target.previous_secret_expires_at != null && new Date(target.previous_secret_expires_at) > ctx.deps.clock.now();
  if (!overlapping) return { ok: true, plaintexts: [current.plaintext] };
  const previous = ctx.deps.secrets.open(target.previous_secret!, secretPlace(endpointId, 'previous_secret'));
  if (previous.ok) return { ok: true, plaintexts: [current.plaintext, previous.plaintext] };
  ctx.deps.logger.warn({ endpointId, deliveryId: delivery.id, reason: previous.code, keyId: previous.keyId }, `notification signed with the current secret alone: the previous one does not open (${previous.message})`);
  return { ok: true, plaintexts: [current.plaintext] };
}

async function record(ctx: NotifierContext, em: SqlEntityManager, lane: Lane, delivery: ClaimedDelivery, result: PostResult | NotSigned, target: SendTarget, probe: boolean): Promise<Sent> {
  const settings = ctx.deps.settings();
  const now = ctx.deps.clock.now();
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
  const attemptValues = [
    newId('nat'),
    delivery.id,
    now,
    result.kind === 'response' ? result.status : null,
    result.kind === 'response' ? null : result.code,
    Math.round(result.durationMs),
    result.kind === 'response' ? excerpt(result.body) : result.message.slice(0, EXCERPT_BYTES),
    ...(traceId ? [traceId] : []),
  ];
  let laneEmpty = false;
  // A delivery to an endpoint that is not failing changes nothing else: one statement records
  // it, its attempt with it, and says whether its lane has more to send.
  if (ok && !target.failing) laneEmpty = await recordDelivered(ctx, em, delivery, now, attemptValues, traceId);
  else {
    await em.transactional(async (tx) => {
      await tx.execute(
        `insert into notification_attempt (id, delivery_id, attempted_at, http_status, error_code, duration_ms, response_excerpt${traceId ? ', trace_id' : ''}) values (?, ?, ?, ?, ?, ?, ?${traceId ? ', ?' : ''})`,
        attemptValues,
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
          ctx.instance,
        ],
      );
      // Another instance took the delivery over after this claim's lease ran out: it decides.
      if (updated.length === 0) return;
      if (ok) {
        if (target.failing) health = { ...health, resumedLanes: await endpointAnswered(ctx, tx, lane.endpointId, now) };
      } else {
        health = await endpointFailed(ctx, tx, lane.endpointId, now);
      }
      // An endpoint that cannot sign is failing now, not after the retry window: nothing it is sent goes out.
      if (outcome === 'failed' || result.kind === 'not_signed' || health.gaveUp > 0) await markFailing(ctx, tx, { id: lane.endpointId, clientId: target.client_id, url: target.url });
      // While the endpoint is probed, the probe goes before the lane's own retry.
      if (outcome === 'retrying' && !health.probing) await wakeLanes(ctx, tx, [lane], new Date(Date.now() + retryInMs));
    });
  }
  ctx.deps.onAttempt?.(outcome);
  if (ok) ctx.deps.logger.info(log, 'notification delivered');
  else if (outcome === 'failed') ctx.deps.logger.warn(log, 'notification given up after its retry window; the endpoint is marked failing');
  else ctx.deps.logger.info({ ...log, retryInMs }, 'notification attempt failed; it will be retried');
  if (health.resumedLanes) ctx.deps.logger.info({ endpointId: lane.endpointId }, 'notification endpoint answers again; its lanes resume');
  if (health.startedProbing) {
    ctx.deps.logger.warn(
      { endpointId: lane.endpointId, probeIntervalMs: settings.probeIntervalMs },
      'notification endpoint has failed every attempt for a probe interval; its lanes wait while one probe goes each interval',
    );
  }
  if (health.gaveUp > 0) ctx.deps.logger.warn({ endpointId: lane.endpointId, deliveries: health.gaveUp }, 'notifications given up with a failed probe: their retry window had run out');
  return { outcome, laneEmpty };
}

/**
 * A delivery's record in one statement (so in one transaction): the delivery delivered, its
 * attempt inserted only if this instance still held the claim, and whether the lane has another
 * pending delivery (read in the statement's snapshot, where this one is still pending: left out by id).
 * False when the claim was lost (another instance decides, and goes on with the lane).
 */
async function recordDelivered(ctx: NotifierContext, em: SqlEntityManager, delivery: ClaimedDelivery, now: Date, attemptValues: unknown[], traceId: string | undefined): Promise<boolean> {
  // Prepared (src/db/prepared.ts), as the claim is: one per delivery, by key. The attempt's values
  // are cast: a parameter in an insert's select would otherwise be taken for text.
  const [row] = await executePrepared<{ more: boolean }>(
    em,
    `with delivered as (
       update notification_delivery set state = 'delivered', attempts = attempts + 1, delivered_at = ?, first_failed_at = ?, next_attempt_at = ?,
         claimed_by = null, claim_expires_at = null, updated_at = ?
       where id = ? and claimed_by = ? and state = 'pending' returning id, endpoint_id, subject_type, subject_id),
     attempt as (
       insert into notification_attempt (id, delivery_id, attempted_at, http_status, error_code, duration_ms, response_excerpt${traceId ? ', trace_id' : ''})
       select cast(? as varchar), d.id, cast(? as timestamptz), cast(? as integer), cast(? as varchar), cast(? as integer), cast(? as text)${traceId ? ', cast(? as varchar)' : ''} from delivered d)
     select exists (select from notification_delivery n where n.endpoint_id = d.endpoint_id and n.subject_type = d.subject_type and n.subject_id = d.subject_id
       and n.state = 'pending' and n.id <> d.id) as more
     from delivered d`,
    [now, delivery.first_failed_at ?? null, now, new Date(), delivery.id, ctx.instance, attemptValues[0], ...attemptValues.slice(2)],
  );
  return row !== undefined && !row.more;
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

/** The start of a response body, at most EXCERPT_BYTES of UTF-8 (never cutting a character in two). */
function excerpt(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= EXCERPT_BYTES) return body;
  return bytes.subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '');
}
