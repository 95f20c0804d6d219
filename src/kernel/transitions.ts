// The one path by which a subject's status changes. Each subject kind (deposit, refund, payout,
// withdrawal) registers how it is locked, what refuses a change, how a change is written, its
// snapshot, its owner and the follow-up jobs a change schedules; webhooks, reconciliation, the
// card-form return and refusals at submission all apply changes through `TransitionPath.apply`,
// which writes the change, its event and its reaction jobs in the caller's transaction. A kind's
// other writes (its creation, a change of other columns, an event alone) go through the path too:
// `create`, `record` and `note` (subject-writes.ts), so the kernel writes every event of a subject.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { StateMachine } from '../lib/state-machine.js';
import type { EventLog, SqlPart } from './events/event-log.js';
import { renderUpdate, type RowCondition, type RowUpdate, type RowWrite } from './sql-intents.js';
import { createSubject, noteSubject, recordChange, type CreateInput, type NoteInput, type RecordInput, type RecordResult, type SubjectRows } from './subject-writes.js';
import type { JobKind, JobKinds, JobQueue, JobSubject } from './jobs.js';

/** What every report about a subject carries: the status in gateway terms and the provider's word. */
export interface ReportedChange<S extends string> {
  status: S;
  /** The provider's raw status word. */
  providerStatus: string;
}

/** A change being applied to one locked row. */
export interface Transition<Row, S extends string, C extends ReportedChange<S>> {
  tx: SqlEntityManager;
  /** The row as read under its lock, before the change. */
  row: Row;
  change: C;
  from: S;
  /** Who reports the change, for the record (e.g. `webhook:<provider>/<account>`, `reconciler`). */
  source: string;
}

/** A change that was written: `next` is the row as it now stands. */
export interface AppliedTransition<Row, S extends string, C extends ReportedChange<S>> extends Transition<Row, S, C> {
  next: Row;
}

/** A follow-up job a change schedules, written by the change's own statement. */
export interface Reaction<K extends JobKind = JobKind> {
  kind: K;
  payload: JobKinds[K];
  /** While a job of this kind and key waits, another is not added (one pending job per subject). */
  dedupeKey?: string;
  /** Added only when these conditions hold when the change is written (e.g. deliveries wait for it). */
  onlyIf?: readonly RowCondition[];
}

/**
 * How a change is written, the same way for every kind: `next` is the row as it will stand (its
 * event's snapshot), `update` the columns of the kind's row to set, which the path writes as one
 * UPDATE run together with the event and the reaction jobs as one statement; `merge` turns its
 * returned row into the kind's row (a managed entity refreshed from it, so nothing is left dirty
 * for a later flush); without it, `next` stands.
 */
export interface TransitionWrite<Row> {
  next: Row;
  update: RowUpdate;
  merge?: (returned: Record<string, unknown>) => Row;
}

/** One kind of subject, as its module registers it. */
export interface SubjectKind<Row, S extends string, C extends ReportedChange<S>> {
  /** The event log's subject type: `deposit`, `refund`, ... */
  readonly type: string;
  /** The table of the kind's rows (keyed by `id`), which a change's `update` writes. */
  readonly table: string;
  readonly machine: StateMachine<S>;
  /** The event type of a status change, e.g. `deposit.status_changed`. */
  readonly changedEvent: string;
  /**
   * A report of a status the subject has already moved past is old news (`stale`), not an
   * anomaly: for subjects whose provider's deliveries overtake each other and whose earlier steps
   * are harmless (a withdrawal's `processed` after its `succeeded`).
   */
  readonly pastStatusIsStale?: boolean;
  /**
   * Reads the subject with its row lock in the caller's transaction (and first whatever must be
   * locked before it, always in the same order). Undefined when there is no such subject.
   */
  lock(tx: SqlEntityManager, id: string): Promise<Row | undefined>;
  statusOf(row: Row): S;
  idOf(row: Row): string;
  /** Who may see the subject, as the visibility policy reads it. */
  owner(row: Row): { clientId: string | null; merchantAccount: string };
  /** The subject as clients may read it after a change, in JSON form (the event row's `data`). */
  snapshot(row: Row): object;
  /**
   * Refusals of any report, decided before the state machine (a report for other money can never
   * move the subject, whatever its status): an anomaly reason, or undefined.
   */
  check?(transition: Transition<Row, S, C>): string | undefined;
  /**
   * Refusals of a report that would change the status, decided before the state machine's own
   * refusal (a deposit's REFUNDED that no refund row explains) or after it (`afterMachine`: a
   * provider reference another subject holds, which costs a query).
   */
  checkMove?(transition: Transition<Row, S, C>, phase: 'beforeMachine' | 'afterMachine'): string | undefined | Promise<string | undefined>;
  /** What a report records even when it changes no status (a deposit's payment reference). */
  recordUnchanged?(transition: Transition<Row, S, C>): Promise<void>;
  write(transition: Transition<Row, S, C>): TransitionWrite<Row> | Promise<TransitionWrite<Row>>;
  /** The follow-up jobs a written change schedules, committed with it. */
  reactions?(applied: AppliedTransition<Row, S, C>): Reaction[];
  /**
   * Further changes the written one entails, in the same transaction (a refund's deposit
   * position), applied through `path` when they change another subject's status.
   */
  entails?(applied: AppliedTransition<Row, S, C>, path: TransitionPath): Promise<void>;
}

export interface ApplyInput<Row, C> {
  id: string;
  /** The subject, already read with its row lock in this transaction: it is not read again. */
  locked?: Row;
  change: C;
  source: string;
  /**
   * Rows the change's own statement also writes, only when the status changes: the webhook
   * inbox's delivery outcome (`InboxContext.outcome`), which a handler passes on as it got it.
   */
  alongside?: readonly RowWrite[];
}

/**
 * - `applied`: the status changed; one event row (and the reaction jobs) written with it.
 * - `noop`: the subject already has that status; nothing changed.
 * - `stale`: the report is of a status the subject has moved past; nothing changed.
 * - `anomaly`: refused with `reason` (an impossible transition, a mismatched amount); nothing changed.
 * - `not_found`: no subject with that id.
 */
export interface TransitionResult<Row> {
  outcome: 'applied' | 'noop' | 'stale' | 'anomaly' | 'not_found';
  reason?: string;
  /** The row: after the change when applied, as read otherwise; absent when not found. */
  row?: Row;
  /** `applied` with a change statement: the row it returned. */
  returned?: Record<string, unknown>;
}

// Kinds of any row, status and change live together in one registry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyKind = SubjectKind<any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRows = SubjectRows<any>;

export class TransitionPath {
  private readonly kinds = new Map<string, AnyKind>();
  /** Subjects with events whose state no provider reports (`registerRows`). */
  private readonly rows = new Map<string, AnyRows>();

  constructor(
    /** The event log every change appends to; also for the events a module records beside its changes (a creation). */
    readonly events: EventLog,
    private readonly jobs: JobQueue,
    /** Every subject kind (`register`), as the modules declare them. */
    kinds: readonly AnyKind[] = [],
    /** Every subject that has events but no status changes to apply (`registerRows`). */
    rows: readonly AnyRows[] = [],
  ) {
    for (const kind of kinds) this.register(kind);
    for (const kind of rows) this.registerRows(kind);
  }

  /** Registers a subject kind; its state machine is checked now, so a bad table never serves traffic. */
  register<Row, S extends string, C extends ReportedChange<S>>(kind: SubjectKind<Row, S, C>): SubjectKind<Row, S, C> {
    if (this.kinds.has(kind.type) || this.rows.has(kind.type)) throw new Error(`Subject kind ${kind.type} is registered twice`);
    kind.machine.assertConsistent();
    this.kinds.set(kind.type, kind);
    return kind;
  }

  /**
   * Registers a subject whose events the path writes (`create`, `record`, `note`) but whose state
   * no provider reports, so `apply` never changes it: a notification endpoint, which turns failing
   * by the gateway's own count of failed deliveries.
   */
  registerRows<Row>(kind: SubjectRows<Row>): SubjectRows<Row> {
    if (this.kinds.has(kind.type) || this.rows.has(kind.type)) throw new Error(`Subject kind ${kind.type} is registered twice`);
    this.rows.set(kind.type, kind);
    return kind;
  }

  /** The subject types of the registered kinds whose status changes apply (`register`). */
  types(): string[] {
    return [...this.kinds.keys()];
  }

  /**
   * Applies a reported status to one subject inside the caller's transaction, which commits the
   * change, its event, its reaction jobs and the caller's own records together (DESIGN.md
   * "Durable before acknowledged"). The row is locked first, so concurrent reports about one
   * subject serialize and each sees the status the previous one committed.
   */
  async apply<Row, S extends string, C extends ReportedChange<S>>(
    tx: SqlEntityManager,
    kind: SubjectKind<Row, S, C>,
    input: ApplyInput<Row, C>,
  ): Promise<TransitionResult<Row>> {
    if (!tx.isInTransaction()) throw new Error(`A ${kind.type} change must run inside a transaction: its row lock lasts until commit`);
    if (this.kinds.get(kind.type) !== kind) throw new Error(`Subject kind ${kind.type} is not registered`);
    const row = input.locked ?? (await kind.lock(tx, input.id));
    if (!row) return { outcome: 'not_found', reason: `${kind.type.toUpperCase()}_NOT_FOUND: no ${kind.type} ${input.id}` };
    const from = kind.statusOf(row);
    const transition: Transition<Row, S, C> = { tx, row, change: input.change, from, source: input.source };
    const unchanged = async (outcome: 'noop' | 'stale' | 'anomaly', reason?: string): Promise<TransitionResult<Row>> => {
      await kind.recordUnchanged?.(transition);
      return { outcome, row, ...(reason !== undefined ? { reason } : {}) };
    };

    const refused = kind.check?.(transition);
    if (refused) return unchanged('anomaly', refused);
    const decision = kind.machine.decide(from, input.change.status);
    if (decision.kind === 'noop') return unchanged('noop');
    const early = await kind.checkMove?.(transition, 'beforeMachine');
    if (early) return unchanged('anomaly', early);
    if (decision.kind === 'anomaly') {
      // An earlier step arriving after a later one (deliveries overtake each other) is old news.
      if (kind.pastStatusIsStale && kind.machine.canTransition(input.change.status, from)) return unchanged('stale', `STALE_STATUS: ${kind.type} is already ${from}, past ${input.change.status}`);
      return unchanged('anomaly', `TRANSITION_NOT_ALLOWED: ${decision.reason}`);
    }
    const late = await kind.checkMove?.(transition, 'afterMachine');
    if (late) return unchanged('anomaly', late);

    const write = await kind.write(transition);
    const event = {
      subjectType: kind.type,
      subjectId: kind.idOf(row),
      ...kind.owner(write.next),
      type: kind.changedEvent,
      fromStatus: from,
      toStatus: input.change.status,
      snapshot: kind.snapshot(write.next),
    };
    const applied: AppliedTransition<Row, S, C> = { ...transition, next: write.next };
    // A reaction is follow-up work about the subject that changed: its timeline shows it.
    const subject = { type: kind.type, id: kind.idOf(row) };
    const jobs = (kind.reactions?.(applied) ?? []).map((reaction) => this.reactionStatement(tx, reaction, subject));
    const alongside = (input.alongside ?? []).map((written) => renderUpdate(written.table, written.id, { set: written.set }));
    const rows = await this.events.appendWith<Record<string, unknown>>(tx, renderUpdate(kind.table, kind.idOf(row), write.update), event, {
      statements: [...jobs, ...alongside],
    });
    const returned = rows[0];
    if (!returned) throw new Error(`${kind.type} ${kind.idOf(row)} vanished under its row lock`);
    const next = write.merge ? write.merge({ ...returned }) : write.next;
    await kind.entails?.({ ...applied, next }, this);
    return { outcome: 'applied', row: next, returned };
  }

  /**
   * Creates a subject of a registered kind: the row `input.insert` (into the kind's table) and its
   * creation event `input.event`, one statement, which commits on its own outside a transaction.
   * Returns the inserted row's `insert.returning` columns; with `insert.ifAbsent` (a unique key),
   * undefined when a row with that key was there already (then no event is written either).
   *
   * @example
   * await path.create(em, depositTransitions, { event: 'deposit.created', row: created, insert: { values: { id, status: 'PENDING', ... }, returning: ['id'] } });
   */
  create<Row>(em: SqlEntityManager, kind: SubjectRows<Row>, input: CreateInput<Row>): Promise<Record<string, unknown> | undefined> {
    this.assertRegistered(kind);
    return createSubject(this.events, em, kind, input);
  }

  /**
   * Records a change of a registered subject that is not a status change (a deposit's details, a
   * refund's position, a note for admins that also sets a column): the kind's row update and its
   * event `input.event` (from the row's status, or none with `creation`, to `next`'s, with `next`'s
   * snapshot), one statement.
   * With `update.ifVersion`, it writes only the row as read at that version and reports
   * `written: false` otherwise (nothing written): read again and retry, or take the row lock.
   * With `completes`, the running job's success is written by the same statement, only if the update
   * matched (`completed`). Runs in the caller's transaction, or alone outside one.
   *
   * @example
   * const { written, completed } = await path.record(em, depositTransitions, {
   *   event: 'deposit.details_updated', row: read, next, completes: job,
   *   update: { set: { fee: next.fee, updated_at: now }, returning: { columns: ['id'] }, ifVersion: version },
   * });
   */
  record<Row>(em: SqlEntityManager, kind: SubjectRows<Row>, input: RecordInput<Row>): Promise<RecordResult> {
    this.assertRegistered(kind);
    return recordChange(this.events, em, kind, input);
  }

  /**
   * Appends an event about a registered subject that this statement changes nothing in: an anomaly
   * raised for admins (`adminOnly`), or the event of a change the caller's transaction already
   * wrote (a flushed entity). With `once`, at most one event of the type per subject, decided by
   * the same statement. Returns whether the event was written.
   */
  note<Row>(tx: SqlEntityManager, kind: SubjectRows<Row>, input: NoteInput<Row>): Promise<boolean> {
    this.assertRegistered(kind);
    if (!input.once && !tx.isInTransaction()) throw new Error(`A ${kind.type} event must be appended in the transaction of what it records`);
    return noteSubject(this.events, tx, kind, input);
  }

  private assertRegistered(kind: SubjectRows<never>): void {
    if ((this.kinds.get(kind.type) ?? this.rows.get(kind.type)) !== (kind as unknown)) throw new Error(`Subject kind ${kind.type} is not registered`);
  }

  private reactionStatement(tx: SqlEntityManager, reaction: Reaction, subject: JobSubject): SqlPart {
    return this.jobs.enqueueStatement(tx, reaction.kind, reaction.payload, {
      subject,
      ...(reaction.dedupeKey !== undefined ? { dedupeKey: reaction.dedupeKey } : {}),
      ...(reaction.onlyIf ? { onlyIf: reaction.onlyIf } : {}),
    });
  }
}
