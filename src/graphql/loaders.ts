// Per-request DataLoaders: list fields batch their lookups, so a page costs the same number of
// SQL statements whatever its size. Created lazily, one set per GraphQL context. Beside them, what
// a page's field resolvers share: the lists read ahead with it, and the visibility checks.

import DataLoader from 'dataloader';
import type { SubjectEventRecord } from '../kernel/events/event-log.js';
import type { PaymentSubjectType } from '../kernel/events/payment-event.entity.js';
import { seenBy, seesEvery, type SubjectType, type VisibilityFacts } from '../kernel/visibility.js';
import type { ApiKey } from '../modules/clients/api-key.entity.js';
import type { DepositSnapshot } from '../modules/deposits/deposit-snapshot.js';
import { REFUND_SNAPSHOT_PROPERTIES, type RefundSnapshot, type RefundSnapshotProperty } from '../modules/refunds/refund-snapshot.js';
import { FieldReads } from './selection.js';
import type { GatewayContext } from './context.js';

export interface Loaders {
  /**
   * Events of each subject of one type, oldest first. With `snapshots`, each row also carries the
   * snapshot of its subject (`PaymentEvent.deposit` / `.withdrawal`): the largest column of the
   * log, read only when the query asks for it.
   */
  events(subjectType: PaymentSubjectType, snapshots: boolean): DataLoader<string, SubjectEventRecord[]>;
  /** Full beneficiary account and CCI numbers of each payout: admin callers only. */
  payoutAccountNumbers: DataLoader<string, { accountNumber: string | null; cci: string | null } | undefined>;
  /** Refunds of each deposit, oldest first. */
  depositRefunds: DataLoader<string, RefundSnapshot[]>;
  /** Deposits by id, for `Refund.deposit` (no visibility check: whoever sees a refund sees its deposit). */
  deposits: DataLoader<string, DepositSnapshot>;
  /** Keys of each API client, oldest first. */
  apiKeys: DataLoader<string, ApiKey[]>;
}

const perContext = new WeakMap<GatewayContext, Loaders>();

/** The events of each subject of one type, in one query per batch. */
function subjectEvents(context: GatewayContext, subjectType: PaymentSubjectType, snapshots: boolean): DataLoader<string, SubjectEventRecord[]> {
  return new DataLoader(async (ids) => {
    const grouped = await context.services.events.forSubjects(context.em, subjectType, [...ids], { snapshots, facts: !seesEveryRecord(context, subjectType) });
    return ids.map((id) => grouped.get(id) ?? []);
  });
}

export function loaders(context: GatewayContext): Loaders {
  let existing = perContext.get(context);
  if (!existing) {
    const events = new Map<string, DataLoader<string, SubjectEventRecord[]>>();
    existing = {
      events(subjectType, snapshots) {
        const name = `${subjectType}:${snapshots}`;
        let loader = events.get(name);
        if (!loader) {
          loader = subjectEvents(context, subjectType, snapshots);
          events.set(name, loader);
        }
        return loader;
      },
      payoutAccountNumbers: new DataLoader(async (ids) => {
        const found = await context.services.payouts.fullAccountNumbers(context.em, ids);
        return ids.map((id) => found.get(id));
      }),
      depositRefunds: new DataLoader(async (ids) => {
        const grouped = await context.services.refunds.forDeposits(context.em, ids);
        return ids.map((id) => grouped.get(id) ?? []);
      }),
      deposits: new DataLoader(async (ids) => {
        const found = await context.services.refunds.depositsOf(context.em, ids);
        return ids.map((id) => found.get(id) ?? new Error(`No deposit ${id}`));
      }),
      apiKeys: new DataLoader(async (ids) => {
        const found = await context.services.clients.keysOf(context.em, ids);
        return ids.map((id) => found.get(id) ?? []);
      }),
    };
    perContext.set(context, existing);
  }
  return existing;
}

/**
 * Lists a list resolver read ahead for the objects of its page (e.g. `deposits` reads the refunds
 * and events of its deposits along with the page), by object and field. A field resolver that
 * finds its list here answers it at once: no DataLoader round and no promise per object, which
 * for a page of 50 is most of the execution's cost. Kept on the objects themselves, under a
 * symbol no schema field or JSON sees, so they go with them (a WeakMap entry per object cost more
 * than the rest of keeping them).
 */
const READ_AHEAD = Symbol('readAhead');

interface HoldsReadAhead {
  [READ_AHEAD]?: Record<string, unknown>;
}

export function keepReadAhead(node: object, field: string, value: unknown): void {
  ((node as HoldsReadAhead)[READ_AHEAD] ??= {})[field] = value;
}

/** What a page of deposits reads ahead for `Deposit.events`: every event of each deposit, with snapshots or without. */
export interface ReadAheadEvents {
  snapshots: boolean;
  events: SubjectEventRecord[];
}

export function readAheadOf<T>(node: object, field: string): T | undefined {
  return (node as HoldsReadAhead)[READ_AHEAD]?.[field] as T | undefined;
}

/**
 * What each field of Refund reads of a refund's row, for the refunds read ahead with a page of
 * deposits, which read only what the query asks of them (`RefundNode.fromRow`). Every row is read
 * with its id and its deposit's (the list it belongs to, and `Refund.deposit`). A field named
 * nowhere here reads the whole snapshot until it is named.
 */
export const REFUND_FIELD_READS = new FieldReads<RefundSnapshotProperty>(
  {
    id: [],
    status: ['status'],
    providerStatus: ['providerStatus'],
    origin: ['origin'],
    amount: ['amount', 'currency'],
    reason: ['reason'],
    createdAt: ['createdAt'],
    updatedAt: ['updatedAt'],
    deposit: [],
    timeline: [],
  },
  ['id', 'depositId'],
  REFUND_SNAPSHOT_PROPERTIES,
);

const visibilityChecks = new WeakMap<GatewayContext, Partial<Record<SubjectType, (record: VisibilityFacts) => boolean>>>();

/**
 * The policy's check of records of one subject type for this execution's viewer (`seenBy`):
 * worked out once per execution, not for each of a page's records.
 */
export function visibilityCheck(context: GatewayContext, subjectType: SubjectType): (record: VisibilityFacts) => boolean {
  let checks = visibilityChecks.get(context);
  if (!checks) {
    checks = {};
    visibilityChecks.set(context, checks);
  }
  return (checks[subjectType] ??= seenBy(context.viewer, subjectType));
}

const everyRecordSeen = new WeakMap<GatewayContext, Partial<Record<SubjectType, boolean>>>();

/**
 * Whether this execution's viewer sees every record of the subject type whatever its facts (an
 * admin, `seesEvery`): its lists are read without the facts and shown without the check. Worked
 * out once per execution.
 */
export function seesEveryRecord(context: GatewayContext, subjectType: SubjectType): boolean {
  let seen = everyRecordSeen.get(context);
  if (!seen) {
    seen = {};
    everyRecordSeen.set(context, seen);
  }
  return (seen[subjectType] ??= seesEvery(context.viewer, subjectType));
}
