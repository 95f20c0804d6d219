// The webhook inbox: takes a delivery's exact bytes, has the account's provider adapter verify and
// parse them, records each verified event once, dispatches it to the handler its subject kind
// registered, which applies it in the same transaction, and keeps the outcome; a refused or
// unstorable delivery is kept for admins without its body. Kernel infrastructure: it knows no
// provider and no subject kind; adapters come from the registry, handlers from each module.

import { createHash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { DepositProvider, MerchantAccount, ProviderName, SignatureRejection, WebhookEvent } from '../../providers/provider.js';
import { findUnstorableText, type UnstorableText } from '../../lib/storable-text.js';
import { inTransaction } from '../../db/transaction.js';
import { executePrepared } from '../../db/prepared.js';
import { tracingOn } from '../../lib/tracing/sdk.js';
import { currentTraceId } from '../../lib/tracing/trace-context.js';
import { renderLookup, renderUpdate, type RowWrite } from '../sql-intents.js';
import { isTracedPayment } from '../payment-scope.js';
import type { WebhookOutcome } from './webhook-delivery.entity.js';
import { deliveryDecision, type WebhookDecision } from './report-outcome.js';
import { recordRejected, type RecordRejectedResult, type RejectedWebhookInput, type RejectedWebhookReason, type UnprocessableReason } from './rejected-deliveries.js';
import { WebhookRetryLater, type ReceiveWebhookInput, type ReceiveWebhookResult, type WebhookSubjectHandler, type WebhookSubjectKind } from './webhook-handler.js';

/** A stored delivery as a re-decision reads it. */
interface StoredDelivery {
  id: string;
  provider: ProviderName;
  merchant_account: string;
  outcome: WebhookOutcome;
  raw_body: string;
}

/** What accepting and replaying a delivery need: the configured accounts and the registered providers' adapters. */
export interface WebhookReplaySources {
  account(code: string): MerchantAccount | undefined;
  /** The adapter of a registered provider; undefined for any other name. */
  provider(name: string): DepositProvider | undefined;
}

/** One delivery as the transport read it: the path's provider and account, and the exact bytes. */
export interface AcceptWebhookInput {
  /** As the sender wrote it in the path: not trusted until looked up. */
  provider: string;
  account: string;
  body: Buffer;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  receivedAt: Date;
  /**
   * Rejected deliveries kept per merchant account (`WEBHOOK_REJECTED_KEEP`); the oldest beyond it
   * are deleted. Absent: all are kept.
   */
  keepRejectedPerAccount?: number;
}

/** The admin record of a refused delivery: how many older ones it pruned, or why it could not be kept (the answer stands either way). */
export type RejectedRecord = { ok: true; pruned: number } | { ok: false; error: unknown };

/** Where a delivery goes: a registered provider and one of its configured accounts. */
export interface WebhookTarget {
  provider: ProviderName;
  account: MerchantAccount;
}

/** What became of one delivery, for the transport to answer and count. */
export type AcceptWebhookOutcome =
  /** No such provider, or no such account of it. Nothing is stored. */
  | { kind: 'not_found' }
  /** The signature or its freshness failed on the bytes: kept as rejected, without its body. */
  | (WebhookTarget & { kind: 'refused'; reason: SignatureRejection; record: RejectedRecord })
  /**
   * Authentic, but no retry can ever apply it: not an event the adapter can read, or text the
   * database cannot store (`unstorable` says where). Kept as rejected, without its body, and
   * acknowledged, so the provider stops retrying.
   */
  | (WebhookTarget & { kind: 'unprocessable'; reason: UnprocessableReason; unstorable?: UnstorableText; record: RejectedRecord })
  /** Stored (or found stored) and decided, committed. */
  | (WebhookTarget & { kind: 'received'; event: WebhookEvent; result: ReceiveWebhookResult })
  /** A handler cannot decide it yet: nothing committed; the provider's retry is a first delivery. */
  | (WebhookTarget & { kind: 'retry_later'; event: WebhookEvent; message: string })
  /** Infrastructure failure (the database): nothing committed. */
  | (WebhookTarget & { kind: 'failed'; event: WebhookEvent; error: unknown });

export type ReplayWebhookResult =
  | ({ ok: true; deliveryId: string } & WebhookDecision)
  | { ok: false; code: 'DELIVERY_NOT_FOUND' | 'DELIVERY_REJECTED' | 'DELIVERY_BODY_ERASED' | 'ACCOUNT_NOT_CONFIGURED' | 'PAYLOAD_INVALID'; message: string };

/** `webhook_delivery.event_name` is varchar(128). */
const EVENT_NAME_MAX = 128;
/** `provider_status` and `decline_reason` are varchar(64). */
const STATUS_TEXT_MAX = 64;
/** The narrowest column any other string of an event goes to: event ids and provider references are varchar(255). */
const EVENT_TEXT_MAX = 255;

export class WebhookInbox {
  private readonly handlers = new Map<string, WebhookSubjectHandler>();

  /**
   * @param clock stamps a verified delivery's `received_at`, from which retention ages its body
   *   (body-retention.ts): the same clock as the retention job's cut-off.
   * @param handlers each subject kind's handler (`register`), as the modules give them at composition.
   */
  constructor(
    private readonly replaySources?: WebhookReplaySources,
    private readonly clock: Clock = systemClock,
    handlers: { [K in WebhookSubjectKind]?: WebhookSubjectHandler<K> } = {},
  ) {
    for (const [kind, handler] of Object.entries(handlers)) this.handlers.set(kind, handler as unknown as WebhookSubjectHandler);
  }

  /** Whether a provider of this name is registered: only those become a metric label. */
  knowsProvider(name: string): boolean {
    return this.replaySources?.provider(name) !== undefined;
  }

  /** The provider and account a delivery path names, when the provider is registered and the account is one of its. */
  target(provider: string, accountCode: string): WebhookTarget | undefined {
    const adapter = this.replaySources?.provider(provider);
    const account = this.replaySources?.account(accountCode);
    if (!adapter || !account || account.provider !== provider) return undefined;
    return { provider: account.provider, account };
  }

  /**
   * The one entry point of a delivery: looks the provider and account up, has the adapter verify
   * the exact bytes before anything parses them (DESIGN.md "Webhooks are verified on the exact bytes
   * received"), keeps a refused or unstorable delivery as rejected, and otherwise stores, dedupes
   * and dispatches the event (`receive`). Returns only once what it stored has committed.
   */
  async accept(em: SqlEntityManager, input: AcceptWebhookInput): Promise<AcceptWebhookOutcome> {
    const target = this.target(input.provider, input.account);
    const adapter = target && this.replaySources?.provider(target.provider);
    if (!target || !adapter) return { kind: 'not_found' };
    const { account } = target;
    const keepRejected = (reason: RejectedWebhookReason) => this.keepRejected(em, { provider: target.provider, account, reason, body: input.body, receivedAt: input.receivedAt, keepPerAccount: input.keepRejectedPerAccount });

    // Authentic but unprocessable: bytes that verified but are no event the adapter can read
    // (`PAYLOAD_INVALID`: not UTF-8 or JSON, an amount or currency breaking the provider's rules),
    // or an event carrying text the database cannot store: NUL in the raw body, a string the
    // parser turned into NUL or a lone surrogate, or one longer than its column. Every retry would
    // fail the same way, so it is kept as rejected (its SHA-256 only, as its bytes may be anything)
    // and acknowledged, which stops the provider's retries (spec: any non-2xx is retried for 24
    // hours); nothing is applied. A payment it was about is not lost: the reconciler reads every
    // open payment's status from the provider.
    const verification = adapter.verifyWebhook(account, { body: input.body, headers: input.headers, receivedAt: input.receivedAt });
    if (!verification.ok) {
      const { reason } = verification;
      if (reason === 'PAYLOAD_INVALID') return { ...target, kind: 'unprocessable', reason, record: await keepRejected(reason) };
      return { ...target, kind: 'refused', reason, record: await keepRejected(reason) };
    }
    const { event } = verification;
    const unstorable = this.unstorableText(event, input.body);
    if (unstorable) {
      const reason = 'TEXT_NOT_STORABLE';
      return { ...target, kind: 'unprocessable', reason, unstorable, record: await keepRejected(reason) };
    }

    try {
      const result = await this.receive(em, { provider: target.provider, account, event, rawBody: input.body });
      return { ...target, kind: 'received', event, result };
    } catch (error) {
      if (error instanceof WebhookRetryLater) return { ...target, kind: 'retry_later', event, message: error.message };
      return { ...target, kind: 'failed', event, error };
    }
  }

  /** `recordRejected`, whose failure is reported rather than thrown: a refused delivery's answer does not depend on its record. */
  private async keepRejected(em: SqlEntityManager, input: RejectedWebhookInput): Promise<RejectedRecord> {
    try {
      const recorded = await this.recordRejected(em, input);
      return { ok: true, pruned: recorded.pruned };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** Registers the handler of one subject kind's events (a module's, at composition). */
  register<K extends WebhookSubjectKind>(kind: K, handler: WebhookSubjectHandler<K>): void {
    if (this.handlers.has(kind)) throw new Error(`Webhook events about ${kind} have a handler already`);
    this.handlers.set(kind, handler as unknown as WebhookSubjectHandler);
  }

  /**
   * Where a verified event carries text the inbox could not store: NUL in the raw body, NUL or a
   * lone surrogate the parser made of an escape, or a string longer than the column it goes to. The
   * database would refuse such a delivery on every retry, so the caller keeps it as rejected.
   */
  unstorableText(event: WebhookEvent, body: Buffer): UnstorableText | undefined {
    return (
      findUnstorableText(body.toString('utf8'), ['body']) ??
      findUnstorableText(event.name, ['event', 'name'], { maxLength: EVENT_NAME_MAX }) ??
      findUnstorableText(statusTexts(event), ['event', 'subject'], { maxLength: STATUS_TEXT_MAX }) ??
      findUnstorableText(event, ['event'], { maxLength: EVENT_TEXT_MAX })
    );
  }

  /**
   * Keeps a delivery that failed verification or cannot be processed: its reason, account and
   * time, and the SHA-256 of the bytes, never the bytes (rejected-deliveries.ts).
   */
  recordRejected(em: SqlEntityManager, input: RejectedWebhookInput): Promise<RecordRejectedResult> {
    return recordRejected(em, input);
  }

  /**
   * Applies a stored, verified delivery again through the same decision code as a fresh one (e.g.
   * an `unmatched` event whose deposit now exists). The row is locked, so concurrent replays
   * serialize; it records the new decision, except that an `applied` row keeps its outcome (what
   * it applied stays on record).
   */
  replay(em: SqlEntityManager, deliveryId: string): Promise<ReplayWebhookResult> {
    return em.transactional(async (tx) => {
      const rows = await tx.execute<StoredDelivery[]>('select id, provider, merchant_account, outcome, raw_body from webhook_delivery where id = ? for update', [deliveryId]);
      const row = rows[0];
      if (!row) return { ok: false, code: 'DELIVERY_NOT_FOUND', message: `No webhook delivery ${deliveryId}` };
      return this.redecide(tx, row);
    });
  }

  /**
   * Decides again, in the caller's transaction, the deliveries deferred until this subject's
   * status changed (refunds that overtook their payment). Run by the `webhook.release_deferred`
   * job, which the status change schedules as a reaction (deferred.ts). Returns how many were
   * decided; a delivery still undecidable stays `deferred`.
   */
  async releaseDeferred(tx: SqlEntityManager, subjectType: string, subjectId: string): Promise<number> {
    if (!tx.isInTransaction()) throw new Error('WebhookInbox.releaseDeferred must run inside a transaction: the deliveries are locked until commit');
    const rows = await tx.execute<StoredDelivery[]>(
      `select id, provider, merchant_account, outcome, raw_body from webhook_delivery
       where subject_type = ? and subject_id = ? and outcome = 'deferred'
       order by received_at, id for update`,
      [subjectType, subjectId],
    );
    for (const row of rows) await this.redecide(tx, row);
    return rows.length;
  }

  /** Decides a stored delivery again and records the new decision (an `applied` row keeps its outcome). */
  private async redecide(tx: SqlEntityManager, row: StoredDelivery): Promise<ReplayWebhookResult> {
    if (row.outcome === 'rejected') {
      return { ok: false, code: 'DELIVERY_REJECTED', message: 'A rejected delivery kept no body: it cannot be replayed' };
    }
    // Retention: a verified body is never empty, so an empty one was erased after
    // WEBHOOK_BODY_RETENTION_MS (body-retention.ts). Its outcome and change stay on record; the
    // reconciler asks the provider for a subject's current status instead.
    if (row.raw_body === '') {
      return { ok: false, code: 'DELIVERY_BODY_ERASED', message: 'The body of this delivery was erased after its retention window: it cannot be replayed' };
    }
    const target = this.target(row.provider, row.merchant_account);
    const adapter = target && this.replaySources?.provider(target.provider);
    if (!target || !adapter) {
      return { ok: false, code: 'ACCOUNT_NOT_CONFIGURED', message: `Merchant account ${row.merchant_account} is not configured on this gateway` };
    }
    const { account } = target;
    // Verified when it was received (only verified bodies are stored), so it is parsed, not re-verified:
    // its signature timestamp is long out of the freshness window by now.
    const parsed = adapter.parseWebhook(account, Buffer.from(row.raw_body, 'utf8'));
    if (!parsed.ok) return { ok: false, code: 'PAYLOAD_INVALID', message: 'The stored body is not a usable event' };
    const input: ReceiveWebhookInput = { provider: row.provider, account, event: parsed.event, rawBody: Buffer.from(row.raw_body, 'utf8') };
    const handler = this.handlers.get(input.event.subject.kind);
    let decision: WebhookDecision;
    if (!handler) decision = notHandled(input);
    else {
      const wanted = handler.find?.(tx, input, input.event.subject);
      const lookup = wanted && renderLookup(wanted);
      const found = lookup ? (await tx.execute<Array<Record<string, unknown>>>(lookup.sql, lookup.params))[0] : undefined;
      const { recorded: _recorded, ...outcome } = await handler.decide(tx, input, input.event.subject, { lookedUp: Boolean(lookup), ...(found?.id != null ? { found } : {}) });
      decision = deliveryDecision(outcome);
    }
    if (row.outcome === 'applied') {
      await tx.execute('update webhook_delivery set replayed_at = ? where id = ?', [new Date(), row.id]);
    } else {
      await tx.execute('update webhook_delivery set outcome = ?, reason = ?, subject_type = ?, subject_id = ?, replayed_at = ? where id = ?', [
        decision.outcome,
        decision.reason ?? null,
        decision.subjectType ?? null,
        decision.subjectId ?? null,
        new Date(),
        row.id,
      ]);
    }
    return { ok: true, deliveryId: row.id, ...decision };
  }

  /**
   * Stores and applies one verified event in one transaction: the inbox row, any status change and
   * its event row commit together, or not at all (DESIGN.md "Durable before acknowledged"). Every
   * outcome is a result to acknowledge with 2xx, including events that cannot be applied; only
   * an infrastructure failure throws, and then nothing was stored, so the provider's retry is safe.
   *
   * The common report (a status) costs four statements with BEGIN and COMMIT: the delivery's row
   * with its subject found and locked by the handler's `find` (only once the row is inserted, so
   * a duplicate locks nothing), then the change with its event, its reaction jobs and the
   * delivery's outcome.
   */
  receive(em: SqlEntityManager, input: ReceiveWebhookInput): Promise<ReceiveWebhookResult> {
    return inTransaction(em, async (tx) => {
      const deliveryId = newId('whd');
      // The delivery's trace, for the payment's timeline (docs/timeline.md): a column only while a sampled span runs.
      const traceId = currentTraceId();
      // ON CONFLICT instead of catching a unique violation: a failed INSERT aborts a PostgreSQL
      // transaction. A concurrent copy of the same event waits here on the unique index until the
      // first commits, then inserts nothing: exactly one copy goes on to change anything.
      const insert = {
        sql: `insert into webhook_delivery (id, provider, merchant_account, event_id, event_name, outcome, reason, subject_type, subject_id, raw_body, body_sha256, received_at${traceId ? ', trace_id' : ''})
         values (?, ?, ?, ?, ?, 'ignored', null, null, null, ?, ?, ?${traceId ? ', ?' : ''})
         on conflict (provider, merchant_account, event_id) do nothing
         returning id`,
        // The SHA-256 of the exact bytes outlives the body (retention erases it): admins can still match it with the provider's logs.
        params: [deliveryId, input.provider, input.account.code, input.event.eventId, input.event.name, input.rawBody.toString('utf8'), sha256Hex(input.rawBody), this.clock.now(), ...(traceId ? [traceId] : [])],
      };
      const { subject } = input.event;
      const handler = this.handlers.get(subject.kind);
      const wanted = handler?.find?.(tx, input, subject);
      // While tracing is on, the payment's stored trace context comes with its row, for the delivery's span.
      const lookup = wanted && renderLookup(wanted, tracingOn() && isTracedPayment(wanted.table));
      let found: Record<string, unknown> | undefined;
      let traced: Pick<ReceiveWebhookResult, 'paymentTraceContext'> = {};
      if (lookup) {
        // Prepared (src/db/prepared.ts), as the transaction's first statement: it goes with its BEGIN in one round trip, values bound.
        const rows = await executePrepared<Record<string, unknown>>(
          tx,
          `with inserted as (${insert.sql}) select inserted.id as inbox_delivery_id, d.* from inserted left join lateral (${lookup.sql}) d on true`,
          [...insert.params, ...lookup.params],
        );
        const row = rows[0];
        if (!row) return DUPLICATE_DELIVERY;
        const { inbox_delivery_id: _inserted, payment_trace_context: traceContext, ...columns } = row;
        if (columns.id != null) found = columns;
        if (traceContext !== undefined) traced = { paymentTraceContext: typeof traceContext === 'string' ? traceContext : null };
      } else {
        const inserted = await executePrepared<{ id: string }>(tx, insert.sql, insert.params);
        if (inserted.length === 0) return DUPLICATE_DELIVERY;
      }
      if (!handler) {
        const decision = notHandled(input);
        await recordOutcome(tx, deliveryId, decision);
        return { ...decision, deliveryId };
      }
      const { recorded, ...outcome } = await handler.decide(tx, input, subject, {
        lookedUp: Boolean(lookup),
        ...(found ? { found } : {}),
        outcome: (written) => outcomeWrite(deliveryId, deliveryDecision(written)),
      });
      const decision = deliveryDecision(outcome);
      if (!recorded) await recordOutcome(tx, deliveryId, decision);
      return { ...decision, deliveryId, ...traced };
    });
  }
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A copy of an event already in the inbox: nothing is stored or applied again. */
const DUPLICATE_DELIVERY: ReceiveWebhookResult = { outcome: 'duplicate', reason: 'EVENT_ALREADY_RECEIVED' };

/** The update that records a fresh delivery's decision on its inbox row, as data. */
function outcomeWrite(deliveryId: string, decision: WebhookDecision): RowWrite {
  return {
    table: 'webhook_delivery',
    id: deliveryId,
    set: { outcome: decision.outcome, reason: decision.reason ?? null, subject_type: decision.subjectType ?? null, subject_id: decision.subjectId ?? null },
  };
}

async function recordOutcome(tx: SqlEntityManager, deliveryId: string, decision: WebhookDecision): Promise<void> {
  const { table, id, set } = outcomeWrite(deliveryId, decision);
  const { sql, params } = renderUpdate(table, id, { set });
  await tx.execute(sql, params);
}

/** Stored, acknowledged and visible to admins, but not acted on: no module handles this kind. */
function notHandled(input: ReceiveWebhookInput): WebhookDecision {
  const { kind } = input.event.subject;
  // Spec (Versioning): new event types appear without notice; consumers ignore what they do not know.
  if (kind === 'other') return { outcome: 'ignored', reason: `EVENT_NOT_HANDLED: unknown event type ${input.event.name}` };
  return { outcome: 'ignored', reason: `EVENT_NOT_HANDLED: ${kind} events are not applied` };
}

/** The event's free-text words bound for the varchar(64) status columns. */
function statusTexts(event: WebhookEvent): Record<string, string> {
  const subject = event.subject;
  return {
    ...('providerStatus' in subject ? { providerStatus: subject.providerStatus } : {}),
    ...('declineReason' in subject && subject.declineReason !== undefined ? { declineReason: subject.declineReason } : {}),
  };
}
