// In-process topic fan-out: the last hop of live updates. Cross-instance delivery is PostgreSQL
// NOTIFY; each instance then publishes here to its own subscribers. A topic may have a feed that
// only follows its source while someone listens: subscriptions then join once it follows.

/** Largest backlog a slow subscriber may build before it is cut off (it can catch up from `events`). */
export const MAX_BUFFERED = 1000;

/** Why a subscriber was cut off: the same words wherever the backlog grew (here or at its socket). */
export const FELL_BEHIND = 'Subscriber fell too far behind; reconnect and catch up from events(after:)';

/**
 * What publishes a topic's payloads, when it follows its source only while the topic has
 * subscriptions (the event bus reads the log only then). A subscription made while it does not
 * follow waits, receiving nothing, until the feed follows again and calls {@link LocalPubSub.admit}:
 * from then on it receives every payload published, and the feed publishes everything that
 * happens after that moment.
 */
export interface TopicFeed {
  /** True when a subscription joining now, at once, misses nothing that happens from now on. */
  readonly following: boolean;
  /** A subscription waits: follow the source, then admit it. Called synchronously from `subscribe`. */
  wanted(): void;
  /**
   * For a feed of ordered payloads (the event bus: positions in the event log): the highest
   * position at or below which a subscription that has joined by now is handed nothing; every
   * later payload reaches it. What a subscription resuming from a cursor replays up to before it
   * goes live (src/kernel/events/resume.ts).
   */
  readonly withheldThrough?: bigint | undefined;
}

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

// The bits of TopicSubscription.state.
const JOINED = 1;
const FINISHED = 2;
const OVERFLOW = 4;

/**
 * One subscription to a topic: an async iterator of its payloads (filtered), or, once a consumer is
 * attached, a synchronous hand-over of each one. One object per subscription, its methods shared:
 * idle subscriptions are many.
 */
export class TopicSubscription<T> implements AsyncIterableIterator<T> {
  private buffer: T[] | undefined;
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private consumer: TopicConsumer<T> | undefined;
  /** Its three flags (below), as bits of one small integer rather than three fields: idle subscriptions are many. */
  private state = 0;

  constructor(
    private readonly pubsub: LocalPubSub,
    private readonly topic: string,
    readonly filter: (payload: T) => boolean,
  ) {}

  /** Whether the subscription has ended (returned, or cut off for falling behind). */
  get ended(): boolean {
    return this.finished;
  }

  /** Receives what the topic publishes (false while it waits for the topic's feed to follow). */
  get joined(): boolean {
    return (this.state & JOINED) !== 0;
  }

  set joined(value: boolean) {
    this.setState(JOINED, value);
  }

  /** Ended (returned, or cut off). */
  private get finished(): boolean {
    return (this.state & FINISHED) !== 0;
  }

  private set finished(value: boolean) {
    this.setState(FINISHED, value);
  }

  /** Cut off for falling behind. */
  private get overflow(): boolean {
    return (this.state & OVERFLOW) !== 0;
  }

  private set overflow(value: boolean) {
    this.setState(OVERFLOW, value);
  }

  private setState(flag: number, value: boolean): void {
    this.state = value ? this.state | flag : this.state & ~flag;
  }

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
  /** Subscriptions waiting for their topic's feed to follow. */
  private readonly waiting = new Map<string, Set<TopicSubscription<never>>>();
  private readonly feeds = new Map<string, TopicFeed>();
  private readonly opened = new Map<string, number>();
  /** Who waits for a subscription to join (`joined`): resumed subscriptions only, so usually empty. */
  private readonly joinWaiters = new Map<TopicSubscription<never>, (joined: boolean) => void>();

  /** Makes `feed` the one that publishes `topic`: subscriptions made while it does not follow wait for it. */
  feed(topic: string, feed: TopicFeed): void {
    this.feeds.set(topic, feed);
  }

  publish(topic: string, payload: unknown): void {
    for (const subscription of this.listeners.get(topic) ?? []) subscription.offer(payload as never);
  }

  /** Number of live subscriptions on a topic, the ones that receive what it publishes (for tests and metrics). */
  subscriberCount(topic: string): number {
    return this.listeners.get(topic)?.size ?? 0;
  }

  /** Whether anyone subscribes to the topic, live or waiting to join. */
  hasSubscribers(topic: string): boolean {
    return this.subscriberCount(topic) > 0 || (this.waiting.get(topic)?.size ?? 0) > 0;
  }

  /** Subscriptions ever joined on a topic (live, receiving): only grows, so a waiter cannot miss one. */
  subscriptionsOpened(topic: string): number {
    return this.opened.get(topic) ?? 0;
  }

  /**
   * An async iterator of a topic's payloads. Closing it (graphql-js calls `return()` when the
   * client unsubscribes or disconnects) removes the listener at once.
   */
  subscribe<T>(topic: string, filter: (payload: T) => boolean = acceptAll): TopicSubscription<T> {
    const subscription = new TopicSubscription<T>(this, topic, filter);
    const feed = this.feeds.get(topic);
    if (feed && !feed.following) {
      addTo(this.waiting, topic, subscription as unknown as TopicSubscription<never>);
      feed.wanted();
    } else {
      this.join(topic, subscription as unknown as TopicSubscription<never>);
    }
    return subscription;
  }

  /**
   * Resolves once `subscription` receives what its topic publishes (true), or has ended before it
   * did (false). A subscription made while the topic's feed follows has joined already.
   */
  joined<T>(subscription: TopicSubscription<T>): Promise<boolean> {
    const waiting = subscription as unknown as TopicSubscription<never>;
    if (subscription.joined) return Promise.resolve(true);
    if (![...this.waiting.values()].some((set) => set.has(waiting))) return Promise.resolve(false);
    return new Promise((resolve) => this.joinWaiters.set(waiting, resolve));
  }

  /** The topic's feed's {@link TopicFeed.withheldThrough}, if it has one. */
  withheldThrough(topic: string): bigint | undefined {
    return this.feeds.get(topic)?.withheldThrough;
  }

  /** Called by a topic's feed once it follows: every subscription waiting for it joins. */
  admit(topic: string): void {
    const waiting = this.waiting.get(topic);
    this.waiting.delete(topic);
    for (const subscription of waiting ?? []) this.join(topic, subscription);
  }

  /** Called by a subscription that ends. */
  leave(topic: string, subscription: TopicSubscription<never>): void {
    removeFrom(this.listeners, topic, subscription);
    removeFrom(this.waiting, topic, subscription);
    this.settleJoin(subscription, false);
  }

  private settleJoin(subscription: TopicSubscription<never>, joined: boolean): void {
    if (this.joinWaiters.size === 0) return;
    const resolve = this.joinWaiters.get(subscription);
    if (!resolve) return;
    this.joinWaiters.delete(subscription);
    resolve(joined);
  }

  private join(topic: string, subscription: TopicSubscription<never>): void {
    addTo(this.listeners, topic, subscription);
    subscription.joined = true;
    this.opened.set(topic, (this.opened.get(topic) ?? 0) + 1);
    this.settleJoin(subscription, true);
  }
}

function addTo(sets: Map<string, Set<TopicSubscription<never>>>, topic: string, subscription: TopicSubscription<never>): void {
  let set = sets.get(topic);
  if (!set) {
    set = new Set();
    sets.set(topic, set);
  }
  set.add(subscription);
}

function removeFrom(sets: Map<string, Set<TopicSubscription<never>>>, topic: string, subscription: TopicSubscription<never>): void {
  const set = sets.get(topic);
  if (!set) return;
  set.delete(subscription);
  if (set.size === 0) sets.delete(topic);
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
