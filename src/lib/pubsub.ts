// In-process topic fan-out: the last hop of live updates. Cross-instance delivery is PostgreSQL
// NOTIFY; each instance then publishes here to its own subscribers.

/** Largest backlog a slow subscriber may build before it is cut off (it can catch up from `events`). */
export const MAX_BUFFERED = 1000;

/** Why a subscriber was cut off: the same words wherever the backlog grew (here or at its socket). */
export const FELL_BEHIND = 'Subscriber fell too far behind; reconnect and catch up from events(after:)';

/**
 * Who takes a subscription's payloads as they are published, instead of pulling them with `next()`
 * (see {@link TopicSubscription.attach}). `offer` runs synchronously inside `publish`, before the
 * topic's filter: the consumer applies `filter` itself (it may share the answer between alike
 * subscriptions). `end` is called once, when the subscription ends, with the error if it failed.
 */
export interface TopicConsumer<T> {
  offer(payload: T, filter: (payload: T) => boolean): void;
  end(error?: Error): void;
}

const DONE: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One subscription to a topic: an async iterator of its payloads (filtered), or, once a consumer is
 * attached, a synchronous hand-over of each one. One object per subscription, its methods shared:
 * idle subscriptions are many.
 */
export class TopicSubscription<T> implements AsyncIterableIterator<T> {
  private buffer: T[] | undefined;
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private finished = false;
  private overflow = false;
  private consumer: TopicConsumer<T> | undefined;

  constructor(
    private readonly pubsub: LocalPubSub,
    private readonly topic: string,
    readonly filter: (payload: T) => boolean,
  ) {}

  /** Called by `publish` for every payload of the topic. */
  offer(payload: T): void {
    if (this.finished) return;
    if (this.consumer) {
      this.consumer.offer(payload, this.filter);
      return;
    }
    if (!this.filter(payload)) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value: payload });
      return;
    }
    this.buffer ??= [];
    if (this.buffer.length >= MAX_BUFFERED) {
      this.overflow = true;
      this.stop();
      return;
    }
    this.buffer.push(payload);
  }

  /**
   * From now on, hands each payload to `consumer` as it is published (what was buffered first, in
   * order), and tells it when the subscription ends. Returns false if it had already ended.
   */
  attach(consumer: TopicConsumer<T>): boolean {
    if (this.finished || this.waiting) return false;
    this.consumer = consumer;
    const buffered = this.buffer;
    this.buffer = undefined;
    for (const payload of buffered ?? []) consumer.offer(payload, this.filter);
    return true;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer && this.buffer.length > 0) return Promise.resolve({ done: false, value: this.buffer.shift()! });
    if (this.finished) return this.overflow ? Promise.reject(new Error(FELL_BEHIND)) : Promise.resolve(DONE);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.stop();
    this.buffer = undefined;
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.pubsub.leave(this.topic, this as unknown as TopicSubscription<never>);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(DONE);
    const consumer = this.consumer;
    this.consumer = undefined;
    consumer?.end(this.overflow ? new Error(FELL_BEHIND) : undefined);
  }
}

export class LocalPubSub {
  private readonly listeners = new Map<string, Set<TopicSubscription<never>>>();
  private readonly opened = new Map<string, number>();

  publish(topic: string, payload: unknown): void {
    for (const subscription of this.listeners.get(topic) ?? []) subscription.offer(payload as never);
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
  subscribe<T>(topic: string, filter: (payload: T) => boolean = acceptAll): TopicSubscription<T> {
    const subscription = new TopicSubscription<T>(this, topic, filter);
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(subscription as unknown as TopicSubscription<never>);
    this.opened.set(topic, (this.opened.get(topic) ?? 0) + 1);
    return subscription;
  }

  /** Called by a subscription that ends. */
  leave(topic: string, subscription: TopicSubscription<never>): void {
    const set = this.listeners.get(topic);
    if (!set) return;
    set.delete(subscription);
    if (set.size === 0) this.listeners.delete(topic);
  }
}

function acceptAll(): boolean {
  return true;
}

/** Adapter to type-graphql's PubSub interface (its `@Subscription({ topics })` form). */
export function typeGraphqlPubSub(pubsub: LocalPubSub) {
  return {
    publish: (topic: string, payload: unknown) => pubsub.publish(topic, payload),
    subscribe: (topic: string) => pubsub.subscribe(topic),
  };
}
