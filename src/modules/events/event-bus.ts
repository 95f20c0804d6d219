// Feeds this instance's live subscribers: LISTENs for committed payment events and republishes each one on the local pub/sub.

import type { Database } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import type { LocalPubSub } from '../../lib/pubsub.js';
import { PaymentEvent } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, PAYMENT_EVENTS_TOPIC, type EventNotification } from './payment-event.types.js';
import { toEventNotification } from './event.service.js';

/**
 * One per gateway instance. Every instance LISTENs, so a change committed by any instance (the one
 * the webhook reached or another) reaches the subscribers of all of them, once per commit
 * (DESIGN.md "Durable before acknowledged": NOTIFY is delivered on commit, never after a rollback).
 * On PGlite `db.listen` is the engine's own LISTEN with the same after-commit delivery
 * (test/events/event-bus.test.ts checks it), so no in-process fallback is needed.
 */
export class EventBus {
  private unlisten: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;
  /** Notifications are published one at a time, in the order they arrive (commit order). */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly pubsub: LocalPubSub,
    private readonly logger: Logger,
  ) {}

  start(): Promise<void> {
    this.starting ??= (async () => {
      this.unlisten = await this.db.listen(PAYMENT_EVENTS_CHANNEL, (payload) => {
        this.queue = this.queue.then(() => this.deliver(payload));
      });
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

  private async deliver(payload: string): Promise<void> {
    if (this.stopped) return;
    const parsed = parseNotification(payload);
    if (!parsed) {
      this.logger.warn({ channel: PAYMENT_EVENTS_CHANNEL, bytes: payload.length }, 'ignored a malformed payment event notification');
      return;
    }
    let notification = parsed;
    if (notification.subjectType === 'deposit' && !notification.deposit) {
      // Sent without its snapshot because it was too large for NOTIFY: the committed row has it.
      try {
        const event = await this.db.fork().findOne(PaymentEvent, { position: notification.position });
        if (event) notification = toEventNotification(event);
      } catch (error) {
        this.logger.error({ err: error, position: notification.position }, 'could not read the snapshot of a payment event');
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
  if (record.deposit !== undefined && (typeof record.deposit !== 'object' || record.deposit === null)) return undefined;
  // Visibility reads the account on every live event: absent (an older instance's notification) is null.
  return { ...(value as EventNotification), merchantAccount: (record.merchantAccount as string | null | undefined) ?? null };
}
