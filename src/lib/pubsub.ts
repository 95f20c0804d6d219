// In-process topic fan-out: the last hop of live updates. Cross-instance delivery is PostgreSQL
// NOTIFY; each instance then publishes here to its own subscribers.

/** Largest backlog a slow subscriber may build before it is cut off (it can catch up from `events`). */
const MAX_BUFFERED = 1000;

type Listener = (payload: unknown) => void;

export class LocalPubSub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly opened = new Map<string, number>();

  publish(topic: string, payload: unknown): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(payload);
  }

  /** Number of live subscriptions on a topic (for tests and metrics). */
  subscriberCount(topic: string): number {
    return this.listeners.get(topic)?.size ?? 0;
  }

  /** Subscriptions ever opened on a topic: only grows, so a waiter cannot miss one. */
  subscriptionsOpened(topic: string): number {
    return this.opened.get(topic) ?? 0;
  }

  /**
   * An async iterator of a topic's payloads. Closing it (graphql-js calls `return()` when the
   * client unsubscribes or disconnects) removes the listener at once.
   */
  subscribe<T>(topic: string, filter: (payload: T) => boolean = () => true): AsyncIterableIterator<T> {
    const buffer: T[] = [];
    let waiting: ((result: IteratorResult<T>) => void) | undefined;
    let finished = false;
    let overflow = false;

    const listener: Listener = (payload) => {
      if (finished || !filter(payload as T)) return;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ done: false, value: payload as T });
        return;
      }
      if (buffer.length >= MAX_BUFFERED) {
        overflow = true;
        stop();
        return;
      }
      buffer.push(payload as T);
    };

    const set = this.listeners.get(topic) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(topic, set);
    this.opened.set(topic, (this.opened.get(topic) ?? 0) + 1);

    const stop = () => {
      finished = true;
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
      waiting?.({ done: true, value: undefined });
      waiting = undefined;
    };

    const iterator: AsyncIterableIterator<T> = {
      next() {
        if (buffer.length > 0) return Promise.resolve({ done: false, value: buffer.shift()! });
        if (finished) {
          return overflow
            ? Promise.reject(new Error('Subscriber fell too far behind; reconnect and catch up from events(after:)'))
            : Promise.resolve({ done: true, value: undefined });
        }
        return new Promise((resolve) => {
          waiting = resolve;
        });
      },
      return() {
        stop();
        buffer.length = 0;
        return Promise.resolve({ done: true, value: undefined });
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}

/** Adapter to type-graphql's PubSub interface (its `@Subscription({ topics })` form). */
export function typeGraphqlPubSub(pubsub: LocalPubSub) {
  return {
    publish: (topic: string, payload: unknown) => pubsub.publish(topic, payload),
    subscribe: (topic: string) => pubsub.subscribe(topic),
  };
}
