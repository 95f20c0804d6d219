// Live updates to many subscribers for the cost of a few. Subscriptions that would execute alike
// (same query text, operation name and variables, callers of one visibility class) form a group;
// each event is executed and serialized once per group, in a context of its own (a fresh
// EntityManager fork, so fresh DataLoaders), and every member is sent the same payload text in a
// graphql-transport-ws `next` frame of its own id. Whether an event is for a member at all (its
// `id` argument, maySee) is still decided per member, by the filter its root field's `subscribe`
// put on the topic. What stays per idle subscription is the caller, that filtered place on the
// topic and the socket: no EntityManager, loaders or logger.

import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { WebSocket } from 'ws';
import type { Database } from '../db/database.js';
import type { Logger } from '../lib/logger.js';
import { visibilityClass } from '../kernel/visibility.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { Services } from '../services.js';
import type { GatewayContext } from '../graphql/context.js';

/**
 * The context graphql-ws holds for each subscription: who asked, on which socket, under which
 * operation id. The full GatewayContext exists only while the root field subscribes, and per
 * group per event.
 */
export interface SubscriptionCaller {
  readonly kind: 'subscription-caller';
  client: ApiClient;
  socket: WebSocket;
  operationId: string;
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
}

export class SubscriptionFanOut {
  private readonly groups = new Map<string, Group>();
  private nextGroup = 1;

  constructor(readonly options: FanOutOptions) {}

  /**
   * graphql-ws's `subscribe`: the root field subscribes as graphql-js would (authorization, `id`
   * check, the filtered topic), then the subscription joins its group. The stream handed back
   * yields nothing: frames go to the socket directly, and the stream ends (or fails) when the
   * subscription does, so graphql-ws still sends `complete` or `error` and calls `return()`.
   */
  async subscribe(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult, void, void> | ExecutionResult> {
    const caller = args.contextValue as SubscriptionCaller;
    const source = await createSourceEventStream({ ...args, contextValue: this.context(caller.client, caller.introspectionAllowed, `${caller.connectionId}/${args.operationName ?? 'anonymous'}`) });
    if (!isAsyncIterable(source)) return source;
    const key = JSON.stringify([visibilityClass(caller.client), caller.query, args.operationName ?? null, args.variableValues ?? {}]);
    let group = this.groups.get(key);
    if (!group) {
      group = new Group(this, key, this.nextGroup++, args.document, args.operationName ?? undefined, args.variableValues ?? undefined, caller.introspectionAllowed);
      this.groups.set(key, group);
    }
    const member = new Member(group, caller.client, caller.socket, caller.operationId, source[Symbol.asyncIterator]());
    group.size += 1;
    member.start();
    return member;
  }

  leave(group: Group): void {
    group.size -= 1;
    if (group.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
  }

  /**
   * The context of one execution over the socket, with an EntityManager fork of its own: a query or
   * mutation, a subscription's root field subscribing, or one group's run of one event.
   */
  context(client: ApiClient, introspectionAllowed: boolean, requestId: string, logger: Logger = this.options.logger): GatewayContext {
    return { requestId, logger, em: this.options.db.fork(), client, authFailure: 'MISSING', services: this.options.services, introspectionAllowed };
  }
}

/** Subscriptions that execute alike, and the payload of each event, computed once for all of them. */
class Group {
  size = 0;
  /** The payload text of each event object, while anyone may still ask for it. */
  private readonly payloads = new WeakMap<object, Promise<string>>();
  private logger: Logger | undefined;

  constructor(
    private readonly fanOut: SubscriptionFanOut,
    readonly key: string,
    private readonly serial: number,
    private readonly document: DocumentNode,
    private readonly operationName: string | undefined,
    private readonly variableValues: Record<string, unknown> | undefined,
    private readonly introspectionAllowed: boolean,
  ) {}

  leave(): void {
    this.fanOut.leave(this);
  }

  /**
   * The `next` payload for `event`, as JSON text. `client` is the member asking first: any member
   * would do, as the visibility class fixes everything resolution reads from the caller. Every
   * member receives the same event object from the topic, so the first one's execution serves all.
   */
  payloadFor(event: unknown, client: ApiClient): Promise<string> {
    if (typeof event !== 'object' || event === null) return this.run(event, client);
    let payload = this.payloads.get(event);
    if (!payload) {
      payload = this.run(event, client);
      this.payloads.set(event, payload);
    }
    return payload;
  }

  private async run(event: unknown, client: ApiClient): Promise<string> {
    const { schema, format } = this.fanOut.options;
    this.logger ??= this.fanOut.options.logger.child({ subscriptionGroup: this.serial });
    const contextValue = this.fanOut.context(client, this.introspectionAllowed, `group-${this.serial}/${this.operationName ?? 'anonymous'}`, this.logger);
    const result = await execute({ schema, document: this.document, operationName: this.operationName, variableValues: this.variableValues, rootValue: event, contextValue });
    // The shape graphql-ws gives a result whose errors went through the formatter.
    return JSON.stringify(result.errors ? { ...result, errors: format(result.errors) } : result);
  }
}

const DONE: IteratorResult<ExecutionResult, void> = { done: true, value: undefined };

/**
 * One subscription in a group: it pulls its filtered events from the topic one at a time, asks the
 * group for each payload and writes the frame, waiting for the socket to take it as graphql-ws
 * does (so a subscriber that stops reading backs up on the topic and is cut off there).
 */
class Member implements AsyncGenerator<ExecutionResult, void, void> {
  private ended = false;
  private finished = false;
  private resolveEnd!: (result: IteratorResult<ExecutionResult, void>) => void;
  private rejectEnd!: (error: unknown) => void;
  private readonly end: Promise<IteratorResult<ExecutionResult, void>>;

  constructor(
    private readonly group: Group,
    private readonly client: ApiClient,
    private readonly socket: WebSocket,
    private readonly operationId: string,
    private readonly source: AsyncIterator<unknown>,
  ) {
    this.end = new Promise((resolve, reject) => {
      this.resolveEnd = resolve;
      this.rejectEnd = reject;
    });
    // graphql-ws awaits it; a failure before it does is not an unhandled rejection.
    this.end.catch(() => undefined);
  }

  start(): void {
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done || this.ended) break;
        const payload = await this.group.payloadFor(next.value, this.client);
        if (this.ended) break;
        // graphql-transport-ws's `next` message, keys in graphql-ws's order; built per frame, not kept.
        await send(this.socket, `{"id":${JSON.stringify(this.operationId)},"type":"next","payload":${payload}}`);
      }
      this.finish();
    } catch (error) {
      this.finish(error);
    }
  }

  private finish(error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.ended = true;
    this.group.leave();
    if (error === undefined) this.resolveEnd(DONE);
    else this.rejectEnd(error);
  }

  next(): Promise<IteratorResult<ExecutionResult, void>> {
    return this.end;
  }

  async return(): Promise<IteratorResult<ExecutionResult, void>> {
    this.ended = true;
    try {
      await this.source.return?.();
    } catch {
      // The topic is being left anyway.
    }
    this.finish();
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult, void>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}

/** Writes a frame as graphql-ws does: resolved once the socket took it, at once if it is closing. */
function send(socket: WebSocket, frame: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) return resolve();
    socket.send(frame, (error) => (error ? reject(error) : resolve()));
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}
