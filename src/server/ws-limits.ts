// What one graphql-ws socket may ask of the gateway, so that no socket can take it from the others:
// a rate of messages (a token bucket: over it the socket is closed with 4429), a number of
// operations set up at once (beyond it the socket is no longer read until they are done: TCP
// pushes back on its sender, not on everyone), and a number of operations held at once (beyond it
// a new `subscribe` is answered SUBSCRIPTION_LIMIT, and the others keep running).

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

/**
 * A socket's token bucket. Two numbers, so that thousands of idle sockets cost little: the tokens
 * left, and when they were last counted.
 */
export class MessageBucket {
  private tokens: number;
  private countedAt: number;

  constructor(
    private readonly limits: Pick<WsLimits, 'messagesPerSecond' | 'messageBurst'>,
    now: number,
  ) {
    this.tokens = limits.messageBurst;
    this.countedAt = now;
  }

  /** Takes one message's token; false when the socket is over its rate. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.countedAt);
    this.countedAt = now;
    this.tokens = Math.min(this.limits.messageBurst, this.tokens + (elapsed * this.limits.messagesPerSecond) / 1000);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
