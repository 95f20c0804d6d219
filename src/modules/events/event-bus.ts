// Feeds this instance's live subscribers: LISTENs for committed payment events and republishes each one on the local pub/sub.

import type { Database } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import type { LocalPubSub } from '../../lib/pubsub.js';
import { PaymentEvent } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, PAYMENT_EVENTS_TOPIC, type EventNotification } from './payment-event.types.js';
import { toEventNotification } from './event.service.js';

/** Events read back per query when catching up after a reconnect. */
const BACKFILL_PAGE = 500;
/**
 * How far below the newest published position a position is still remembered as published. A
 * notification older than that is taken as already delivered; within it, duplicates are recognised
 * exactly, whatever order they arrive in.
 */
const REMEMBERED_POSITIONS = 10_000n;
/** Longest pause between two attempts to read the log back after a reconnect. */
const BACKFILL_RETRY_MAX_MS = 5_000;

/**
 * One per gateway instance. Every instance LISTENs, so a change committed by any instance (the one
 * the webhook reached or another) reaches the subscribers of all of them, once per commit
 * (DESIGN.md "Durable before acknowledged": NOTIFY is delivered on commit, never after a rollback).
 * On PGlite `db.listen` is the engine's own LISTEN with the same after-commit delivery
 * (test/events/event-bus.test.ts checks it), so no in-process fallback is needed.
 *
 * NOTIFY is not durable: what is committed while the LISTEN connection is down is never notified.
 * The event log is, so after every reconnect the bus reads back every event after the last position
 * it published, in position order, before it publishes anything that arrived meanwhile; a position
 * is published at most once, whichever of the two paths brings it.
 */
export class EventBus {
  private unlisten: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;
  /** Everything is published one at a time, in the order it is queued: notifications in arrival (commit) order, backfills where the reconnect happened. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  /** The newest position published, or the log's head at start: a backfill reads what comes after it. */
  private last: bigint | undefined;
  /** Positions published within REMEMBERED_POSITIONS of `last`, to publish none twice. */
  private readonly published = new Set<bigint>();

  constructor(
    private readonly db: Database,
    private readonly pubsub: LocalPubSub,
    private readonly logger: Logger,
  ) {}

  start(): Promise<void> {
    this.starting ??= (async () => {
      this.unlisten = await this.db.listen(
        PAYMENT_EVENTS_CHANNEL,
        (payload) => this.enqueue(() => this.deliver(payload)),
        { onReconnect: () => this.enqueue(() => this.backfill()) },
      );
      // Read after LISTEN took effect: anything committed later is notified, anything earlier
      // was before this instance served anyone. The head is where a first backfill starts.
      await this.enqueue(() => this.readHead());
    })();
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.queue;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.logger.error({ err: error }, 'payment event delivery failed');
    });
    return this.queue;
  }

  private async readHead(): Promise<void> {
    const [row] = await this.db.fork().execute<Array<{ head: string | null }>>('select max(position)::text as head from payment_event');
    const head = row?.head == null ? 0n : BigInt(row.head);
    if (this.last === undefined || head > this.last) this.last = head;
  }

  private async deliver(payload: string): Promise<void> {
    if (this.stopped) return;
    const parsed = parseNotification(payload);
    if (!parsed) {
      this.logger.warn({ channel: PAYMENT_EVENTS_CHANNEL, bytes: payload.length }, 'ignored a malformed payment event notification');
      return;
    }
    if (this.wasPublished(BigInt(parsed.position))) return;
    let notification = parsed;
    if (!notification[notification.subjectType]) {
      // Sent without its snapshot because it was too large for NOTIFY (any subject type: every
      // subscription filters on the snapshot): the committed row has it.
      try {
        const event = await this.db.fork().findOne(PaymentEvent, { position: notification.position });
        if (event) notification = toEventNotification(event);
      } catch (error) {
        this.logger.error({ err: error, position: notification.position }, 'could not read the snapshot of a payment event');
      }
    }
    this.publish(notification);
  }

  /**
   * Publishes every event after the last published position, oldest first. Runs in the queue, so
   * notifications that arrive meanwhile wait and are then recognised as already published.
   */
  private async backfill(): Promise<void> {
    let published = 0;
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        if (this.last === undefined) {
          // The head was never read (the database failed at start): what was missed is unknown,
          // and replaying the whole log to live subscribers would be worse than the gap.
          await this.readHead();
          this.logger.warn({ position: String(this.last) }, 'LISTEN connection restored before the event log head was known; continuing from the head');
          return;
        }
        for (;;) {
          if (this.stopped) return;
          const page = await this.db.fork().find(
            PaymentEvent,
            { position: { $gt: String(this.last) } },
            { orderBy: { position: 'asc' }, limit: BACKFILL_PAGE },
          );
          for (const event of page) {
            if (this.wasPublished(BigInt(event.position))) continue;
            this.publish(toEventNotification(event));
            published += 1;
          }
          if (page.length < BACKFILL_PAGE) break;
        }
        this.logger.info({ published, position: String(this.last) }, 'caught up with the payment events committed while not listening');
        return;
      } catch (error) {
        // The connection came back but a query failed (the database is still recovering): try
        // again, holding later notifications back so order is kept.
        this.logger.error({ err: error, attempt }, 'could not read back the payment events missed while not listening; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(BACKFILL_RETRY_MAX_MS, 100 * 2 ** attempt)));
      }
    }
  }

  private wasPublished(position: bigint): boolean {
    if (this.published.has(position)) return true;
    return this.last !== undefined && position <= this.last - REMEMBERED_POSITIONS;
  }

  private publish(notification: EventNotification): void {
    const position = BigInt(notification.position);
    this.published.add(position);
    if (this.last === undefined || position > this.last) {
      this.last = position;
      const floor = position - REMEMBERED_POSITIONS;
      // Pruned in bulk once twice the window has built up, so publishing stays O(1) on average.
      if (this.published.size > 2 * Number(REMEMBERED_POSITIONS)) {
        for (const remembered of this.published) if (remembered <= floor) this.published.delete(remembered);
      }
    }
    try {
      this.pubsub.publish(PAYMENT_EVENTS_TOPIC, notification);
    } catch (error) {
      // A failing subscriber must not stop delivery to the others or of later events.
      this.logger.error({ err: error, position: notification.position }, 'a payment event subscriber failed');
    }
  }
}

const SUBJECT_TYPES: ReadonlySet<string> = new Set(['deposit', 'refund', 'payout', 'withdrawal']);

/** The notification if `payload` has the shape of one; anything else is dropped, never thrown. */
export function parseNotification(payload: string): EventNotification | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const strings = ['position', 'id', 'type', 'subjectId', 'createdAt'] as const;
  if (!strings.every((key) => typeof record[key] === 'string')) return undefined;
  if (typeof record.subjectType !== 'string' || !SUBJECT_TYPES.has(record.subjectType)) return undefined;
  if (!/^[0-9]+$/.test(record.position as string)) return undefined;
  const nullableString = (key: string) => record[key] === null || typeof record[key] === 'string';
  if (!nullableString('clientId') || !nullableString('fromStatus') || !nullableString('toStatus')) return undefined;
  if (record.merchantAccount !== undefined && !nullableString('merchantAccount')) return undefined;
  if (record.adminOnly !== undefined && typeof record.adminOnly !== 'boolean') return undefined;
  if (record.deposit !== undefined && (typeof record.deposit !== 'object' || record.deposit === null)) return undefined;
  // Visibility reads the account on every live event: absent (an older instance's notification) is null.
  return { ...(value as EventNotification), merchantAccount: (record.merchantAccount as string | null | undefined) ?? null };
}
