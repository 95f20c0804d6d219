// A graphql-ws `subscribe` message, from its arrival to its answer or its kept subscription: the
// socket's limits (operations held, operations being set up: src/server/ws-limits.ts), the
// operation's span (docs/tracing.md), then what HTTP checks too, in the same order (envelope, key,
// the client's rate, persisted document, length, parse and validation, introspection), then a query
// or mutation run once, or a subscription handed to the fan-out (src/server/fan-out.ts).

import { GraphQLError, OperationTypeNode, execute, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ValidationRule } from 'graphql';
import { CloseCode, MessageType, type SubscribeMessage, type SubscribePayload } from 'graphql-ws';
import type { Logger } from '../lib/logger.js';
import { detachedClient, type ApiClient } from '../modules/clients/api-client.entity.js';
import type { UsedKey } from '../modules/clients/key-cache.js';
import { authenticate, describeOperation } from '../graphql/context.js';
import { checkEnvelope, refusalError, resolveOperation } from '../graphql/envelope.js';
import { forbidden, isRuleCode, rateLimited, unauthenticated } from '../graphql/errors.js';
import { queryTooLong } from '../graphql/limits.js';
import { documentHashOf } from '../graphql/trusted-documents.js';
import { describeGraphqlSpan, failGraphqlSpan, inGraphqlSpan } from '../lib/tracing/request-spans.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { usesIntrospection } from './introspection.js';
import { operationLabel } from './metric-labels.js';
import type { SubscriptionFanOut } from './fan-out.js';
import { WS_KEY_REVOKED, type ConnectionsByKey } from './connections-by-key.js';
import { MAX_PENDING_OPERATIONS, SUBSCRIPTION_LIMIT } from './ws-limits.js';
import { WS_UNAUTHORIZED, type Connection } from './ws-connection.js';
import type { GraphqlWsOptions } from './ws-options.js';
import { unexpectedError, type WsReplies } from './ws-replies.js';

/** Query texts kept parsed and validated: subscribers mostly send the same few documents. */
const DOCUMENT_CACHE_SIZE = 200;

/** Runs the operations of every socket of one graphql-ws server. */
export class WsOperations {
  private readonly rules: ValidationRule[];
  /** A document parsed and validated once is shared by every operation sending the same text. */
  private readonly documents = new Map<string, DocumentNode>();
  private readonly clients: GraphqlWsOptions['services']['clients'];

  constructor(
    private readonly options: GraphqlWsOptions,
    private readonly log: Logger,
    private readonly fanOut: SubscriptionFanOut,
    private readonly byKey: ConnectionsByKey,
    private readonly replies: WsReplies,
  ) {
    this.rules = [...specifiedRules, ...options.validationRules];
    this.clients = options.services.clients;
  }

  /** A `subscribe` message of an open socket. */
  async subscribe(connection: Connection, message: SubscribeMessage): Promise<void> {
    const socket = connection.socket;
    if (!connection.acknowledged) {
      socket.close(CloseCode.Unauthorized, 'Unauthorized');
      return;
    }
    const { id, payload } = message;
    if (connection.hasOperation(id)) {
      socket.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
      return;
    }
    // Beyond its limit a socket's new operation is refused; the ones it holds go on.
    if (connection.operationCount() >= this.options.limits.maxOperations) {
      this.replies.errors(connection, id, [new GraphQLError(`A socket may hold at most ${this.options.limits.maxOperations} operations at once; complete one first`, { extensions: { code: SUBSCRIPTION_LIMIT } })]);
      return;
    }
    connection.beginOperation(id);
    // Backpressure: while too many of its operations are being set up, the socket is not read.
    connection.pending += 1;
    if (connection.pending >= MAX_PENDING_OPERATIONS) socket.pause();
    try {
      // With tracing on, in a GraphQL span of its own (docs/tracing.md): a subscription's until it is set up.
      if (tracingOn()) await inGraphqlSpan(() => this.run(connection, id, payload), { extensions: payload.extensions, connection });
      else await this.run(connection, id, payload);
    } catch (error) {
      // An unexpected failure (a database outage while authenticating, say) becomes an error
      // for the formatter to mask and log, where graphql-ws would close the socket.
      if (connection.operation(id) !== null) return;
      connection.deleteOperation(id, this.clients);
      this.replies.errors(connection, id, [unexpectedError(error)]);
    } finally {
      connection.pending -= 1;
      if (socket.isPaused && connection.pending < MAX_PENDING_OPERATIONS) socket.resume();
    }
  }

  /** Parses, checks and runs one operation; a subscription stays among the connection's operations. */
  private async run(connection: Connection, id: string, payload: SubscribePayload): Promise<void> {
    const { options } = this;
    const socket = connection.socket;
    // Well-typed (graphql-ws checked the fields' types), but too deep or with a bad persisted query.
    const malformed = checkEnvelope(payload as unknown as Record<string, unknown>, 'ws');
    if (malformed) return this.refuse(connection, id, [refusalError(malformed)]);
    const connectionKey = await authenticate(options.services, options.db.fork(), connection.authorization);
    if (!connectionKey.client) {
      // Expired a moment before the key's expiry timer fires: closed as the timer would close it.
      if (connectionKey.authFailure === 'EXPIRED') socket.close(WS_KEY_REVOKED, 'API key expired');
      else socket.close(WS_UNAUTHORIZED, 'Unauthorized');
      return this.refuse(connection, id, [new GraphQLError('The API key is no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })]);
    }
    // GraphiQL sends its Headers tab with every operation; such an operation runs as that key
    // (which must itself be valid), never as more than it.
    const operationAuthorization = headerOf(payload.extensions, 'authorization');
    let { client, apiKey } = connectionKey;
    if (operationAuthorization !== undefined) {
      const operationKey = await authenticate(options.services, options.db.fork(), operationAuthorization);
      if (!operationKey.client) return this.refuse(connection, id, [unauthenticated(operationKey.authFailure === 'EXPIRED' ? 'EXPIRED' : 'INVALID')]);
      ({ client, apiKey } = operationKey);
      // Revoking this key (or its client), or its expiry, must end the subscriptions it opened here too.
      this.byKey.add(apiKey, connection);
    }
    // The client's rate, as over HTTP: this operation is refused, the socket stays open.
    const admission = this.clients.admit(client);
    if (!admission.ok) return this.refuse(connection, id, [rateLimited(admission.retryAfterSeconds)]);
    // A document sent by hash (graphql-ws wants a `query`: such a client sends ""), or a document a
    // trusted-documents-only client may not run: resolved or refused before parsing, as over HTTP.
    const persisted = options.trustedDocuments.resolve(payload, client, { automaticPersistedQueries: false });
    if (!persisted.ok) return this.refuse(connection, id, [persisted.error]);
    if (persisted.query !== undefined) payload = { ...payload, query: persisted.query };
    // Refused before parsing, as over HTTP.
    if (payload.query.length > options.maxQueryChars) return this.refuse(connection, id, [queryTooLong(options.maxQueryChars)]);
    let document = this.documents.get(payload.query);
    if (!document) {
      try {
        document = parse(payload.query, { maxTokens: options.maxTokens });
      } catch (error) {
        return this.refuse(connection, id, [withCode(error instanceof GraphQLError ? error : new GraphQLError('Could not parse the operation'), 'GRAPHQL_PARSE_FAILED')]);
      }
      const errors = validate(options.schema, document, this.rules);
      if (errors.length > 0) return this.refuse(connection, id, errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')));
      if (this.documents.size >= DOCUMENT_CACHE_SIZE) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(payload.query, document);
    }
    const operation = resolveOperation(document, payload.operationName);
    if ('code' in operation) return this.refuse(connection, id, [refusalError(operation)]);
    if (tracingOn()) describeGraphqlSpan({ type: operation.operation, name: operation.name?.value, documentId: documentHashOf(payload) });
    const introspectionAllowed = options.development || client.isAdmin();
    if (!introspectionAllowed && usesIntrospection(document)) return this.refuse(connection, id, [forbidden('introspection is available to ADMIN keys only')]);
    // The socket's counterpart of an HTTP request line: who runs which operation.
    this.log.info({ connectionId: connection.connectionId, clientId: client.id, operationId: id, operation: describeOperation(operation) }, 'graphql-ws operation started');
    if (connection.operation(id) !== null) return;
    const args: ExecutionArgs = { schema: options.schema, document, operationName: payload.operationName, variableValues: payload.variables };
    if (operation.operation === OperationTypeNode.SUBSCRIPTION) await this.keepSubscription(connection, id, args, client, introspectionAllowed, payload.query);
    else await this.executeOnce(connection, id, args, client, apiKey, introspectionAllowed);
  }

  /** A subscription: a member of its group in the fan-out, kept by the connection until it ends. */
  private async keepSubscription(connection: Connection, id: string, args: ExecutionArgs, client: ApiClient, introspectionAllowed: boolean, query: string): Promise<void> {
    // A subscription keeps only a member of its group; its contexts are built when used.
    // The key cache's copy of the client is shared by every subscription using that key.
    const caller = { client: detachedClient(client), connectionId: connection.connectionId, query, introspectionAllowed };
    // The client's subscriptions, on every socket and instance: over its maximum, this one is refused and the others run on.
    const opened = this.clients.openSubscription(client);
    if (!opened.ok) {
      return this.refuse(connection, id, [new GraphQLError(`This client may hold at most ${opened.maxSubscriptions} subscriptions at once; complete one first`, { extensions: { code: SUBSCRIPTION_LIMIT } })]);
    }
    // Held by the socket once it keeps the subscription, given back when it lets the operation go
    // (Connection.keepSubscription); given back here on every other way out.
    let kept = false;
    try {
      const subscribed = await this.fanOut.subscribe(args, caller, connection, id);
      this.options.metrics.graphqlOperations.inc({ operation: operationLabel(args.schema, args.document, args.operationName), type: 'ws', outcome: 'success' });
      if (!('close' in subscribed)) {
        // Refused by the root field (not allowed, no such id): its errors in a `next`, then `complete`, as graphql-ws does.
        if (connection.operation(id) !== null) return;
        failGraphqlSpan(subscribed.errors?.[0]?.extensions.code);
        connection.deleteOperation(id, this.clients);
        this.replies.result(connection, id, subscribed);
        connection.send({ id, type: MessageType.Complete });
        return;
      }
      const socket = connection.socket;
      if (connection.operation(id) !== null || socket.readyState !== socket.OPEN) {
        subscribed.close();
        return;
      }
      connection.keepSubscription(id, subscribed, client.id);
      kept = true;
    } finally {
      if (!kept) this.clients.closeSubscription(client.id);
    }
  }

  /** A query or a mutation: run once, answered with `next` and `complete`. */
  private async executeOnce(connection: Connection, id: string, args: ExecutionArgs, client: ApiClient, apiKey: UsedKey, introspectionAllowed: boolean): Promise<void> {
    const connectionId = connection.connectionId;
    const contextValue = this.fanOut.context(client, introspectionAllowed, `${connectionId}/${args.operationName ?? 'anonymous'}`, this.log.child({ connectionId, clientId: client.id }), apiKey);
    const result = await execute({ ...args, contextValue });
    this.options.metrics.graphqlOperations.inc({ operation: operationLabel(args.schema, args.document, args.operationName), type: 'ws', outcome: 'success' });
    if (connection.operation(id) !== null) return;
    connection.deleteOperation(id, this.clients);
    if ('next' in result) throw new Error('incremental delivery is not supported over graphql-ws');
    if (result.errors) failGraphqlSpan(result.errors[0]?.extensions.code);
    this.replies.result(connection, id, result);
    connection.send({ id, type: MessageType.Complete });
  }

  /** Refuses the operation `id` with `errors`, unless it was completed (or its socket closed) meanwhile. */
  private refuse(connection: Connection, id: string, errors: readonly GraphQLError[]): void {
    if (connection.operation(id) !== null) return;
    failGraphqlSpan(errors[0]?.extensions.code);
    connection.deleteOperation(id, this.clients);
    this.replies.errors(connection, id, errors);
  }
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
