// The payment event log: appends one ordered row per applied change (with its NOTIFY) inside the caller's transaction, and reads the log back.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { visibleEventsWhere, type Viewer } from '../../kernel/visibility.js';
import { newId } from '../../lib/ids.js';
import type { Deposit } from '../deposits/deposit.entity.js';
import { toDepositSnapshot } from '../deposits/deposit-snapshot.js';
import type { Refund } from '../refunds/refund.entity.js';
import { toRefundSnapshot } from '../refunds/refund-snapshot.js';
import { PaymentEvent, type PaymentSubjectType } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, type EventNotification } from './payment-event.types.js';
import type { Payout } from '../payouts/payout.entity.js';
import { toPayoutSnapshot } from '../payouts/payout-snapshot.js';
import type { Withdrawal } from '../withdrawals/withdrawal.entity.js';
import { toWithdrawalSnapshot } from '../withdrawals/withdrawal-snapshot.js';

export interface AppendEventInput {
  subjectType: PaymentSubjectType;
  subjectId: string;
  /**
   * Owner of the subject, as the visibility policy reads it (src/kernel/visibility.ts): a
   * deposit's or payout's creator, a refund's deposit's creator; null when it belongs to no client.
   */
  clientId: string | null;
  /**
   * Merchant account of the subject (a refund: its deposit's). Defaults to the `merchantAccount`
   * of the deposit, payout or withdrawal given below; required for refund events.
   */
  merchantAccount?: string;
  /** An anomaly the gateway raises about the subject: admins alone see it (default false). */
  adminOnly?: boolean;
  /** e.g. `deposit.status_changed`. */
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  /** The deposit after the change (flushed), for a deposit event: becomes the row's `data` and the notification's snapshot. */
  deposit?: Deposit;
  /** The refund after the change (flushed), for a refund event: becomes the row's `data` and the notification's snapshot. */
  refund?: Refund;
  /** The payout after the change (flushed), for a payout event: becomes the row's `data` and the notification's snapshot. */
  payout?: Payout;
  /** The withdrawal after the change (flushed), for a withdrawal event: becomes the row's `data` and the notification's snapshot. */
  withdrawal?: Withdrawal;
}

export interface EventPageInput {
  /** A position (decimal string) from an earlier page; events strictly after it are returned. */
  after?: string;
  limit: number;
  /** Only the events this client may see (src/kernel/visibility.ts); undefined reads them all. */
  viewer?: Viewer;
}

/**
 * Key of the transaction-scoped advisory lock that orders appends. Positions come from an identity
 * column, assigned at INSERT; without the lock, a transaction could take position 10, another 11
 * and commit first, and a client paging `events(after:)` in between would move its cursor past 10
 * before 10 became visible and never see it (a catching-up client must miss nothing). Held from the INSERT to
 * commit, the lock makes positions appear in commit order. Appending is therefore the last write
 * of a transaction, so the lock is held only for the commit itself.
 */
const APPEND_LOCK_KEY = 720_331_001;

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more, which would abort the whole
 * transaction (and so the webhook). A larger notification goes out without its snapshot; the
 * event bus then reads the snapshot from the committed row.
 */
export const MAX_NOTIFICATION_BYTES = 7500;

/** What reads of the log that skip the entity select, besides the subject snapshot (`data`). */
const PAYMENT_EVENT_RECORD_PROPERTIES = [
  'position', 'id', 'type', 'subjectType', 'subjectId', 'clientId', 'merchantAccount', 'adminOnly', 'fromStatus', 'toStatus', 'createdAt',
] as const satisfies ReadonlyArray<keyof PaymentEvent>;

/**
 * An event row as read without an entity (a PaymentEvent satisfies it too); `data`, the subject
 * snapshot, only when it was asked for.
 */
export type PaymentEventRecord = Pick<PaymentEvent, (typeof PAYMENT_EVENT_RECORD_PROPERTIES)[number]> & Partial<Pick<PaymentEvent, 'data'>>;

const POSITION = /^(0|[1-9][0-9]{0,18})$/;

export class EventService {
  /**
   * Appends an event row and queues its notification, both in the caller's open transaction: the
   * row commits with the change it records, and the NOTIFY is delivered only on that commit
   * (never after a rollback). Call it after the subject's own changes are flushed.
   */
  async append(em: SqlEntityManager, input: AppendEventInput): Promise<PaymentEvent> {
    if (!em.isInTransaction()) throw new Error('EventService.append must run inside the transaction of the change it records');
    await em.execute('select pg_advisory_xact_lock(?)', [APPEND_LOCK_KEY]);
    const snapshot = subjectSnapshot(input);
    const merchantAccount = input.merchantAccount ?? input.deposit?.merchantAccount ?? input.payout?.merchantAccount ?? input.withdrawal?.merchantAccount;
    // Without its account an event would be invisible to every back office that sees its subject.
    if (!merchantAccount) throw new Error(`EventService.append needs the merchant account of ${input.subjectType} ${input.subjectId}`);
    const event = em.create(PaymentEvent, {
      id: newId('evt'),
      subjectType: input.subjectType,
      subjectId: input.subjectId,
      clientId: input.clientId,
      merchantAccount,
      adminOnly: input.adminOnly ?? false,
      type: input.type,
      fromStatus: input.fromStatus,
      toStatus: input.toStatus,
      data: snapshot ? { ...snapshot } : {},
      createdAt: new Date(),
    });
    // The row (and its identity position) must exist before the notification names it.
    await em.flush();
    await em.execute('select pg_notify(?, ?)', [PAYMENT_EVENTS_CHANNEL, notificationPayload(event)]);
    return event;
  }

  /** Events strictly after `after` that the viewer may see, oldest first. */
  page(em: SqlEntityManager, input: EventPageInput): Promise<PaymentEvent[]> {
    if (input.after !== undefined && !POSITION.test(input.after)) throw new RangeError(`Not an event position: ${JSON.stringify(input.after)}`);
    const where = [
      ...(input.after !== undefined ? [{ position: { $gt: input.after } }] : []),
      ...(input.viewer ? [visibleEventsWhere(input.viewer)] : []),
    ];
    return em.find(PaymentEvent, { $and: where }, { orderBy: { position: 'asc' }, limit: input.limit });
  }

  /**
   * Every event of each subject, oldest first, in one query (for a per-request DataLoader): plain
   * rows, no entity made or tracked. The subject snapshots (`data`) are read only with `snapshots`.
   */
  async forSubjects(
    em: SqlEntityManager,
    subjectType: PaymentSubjectType,
    subjectIds: readonly string[],
    options: { snapshots: boolean } = { snapshots: true },
  ): Promise<Map<string, PaymentEventRecord[]>> {
    const grouped = new Map<string, PaymentEventRecord[]>(subjectIds.map((id) => [id, []]));
    if (subjectIds.length === 0) return grouped;
    const rows = await em
      .createQueryBuilder(PaymentEvent)
      .select(options.snapshots ? [...PAYMENT_EVENT_RECORD_PROPERTIES, 'data'] : [...PAYMENT_EVENT_RECORD_PROPERTIES])
      .where({ subjectType, subjectId: { $in: [...new Set(subjectIds)] } })
      .orderBy({ position: 'asc' })
      .execute<PaymentEventRecord[]>('all');
    for (const row of rows) grouped.get(row.subjectId)?.push(row);
    return grouped;
  }
}

/** The row as a notification: `PaymentEvent` is the only producer of `EventNotification`. */
export function toEventNotification(event: PaymentEvent): EventNotification {
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
  // The row's data is the snapshot of its subject, carried under the subject type's own key.
  if (typeof event.data.id === 'string') Object.assign(notification, { [event.subjectType]: event.data });
  return notification;
}

/** The subject as it stands after the change: the row's `data` and the notification's snapshot. */
function subjectSnapshot(input: AppendEventInput): object | undefined {
  if (input.deposit) return toDepositSnapshot(input.deposit);
  if (input.refund) return toRefundSnapshot(input.refund);
  if (input.payout) return toPayoutSnapshot(input.payout);
  if (input.withdrawal) return toWithdrawalSnapshot(input.withdrawal);
  return undefined;
}

/** The notification with its snapshot, or without it when that would pass PostgreSQL's payload limit. */
function notificationPayload(event: PaymentEvent): string {
  const notification = toEventNotification(event);
  const json = JSON.stringify(notification);
  if (Buffer.byteLength(json, 'utf8') <= MAX_NOTIFICATION_BYTES) return json;
  delete notification[event.subjectType];
  return JSON.stringify(notification);
}
