// Live updates to many subscribers for the cost of a few. Subscriptions that would execute alike
// (same query text, operation name and variables, callers of one visibility class) form a group;
// each event is executed and serialized once per group, in a context of its own (a fresh
// EntityManager fork, so fresh DataLoaders) that holds the class's visibility and no member's
// identity (a GroupContext), and every member is sent the same payload text in a
// graphql-transport-ws `next` frame of its own id. Whether an event is for the group at all (the
// `id` argument, maySee) is decided by the filter its root field's `subscribe` put on the topic,
// once per group and event: alike members have alike filters. A published event reaches every
// member synchronously, in one loop once its group's payload is ready: no promise per member.
// A payload that needs no read from the database is ready in the call that published its event
// (the commit's own, for an event of this instance): the group runs the event through the
// delivery schema, whose Subscription fields resolve synchronously (src/graphql/schema/delivery.ts).
// What stays per idle subscription is one small member object and its place on the topic: no
// EntityManager, loaders, logger, execution arguments or promise.

import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { WebSocket } from 'ws';
import type { Database } from '../db/database.js';
import { deliverySchema } from '../graphql/schema/delivery.js';
import type { Logger } from '../lib/logger.js';
import { outsideSpans } from '../lib/tracing/spans.js';
import { FELL_BEHIND, MAX_BUFFERED, TopicSubscription, type TopicConsumer } from '../lib/pubsub.js';
import { ResumingSubscription } from '../kernel/events/resume.js';
import type { EventNotification } from '../kernel/events/event-notification.js';
import { encodeCursor } from '../graphql/relay.js';
import { visibilityClass, visibilityOf, type Visibility } from '../kernel/visibility.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { UsedKey } from '../modules/clients/key-cache.js';
import type { Services } from '../services.js';
import type { GroupContext, RequestContext } from '../graphql/context.js';

const EMPTY = Buffer.alloc(0);

/** Most bytes a subscriber's socket may have queued unsent before it is cut off, as with MAX_BUFFERED events. */
const MAX_SOCKET_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Who subscribes: the caller as authenticated for this operation, and its operation's identity. */
export interface SubscriptionCaller {
  client: ApiClient;
  connectionId: string;
  /** The operation's text, as sent: with the operation name and variables, its group's identity. */
  query: string;
  introspectionAllowed: boolean;
}

/** Where a subscription's frames go. */
export interface SubscriptionSink {
  readonly socket: WebSocket;
}

export interface FanOutOptions {
  schema: GraphQLSchema;
  services: Services;
  db: Database;
  logger: Logger;
  /** Masks and logs errors exactly as for HTTP. */
  format: (errors: readonly GraphQLError[]) => GraphQLFormattedError[];
  /** Called for every execution of an event (one per group and event). */
  onExecution?: () => void;
  /** A subscription ended by itself: its stream is over (no error) or failed. Not called after the member's `close()`. */
  subscriptionEnded(sink: SubscriptionSink, operationId: string, error?: unknown): void;
}

export class SubscriptionFanOut {
  private readonly groups = new Map<string, Group>();
  private nextGroup = 1;
  /** What a group runs its events through: `options.schema` with payload mappings for resolvers. */
  readonly deliverySchema: GraphQLSchema;

  constructor(readonly options: FanOutOptions) {
    this.deliverySchema = deliverySchema(options.schema);
  }

  /**
   * The root field subscribes as graphql-js would (authorization, `id` check, the filtered topic),
   * then the subscription joins its group. Resolves with the subscription, to be closed when the
   * client completes it or goes, or with the result (errors) that refused it.
   */
  async subscribe(args: ExecutionArgs, caller: SubscriptionCaller, sink: SubscriptionSink, operationId: string): Promise<Member | ExecutionResult> {
    const source = await createSourceEventStream({ ...args, contextValue: this.context(caller.client, caller.introspectionAllowed, `${caller.connectionId}/${args.operationName ?? 'anonymous'}`) });
    if (!isAsyncIterable(source)) return source;
    const key = JSON.stringify([visibilityClass(caller.client), caller.query, args.operationName ?? null, args.variableValues ?? {}]);
    let group = this.groups.get(key);
    if (!group) {
      group = new Group(this, key, this.nextGroup++, visibilityOf(caller.client), args.document, args.operationName ?? undefined, args.variableValues ?? undefined, caller.introspectionAllowed);
      this.groups.set(key, group);
    }
    group.size += 1;
    const iterator = source[Symbol.asyncIterator]();
    const member = iterator instanceof ResumingSubscription ? new ResumingMember(group, sink, operationId, iterator) : new Member(group, sink, operationId, iterator);
    // Its messages, replayed or live, are not the subscribe's: that span ends once it is set up (docs/tracing.md).
    outsideSpans(() => member.start());
    return member;
  }

  leave(group: Group): void {
    group.size -= 1;
    if (group.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
  }

  /**
   * The context of one caller's execution over the socket, with an EntityManager fork of its own: a
   * query or mutation, or a subscription's root field subscribing.
   */
  context(client: ApiClient, introspectionAllowed: boolean, requestId: string, logger: Logger = this.options.logger, apiKey?: UsedKey): RequestContext {
    return { requestId, logger, em: this.options.db.fork(), client, ...(apiKey ? { apiKey } : {}), authFailure: 'MISSING', viewer: client, services: this.options.services, introspectionAllowed };
  }

  /** The context of one group's run of one event, with an EntityManager fork of its own: its visibility, no client. */
  groupContext(visibility: Visibility, introspectionAllowed: boolean, requestId: string, logger: Logger): GroupContext {
    return { requestId, logger, em: this.options.db.fork(), viewer: visibility, services: this.options.services, introspectionAllowed };
  }
}

/**
 * One event's payload for one group: the JSON text, or the failure, at once when the run finished
 * in the call that made it, else once its promise settles.
 */
class Delivery {
  settled = false;
  /** What follows the id in every member's `next` frame: `,"type":"next","payload":…}`, as UTF-8. */
  frameTail: Buffer = EMPTY;
  error: unknown = undefined;
  /** Members whose next frame is this one, waiting for it. */
  private waiting: Member[] | undefined;

  constructor(run: () => string | Promise<string>) {
    let payload: string | Promise<string>;
    try {
      payload = run();
    } catch (error) {
      this.settle('', error ?? new Error('subscription execution failed'));
      return;
    }
    if (typeof payload === 'string') {
      this.settle(payload, undefined);
      return;
    }
    payload.then(
      (text) => this.settle(text, undefined),
      (error: unknown) => this.settle('', error ?? new Error('subscription execution failed')),
    );
  }

  wait(member: Member): void {
    (this.waiting ??= []).push(member);
  }

  private settle(payload: string, error: unknown): void {
    this.settled = true;
    // graphql-transport-ws's `next` message, keys in graphql-ws's order; encoded once for every member.
    if (error === undefined) this.frameTail = Buffer.from(`,"type":"next","payload":${payload}}`);
    this.error = error;
    const waiting = this.waiting;
    this.waiting = undefined;
    for (const member of waiting ?? []) member.drain();
  }
}

/**
 * Subscriptions that execute alike, and the payload of each event, computed once for all of them.
 * It executes with its visibility class's visibility, never with a member's client: the class fixes
 * everything resolution may read from a caller, and nothing in the context names any member.
 */
class Group {
  size = 0;
  /** The payload of each event object, while anyone may still ask for it. */
  private readonly deliveries = new WeakMap<object, Delivery>();
  /** The last event a member's filter was asked about, and its answer: the same for every member. */
  private lastEvent: object | undefined;
  private lastAccepted = false;
  private logger: Logger | undefined;

  constructor(
    private readonly fanOut: SubscriptionFanOut,
    readonly key: string,
    private readonly serial: number,
    private readonly visibility: Visibility,
    private readonly document: DocumentNode,
    private readonly operationName: string | undefined,
    private readonly variableValues: Record<string, unknown> | undefined,
    private readonly introspectionAllowed: boolean,
  ) {}

  leave(): void {
    this.fanOut.leave(this);
  }

  subscriptionEnded(sink: SubscriptionSink, operationId: string, error?: unknown): void {
    this.fanOut.options.subscriptionEnded(sink, operationId, error);
  }

  /** Whether the event is for this group: one member's filter answers for all of them. */
  accepts(event: unknown, filter: (event: unknown) => boolean): boolean {
    if (typeof event !== 'object' || event === null) return filter(event);
    if (event === this.lastEvent) return this.lastAccepted;
    const accepted = filter(event);
    this.lastEvent = event;
    this.lastAccepted = accepted;
    return accepted;
  }

  /** The delivery of `event`, its execution started by the first member asking. */
  delivery(event: unknown): Delivery {
    if (typeof event !== 'object' || event === null) return new Delivery(() => this.run(event));
    let delivery = this.deliveries.get(event);
    if (!delivery) {
      delivery = new Delivery(() => this.run(event));
      this.deliveries.set(event, delivery);
    }
    return delivery;
  }

  /** The event's payload text: returned at once when no resolver of the query waited on anything. */
  private run(event: unknown): string | Promise<string> {
    this.fanOut.options.onExecution?.();
    this.logger ??= this.fanOut.options.logger.child({ subscriptionGroup: this.serial });
    const contextValue = this.fanOut.groupContext(this.visibility, this.introspectionAllowed, `group-${this.serial}/${this.operationName ?? 'anonymous'}`, this.logger);
    const result = execute({ schema: this.fanOut.deliverySchema, document: this.document, operationName: this.operationName, variableValues: this.variableValues, rootValue: event, contextValue });
    const cursor = cursorOf(event);
    return result instanceof Promise ? result.then((settled) => this.text(settled, cursor)) : this.text(result, cursor);
  }

  /**
   * The shape graphql-ws gives a result whose errors went through the formatter, with the event's
   * cursor in `extensions` (graphql-ws clients and Apollo's GraphQLWsLink hand the whole result
   * on): the `after` a subscriber passes to resume from this message.
   */
  private text(result: ExecutionResult, cursor: string | undefined): string {
    const formatted = result.errors ? { ...result, errors: this.fanOut.options.format(result.errors) } : result;
    return JSON.stringify(cursor === undefined ? formatted : { ...formatted, extensions: { ...formatted.extensions, cursor } });
  }
}

/**
 * One subscription in a group. Events of the topic's pub/sub are handed over synchronously as they
 * are published; any other stream is pulled one event at a time. Frames leave in event order: a
 * member whose next payload is still being computed queues the later ones behind it. A subscriber
 * that stops reading (its socket's queue, or its own, past the limits) is cut off with an error,
 * and can catch up from `events(after:)`.
 */
export class Member implements TopicConsumer<unknown> {
  protected closed = false;
  /** The client whose subscriptions this one counts against (its limit), released when the socket lets it go. */
  heldFor: string | undefined = undefined;
  /** Deliveries not sent yet, oldest first, while the oldest is being computed. */
  protected backlog: Delivery[] | undefined;

  constructor(
    private readonly group: Group,
    private readonly sink: SubscriptionSink,
    private readonly operationId: string,
    private readonly source: AsyncIterator<unknown>,
  ) {}

  start(): void {
    if (this.source instanceof TopicSubscription && this.source.attach(this)) return;
    void this.pump();
  }

  /** The client completed the operation, or the socket closed: no frame, no end notice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = undefined;
    this.group.leave();
    this.source.return?.().catch(() => undefined);
  }

  offer(event: unknown, filter: (event: unknown) => boolean): void {
    if (this.closed) return;
    try {
      if (!this.group.accepts(event, filter)) return;
      const delivery = this.group.delivery(event);
      if (this.backlog) {
        if (this.backlog.length >= MAX_BUFFERED) throw new Error(FELL_BEHIND);
        this.backlog.push(delivery);
      } else if (delivery.settled) {
        this.write(delivery);
      } else {
        this.backlog = [delivery];
        delivery.wait(this);
      }
    } catch (error) {
      this.end(error);
    }
  }

  /** The stream ended: `complete` (or `error`) for the client. */
  end(error?: unknown): void {
    if (this.closed) return;
    this.close();
    this.group.subscriptionEnded(this.sink, this.operationId, error);
  }

  /** Nothing is left to send: every delivery offered so far is on the socket (or failed). */
  protected drained(): void {
    // Only a resuming member waits for it.
  }

  /** The delivery this member waited for settled: sends what is ready, in order. */
  drain(): void {
    const backlog = this.backlog;
    if (!backlog) return;
    try {
      while (backlog.length > 0 && !this.closed) {
        const head = backlog[0]!;
        if (!head.settled) {
          head.wait(this);
          return;
        }
        backlog.shift();
        this.write(head);
      }
      if (this.backlog === backlog) {
        this.backlog = undefined;
        this.drained();
      }
    } catch (error) {
      this.end(error);
    }
  }

  private write(delivery: Delivery): void {
    // What the subscription's execution threw (or rejected with), passed on as it is.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (delivery.error !== undefined) throw delivery.error;
    const socket = this.sink.socket;
    if (this.closed || socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_SOCKET_BUFFERED_BYTES) throw new Error(FELL_BEHIND);
    // The frame as bytes (the socket then writes buffers only, its fast path): this member's id
    // before the tail all members share. Built per frame, not kept.
    const head = `{"id":${JSON.stringify(this.operationId)}`;
    const headBytes = Buffer.byteLength(head);
    const tail = delivery.frameTail;
    const frame = Buffer.allocUnsafe(headBytes + tail.length);
    frame.write(head, 0, 'utf8');
    tail.copy(frame, headBytes);
    socket.send(frame, { binary: false });
  }

  /** Any stream other than the pub/sub's: pulled one event at a time. */
  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done || this.closed) break;
        this.offer(next.value, acceptAll);
      }
      this.end();
    } catch (error) {
      this.end(error);
    }
  }
}

/**
 * A subscription given `after`: it sends the replay (the events it missed, read from the log a
 * page at a time, each page sent before the next is read), then takes its live stream, which
 * buffered meanwhile, dropping what the replay covered (src/kernel/events/resume.ts). It is in the
 * group of its own operation and variables, and runs the replayed events through it like live ones.
 */
class ResumingMember extends Member {
  private whenDrained: (() => void) | undefined;

  constructor(group: Group, sink: SubscriptionSink, operationId: string, private readonly resuming: ResumingSubscription) {
    super(group, sink, operationId, resuming);
  }

  override start(): void {
    void this.resume();
  }

  protected override drained(): void {
    const resolve = this.whenDrained;
    this.whenDrained = undefined;
    resolve?.();
  }

  private async resume(): Promise<void> {
    try {
      for await (const page of this.resuming.replay()) {
        if (this.closed) return;
        // Already filtered by the subscription's own filter, as the live stream is.
        for (const event of page) this.offer(event, acceptAll);
        if (this.backlog) await new Promise<void>((resolve) => (this.whenDrained = resolve));
        if (this.closed) return;
      }
      const through = this.resuming.through;
      if (this.closed) return;
      // The live stream ended before it joined: the subscription is over.
      if (through === undefined) return this.end();
      // False when the live stream ended while the replay ran: it fell behind (its buffer filled).
      if (!this.resuming.live.attach(new AboveReplay(this, through))) this.end(new Error(FELL_BEHIND));
    } catch (error) {
      this.end(error);
    }
  }
}

/** Hands a resumed member the live events above what its replay covered; the live stream's positions only grow. */
class AboveReplay implements TopicConsumer<EventNotification> {
  constructor(
    private readonly member: Member,
    private readonly through: bigint,
  ) {}

  offer(event: EventNotification, filter: (event: EventNotification) => boolean): void {
    if (BigInt(event.position) <= this.through) return;
    this.member.offer(event, filter as (event: unknown) => boolean);
  }

  end(error?: Error): void {
    this.member.end(error);
  }
}

/** The cursor of a payment event (what `events(after:)` and `after` on a subscription take); none for other payloads (the heartbeat). */
function cursorOf(event: unknown): string | undefined {
  const position = (event as { position?: unknown } | null)?.position;
  return typeof position === 'string' ? encodeCursor(position) : undefined;
}

function acceptAll(): boolean {
  return true;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}
