// The payment event log: appends one ordered row per applied change inside the caller's
// transaction (one statement, no lock, no NOTIFY), and reads back its final part. Kernel
// infrastructure: it stores and serves each subject's snapshot as the owning module made it, and
// knows no subject kind.
//
// Its parts: what an append writes (event-append.ts), where the log is final (event-finality.ts),
// and the vocabulary of resuming subscriptions (resume-points.ts); this file runs them and is the
// face the rest of the gateway imports them from.

import { raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { onCommitted, signalCommitted, signalOnCommit } from '../../db/commit-signals.js';
import { executePrepared } from '../../db/prepared.js';
import { isoDateRows, placeholders } from '../../db/plain-rows.js';
import { backoffDelayMs, type Backoff } from '../../lib/backoff.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { WithIsoDates } from '../../lib/iso-time.js';
import { visibleEventsWhere, type Viewer } from '../visibility.js';
import { PaymentEvent, type PaymentSubjectType } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, type EventNotification } from './event-notification.js';
import {
  APPENDED_POSITION,
  CHANGE_MATCHED,
  EVENT_COLUMNS,
  eventInsert,
  toEventNotification,
  type AppendAlongside,
  type AppendEventInput,
  type AppendHook,
  type CommittedListener,
  type SqlPart,
} from './event-append.js';
import { FINAL_POSITION_SQL, type EventLogLag } from './event-finality.js';
import { RESUME_WINDOW_MS, type ReplayPage, type ReplayPageInput, type ResumeObserver, type ResumeOutcome, type ResumePoint } from './resume-points.js';

export {
  allMatched,
  alongsideMatched,
  CHANGE_MATCHED,
  EVENT_COLUMNS,
  toEventNotification,
  type AppendAlongside,
  type AppendEventInput,
  type AppendHook,
  type CommittedListener,
  type SqlPart,
} from './event-append.js';
export { FINAL_POSITION_SQL, MARK_SQL, type EventLogLag } from './event-finality.js';
export { RESUME_WINDOW_MS, type ReplayPage, type ReplayPageInput, type ResumeObserver, type ResumeOutcome, type ResumePoint } from './resume-points.js';

export interface EventPageInput {
  /** A position (decimal string) from an earlier page; events strictly after it are returned. */
  after?: string;
  limit: number;
  /** Only the events this client may see (src/kernel/visibility.ts); undefined reads them all. */
  viewer?: Viewer;
}

/** What reads of the log that skip the entity select, besides the subject snapshot (`data`). */
const PAYMENT_EVENT_RECORD_PROPERTIES = [
  'position', 'id', 'type', 'subjectType', 'subjectId', 'clientId', 'merchantAccount', 'adminOnly', 'fromStatus', 'toStatus', 'createdAt',
] as const satisfies ReadonlyArray<keyof PaymentEvent>;
/**
 * What a subject's own list of events reads: the record without its position (such a list is
 * ordered by it, never paged by it) and without its subject type (the one asked for). A page of 50
 * deposits has about 275 events: two columns fewer is 550 values fewer to decode.
 */
const SUBJECT_EVENT_PROPERTIES = PAYMENT_EVENT_RECORD_PROPERTIES.filter((property) => property !== 'position' && property !== 'subjectType');
/** The facts the visibility policy reads on an event (src/kernel/visibility.ts, `VisibilityFacts`). */
const VISIBILITY_FACTS: readonly string[] = ['clientId', 'merchantAccount', 'adminOnly'];
const SUBJECT_EVENT_WITHOUT_FACTS = SUBJECT_EVENT_PROPERTIES.filter((property) => !VISIBILITY_FACTS.includes(property));
/** The select lists of `forSubjects`, by whether it reads the snapshots and the facts; each list is one object, as `isoDateRows` keeps its reads by list. */
const SUBJECT_EVENT_LISTS = {
  facts: SUBJECT_EVENT_PROPERTIES,
  factsAndData: [...SUBJECT_EVENT_PROPERTIES, 'data'],
  neither: SUBJECT_EVENT_WITHOUT_FACTS,
  data: [...SUBJECT_EVENT_WITHOUT_FACTS, 'data'],
} satisfies Record<string, readonly string[]>;

/**
 * An event row as read without an entity, its time as ISO text (a PaymentEvent satisfies it too);
 * `data`, the subject snapshot, only when it was asked for.
 */
export type PaymentEventRecord = WithIsoDates<Pick<PaymentEvent, (typeof PAYMENT_EVENT_RECORD_PROPERTIES)[number]>> & Partial<Pick<PaymentEvent, 'data'>>;

/**
 * An event of a subject's own list (`forSubjects`): a record without its log position, and with
 * its visibility facts (owner, account, admin-only) only when they were read. Without them the
 * policy's check refuses the event for every viewer but one who sees every event.
 */
export type SubjectEventRecord = Omit<PaymentEventRecord, 'position' | 'clientId' | 'merchantAccount' | 'adminOnly'> &
  Partial<Pick<PaymentEventRecord, 'clientId' | 'merchantAccount' | 'adminOnly'>>;

const POSITION = /^(0|[1-9][0-9]{0,18})$/;
/** Longest wait of a short page for committed events that are not final yet. */
const SETTLE_WAIT_MS = 2_000;
/** Its pauses between reads: 1 ms, doubling, 50 ms at most. */
const FINAL_WAIT_BACKOFF: Backoff = { baseMs: 1, maxMs: 50 };

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
   * The log's final position for a statement run now (FINAL_POSITION_SQL): every event at or below
   * it is committed or rolled back, so a reader that stops there never skips a later commit; '0'
   * for an empty log. Inside a transaction, read once and used for the rest of it.
   */
  async finalPosition(em: SqlEntityManager): Promise<string> {
    const [bound] = await em.execute<Array<{ final: string }>>(`select coalesce(${FINAL_POSITION_SQL}, 0)::text as final`);
    return bound?.final ?? '0';
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
   * rows, times as ISO text, no entity made or tracked. The subject snapshots (`data`) are read only with `snapshots`;
   * the visibility facts unless `facts` is false (for a viewer who sees every event: `seesEvery`).
   */
  async forSubjects(
    em: SqlEntityManager,
    subjectType: PaymentSubjectType,
    subjectIds: readonly string[],
    options: { snapshots: boolean; facts?: boolean } = { snapshots: true },
  ): Promise<Map<string, SubjectEventRecord[]>> {
    const grouped = new Map<string, SubjectEventRecord[]>(subjectIds.map((id) => [id, []]));
    if (subjectIds.length === 0) return grouped;
    const ids = [...new Set(subjectIds)];
    const rows = await isoDateRows<SubjectEventRecord>(
      em,
      PaymentEvent,
      options.facts === false ? (options.snapshots ? SUBJECT_EVENT_LISTS.data : SUBJECT_EVENT_LISTS.neither) : options.snapshots ? SUBJECT_EVENT_LISTS.factsAndData : SUBJECT_EVENT_LISTS.facts,
      `from payment_event where subject_type = ? and subject_id in (${placeholders(ids.length)}) order by position asc`,
      [subjectType, ...ids],
    );
    for (const row of rows) {
      row.subjectType = subjectType;
      grouped.get(row.subjectId)?.push(row);
    }
    return grouped;
  }
}
