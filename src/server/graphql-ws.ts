// graphql-ws on the same HTTP server and path as POST /graphql. The key arrives as
// connectionParams.authorization; a missing or bad key closes the socket with 4401, and the key is
// checked again for every operation. Revoking a key closes every socket that used it with 4403,
// on every instance. Subscriptions fan out through SubscriptionFanOut: each event is executed once
// per group of alike subscriptions, in a context of its own. Errors leave through the same
// formatter as HTTP: the same codes, and "Internal error" for the unexpected.

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type GraphQLSchema, type ValidationRule } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../lib/logger.js';
import { detachedClient, type ApiClient } from '../modules/clients/api-client.entity.js';
import { API_CLIENT_REVOKED_CHANNEL } from '../modules/clients/api-client.service.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { authenticate, describeOperation, type GatewayContext } from '../graphql/context.js';
import { createFormatError, forbidden, isRuleCode, unauthenticated } from '../graphql/errors.js';
import { queryTooLong } from '../graphql/limits.js';
import { usesIntrospection } from './introspection.js';
import { OTHER_OPERATION, operationLabel, type GatewayMetrics } from './metrics.js';
import { SubscriptionFanOut, type SubscriptionCaller } from './fan-out.js';

/** Close code for a missing or bad key at connection time, or on an operation. */
export const WS_UNAUTHORIZED = 4401;
/** Close code for a socket whose key (or an operation's key) was revoked while it was open. */
export const WS_KEY_REVOKED = 4403;

interface ConnectionState {
  authorization: unknown;
  connectionId: string;
}

export interface GraphqlWsOptions {
  httpServer: Server;
  schema: GraphQLSchema;
  services: Services;
  db: Database;
  logger: Logger;
  metrics: GatewayMetrics;
  validationRules: ValidationRule[];
  development: boolean;
  maxPayloadBytes: number;
  maxTokens: number;
  /** Longest query text, refused before it is parsed (`GRAPHQL_MAX_QUERY_CHARS`). */
  maxQueryChars: number;
}

/** Query texts kept parsed and validated: subscribers mostly send the same few documents. */
const DOCUMENT_CACHE_SIZE = 200;

/** Attaches graphql-ws to the HTTP server; resolves once it listens for key revocations. */
export async function attachGraphqlWs(options: GraphqlWsOptions): Promise<{ close(): Promise<void> }> {
  const log = options.logger.child({ component: 'graphql-ws' });
  const wss = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: options.maxPayloadBytes });
  const states = new WeakMap<object, ConnectionState>();
  const rules = [...specifiedRules, ...options.validationRules];
  const sockets = new SocketsByClient();
  const formatError = createFormatError({ logger: log, development: options.development });
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const fanOut = new SubscriptionFanOut({ schema: options.schema, services: options.services, db: options.db, logger: log, format });
  const documents = new Map<string, DocumentNode>();

  // Any instance may commit a revocation: each one closes the sockets it holds for that client.
  const unlisten = await options.db.listen(API_CLIENT_REVOKED_CHANNEL, (clientId) => {
    const closed = sockets.closeAll(clientId, WS_KEY_REVOKED, 'API key revoked');
    if (closed > 0) log.info({ clientId, sockets: closed }, 'closed the sockets of a revoked client');
  });

  const disposable = useServer<Record<string, unknown> | undefined, { state?: ConnectionState }>(
    {
      schema: options.schema,
      // Otherwise graphql-ws reads NODE_ENV itself and, outside "production", closes a socket whose
      // handler threw with the error's message as the close reason.
      isProd: !options.development,
      // graphql-js runs every event of a subscription with the context built once in onSubscribe,
      // per subscriber; the fan-out runs each event once per group of alike subscriptions, with an
      // EntityManager fork and DataLoaders of its own, so nested fields are read fresh and
      // nothing accumulates per socket.
      subscribe: (args) => fanOut.subscribe(args),
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        // GraphiQL sends its header editor's names as they are typed; accept either case.
        const authorization = params.authorization ?? params.Authorization;
        let client: ApiClient | null;
        try {
          ({ client } = await authenticate(options.services, options.db.fork(), authorization));
        } catch (error) {
          // The reason carries the correlation id of the logged error, never the error itself.
          const correlationId = randomUUID();
          log.error({ err: error, correlationId }, 'unexpected error accepting a graphql-ws connection');
          ctx.extra.socket.close(CloseCode.InternalServerError, `Internal error ${correlationId}`);
          return false;
        }
        if (!client) {
          options.metrics.wsConnections.inc({ outcome: 'rejected' });
          ctx.extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized');
          return false;
        }
        options.metrics.wsConnections.inc({ outcome: 'accepted' });
        states.set(ctx.extra.socket, { authorization, connectionId: randomUUID() });
        sockets.add(client.id, ctx.extra.socket);
        // graphql-ws keeps the upgrade request for as long as the socket lives; nothing here reads it again.
        Reflect.deleteProperty(ctx.extra, 'request');
        return true;
      },
      // Parse and validate here, with the same token limit and rules as HTTP, then hand graphql-ws
      // ready execution arguments, or the errors (with HTTP's codes) that refuse the operation.
      onSubscribe: errorsInsteadOfThrowing(async (ctx, id, payload) => {
        const state = states.get(ctx.extra.socket);
        const connectionClient = (await authenticate(options.services, options.db.fork(), state?.authorization)).client;
        if (!state || !connectionClient) {
          ctx.extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized');
          return [new GraphQLError('The API key is no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        // GraphiQL sends its Headers tab with every operation; such an operation runs as that key
        // (which must itself be valid), never as more than it.
        const operationAuthorization = headerOf(payload.extensions, 'authorization');
        let client = connectionClient;
        if (operationAuthorization !== undefined) {
          const operationClient = (await authenticate(options.services, options.db.fork(), operationAuthorization)).client;
          if (!operationClient) return [unauthenticated('INVALID')];
          client = operationClient;
          // Revoking this key must end the subscriptions it opened here too.
          sockets.add(client.id, ctx.extra.socket);
        }
        // Refused before parsing, as over HTTP.
        if (payload.query.length > options.maxQueryChars) return [queryTooLong(options.maxQueryChars)];
        // A document parsed and validated once is shared by every operation sending the same text.
        let document = documents.get(payload.query);
        if (!document) {
          try {
            document = parse(payload.query, { maxTokens: options.maxTokens });
          } catch (error) {
            return [withCode(error instanceof GraphQLError ? error : new GraphQLError('Could not parse the operation'), 'GRAPHQL_PARSE_FAILED')];
          }
          const errors = validate(options.schema, document, rules);
          if (errors.length > 0) return errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
          if (documents.size >= DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value!);
          documents.set(payload.query, document);
        }
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) {
          const message = payload.operationName ? `Unknown operation named "${payload.operationName}".` : 'Must provide operation name if query contains multiple operations.';
          return [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })];
        }
        const introspectionAllowed = options.development || client.isAdmin();
        if (!introspectionAllowed && usesIntrospection(document)) return [forbidden('introspection is available to ADMIN keys only')];
        // The socket's counterpart of an HTTP request line: who runs which operation.
        log.info({ connectionId: state.connectionId, clientId: client.id, operationId: id, operation: describeOperation(operation) }, 'graphql-ws operation started');
        // A subscription keeps only who asked and where to answer; its contexts are built when used.
        const contextValue: GatewayContext | SubscriptionCaller =
          operation.operation === 'subscription'
            ? { kind: 'subscription-caller', client: detachedClient(client), socket: ctx.extra.socket, operationId: id, connectionId: state.connectionId, query: payload.query, introspectionAllowed }
            : fanOut.context(client, introspectionAllowed, `${state.connectionId}/${payload.operationName ?? 'anonymous'}`, log.child({ connectionId: state.connectionId, clientId: client.id }));
        return {
          schema: options.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      }),
      onOperation: (_ctx, _id, _payload, args) => {
        options.metrics.graphqlOperations.inc({ operation: operationLabel(options.schema, args.document, args.operationName), type: 'ws', outcome: 'success' });
        return undefined;
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => {
        // Refused before execution (no operation to name), or a subscription's stream that failed.
        options.metrics.graphqlOperations.inc({ operation: OTHER_OPERATION, type: 'ws', outcome: 'error' });
        log.debug({ errors: errors.map((error) => error.message) }, 'graphql-ws operation failed');
        return format(errors);
      },
    },
    wss,
  );

  return {
    async close() {
      await unlisten();
      for (const socket of wss.clients) socket.close(1001, 'Server shutting down');
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The open sockets each client's key is used on (for the connection or for one of its operations). */
class SocketsByClient {
  private readonly byClient = new Map<string, Set<WebSocket>>();
  private readonly bySocket = new WeakMap<WebSocket, Set<string>>();
  /**
   * Clients revoked while this instance ran. A key authenticated just before its revocation
   * committed, but indexed just after the notification, is closed here instead of living on.
   * Revocation is final, and rare: the set only grows, by one id per revoked client.
   */
  private readonly revoked = new Set<string>();

  add(clientId: string, socket: WebSocket): void {
    if (this.revoked.has(clientId)) {
      socket.close(WS_KEY_REVOKED, 'API key revoked');
      return;
    }
    let clients = this.bySocket.get(socket);
    if (!clients) {
      clients = new Set();
      this.bySocket.set(socket, clients);
      socket.once('close', () => this.remove(socket));
    }
    clients.add(clientId);
    let set = this.byClient.get(clientId);
    if (!set) {
      set = new Set();
      this.byClient.set(clientId, set);
    }
    set.add(socket);
  }

  /** Closes every socket of the client; returns how many. */
  closeAll(clientId: string, code: number, reason: string): number {
    this.revoked.add(clientId);
    const set = this.byClient.get(clientId);
    if (!set) return 0;
    const open = [...set];
    for (const socket of open) socket.close(code, reason);
    return open.length;
  }

  private remove(socket: WebSocket): void {
    for (const clientId of this.bySocket.get(socket) ?? []) {
      const set = this.byClient.get(clientId);
      set?.delete(socket);
      if (set?.size === 0) this.byClient.delete(clientId);
    }
    this.bySocket.delete(socket);
  }
}

/**
 * An onSubscribe hook whose unexpected failure (a database outage while authenticating, say)
 * becomes an error for the formatter to mask and log, where graphql-ws would close the socket.
 */
function errorsInsteadOfThrowing<A extends unknown[]>(
  hook: (...args: A) => Promise<ExecutionArgs | readonly GraphQLError[]>,
): (...args: A) => Promise<ExecutionArgs | readonly GraphQLError[]> {
  return async (...args) => {
    try {
      return await hook(...args);
    } catch (error) {
      const original = error instanceof Error ? error : new Error(String(error));
      return [new GraphQLError(original.message, { originalError: original })];
    }
  };
}

/**
 * The error with the code HTTP gives the same refusal (graphql-js's own errors carry none); the
 * gateway's own validation rules keep theirs, as they do over HTTP.
 */
function withCode(error: GraphQLError, code: string): GraphQLError {
  const own = error.extensions.code;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: typeof own === 'string' && isRuleCode(own) ? own : code },
  });
}

/** A header from an operation's `extensions.headers`, matched case-insensitively. */
function headerOf(extensions: Record<string, unknown> | null | undefined, name: string): unknown {
  const headers = extensions?.headers;
  if (!headers || typeof headers !== 'object') return undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}
