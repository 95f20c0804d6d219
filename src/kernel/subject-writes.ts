// A subject's writes besides its status changes: its creation, a change of its other columns (a
// deposit's fee and net, a refund's position, a note for admins) and an event that changes no
// row. A module states each as data (the row's insert or update, the event's type, the job the
// write completes); the kernel renders the statement and appends the event, so every event of a
// subject is written here or by `TransitionPath.apply`. The path (transitions.ts) runs these for
// the kinds registered with it.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { alongsideMatched, allMatched, CHANGE_MATCHED, type AppendEventInput, type EventLog } from './events/event-log.js';
import type { JobInfo } from './jobs.js';
import { renderInsert, renderUpdate, type RowInsert, type RowUpdate } from './sql-intents.js';

/** What a write besides a status change reads of a subject kind (`SubjectKind` has all of it). */
export interface SubjectRows<Row> {
  readonly type: string;
  readonly table: string;
  idOf(row: Row): string;
  statusOf(row: Row): string;
  owner(row: Row): { clientId: string | null; merchantAccount: string };
  snapshot(row: Row): object;
}

/** A subject's creation: its row and its creation event, one statement (`TransitionPath.create`). */
export interface CreateInput<Row> {
  /** The creation event's type, e.g. `deposit.created`. */
  event: string;
  /** The subject as created: its id, status, owner and the event's snapshot. */
  row: Row;
  /** The row's values, into the kind's table; with `ifAbsent`, a row already there is kept, with no event. */
  insert: RowInsert;
}

/** A change of a subject that is not a status change (`TransitionPath.record`). */
export interface RecordInput<Row> {
  /** The event's type, e.g. `deposit.details_updated`. */
  event: string;
  /** The subject as read before the change: its id and the event's `fromStatus`. */
  row: Row;
  /** The subject as it will stand: the event's owner, `toStatus` and snapshot. */
  next: Row;
  /** The columns of the kind's row to set; `ifVersion` writes only the row as it was read. */
  update: RowUpdate;
  /** Only admins see the event (default false). */
  adminOnly?: boolean;
  /**
   * The event is the subject's creation, from no status: a row recorded before its subject was
   * announced (a refund, once its provider knows it). Default false: from the row's status.
   */
  creation?: boolean;
  /**
   * The running job whose work this change is: its success is recorded by the same statement, only
   * when the update matched its row (so also outside a transaction, where nothing would roll it back).
   */
  completes?: JobInfo;
}

/**
 * - `written`: the update matched its row, and the event was appended with it.
 * - `completed`: the job of `completes` was recorded as succeeded by that statement (the handler
 *   returns `JOB_SUCCEEDED`).
 * - `returned`: the row as the update returned it (`update.returning`), when written.
 */
export interface RecordResult {
  written: boolean;
  completed: boolean;
  returned?: Record<string, unknown>;
}

/** An event about a subject that changes no row in the statement (`TransitionPath.note`). */
export interface NoteInput<Row> {
  /** The event's type, e.g. `deposit.net_mismatch`. */
  event: string;
  /** The subject as it stands: owner, status and the event's snapshot. */
  row: Row;
  /** Only admins see the event (an anomaly raised about the subject; default false). */
  adminOnly?: boolean;
  /** At most one event of this type per subject: none is written when the log has one already. */
  once?: boolean;
}

/** The event of `row`, as the kind declares its owner and snapshot. */
function eventOf<Row>(kind: SubjectRows<Row>, from: Row, next: Row, type: string, adminOnly: boolean | undefined, fromStatus: string | null): AppendEventInput {
  return {
    subjectType: kind.type,
    subjectId: kind.idOf(from),
    ...kind.owner(next),
    ...(adminOnly ? { adminOnly: true } : {}),
    type,
    fromStatus,
    toStatus: kind.statusOf(next),
    snapshot: kind.snapshot(next),
  };
}

/**
 * `TransitionPath.create`: the row's INSERT with its event, one statement (atomic outside a
 * transaction too). Undefined only when `insert.ifAbsent` found the row there already.
 */
export async function createSubject<Row>(events: EventLog, em: SqlEntityManager, kind: SubjectRows<Row>, input: CreateInput<Row>): Promise<Record<string, unknown> | undefined> {
  const rows = await events.appendWith<Record<string, unknown>>(em, renderInsert(kind.table, input.insert), eventOf(kind, input.row, input.row, input.event, false, null));
  if (!rows[0] && !input.insert.ifAbsent) throw new Error(`${kind.type} ${kind.idOf(input.row)} was not recorded`);
  return rows[0];
}

/** `TransitionPath.record`: the row's UPDATE with its event (and the job's completion), one statement. */
export async function recordChange<Row>(events: EventLog, em: SqlEntityManager, kind: SubjectRows<Row>, input: RecordInput<Row>): Promise<RecordResult> {
  // The job's success, and whether it matched, read back as one more column.
  const completion = input.completes ? { statements: [input.completes.succeededStatement(CHANGE_MATCHED)], select: alongsideMatched(1) } : undefined;
  const [returned] = await events.appendWith<Record<string, unknown>>(
    em,
    renderUpdate(kind.table, kind.idOf(input.row), input.update),
    eventOf(kind, input.row, input.next, input.event, input.adminOnly, input.creation ? null : kind.statusOf(input.row)),
    completion ?? {},
  );
  if (!returned) return { written: false, completed: false };
  const row = { ...returned };
  for (const column of completion?.select.columns ?? []) delete row[column];
  return { written: true, completed: completion !== undefined && allMatched(returned, 1), returned: row };
}

/**
 * `TransitionPath.note`: the event alone, in the caller's transaction. With `once`, one statement
 * that writes it only when the log holds no event of its type about the subject.
 */
export async function noteSubject<Row>(events: EventLog, em: SqlEntityManager, kind: SubjectRows<Row>, input: NoteInput<Row>): Promise<boolean> {
  const event = eventOf(kind, input.row, input.row, input.event, input.adminOnly, kind.statusOf(input.row));
  if (!input.once) {
    await events.append(em, event);
    return true;
  }
  const absent = {
    sql: 'select true as noted where not exists (select from payment_event where subject_type = ? and subject_id = ? and type = ?)',
    params: [event.subjectType, event.subjectId, event.type],
  };
  return (await events.appendWith(em, absent, event)).length > 0;
}
