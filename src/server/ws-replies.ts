// What the graphql-ws server sends back for an operation: a `next` with a result, an `error`, and the
// `complete` or `error` that ends a subscription's stream; every error through the formatter HTTP
// uses (the same codes, "Internal error" for the unexpected). And the reason a socket is closed
// with after an unexpected failure. The fan-out (src/server/fan-out.ts) writes a subscription's
// events itself, one frame per group; what is here is sent once per operation.

import { GraphQLError, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { MessageType } from 'graphql-ws';
import type { Logger } from '../lib/logger.js';
import { OTHER_OPERATION } from './metric-labels.js';
import type { GatewayMetrics } from './metrics.js';
import type { Connection, SubscriptionHolds } from './ws-connection.js';

/** Errors as a client receives them: through the formatter HTTP uses. */
export type FormatErrors = (errors: readonly GraphQLError[]) => GraphQLFormattedError[];

export class WsReplies {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly log: Logger,
    private readonly format: FormatErrors,
    /** Where an ended subscription's hold on its client's maximum goes back. */
    private readonly holds: SubscriptionHolds,
  ) {}

  /** An `error`: refused before execution (no operation to name), or a subscription's stream that failed. */
  errors(connection: Connection, operationId: string, errors: readonly GraphQLError[]): void {
    this.metrics.graphqlOperations.inc({ operation: OTHER_OPERATION, type: 'ws', outcome: 'error' });
    this.log.debug({ errors: errors.map((error) => error.message) }, 'graphql-ws operation failed');
    connection.send({ id: operationId, type: MessageType.Error, payload: this.format(errors) });
  }

  /** A `next` with the result, its errors through the formatter. */
  result(connection: Connection, operationId: string, result: ExecutionResult): void {
    connection.send({ id: operationId, type: MessageType.Next, payload: result.errors ? { ...result, errors: this.format(result.errors) } : result });
  }

  /** A subscription's stream ended (the fan-out says so): `complete`, or `error` when it failed. */
  streamEnded(connection: Connection, operationId: string, error?: unknown): void {
    if (connection.operation(operationId) === undefined) return;
    connection.deleteOperation(operationId, this.holds);
    if (error === undefined) {
      connection.send({ id: operationId, type: MessageType.Complete });
      return;
    }
    // The stream failed (a subscriber too far behind, an execution that threw): graphql-ws's `error`.
    this.errors(connection, operationId, [unexpectedError(error)]);
  }
}

/**
 * An unexpected failure as a GraphQL error, for the formatter to mask and log. Anything but an
 * Error thrown becomes the message as String() prints it, an object included.
 */
export function unexpectedError(error: unknown): GraphQLError {
  const original = error instanceof Error ? error : new Error(String(error));
  return new GraphQLError(original.message, { originalError: original });
}

/** As graphql-ws with isProd: the reason of a close after an unexpected failure names no error. */
export function internalCloseReason(error: unknown, development: boolean): string {
  return development ? limitCloseReason(error instanceof Error ? error.message : String(error)) : 'Internal server error';
}

/** As graphql-ws: a close reason fits in the 123 bytes a close frame allows. */
function limitCloseReason(reason: string): string {
  return Buffer.byteLength(reason) < 124 ? reason : 'Internal server error';
}
