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
import type { Database } from '../db/database.js';
import { deliverySchema } from '../graphql/schema/delivery.js';
import type { Logger } from '../lib/logger.js';
import { outsideSpans } from '../lib/tracing/spans.js';
import { ResumingSubscription } from '../kernel/events/resume.js';
import { encodeCursor } from '../graphql/relay.js';
import { visibilityClass, visibilityOf, type Visibility } from '../kernel/visibility.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { UsedKey } from '../modules/clients/key-cache.js';
import type { Services } from '../services.js';
import type { GroupContext, RequestContext } from '../graphql/context.js';
import { Member, ResumingMember, type MemberDelivery, type MemberGroup, type SubscriptionSink } from './fan-out-member.js';

const EMPTY = Buffer.alloc(0);

/** Who subscribes: the caller as authenticated for this operation, and its operation's identity. */
export interface SubscriptionCaller {
  client: ApiClient;
  connectionId: string;
  /** The operation's text, as sent: with the operation name and variables, its group's identity. */
  query: string;
  introspectionAllowed: boolean;
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
class Delivery implements MemberDelivery {
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
class Group implements MemberGroup {
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

/** The cursor of a payment event (what `events(after:)` and `after` on a subscription take); none for other payloads (the heartbeat). */
function cursorOf(event: unknown): string | undefined {
  const position = (event as { position?: unknown } | null)?.position;
  return typeof position === 'string' ? encodeCursor(position) : undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}
