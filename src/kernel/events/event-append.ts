// What an append writes: the event's input, its row's INSERT, the statements a caller writes
// alongside it and the hooks modules add to every append, and the notification the row makes.
// Apart from the log (event-log.ts), which runs these statements, so that the SQL of one append can
// be read in one place.

import { newId } from '../../lib/ids.js';
import { currentTraceId } from '../../lib/tracing/trace-context.js';
import type { PaymentEvent, PaymentSubjectType } from './payment-event.entity.js';
import type { EventNotification } from './event-notification.js';

export interface AppendEventInput {
  /** The kind of subject, as its module registered it (`deposit`, `refund`, ...). */
  subjectType: PaymentSubjectType;
  subjectId: string;
  /**
   * Owner of the subject, as the visibility policy reads it (src/kernel/visibility.ts): a
   * deposit's or payout's creator, a refund's deposit's creator; null when it belongs to no client.
   */
  clientId: string | null;
  /**
   * Merchant account of the subject (a refund: its deposit's): without it the event would be
   * invisible to every back office that sees its subject.
   */
  merchantAccount: string;
  /** An anomaly the gateway raises about the subject: admins alone see it (default false). */
  adminOnly?: boolean;
  /** e.g. `deposit.status_changed`. */
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  /**
   * The subject as it stands after the change, in the JSON shape its module serves (the row's
   * `data` and the notification's snapshot). Computed by the caller before the statement that
   * writes the change, so it describes what that statement writes. Absent for a note about the
   * subject that changes nothing in it (an anomaly raised for admins).
   */
  snapshot?: object;
}

/**
 * Told of an event this process committed: its position, and the event as the log holds it, made
 * only if asked for (most commits have nobody on this instance to publish to).
 */
export type CommittedListener = (position: string, event: () => EventNotification) => void;

/** A piece of SQL with its `?` parameters. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * What `appendWith` writes and reads in the same statement as the change and its event.
 * `statements`: more data-modifying CTEs (a job's insert, an inbox row's outcome). They run
 * whether or not the change finds its row, so a caller that writes them rolls back when it does
 * not, or makes each require `CHANGE_MATCHED`. `select`: more columns of the returned rows (scalar subqueries), read from the statement's
 * snapshot, which does not see the statement's own writes. `select: alongsideMatched(n)` asks
 * whether each of `n` statements (each with a `returning` clause) matched a row; `allMatched` reads
 * the answer from a returned row.
 */
export interface AppendAlongside {
  statements?: SqlPart[];
  /** `sql`: the column expressions, each `as` one of `columns`. */
  select?: SqlPart & { columns: readonly string[] };
}

/**
 * An SQL condition for the `statements` of `AppendAlongside`: true when the change found its row.
 * A statement that must not run without the change requires it (outside a transaction nothing
 * rolls it back).
 */
export const CHANGE_MATCHED = 'exists (select from change)';

/** The `select` of `AppendAlongside` that tells whether each of the first `count` statements (CTE `alongside_<i>`) matched a row. */
export function alongsideMatched(count: number): SqlPart & { columns: string[] } {
  const columns = Array.from({ length: count }, (_, i) => matchedColumn(i));
  return { sql: columns.map((column, i) => `exists (select from alongside_${i}) as ${column}`).join(', '), params: [], columns };
}

/** Whether a row returned with `alongsideMatched(count)` says every one of those statements matched. */
export function allMatched(row: Record<string, unknown>, count: number): boolean {
  for (let i = 0; i < count; i++) if (row[matchedColumn(i)] !== true) return false;
  return true;
}

function matchedColumn(i: number): string {
  return `alongside_${i}_matched`;
}

/** Columns of an event row as the entity maps them (the writer's transaction id stays in SQL). */
export const EVENT_COLUMNS = 'position, id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at';

/**
 * A statement a module adds to every append, as a CTE of the append's own statement (so it commits
 * with the event, and the append costs no extra round trip): e.g. the notifications module's
 * fan-out job. `statement(requires)` returns a data-modifying statement with a `returning` clause
 * that writes nothing unless `requires` (an SQL condition, or undefined) holds; when it wrote a
 * row, the append announces `channel` on commit.
 */
export interface AppendHook {
  statement(requires: string | undefined): SqlPart;
  channel: string;
}

/** The row as a notification: `PaymentEvent` is the only producer of `EventNotification`. */
export function toEventNotification(event: Pick<PaymentEvent, 'position' | 'id' | 'type' | 'subjectType' | 'subjectId' | 'clientId' | 'merchantAccount' | 'adminOnly' | 'fromStatus' | 'toStatus' | 'createdAt' | 'data'>): EventNotification {
  const notification: EventNotification = {
    position: String(event.position),
    id: event.id,
    type: event.type,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    clientId: event.clientId ?? null,
    merchantAccount: event.merchantAccount,
    ...(event.adminOnly ? { adminOnly: true } : {}),
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    createdAt: event.createdAt.toISOString(),
  };
  // A row read without its data, or written with none, carries no snapshot.
  if (typeof event.data.id === 'string') notification.snapshot = event.data;
  return notification;
}

/**
 * The INSERT of one event row (its position and horizon come from the table's trigger). With
 * `onlyIf`, the name of a CTE of the same statement: one row is inserted per row it returns (one).
 */
export function eventInsert(input: AppendEventInput, onlyIf?: string): SqlPart & { written: (position: string) => EventNotification } {
  const { merchantAccount } = input;
  // Without its account an event would be invisible to every back office that sees its subject.
  if (!merchantAccount) throw new Error(`EventLog.append needs the merchant account of ${input.subjectType} ${input.subjectId}`);
  // The trace of the change, for the payment's timeline (docs/timeline.md): a column only while a sampled span runs.
  const traceId = currentTraceId();
  const columns = `insert into payment_event (id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at${traceId ? ', trace_id' : ''})`;
  const values = `?, ?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?${traceId ? ', ?' : ''}`;
  const id = newId('evt');
  const data = JSON.stringify(input.snapshot ?? {});
  const createdAt = new Date();
  return {
    sql: onlyIf ? `${columns} select ${values} from ${onlyIf}` : `${columns} values (${values})`,
    params: [id, input.subjectType, input.subjectId, input.clientId, merchantAccount, input.adminOnly ?? false, input.type, input.fromStatus, input.toStatus, data, createdAt, ...(traceId ? [traceId] : [])],
    // The row as the log holds it once the trigger has drawn its position: what a read of it gives.
    written: (position) =>
      toEventNotification({
        position,
        id,
        type: input.type,
        subjectType: input.subjectType,
        subjectId: input.subjectId,
        clientId: input.clientId,
        merchantAccount,
        adminOnly: input.adminOnly ?? false,
        fromStatus: input.fromStatus,
        toStatus: input.toStatus,
        createdAt,
        data: JSON.parse(data) as Record<string, unknown>,
      }),
  };
}

/** The column of `appendWith`'s rows that carries its event's position (removed before they are returned). */
export const APPENDED_POSITION = 'appended_event_position';
