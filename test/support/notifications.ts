// Watching an instance's local fan-out: every payment-event notification it publishes.

import type { LocalPubSub } from '../../src/lib/pubsub.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from '../../src/modules/events/payment-event.types.js';

/** Every notification this instance publishes from now on. */
export function collectNotifications(pubsub: LocalPubSub): { seen: EventNotification[]; stop(): void } {
  const seen: EventNotification[] = [];
  const iterator = pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC);
  void (async () => {
    for await (const notification of iterator) seen.push(notification);
  })();
  return { seen, stop: () => void iterator.return?.() };
}
