// Collecting subscription messages in tests, and reading the event log as a client catching up.

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import { expect } from 'vitest';
import { PAYMENT_EVENTS_TOPIC } from '../../src/kernel/events/event-notification.js';
import type { EventsQuery as EventsResult } from '../__generated__/graphql.js';
import { execute, type TestGateway } from '../support/gateway.js';
import { EventsQuery } from './operations.js';

export interface Collector<T> {
  messages: T[];
  errors: unknown[];
  /** Resolves with the first message (already received or future) matching `predicate`. */
  until(predicate: (message: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): void;
}

/** Subscribes and keeps every message. */
export function collect<TResult extends Record<string, unknown>, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
): Collector<TResult[keyof TResult]> {
  type Message = TResult[keyof TResult];
  const messages: Message[] = [];
  const errors: unknown[] = [];
  const waiters: Array<{ predicate: (message: Message) => boolean; resolve: (message: Message) => void }> = [];
  const unsubscribe = client.subscribe<TResult>(
    { query: print(document), variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (!result.data) return;
        const message = Object.values(result.data)[0] as Message;
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(message)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
        }
      },
      error: (error) => errors.push(error),
      complete: () => undefined,
    },
  );
  return {
    messages,
    errors,
    stop: unsubscribe,
    until(predicate, timeoutMs = 15_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(messages)} errors ${JSON.stringify(errors)}`)), timeoutMs);
        waiters.push({ predicate, resolve: (message) => (clearTimeout(timer), resolve(message)) });
      });
    },
  };
}

/**
 * Starts a subscription and resolves once the gateway has registered it (its local fan-out has
 * opened one more), so nothing published afterwards can be missed.
 */
export async function subscribed<T>(t: TestGateway, start: () => T): Promise<T> {
  const pubsub = t.gateway.services.pubsub;
  const before = pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC);
  const started = start();
  await expect.poll(() => pubsub.subscriptionsOpened(PAYMENT_EVENTS_TOPIC), { interval: 10 }).toBeGreaterThan(before);
  return started;
}

/** An event as `EventsQuery` returns it. */
export type EventNode = EventsResult['events']['edges'][number]['node'];

/**
 * Every event `key` may see after `after` (from the start without it), oldest first, read page by
 * page as a client catches up, and the cursor to go on from. A failed read throws.
 */
export async function eventsAfter(
  graphqlUrl: string,
  key: string,
  options: { after?: string | undefined; first?: number } = {},
): Promise<{ nodes: EventNode[]; cursor: string | undefined }> {
  const nodes: EventNode[] = [];
  let after = options.after;
  for (;;) {
    const page = await execute(graphqlUrl, EventsQuery, { first: options.first ?? 100, ...(after ? { after } : {}) }, { key });
    if (page.errors?.length || !page.data) throw new Error(`events read failed: HTTP ${page.status} ${JSON.stringify(page.errors)}`);
    nodes.push(...page.data.events.edges.map((edge) => edge.node));
    after = page.data.events.pageInfo.endCursor ?? after;
    if (!page.data.events.pageInfo.hasNextPage) return { nodes, cursor: after };
  }
}
