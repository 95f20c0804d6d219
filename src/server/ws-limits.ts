// What one graphql-ws socket may ask of the gateway, so that no socket can take it from the others:
// a rate of messages (a token bucket: over it the socket is closed with 4429), a number of
// operations set up at once (beyond it the socket is no longer read until they are done: TCP
// pushes back on its sender, not on everyone), and a number of operations held at once (beyond it
// a new `subscribe` is answered SUBSCRIPTION_LIMIT, and the others keep running).

import { performance } from 'node:perf_hooks';

/** Close code for a socket that sent messages faster than its rate allows. */
export const WS_TOO_MANY_MESSAGES = 4429;

/** The error code of a `subscribe` beyond the socket's operation limit. */
export const SUBSCRIPTION_LIMIT = 'SUBSCRIPTION_LIMIT';

export interface WsLimits {
  /** Messages a socket may send per second, on average (`GRAPHQL_WS_MESSAGES_PER_SECOND`). */
  messagesPerSecond: number;
  /** Messages a socket may send at once, beyond the rate (`GRAPHQL_WS_MESSAGE_BURST`). */
  messageBurst: number;
  /** Operations (subscriptions, and queries in flight) a socket may hold at once (`GRAPHQL_WS_MAX_SUBSCRIPTIONS`). */
  maxOperations: number;
}

/**
 * Operations a socket may have being set up (authenticated, parsed, subscribed) at once: beyond it,
 * its socket is paused until one is done. Small: a client rarely starts more than a few at once.
 */
export const MAX_PENDING_OPERATIONS = 16;

/** A token in the bucket's unit: thousandths of a message, so that a refill of whole milliseconds stays whole. */
const TOKEN = 1000;

/**
 * A socket's token bucket, as two fields of its Connection rather than an object of its own:
 * thousands of idle sockets keep it. Both are small integers, which V8 keeps in the object itself
 * (a fraction, or a time in epoch milliseconds, would be a number boxed on the heap).
 */
export interface MessageBucket {
  /** Tokens left, in thousandths of a message. */
  messageTokens: number;
  /** When they were last counted, on messageClock(). */
  messagesCountedAt: number;
}

/** Where messageClock() starts: when this module loaded. */
const EPOCH = performance.now();

/**
 * Milliseconds since this module loaded, in 32 bits: a small integer, which wraps after 49.7 days
 * (negative after 24.8). A monotonic clock: a change of the system time refills no bucket.
 */
export function messageClock(now: number = performance.now()): number {
  return (now - EPOCH) | 0;
}

/** A full bucket's tokens: a new socket's. */
export function fullBucket(limits: Pick<WsLimits, 'messageBurst'>): number {
  return limits.messageBurst * TOKEN;
}

/**
 * Counts the tokens earned since the bucket was last counted. Elapsed time is the difference of two
 * 32-bit times taken as unsigned, right across the clock's wrap, for any gap under 49.7 days: the
 * keep-alive counts every open socket's bucket at least hourly (WsSockets.ping).
 */
export function refillMessages(bucket: MessageBucket, limits: Pick<WsLimits, 'messagesPerSecond' | 'messageBurst'>, now: number): void {
  const elapsed = (now - bucket.messagesCountedAt) >>> 0;
  bucket.messagesCountedAt = now;
  // Milliseconds times messages a second are thousandths of a message: a whole number for a whole rate.
  bucket.messageTokens = Math.min(limits.messageBurst * TOKEN, bucket.messageTokens + Math.floor(elapsed * limits.messagesPerSecond));
}

/** Takes one message's token at `now` (messageClock()); false when the socket is over its rate. */
export function takeMessage(bucket: MessageBucket, limits: Pick<WsLimits, 'messagesPerSecond' | 'messageBurst'>, now: number): boolean {
  refillMessages(bucket, limits, now);
  if (bucket.messageTokens < TOKEN) return false;
  bucket.messageTokens -= TOKEN;
  return true;
}
