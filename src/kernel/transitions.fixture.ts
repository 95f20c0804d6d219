// A made-up subject kind (a parcel) over a small state machine, and fakes for the transaction, the
// event log and the job queue that record what the transition path asks of them: the fixture of
// the path's unit spec (transitions.spec.ts).

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { defineStateMachine } from '../lib/state-machine.js';
import type { AppendAlongside, AppendEventInput, EventLog, SqlPart } from './events/event-log.js';
import { deferredDeliveriesRelease } from './inbox/deferred.js';
import type { EnqueueOptions, JobKind, JobQueue } from './jobs.js';
import { TransitionPath, type ApplyInput, type ReportedChange, type SubjectKind } from './transitions.js';

export type ParcelStatus = 'NEW' | 'SENT' | 'DELIVERED' | 'LOST';

/** NEW → SENT → DELIVERED | LOST; SENT may be skipped. */
export const parcelMachine = defineStateMachine<ParcelStatus>({
  name: 'parcel',
  initial: 'NEW',
  terminal: ['DELIVERED', 'LOST'],
  table: { NEW: ['SENT', 'DELIVERED', 'LOST'], SENT: ['DELIVERED', 'LOST'], DELIVERED: [], LOST: [] },
});

export interface Parcel {
  id: string;
  status: ParcelStatus;
  weight: number;
  clientId: string | null;
}

export interface ParcelChange extends ReportedChange<ParcelStatus> {
  weight?: number;
}

export type ParcelKind = SubjectKind<Parcel, ParcelStatus, ParcelChange>;

/** A fake transaction: in a transaction unless told otherwise; records the statements run on it. */
export function fakeTx(inTransaction = true) {
  const executed: SqlPart[] = [];
  const tx = {
    isInTransaction: () => inTransaction,
    // What `signalOnCommit` keys a transaction's wake-ups by (the real job queue's statements).
    getTransactionContext: () => tx,
    execute: (sql: string, params: unknown[] = []) => {
      executed.push({ sql, params });
      return Promise.resolve([]);
    },
  };
  return { tx: tx as unknown as SqlEntityManager, executed };
}

/** The event log's two appends, recorded; `appendWith` returns `returned` as the change statement's rows. */
export class FakeEvents {
  readonly appended: AppendEventInput[] = [];
  readonly appendedWith: Array<{ change: SqlPart; event: AppendEventInput; also: AppendAlongside }> = [];
  returned: Array<Record<string, unknown>> = [];
  /** What happened, in order, across the fakes (events and kind calls). */
  constructor(private readonly log: string[]) {}

  append(_em: SqlEntityManager, event: AppendEventInput): Promise<object> {
    this.log.push('events.append');
    this.appended.push(event);
    return Promise.resolve({});
  }

  appendWith<T extends object>(_em: SqlEntityManager, change: SqlPart, event: AppendEventInput, also: AppendAlongside = {}): Promise<T[]> {
    this.log.push('events.appendWith');
    this.appendedWith.push({ change, event, also });
    return Promise.resolve(this.returned as T[]);
  }
}

/** The job queue's statement of a job, recorded: its SQL names the kind, its params are the payload and options. */
export class FakeJobs {
  readonly enqueued: Array<{ kind: JobKind; payload: unknown; options: EnqueueOptions }> = [];

  enqueueStatement(_tx: SqlEntityManager, kind: JobKind, payload: unknown, options: EnqueueOptions = {}): SqlPart {
    this.enqueued.push({ kind, payload, options });
    return { sql: `insert job ${kind}`, params: [payload] };
  }
}

/**
 * A parcel kind whose every hook records its call in `log`. By default: no refusal, a change
 * written by one statement (`update parcel …`) merged from what it returns, one release reaction.
 */
export function parcelKind(log: string[], overrides: Partial<ParcelKind> = {}, rows: Record<string, Parcel> = {}): ParcelKind {
  return {
    type: 'parcel',
    table: 'parcel',
    machine: parcelMachine,
    changedEvent: 'parcel.status_changed',
    lock: (_tx, id) => {
      log.push(`lock ${id}`);
      return Promise.resolve(rows[id]);
    },
    statusOf: (parcel) => parcel.status,
    idOf: (parcel) => parcel.id,
    owner: (parcel) => ({ clientId: parcel.clientId, merchantAccount: 'acct-1' }),
    snapshot: (parcel) => ({ id: parcel.id, status: parcel.status }),
    check: ({ row, change }) => {
      log.push('check');
      return change.weight !== undefined && change.weight !== row.weight ? `WEIGHT_MISMATCH: reported ${change.weight}, parcel is ${row.weight}` : undefined;
    },
    checkMove: (_transition, phase) => {
      log.push(`checkMove ${phase}`);
      return undefined;
    },
    recordUnchanged: () => {
      log.push('recordUnchanged');
      return Promise.resolve();
    },
    write: ({ row, change }) => {
      log.push('write');
      return {
        next: { ...row, status: change.status },
        update: { set: { status: change.status }, returning: '*' },
        merge: (returned) => ({ id: String(returned.id), status: returned.status as ParcelStatus, weight: Number(returned.weight), clientId: null }),
      };
    },
    reactions: ({ next }) => {
      log.push('reactions');
      return [deferredDeliveriesRelease('parcel', next.id)];
    },
    ...overrides,
  };
}

export const parcel = (status: ParcelStatus, id = 'par_1'): Parcel => ({ id, status, weight: 2, clientId: 'cli_1' });

/** A path with one registered parcel kind, its fakes, and what happened in order. */
export function setup(overrides: Partial<ParcelKind> = {}, rows: Record<string, Parcel> = { par_1: parcel('SENT') }) {
  const log: string[] = [];
  const events = new FakeEvents(log);
  const jobs = new FakeJobs();
  const path = new TransitionPath(events as unknown as EventLog, jobs as unknown as JobQueue);
  const kind = path.register(parcelKind(log, overrides, rows));
  const { tx, executed } = fakeTx();
  const apply = (input: Partial<ApplyInput<Parcel, ParcelChange>> & { change: ParcelChange }) => path.apply(tx, kind, { id: 'par_1', source: 'test', ...input });
  return { log, events, jobs, path, kind, tx, executed, apply };
}

export const report = (status: ParcelStatus, more: Partial<ParcelChange> = {}): ParcelChange => ({ status, providerStatus: status.toLowerCase(), ...more });
