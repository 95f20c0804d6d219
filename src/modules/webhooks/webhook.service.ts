// The webhook inbox: records each verified provider event once, applies what it says in the same transaction, and keeps the outcome.

import { createHash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { isId, newId } from '../../lib/ids.js';
import type { DepositProvider, MerchantAccount, ProviderName, WebhookEvent, WebhookRejection } from '../../providers/provider.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { findUnstorableText, type UnstorableText } from '../../lib/storable-text.js';
import { columnList, plainRow } from '../../db/plain-rows.js';
import { inTransaction } from '../../db/transaction.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { applyDepositChange, LOCKED_DEPOSIT_PROPERTIES, type LockedDeposit } from '../deposits/deposit-transitions.js';
import { FETCH_DEPOSIT_DETAILS } from '../deposits/deposit-jobs.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import { applyPaymentRefunded } from '../refunds/refund-accounting.js';
import type { PaymentSubjectType } from '../../kernel/events/payment-event.entity.js';
import type { WebhookOutcome } from './webhook-delivery.entity.js';

export interface ReceiveWebhookInput {
  provider: ProviderName;
  account: MerchantAccount;
  /** Already verified on the exact bytes by the account's adapter. */
  event: WebhookEvent;
  /** The body exactly as received, kept for inspection and replay. */
  rawBody: Buffer;
}

export interface ReceiveWebhookResult {
  outcome: WebhookOutcome;
  reason?: string;
  /** The inbox row; absent for a redelivery of an event already stored. */
  deliveryId?: string;
  subjectType?: PaymentSubjectType;
  subjectId?: string;
}

/** What became of one event: the inbox row records it. */
export interface WebhookDecision {
  outcome: WebhookOutcome;
  reason?: string;
  subjectType?: PaymentSubjectType;
  subjectId?: string;
}
type Decision = WebhookDecision;

type Subject = WebhookEvent['subject'];
type DepositSubject = Extract<Subject, { kind: 'deposit' }>;

/**
 * Applies one kind of event inside the inbox's transaction (after the delivery row is inserted,
 * before it commits). Returns the outcome to record; throws only on infrastructure failure.
 */
export type WebhookSubjectHandler<K extends Subject['kind']> = (
  tx: SqlEntityManager,
  input: ReceiveWebhookInput,
  subject: Extract<Subject, { kind: K }>,
) => Promise<WebhookDecision>;

/**
 * Thrown by a handler when an event cannot be decided yet but will be once something else lands
 * (another event, our own record of a provider answer). The whole transaction rolls back, the
 * delivery is answered 503 and nothing is stored, so the provider's retry is a first delivery.
 */
export class WebhookRetryLater extends Error {}

/**
 * Why a delivery was refused without being stored: verification failed, or (`TEXT_NOT_STORABLE`)
 * it verified but carries text the database cannot store.
 */
export type RejectedWebhookReason = WebhookRejection | 'TEXT_NOT_STORABLE';

/** A refused delivery (unverified, or verified but unstorable), kept for admins without its body. */
export interface RejectedWebhookInput {
  provider: ProviderName;
  account: MerchantAccount;
  reason: RejectedWebhookReason;
  body: Buffer;
  receivedAt: Date;
  /**
   * Rejected deliveries kept for this account; the oldest beyond it are deleted, so a flood of
   * unsigned requests cannot fill the database. Absent: all are kept.
   */
  keepPerAccount?: number;
}

/** What `recordRejected` stored and how many older rejected rows of the account it deleted. */
export interface RecordRejectedResult {
  id: string;
  pruned: number;
}

/** A stored delivery as a re-decision reads it. */
interface StoredDelivery {
  id: string;
  provider: ProviderName;
  merchant_account: string;
  outcome: WebhookOutcome;
  raw_body: string;
}

/** What replaying a stored delivery needs: the configured accounts and the provider adapters. */
export interface WebhookReplaySources {
  account(code: string): MerchantAccount | undefined;
  provider(name: ProviderName): DepositProvider;
}

export type ReplayWebhookResult =
  | ({ ok: true; deliveryId: string } & WebhookDecision)
  | { ok: false; code: 'DELIVERY_NOT_FOUND' | 'DELIVERY_REJECTED' | 'ACCOUNT_NOT_CONFIGURED' | 'PAYLOAD_INVALID'; message: string };

/** Handlers of the event kinds other modules own (refunds, payouts, disputes, withdrawals). */
export interface WebhookSubjectHandlers {
  refund?: WebhookSubjectHandler<'refund'>;
  payout?: WebhookSubjectHandler<'payout'>;
  chargeback?: WebhookSubjectHandler<'chargeback'>;
  withdrawal?: WebhookSubjectHandler<'withdrawal'>;
}

/** `webhook_delivery.event_name` is varchar(128). */
const EVENT_NAME_MAX = 128;
/** `provider_status` and `decline_reason` are varchar(64). */
const STATUS_TEXT_MAX = 64;
/** The narrowest column any other string of an event goes to: event ids and provider references are varchar(255). */
const EVENT_TEXT_MAX = 255;

export class WebhookService {
  constructor(
    private readonly events: EventLog,
    /** Where the inbox writes the follow-up work of an applied deposit event (its details fetch). */
    private readonly jobs: JobQueue,
    private readonly handlers: WebhookSubjectHandlers = {},
    private readonly replaySources?: WebhookReplaySources,
  ) {}

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
   * Keeps a delivery that failed verification: its reason, account and time, and the SHA-256 of
   * the bytes, never the bytes (they are not trusted input and are never replayed).
   */
  async recordRejected(em: SqlEntityManager, input: RejectedWebhookInput): Promise<RecordRejectedResult> {
    const id = newId('whd');
    await em.execute(
      `insert into webhook_delivery (id, provider, merchant_account, event_id, event_name, outcome, reason, subject_type, subject_id, raw_body, body_sha256, received_at)
       values (?, ?, ?, ?, '', 'rejected', ?, null, null, '', ?, ?)`,
      [id, input.provider, input.account.code, `rejected:${id}`, input.reason, createHash('sha256').update(input.body).digest('hex'), input.receivedAt],
    );
    if (input.keepPerAccount === undefined) return { id, pruned: 0 };
    // Only this account's rejected rows: verified deliveries, and other accounts, are never touched.
    const pruned = await em.execute<{ id: string }[]>(
      `delete from webhook_delivery where id in (
         select id from webhook_delivery where merchant_account = ? and outcome = 'rejected'
         order by received_at desc, id desc offset ?)
       returning id`,
      [input.account.code, input.keepPerAccount],
    );
    return { id, pruned: pruned.length };
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
   * Decides again, in the caller's transaction, the deliveries deferred until this deposit's
   * status changed (refunds that overtook their payment), so the payment and what waited for it
   * commit together. Called by the inbox right after it applies a deposit status, and by the
   * `webhook.release_deferred` job after a change made elsewhere (reconciler, card settle).
   * Returns how many were decided; a delivery still undecidable stays `deferred`.
   */
  async releaseDeferred(tx: SqlEntityManager, depositId: string): Promise<number> {
    if (!tx.isInTransaction()) throw new Error('WebhookService.releaseDeferred must run inside a transaction: the deliveries are locked until commit');
    const rows = await tx.execute<StoredDelivery[]>(
      `select id, provider, merchant_account, outcome, raw_body from webhook_delivery
       where subject_type = 'deposit' and subject_id = ? and outcome = 'deferred'
       order by received_at, id for update`,
      [depositId],
    );
    for (const row of rows) await this.redecide(tx, row);
    return rows.length;
  }

  /** Decides a stored delivery again and records the new decision (an `applied` row keeps its outcome). */
  private async redecide(tx: SqlEntityManager, row: StoredDelivery): Promise<ReplayWebhookResult> {
    if (row.outcome === 'rejected') {
      return { ok: false, code: 'DELIVERY_REJECTED', message: 'A rejected delivery kept no body: it cannot be replayed' };
    }
    const account = this.replaySources?.account(row.merchant_account);
    if (!account || account.provider !== row.provider || !this.replaySources) {
      return { ok: false, code: 'ACCOUNT_NOT_CONFIGURED', message: `Merchant account ${row.merchant_account} is not configured on this gateway` };
    }
    // Verified when it was received (only verified bodies are stored), so it is parsed, not re-verified:
    // its signature timestamp is long out of the freshness window by now.
    const parsed = this.replaySources.provider(row.provider).parseWebhook(account, Buffer.from(row.raw_body, 'utf8'));
    if (!parsed.ok) return { ok: false, code: 'PAYLOAD_INVALID', message: 'The stored body is not a usable event' };
    const input: ReceiveWebhookInput = { provider: row.provider, account, event: parsed.event, rawBody: Buffer.from(row.raw_body, 'utf8') };
    const decision = await this.decide(tx, input);
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
   */
  receive(em: SqlEntityManager, input: ReceiveWebhookInput): Promise<ReceiveWebhookResult> {
    return inTransaction(em, async (tx) => {
      const deliveryId = newId('whd');
      // ON CONFLICT instead of catching a unique violation: a failed INSERT aborts a PostgreSQL
      // transaction. A concurrent copy of the same event waits here on the unique index until the
      // first commits, then inserts nothing: exactly one copy goes on to change anything.
      const insert = {
        sql: `insert into webhook_delivery (id, provider, merchant_account, event_id, event_name, outcome, reason, subject_type, subject_id, raw_body, received_at)
         values (?, ?, ?, ?, ?, 'ignored', null, null, null, ?, ?)
         on conflict (provider, merchant_account, event_id) do nothing
         returning id`,
        params: [deliveryId, input.provider, input.account.code, input.event.eventId, input.event.name, input.rawBody.toString('utf8'), new Date()],
      };
      const { subject } = input.event;
      if (subject.kind === 'deposit' && subject.status !== 'REFUNDED' && !livemodeMismatch(input)) {
        return this.receiveDepositStatus(tx, input, subject, insert, deliveryId);
      }
      const inserted = await tx.execute<Array<{ id: string }>>(insert.sql, insert.params);
      if (inserted.length === 0) return DUPLICATE_DELIVERY;
      const decision = await this.decide(tx, input);
      await recordOutcome(tx, deliveryId, decision);
      return { ...decision, deliveryId };
    });
  }

  /**
   * `receive` for a deposit status report, the common event: the inbox row and the deposit, found
   * and locked, in one statement (only once the row is inserted, so a duplicate locks nothing);
   * when the status changes, the deposit, its event, the detail fetch job and the delivery's
   * outcome in one more. Four statements with BEGIN and COMMIT.
   */
  private async receiveDepositStatus(
    tx: SqlEntityManager,
    input: ReceiveWebhookInput,
    subject: DepositSubject,
    insert: { sql: string; params: unknown[] },
    deliveryId: string,
  ): Promise<ReceiveWebhookResult> {
    const lookup = eventDepositLookup(input, subject, columnList(tx, Deposit, LOCKED_DEPOSIT_PROPERTIES), true);
    const rows = await tx.execute<Array<Record<string, unknown>>>(
      `with inserted as (${insert.sql}) select inserted.id as inbox_delivery_id, d.* from inserted left join lateral (${lookup.sql}) d on true`,
      [...insert.params, ...lookup.params],
    );
    const row = rows[0];
    if (!row) return DUPLICATE_DELIVERY;
    const { inbox_delivery_id: _inserted, ...columns } = row;
    if (columns.id == null) {
      const decision = depositNotFound(input, subject);
      await recordOutcome(tx, deliveryId, decision);
      return { ...decision, deliveryId };
    }
    const { decision, recorded } = await this.applyStatus(tx, input, subject, plainRow<LockedDeposit>(tx, Deposit, columns), deliveryId);
    if (!recorded) await recordOutcome(tx, deliveryId, decision);
    return { ...decision, deliveryId };
  }

  private async decide(tx: SqlEntityManager, input: ReceiveWebhookInput): Promise<Decision> {
    const { subject } = input.event;
    switch (subject.kind) {
      case 'deposit':
        return this.applyToDeposit(tx, input, subject);
      case 'refund':
        return this.handlers.refund ? this.handlers.refund(tx, input, subject) : notHandled(subject.kind);
      case 'payout':
        return this.handlers.payout ? this.handlers.payout(tx, input, subject) : notHandled(subject.kind);
      case 'chargeback':
        return this.handlers.chargeback ? this.handlers.chargeback(tx, input, subject) : notHandled(subject.kind);
      case 'withdrawal':
        return this.handlers.withdrawal ? this.handlers.withdrawal(tx, input, subject) : notHandled(subject.kind);
      case 'other':
        // Spec (Versioning): new event types appear without notice; consumers ignore what they do not know.
        return { outcome: 'ignored', reason: `EVENT_NOT_HANDLED: unknown event type ${input.event.name}` };
    }
  }

  private async applyToDeposit(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: DepositSubject): Promise<Decision> {
    const mismatch = livemodeMismatch(input);
    if (mismatch || subject.status === 'REFUNDED') return this.applyOtherToDeposit(tx, input, subject, mismatch);
    // A status report: the deposit is found and locked by one statement.
    const deposit = await lockEventDeposit(tx, input, subject);
    if (!deposit) return depositNotFound(input, subject);
    return (await this.applyStatus(tx, input, subject, deposit)).decision;
  }

  /**
   * Applies a status report to its deposit, read with its row lock in this transaction. With
   * `deliveryId` (a fresh delivery, not a replay), an applied change records the delivery's
   * outcome in its own statement (`recorded`); otherwise the caller records it.
   */
  private async applyStatus(
    tx: SqlEntityManager,
    input: ReceiveWebhookInput,
    subject: DepositSubject,
    deposit: LockedDeposit,
    deliveryId?: string,
  ): Promise<{ decision: Decision; recorded: boolean }> {
    const depositId = deposit.id;
    const found: Decision = { outcome: 'unmatched', subjectType: 'deposit', subjectId: depositId };
    const applied: Decision = { ...found, outcome: 'applied' };
    const result = await applyDepositChange(
      tx,
      {
        depositId,
        locked: deposit,
        change: {
          status: subject.status,
          providerStatus: subject.providerStatus,
          ...(subject.declineReason !== undefined ? { declineReason: subject.declineReason } : {}),
          ...(subject.amount !== undefined ? { amount: subject.amount } : {}),
          ...(input.event.occurredAt !== undefined && subject.status === 'SUCCEEDED' ? { approvedAt: input.event.occurredAt } : {}),
          providerReference: subject.reference,
        },
        source: `webhook:${input.provider}/${input.account.code}`,
        // Webhooks carry status, not details (fee, net, decline reason: spec "Webhook event
        // envelope"): a job reads them from the provider's record once this commits. It is
        // written by the status change's statement, with the delivery's outcome, and the same
        // statement counts the deliveries deferred until this deposit's status changed (read
        // after the row lock was taken, so none deferred before it is missed).
        alongside: () => ({
          statements: [
            this.jobs.enqueueStatement(
              tx,
              FETCH_DEPOSIT_DETAILS,
              { depositId, reference: subject.reference, provider: input.provider, merchantAccount: input.account.code },
              { dedupeKey: depositId },
            ),
            ...(deliveryId !== undefined ? [outcomeStatement(deliveryId, applied)] : []),
          ],
          select: {
            sql: `(select count(*) from webhook_delivery where subject_type = 'deposit' and subject_id = ? and outcome = 'deferred')::int as inbox_deferred`,
            params: [depositId],
            columns: ['inbox_deferred'],
          },
        }),
      },
      this.events,
    );
    switch (result.outcome) {
      case 'applied':
        // Refunds that overtook this payment are decided now, in this transaction (a deferred
        // delivery is a refund event, decided by the refund handler: releasing never recurses here).
        if (Number(result.row?.inbox_deferred ?? 0) > 0) await this.releaseDeferred(tx, depositId);
        return { decision: applied, recorded: deliveryId !== undefined };
      case 'noop':
        // A distinct event reporting the status the deposit already has.
        return { decision: { ...found, outcome: 'duplicate', reason: `STATUS_UNCHANGED: deposit is already ${subject.status}` }, recorded: false };
      case 'anomaly':
        return { decision: { ...found, outcome: 'anomaly', ...(result.reason !== undefined ? { reason: result.reason } : {}) }, recorded: false };
      case 'not_found':
        return { decision: { outcome: 'unmatched', ...(result.reason !== undefined ? { reason: result.reason } : {}) }, recorded: false };
    }
  }

  /** A deposit event that changes no status: a test-mode event for a live account (or the reverse), or `payment.refunded`. */
  private async applyOtherToDeposit(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: DepositSubject, mismatch: string | undefined): Promise<Decision> {
    const depositId = await findEventDeposit(tx, input, subject);
    if (!depositId) {
      return { outcome: 'unmatched', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
    }
    const found: Decision = { outcome: 'unmatched', subjectType: 'deposit', subjectId: depositId };
    if (mismatch) return { ...found, outcome: 'anomaly', reason: mismatch };
    // payment.refunded: the refund rows decide, never a bare status change. The event does not say
    // how much went back ("in full or in part", A25), so nothing is recorded from it alone.
    const refunded = await applyPaymentRefunded(
      tx,
      { depositId, ...(subject.amount ? { amount: subject.amount } : {}), reversedInFull: false, providerStatus: subject.providerStatus, source: `webhook:${input.provider}/${input.account.code}` },
      this.events,
    );
    const reason = refunded.reason !== undefined ? { reason: refunded.reason } : {};
    switch (refunded.outcome) {
      case 'recorded':
        return { ...found, outcome: 'applied', ...reason };
      case 'explained':
        return { ...found, outcome: 'duplicate', ...reason };
      case 'in_progress':
        return { ...found, outcome: 'ignored', ...reason };
      case 'anomaly':
        return { ...found, outcome: 'anomaly', ...reason };
      case 'not_found':
        return { outcome: 'unmatched', ...reason };
    }
  }
}

/** A copy of an event already in the inbox: nothing is stored or applied again. */
const DUPLICATE_DELIVERY: ReceiveWebhookResult = { outcome: 'duplicate', reason: 'EVENT_ALREADY_RECEIVED' };

function depositNotFound(input: ReceiveWebhookInput, subject: DepositSubject): Decision {
  return { outcome: 'unmatched', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
}

/** The UPDATE that records a fresh delivery's decision on its inbox row. */
function outcomeStatement(deliveryId: string, decision: Decision): { sql: string; params: unknown[] } {
  return {
    sql: 'update webhook_delivery set outcome = ?, reason = ?, subject_type = ?, subject_id = ? where id = ?',
    params: [decision.outcome, decision.reason ?? null, decision.subjectType ?? null, decision.subjectId ?? null, deliveryId],
  };
}

async function recordOutcome(tx: SqlEntityManager, deliveryId: string, decision: Decision): Promise<void> {
  const update = outcomeStatement(deliveryId, decision);
  await tx.execute(update.sql, update.params);
}

/** Stored, acknowledged and visible to admins, but not acted on: no module handles this kind. */
function notHandled(kind: string): WebhookDecision {
  return { outcome: 'ignored', reason: `EVENT_NOT_HANDLED: ${kind} events are not applied` };
}

/**
 * Our deposit the event is about, only among this account's deposits. We send our deposit id as
 * the provider's merchant reference, so the echo names it directly (deposit gateway:
 * `merchant_reference`; QR gateway: `reference`); otherwise the provider's own reference is
 * looked up.
 */
export async function findEventDeposit(
  tx: SqlEntityManager,
  input: ReceiveWebhookInput,
  subject: { reference: string; merchantReference?: string },
): Promise<string | undefined> {
  const row = await eventDepositRow(tx, input, subject, 'id', false);
  return row?.id as string | undefined;
}

/**
 * The deposit a status report is about, read with its row lock in the same statement (the lookup
 * of `findEventDeposit`): concurrent reports about one deposit serialize here.
 */
async function lockEventDeposit(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: { reference: string; merchantReference?: string }): Promise<LockedDeposit | undefined> {
  const row = await eventDepositRow(tx, input, subject, columnList(tx, Deposit, LOCKED_DEPOSIT_PROPERTIES), true);
  return row ? plainRow<LockedDeposit>(tx, Deposit, row) : undefined;
}

/** The lookup of `findEventDeposit`, selecting `columns`, with the row lock when `lock`. */
async function eventDepositRow(
  tx: SqlEntityManager,
  input: ReceiveWebhookInput,
  subject: { reference: string; merchantReference?: string },
  columns: string,
  lock: boolean,
): Promise<Record<string, unknown> | undefined> {
  const lookup = eventDepositLookup(input, subject, columns, lock);
  const rows = await tx.execute<Array<Record<string, unknown>>>(lookup.sql, lookup.params);
  return rows[0];
}

/**
 * The SELECT of `eventDepositRow`: among the account's deposits, the one whose id is the echoed
 * merchant reference if there is one, else the one whose provider reference (or payment
 * reference: a hosted checkout deposit's own reference is its session id) is the event's.
 */
function eventDepositLookup(
  input: ReceiveWebhookInput,
  subject: { reference: string; merchantReference?: string },
  columns: string,
  lock: boolean,
): { sql: string; params: unknown[] } {
  const ownId = subject.merchantReference && isId(subject.merchantReference, 'dep') ? subject.merchantReference : null;
  return {
    sql: `select ${columns} from deposit
      where (id = ? or provider_reference = ? or payment_reference = ?) and provider = ? and merchant_account = ?
      order by (id = ?) desc nulls last, (provider_reference = ?) desc nulls last limit 1${lock ? ' for update' : ''}`,
    params: [ownId, subject.reference, subject.reference, input.provider, input.account.code, ownId, subject.reference],
  };
}

/** The anomaly reason when a test-mode event would touch a live account (or the reverse), else undefined. */
export function livemodeMismatch(input: ReceiveWebhookInput): string | undefined {
  if (input.event.livemode === undefined || input.event.livemode === input.account.livemode) return undefined;
  return `LIVEMODE_MISMATCH: event livemode=${input.event.livemode}, account livemode=${input.account.livemode}`;
}

/** The event's free-text words bound for the varchar(64) status columns. */
function statusTexts(event: WebhookEvent): Record<string, string> {
  const subject = event.subject;
  return {
    ...('providerStatus' in subject ? { providerStatus: subject.providerStatus } : {}),
    ...('declineReason' in subject && subject.declineReason !== undefined ? { declineReason: subject.declineReason } : {}),
  };
}
