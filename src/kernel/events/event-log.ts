// The payment event log: appends one ordered row per applied change inside the caller's
// transaction (one statement, no lock, no NOTIFY), and reads back its final part. Kernel
// infrastructure: it stores and serves each subject's snapshot as the owning module made it, and
// knows no subject kind.

import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { onCommitted, signalCommitted, signalOnCommit } from '../../db/commit-signals.js';
import { executePrepared } from '../../db/prepared.js';
import { isoDateRows, placeholders } from '../../db/plain-rows.js';
import { backoffDelayMs, type Backoff } from '../../lib/backoff.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { WithIsoDates } from '../../lib/iso-time.js';
import { visibleEventsWhere, type Viewer } from '../visibility.js';
import { newId } from '../../lib/ids.js';
import { currentTraceId } from '../../lib/tracing/trace-context.js';
import { PaymentEvent, type PaymentSubjectType } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, type EventNotification } from './event-notification.js';

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

export interface EventPageInput {
  /** A position (decimal string) from an earlier page; events strictly after it are returned. */
  after?: string;
  limit: number;
  /** Only the events this client may see (src/kernel/visibility.ts); undefined reads them all. */
  viewer?: Viewer;
}

/**
 * The highest position up to which the log is final for the reading statement's snapshot: nothing
 * can commit at or below it any more, so a cursor moved up to it never skips an event.
 *
 * Positions are drawn by the insert trigger (migration 20261123140000) after the writing
 * transaction has its id. A mark (position, horizon) is written after a commit: it reads the
 * highest position drawn so far, then takes a new transaction id as its horizon, so every
 * transaction holding a position up to the mark's has an id below the horizon. When the snapshot
 * sees none of this database's transactions with an id below the horizon running, all of them have
 * ended: committed (and visible to this snapshot) or rolled back for good. Without a lock,
 * positions do not appear in commit order: a higher position can commit first, and it stays
 * unread until the lower ones have ended.
 *
 * Transactions of other databases on the same server are left out (migration 20261127113000,
 * `payment_event_final_position()`): they cannot hold a position, and a long one (a migration, a
 * batch job) would otherwise hold every reader back for as long as it runs. What it reads of other
 * sessions (pg_stat_activity's `datid` and `backend_xid`) PostgreSQL shows every role, so a plain
 * role needs no privilege for it; and a transaction it cannot place counts as this database's,
 * holding readers back, never letting them skip. A scalar subquery, so a statement computes it once.
 */
export const FINAL_POSITION_SQL = '(select payment_event_final_position())';

/**
 * Writes a mark (see FINAL_POSITION_SQL) when the log holds a position no mark covers yet; in
 * autocommit, never inside a money transaction. A CTE body.
 */
export const MARK_SQL = `insert into payment_event_horizon (position, horizon)
  select (m).mark_position, (m).mark_horizon from (
    select payment_event_mark() as m
    where (select max(position) from payment_event) > coalesce((select max(position) from payment_event_horizon), 0)
  ) pending`;

/** Columns of an event row as the entity maps them (the writer's transaction id stays in SQL). */
export const EVENT_COLUMNS = 'position, id, subject_type, subject_id, client_id, merchant_account, admin_only, type, from_status, to_status, data, created_at';

/** What reads of the log that skip the entity select, besides the subject snapshot (`data`). */
const PAYMENT_EVENT_RECORD_PROPERTIES = [
  'position', 'id', 'type', 'subjectType', 'subjectId', 'clientId', 'merchantAccount', 'adminOnly', 'fromStatus', 'toStatus', 'createdAt',
] as const satisfies ReadonlyArray<keyof PaymentEvent>;
const PAYMENT_EVENT_RECORD_WITH_DATA: readonly string[] = [...PAYMENT_EVENT_RECORD_PROPERTIES, 'data'];

/**
 * An event row as read without an entity, its time as ISO text (a PaymentEvent satisfies it too);
 * `data`, the subject snapshot, only when it was asked for.
 */
export type PaymentEventRecord = WithIsoDates<Pick<PaymentEvent, (typeof PAYMENT_EVENT_RECORD_PROPERTIES)[number]>> & Partial<Pick<PaymentEvent, 'data'>>;

/**
 * How far readers are held back: committed events above the final position wait for older
 * transactions of this database to end (FINAL_POSITION_SQL). Both 0 when every committed event is
 * final.
 */
export interface EventLogLag {
  /** Positions between the final position and the newest committed event. */
  unfinalPositions: number;
  /** How long the oldest committed event that is not final yet has waited, since it was written. */
  unfinalSeconds: number;
}

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

const POSITION = /^(0|[1-9][0-9]{0,18})$/;
/** Longest wait of a short page for committed events that are not final yet. */
const SETTLE_WAIT_MS = 2_000;
/** Its pauses between reads: 1 ms, doubling, 50 ms at most. */
const FINAL_WAIT_BACKOFF: Backoff = { baseMs: 1, maxMs: 50 };

/**
 * How far back a subscription may resume (`after:` on `depositUpdated`, ...) by default: a cursor
 * whose event is older than this on the gateway's clock is refused as expired, and the client
 * reloads what it shows with a query. The log itself keeps every event (`events(after:)` reads any
 * cursor); the window bounds what one reconnecting socket may ask to be replayed. A gateway sets
 * its own with `SUBSCRIPTION_RESUME_WINDOW_MS`.
 */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether a subscription may resume after a position: `unknown` when no event of the log is there. */
export type ResumePoint = 'ok' | 'unknown' | 'expired';

/** What became of a subscription's `after`: replayed from, or refused as past the window or as no cursor of the log. */
export type ResumeOutcome = 'replayed' | 'expired' | 'invalid';

/** Hears of every resumed subscription (the metrics): its cursor's fate, and the events replayed to it. */
export interface ResumeObserver {
  resumed(outcome: ResumeOutcome): void;
  replayed(events: number): void;
}

/** What a resuming subscription replays: the events of one kind of subject (of one subject, with `subjectId`) the viewer may see. */
export interface ReplayPageInput {
  after: string;
  viewer: Viewer;
  subjectType: PaymentSubjectType;
  subjectId?: string | undefined;
  limit: number;
}

export interface ReplayPage {
  /** The page's events, oldest first, as notifications (the live path's shape). */
  events: EventNotification[];
  /**
   * Every matching event at or below this position is in this page or an earlier one: the last
   * event's position when the page is full, else the log's final position when it was read.
   */
  through: string;
  full: boolean;
}

export class EventLog {
  private readonly hooks: readonly AppendHook[];
  private committedListener: CommittedListener | undefined;
  private readonly resumeObserver: ResumeObserver | undefined;

  /**
   * @param clock measures the age of a resumed subscription's cursor.
   * @param resumeWindowMs how recent that cursor's event must be (default `RESUME_WINDOW_MS`).
   * @param observers `append`: what every append also writes, in its own statement (a module's
   *   `AppendHook`); `resumes`: told of every subscription's resume (metrics).
   */
  constructor(
    private readonly clock: Clock = systemClock,
    readonly resumeWindowMs: number = RESUME_WINDOW_MS,
    observers: { append?: readonly AppendHook[]; resumes?: ResumeObserver } = {},
  ) {
    this.hooks = observers.append ?? [];
    this.resumeObserver = observers.resumes;
  }

  /**
   * Tells `listener` of each event this process appends once its transaction has committed, in
   * append order and before the commit's wake-ups (the event bus: src/kernel/events/event-bus.ts).
   */
  onCommitted(listener: CommittedListener): void {
    this.committedListener = listener;
  }

  /** A subscription's `after` was replayed from or refused. */
  noteResume(outcome: ResumeOutcome): void {
    this.resumeObserver?.resumed(outcome);
  }

  /** A resuming subscription was sent `count` events it had missed. */
  noteReplayed(count: number): void {
    this.resumeObserver?.replayed(count);
  }

  /** The event at `position` to the committed-events listener once the transaction of `em` commits. */
  private whenCommitted(em: SqlEntityManager, position: string, event: () => EventNotification): void {
    const listener = this.committedListener;
    if (listener) onCommitted(em, () => listener(position, event));
  }

  /**
   * Appends an event row in the caller's open transaction, in one statement: the row commits with
   * the change it records. No lock is taken and nothing is sent from the transaction; its commit
   * wakes this instance's event bus and, through the relay, the other instances' (the bus reads
   * the row from the log). Call it after the subject's own changes are flushed.
   */
  async append(em: SqlEntityManager, input: AppendEventInput): Promise<PaymentEvent> {
    if (!em.isInTransaction()) throw new Error('EventLog.append must run inside the transaction of the change it records');
    const insert = eventInsert(input);
    const hooks = this.hookParts(undefined);
    const sql = hooks.length === 0
      ? `${insert.sql} returning ${EVENT_COLUMNS}`
      : `with event as (${insert.sql} returning ${EVENT_COLUMNS})${hooks.map((hook) => `, ${hook.name} as (${hook.sql})`).join('')} select event.*, ${hooks.map((hook) => `exists (select from ${hook.name}) as ${hook.name}`).join(', ')} from event`;
    const rows = await em.execute<Array<Record<string, unknown>>>(sql, [...insert.params, ...hooks.flatMap((hook) => hook.params)]);
    signalOnCommit(em, PAYMENT_EVENTS_CHANNEL);
    const row = rows[0]!;
    for (const hook of hooks) {
      if (row[hook.name] === true) signalOnCommit(em, hook.channel);
      delete row[hook.name];
    }
    const event = em.map(PaymentEvent, row);
    this.whenCommitted(em, String(event.position), () => toEventNotification(event));
    return event;
  }

  /**
   * Makes a change and appends its event in one statement (the change as a data-modifying CTE
   * named `change`), and returns the change's `returning` rows. In the caller's open transaction,
   * or outside one when that statement is all the caller writes: one statement commits
   * atomically on its own, which saves a transaction's BEGIN and COMMIT. The event describes the
   * subject after the change, so the caller computes it beforehand; it is written only when the
   * change returns a row, so a change that found nothing leaves no event.
   */
  async appendWith<T extends object>(em: SqlEntityManager, change: SqlPart, input: AppendEventInput, also: AppendAlongside = {}): Promise<T[]> {
    const insert = eventInsert(input, 'change');
    const statements = also.statements ?? [];
    const hooks = this.hookParts(CHANGE_MATCHED);
    const ctes = [...statements.map((statement, i) => `, alongside_${i} as (${statement.sql})`), ...hooks.map((hook) => `, ${hook.name} as (${hook.sql})`)].join('');
    const columns = [...(also.select ? [also.select.sql] : []), ...hooks.map((hook) => `exists (select from ${hook.name}) as ${hook.name}`)];
    // The event's position, drawn by the insert's trigger: the rest of its row is the insert's own values.
    columns.push(`(select position::text from event limit 1) as ${APPENDED_POSITION}`);
    const select = `select change.*, ${columns.join(', ')} from change`;
    // Prepared (src/db/prepared.ts): it runs after nearly every webhook and job, and planning it
    // cost the database more than running it.
    const rows = await executePrepared<T & Record<string, unknown>>(em, `with change as (${change.sql}), event as (${insert.sql} returning position)${ctes} ${select}`, [
      ...change.params,
      ...insert.params,
      ...statements.flatMap((statement) => statement.params),
      ...hooks.flatMap((hook) => hook.params),
      ...(also.select?.params ?? []),
    ]);
    if (rows.length > 0) {
      // One row changed, one event written, its row known whole (a change of several rows would
      // write one each: those are read from the log).
      const position = rows.length === 1 ? rows[0]![APPENDED_POSITION] : undefined;
      if (typeof position === 'string') this.whenCommitted(em, position, () => insert.written(position));
      const signal = em.isInTransaction() ? (channel: string) => signalOnCommit(em, channel) : (channel: string) => signalCommitted(em, channel);
      signal(PAYMENT_EVENTS_CHANNEL);
      for (const hook of hooks) if (rows.some((row) => row[hook.name] === true)) signal(hook.channel);
    }
    for (const row of rows) {
      for (const hook of hooks) delete row[hook.name];
      delete row[APPENDED_POSITION];
    }
    return rows;
  }

  /** Each hook's statement as a CTE named `append_hook_<i>`. */
  private hookParts(requires: string | undefined): Array<SqlPart & { name: string; channel: string }> {
    return this.hooks.map((hook, i) => ({ ...hook.statement(requires), name: `append_hook_${i}`, channel: hook.channel }));
  }

  /**
   * Events strictly after `after` that the viewer may see, oldest first, from the final part of
   * the log only (FINAL_POSITION_SQL): a client paging with the last position it got never misses
   * an event that commits later. A page that comes back short while committed events are not final
   * yet waits for them a little (the transactions running alongside them usually end within
   * milliseconds), so an event committed before the request is normally in its answer.
   */
  page(em: SqlEntityManager, input: EventPageInput): Promise<PaymentEvent[]> {
    if (input.after !== undefined && !POSITION.test(input.after)) throw new RangeError(`Not an event position: ${JSON.stringify(input.after)}`);
    return this.finalPage(em, input);
  }

  private async finalPage(em: SqlEntityManager, input: EventPageInput): Promise<PaymentEvent[]> {
    const where = [
      ...(input.after !== undefined ? [{ position: { $gt: input.after } }] : []),
      ...(input.viewer ? [visibleEventsWhere(input.viewer)] : []),
    ];
    const deadline = Date.now() + SETTLE_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      const events = await em.find(PaymentEvent, { $and: [{ position: { $lte: raw(FINAL_POSITION_SQL) } }, ...where] }, { orderBy: { position: 'asc' }, limit: input.limit });
      if (events.length >= input.limit || Date.now() >= deadline) return events;
      if (await this.isFinal(em)) return events;
      await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(attempt + 1, FINAL_WAIT_BACKOFF)));
    }
  }

  /**
   * Whether a subscription may resume after `position`: a committed event of the log must be
   * there, written within the resume window. It need not be final yet: a live message goes out as
   * soon as its own instance commits it right after the last one published (src/kernel/events/
   * event-bus.ts), before a mark makes it final, and a client may reconnect with its cursor at
   * once. Everything below such a cursor was published before it; the replay starts above it and
   * waits for what is not final yet (src/kernel/events/resume.ts).
   */
  async resumePoint(em: SqlEntityManager, position: string): Promise<ResumePoint> {
    if (!POSITION.test(position)) return 'unknown';
    const [row] = await em.execute<Array<{ created_at: Date | string }>>('select created_at from payment_event where position = ?', [position]);
    if (!row) return 'unknown';
    return this.clock.now().getTime() - new Date(row.created_at).getTime() > this.resumeWindowMs ? 'expired' : 'ok';
  }

  /**
   * One page of what a resuming subscription replays: the final events after `after` of its
   * subjects that the viewer may see (the same SQL filter as `events(after:)`), oldest first. The
   * final position is read first, then the events up to it: all of them have committed by then,
   * so any later statement sees every one.
   */
  async replayPage(em: SqlEntityManager, input: ReplayPageInput): Promise<ReplayPage> {
    if (!POSITION.test(input.after)) throw new RangeError(`Not an event position: ${JSON.stringify(input.after)}`);
    const [bound] = await em.execute<Array<{ final_position: string | null }>>(`select ${FINAL_POSITION_SQL}::text as final_position`);
    const finalPosition = bound?.final_position ?? '0';
    if (BigInt(finalPosition) <= BigInt(input.after)) return { events: [], through: input.after, full: false };
    const rows = await em.find(
      PaymentEvent,
      {
        $and: [
          { position: { $gt: input.after, $lte: finalPosition } },
          { subjectType: input.subjectType, ...(input.subjectId !== undefined ? { subjectId: input.subjectId } : {}) },
          visibleEventsWhere(input.viewer),
        ],
      },
      { orderBy: { position: 'asc' }, limit: input.limit },
    );
    const full = rows.length >= input.limit;
    return { events: rows.map((row) => toEventNotification(row)), through: full ? String(rows.at(-1)!.position) : finalPosition, full };
  }

  /**
   * Whether every committed event is final for a statement run now (FINAL_POSITION_SQL has reached
   * the newest position); an empty log is.
   */
  async isFinal(em: SqlEntityManager): Promise<boolean> {
    const [state] = await em.execute<Array<{ final: boolean }>>(`select coalesce(${FINAL_POSITION_SQL} >= (select max(position) from payment_event), true) as final`);
    return state?.final !== false;
  }

  /**
   * The log's lag now (metrics and readiness): a few index lookups, no lock. The age is read from the
   * event's `created_at`, which the writing instance set, so it is measured on the gateways' clocks.
   */
  async lag(em: SqlEntityManager, now: Date = new Date()): Promise<EventLogLag> {
    const [row] = await em.execute<Array<{ unfinal_positions: string; oldest: Date | string | null }>>(
      `with bound as (select coalesce(${FINAL_POSITION_SQL}, 0) as final_position)
       select greatest((select coalesce(max(position), 0) from payment_event) - bound.final_position, 0)::text as unfinal_positions,
              (select created_at from payment_event where position > bound.final_position order by position limit 1) as oldest
       from bound`,
    );
    const unfinalPositions = Number(row?.unfinal_positions ?? 0);
    const oldest = unfinalPositions > 0 && row?.oldest != null ? new Date(row.oldest) : undefined;
    return { unfinalPositions, unfinalSeconds: oldest ? Math.max(0, now.getTime() - oldest.getTime()) / 1000 : 0 };
  }

  /**
   * Every event of each subject, oldest first, in one query (for a per-request DataLoader): plain
   * rows, times as ISO text, no entity made or tracked. The subject snapshots (`data`) are read only with `snapshots`.
   */
  async forSubjects(
    em: SqlEntityManager,
    subjectType: PaymentSubjectType,
    subjectIds: readonly string[],
    options: { snapshots: boolean } = { snapshots: true },
  ): Promise<Map<string, PaymentEventRecord[]>> {
    const grouped = new Map<string, PaymentEventRecord[]>(subjectIds.map((id) => [id, []]));
    if (subjectIds.length === 0) return grouped;
    const ids = [...new Set(subjectIds)];
    const rows = await isoDateRows<PaymentEventRecord>(
      em,
      PaymentEvent,
      options.snapshots ? PAYMENT_EVENT_RECORD_WITH_DATA : PAYMENT_EVENT_RECORD_PROPERTIES,
      `from payment_event where subject_type = ? and subject_id in (${placeholders(ids.length)}) order by position asc`,
      [subjectType, ...ids],
    );
    for (const row of rows) grouped.get(row.subjectId)?.push(row);
    return grouped;
  }
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
function eventInsert(input: AppendEventInput, onlyIf?: string): SqlPart & { written: (position: string) => EventNotification } {
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
const APPENDED_POSITION = 'appended_event_position';
