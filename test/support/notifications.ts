// Watching an instance's local fan-out: every payment-event notification it publishes.

import { expect } from 'vitest';
import type { LocalPubSub } from '../../src/lib/pubsub.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from '../../src/kernel/events/event-notification.js';

/**
 * Every notification this instance publishes from now on: resolves once the subscription has
 * joined (on an instance with no other subscriber, the event bus first moves to the log's head), so
 * every event committed afterwards is seen.
 */
export async function collectNotifications(pubsub: LocalPubSub): Promise<{ seen: EventNotification[]; stop(): void }> {
  const seen: EventNotification[] = [];
  const iterator = pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC);
  void (async () => {
    for await (const notification of iterator) seen.push(notification);
  })();
  await expect.poll(() => iterator.joined, { interval: 5 }).toBe(true);
  return { seen, stop: () => void iterator.return?.() };
}
