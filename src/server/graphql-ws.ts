// graphql-ws on the same HTTP server and path as POST /graphql: the graphql-transport-ws protocol
// (what graphql-ws clients speak), served here on `ws` directly. The key arrives as
// connectionParams.authorization; a missing or bad key closes the socket with 4401, and the key is
// checked again for every operation. Revoking a key, or its client, closes every socket that used
// it with 4403, on every instance; so does the key's expiry, when it comes (connections-by-key.ts).
// Subscriptions fan out through SubscriptionFanOut: each event is executed once per group of alike
// subscriptions, in a context of its own. Errors leave through the same formatter as HTTP: the
// same codes, and "Internal error" for the unexpected.
//
// Why not graphql-ws's own server: it keeps, for every subscription, the suspended async functions
// of its message handler and `for await` loop (with the message, the execution arguments and three
// closures), and per socket a timer and an adapter of closures; with thousands of idle
// subscriptions that is most of their memory. Here a socket holds one Connection (its handlers are
// shared by all sockets, keep-alive is one timer for all), and a subscription one fan-out Member.
// The protocol's messages, close codes and keep-alive are graphql-ws's (same constants, same
// message validation).

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { GraphQLError, OperationTypeNode, execute, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema, type ValidationRule } from 'graphql';
import { CloseCode, GRAPHQL_TRANSPORT_WS_PROTOCOL, MessageType, handleProtocols, parseMessage, type Message, type SubscribePayload } from 'graphql-ws';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { messageText } from '../lib/ws-message.js';
import type { Logger } from '../lib/logger.js';
import { detachedClient } from '../modules/clients/api-client.entity.js';
import { API_CLIENT_REVOKED_CHANNEL, API_KEY_REVOKED_CHANNEL } from '../modules/clients/api-client.service.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { authenticate, describeOperation } from '../graphql/context.js';
import { checkEnvelope, closeReason, refusalError, resolveOperation } from '../graphql/envelope.js';
import { createFormatError, forbidden, isRuleCode, rateLimited, unauthenticated } from '../graphql/errors.js';
import { queryTooLong } from '../graphql/limits.js';
import { documentHashOf, type TrustedDocuments } from '../graphql/trusted-documents.js';
import { describeGraphqlSpan, failGraphqlSpan, inGraphqlSpan, keepConnectionTraceContext } from '../lib/tracing/request-spans.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { usesIntrospection } from './introspection.js';
import { OTHER_OPERATION, operationLabel, type GatewayMetrics } from './metrics.js';
import { SubscriptionFanOut, type Member, type SubscriptionSink } from './fan-out.js';
import { ConnectionsByKey, WS_KEY_REVOKED, type IndexedSocket, type KeyInUse } from './connections-by-key.js';

export { WS_KEY_REVOKED } from './connections-by-key.js';
import { MAX_PENDING_OPERATIONS, MessageBucket, SUBSCRIPTION_LIMIT, WS_TOO_MANY_MESSAGES, type WsLimits } from './ws-limits.js';

/** Close code for a missing or bad key at connection time, or on an operation. */
export const WS_UNAUTHORIZED = 4401;

/** Keep-alive ticks per keep-alive period, each pinging its share of the sockets. */
const KEEP_ALIVE_SLICES = 12;

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
  /** The persisted-documents manifest: documents sent by hash, and the trusted-documents-only rule. */
  trustedDocuments: TrustedDocuments;
  /** As graphql-ws (3 s): a socket must send `connection_init` this soon after opening (`GRAPHQL_WS_CONNECTION_INIT_TIMEOUT_MS`). */
  connectionInitTimeoutMs: number;
  /** As graphql-ws (12 s): every socket is pinged this often, and closed if the previous ping got no pong (`GRAPHQL_WS_KEEP_ALIVE_MS`). */
  keepAliveMs: number;
  /** Per-socket rate of messages and number of operations (src/server/ws-limits.ts). */
  limits: WsLimits;
}

/** Query texts kept parsed and validated: subscribers mostly send the same few documents. */
const DOCUMENT_CACHE_SIZE = 200;

/**
 * One open socket: its protocol state, its key and its operations. Thousands stay open and idle, so
 * it keeps no more than it must: its id and keep-alive slice are derived from a serial number.
 */
class Connection implements SubscriptionSink, IndexedSocket {
  initReceived = false;
  acknowledged = false;
  /** A ping was sent and no pong has come back yet. */
  awaitingPong = false;
  authorization: unknown = undefined;
  initTimer: NodeJS.Timeout | undefined;
  // Running operations by id: null while one is being set up, then a subscription's member. Nearly
  // every socket runs one subscription, so the first is kept in two fields; a Map (some 200 bytes
  // even when it holds one entry) is made only for a socket that runs more than one at a time.
  private firstId: string | undefined;
  private first: Member | null = null;
  private others: Map<string, Member | null> | undefined;
  /** The keys this socket uses (the connection's, and operations' own): one, or several. */
  keys: KeyInUse | KeyInUse[] | undefined;
  /** Operations being set up now: beyond MAX_PENDING_OPERATIONS the socket is not read. */
  pending = 0;

  constructor(
    readonly socket: WebSocket,
    /** The socket's place in the order sockets opened on this instance. */
    readonly serial: number,
    /** The socket's rate of messages. */
    readonly bucket: MessageBucket,
    /** Gives back a subscription its client held (ClientLimiter.closeSubscription). */
    private readonly release: (clientId: string) => void,
  ) {}

  /** Operations held now: subscriptions, and operations being set up or run. */
  operationCount(): number {
    return (this.firstId === undefined ? 0 : 1) + (this.others?.size ?? 0);
  }

  /** Names the socket in log lines and request ids, from its acknowledgement on. */
  get connectionId(): string {
    return connectionIdOf(this.serial);
  }

  /** The running operation `id`: undefined if there is none, null while it is being set up. */
  operation(id: string): Member | null | undefined {
    return id === this.firstId ? this.first : this.others?.get(id);
  }

  hasOperation(id: string): boolean {
    return id === this.firstId || (this.others?.has(id) ?? false);
  }

  setOperation(id: string, member: Member | null): void {
    if (id === this.firstId || (this.firstId === undefined && !this.others?.has(id))) {
      this.firstId = id;
      this.first = member;
    } else {
      (this.others ??= new Map()).set(id, member);
    }
  }

  deleteOperation(id: string): void {
    const member = this.operation(id);
    if (member?.heldFor !== undefined) this.release(member.heldFor);
    if (id === this.firstId) {
      this.firstId = undefined;
      this.first = null;
    } else if (this.others?.delete(id) && this.others.size === 0) {
      this.others = undefined;
    }
  }

  /** Removes every operation; returns the subscriptions' members, to be closed. */
  takeOperations(): Member[] {
    const members = [this.first, ...(this.others?.values() ?? [])].filter((member): member is Member => member !== null);
    for (const member of members) if (member.heldFor !== undefined) this.release(member.heldFor);
    this.firstId = undefined;
    this.first = null;
    this.others = undefined;
    return members;
  }

  send(message: Message): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

/** Attaches graphql-ws to the HTTP server; resolves once it listens for key revocations. */
export async function attachGraphqlWs(options: GraphqlWsOptions): Promise<{ close(): Promise<void> }> {
  const log = options.logger.child({ component: 'graphql-ws' });
  // No client tracking: ws would keep every socket in a Set of its own, with a 'close' listener
  // (a closure) per socket to take it out. `connections` holds the sockets that speak the protocol,
  // and `openSockets` counts every one until it closes, for `close()` to wait on.
  const wss = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: options.maxPayloadBytes, handleProtocols, clientTracking: false });
  const rules = [...specifiedRules, ...options.validationRules];
  const connections = new Map<WebSocket, Connection>();
  const byKey = new ConnectionsByKey();
  const clients = options.services.clients;
  const releaseSubscription = (clientId: string) => clients.closeSubscription(clientId);
  const formatError = createFormatError({ logger: log, development: options.development });
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const fanOut = new SubscriptionFanOut({
    schema: options.schema,
    services: options.services,
    db: options.db,
    logger: log,
    format,
    onExecution: () => options.metrics.subscriptionExecutions.inc(),
    // Every sink is a Connection: the fan-out is only ever given those.
    subscriptionEnded: (sink, operationId, error) => subscriptionEnded(sink as Connection, operationId, error),
  });
  const documents = new Map<string, DocumentNode>();
  // As graphql-ws with isProd: the reason of a close after an unexpected failure names no error.
  const internalReason = (error: unknown) => (options.development ? limitCloseReason(error instanceof Error ? error.message : String(error)) : 'Internal server error');

  // Any instance may commit a revocation: each one closes the sockets it holds for that client, or key.
  const unlistenClients = await options.db.listen(API_CLIENT_REVOKED_CHANNEL, (clientId) => {
    const closed = byKey.closeClient(clientId, WS_KEY_REVOKED, 'API key revoked');
    if (closed > 0) log.info({ clientId, sockets: closed }, 'closed the sockets of a revoked client');
  });
  const unlistenKeys = await options.db.listen(API_KEY_REVOKED_CHANNEL, (keyId) => {
    const closed = byKey.closeKey(keyId, WS_KEY_REVOKED, 'API key revoked');
    if (closed > 0) log.info({ keyId, sockets: closed }, 'closed the sockets of a revoked key');
  });

  function subscriptionEnded(connection: Connection, operationId: string, error?: unknown): void {
    if (connection.operation(operationId) === undefined) return;
    connection.deleteOperation(operationId);
    if (error === undefined) {
      connection.send({ id: operationId, type: MessageType.Complete });
      return;
    }
    // The stream failed (a subscriber too far behind, an execution that threw): graphql-ws's `error`.
    // Anything but an Error thrown becomes the message as String() prints it, an object included.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    const original = error instanceof Error ? error : new Error(String(error));
    sendErrors(connection, operationId, [new GraphQLError(original.message, { originalError: original })]);
  }

  function sendErrors(connection: Connection, operationId: string, errors: readonly GraphQLError[]): void {
    // Refused before execution (no operation to name), or a subscription's stream that failed.
    options.metrics.graphqlOperations.inc({ operation: OTHER_OPERATION, type: 'ws', outcome: 'error' });
    log.debug({ errors: errors.map((error) => error.message) }, 'graphql-ws operation failed');
    connection.send({ id: operationId, type: MessageType.Error, payload: format(errors) });
  }

  /** A `next` with the result, its errors through the formatter. */
  function sendResult(connection: Connection, operationId: string, result: ExecutionResult): void {
    connection.send({ id: operationId, type: MessageType.Next, payload: result.errors ? { ...result, errors: format(result.errors) } : result });
  }

  // One set of handlers for every socket (`this` is the socket), so a socket costs no closures.
  function onMessage(this: WebSocket, data: RawData): void {
    const connection = connections.get(this);
    // A socket closing (over its rate, say) is read no further.
    if (!connection || this.readyState !== this.OPEN) return;
    if (!connection.bucket.take(Date.now())) {
      const keys = [connection.keys ?? []].flat();
      log.warn({ connectionId: connection.acknowledged ? connection.connectionId : undefined, clientIds: [...new Set(keys.map((use) => use.clientId))] }, 'graphql-ws socket closed: too many messages');
      this.close(WS_TOO_MANY_MESSAGES, 'Too many messages');
      return;
    }
    handleMessage(connection, messageText(data)).catch((error: unknown) => {
      log.error({ err: error }, 'unexpected error handling a graphql-ws message');
      connection.socket.close(CloseCode.InternalServerError, internalReason(error));
    });
  }
  function onPong(this: WebSocket): void {
    const connection = connections.get(this);
    if (connection) connection.awaitingPong = false;
  }
  function onSocketError(this: WebSocket, error: Error): void {
    // A frame the client should not have sent (too large, not UTF-8, unmasked): ws closes the
    // socket itself with the WebSocket close code for it (1009, 1007, 1002), and the fault is the client's.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
      log.info({ reason: code }, 'graphql-ws frame refused');
      return;
    }
    log.error({ err: error }, 'graphql-ws socket error');
    this.close(CloseCode.InternalServerError, internalReason(error));
  }
  function onClose(this: WebSocket): void {
    openSockets -= 1;
    const connection = connections.get(this);
    if (connection) {
      connections.delete(this);
      clearTimeout(connection.initTimer);
      byKey.remove(connection);
      for (const member of connection.takeOperations()) member.close();
    }
    if (openSockets === 0) allClosed?.();
  }

  // As graphql-ws: the server's own failure (its HTTP server's, forwarded) ends every socket.
  wss.on('error', (error) => {
    // Before it listens (a busy PORT), the failure is the gateway's start-up to report, in one line.
    if (!options.httpServer.listening) return;
    log.error({ err: error }, 'graphql-ws server error');
    // A socket refused its subprotocol is closing already.
    for (const connection of connections.values()) connection.socket.close(CloseCode.InternalServerError, internalReason(error));
  });

  let opened = 0;
  let openSockets = 0;
  let allClosed: (() => void) | undefined;
  wss.on('connection', (socket: WebSocket) => {
    openSockets += 1;
    socket.on('error', onSocketError);
    socket.on('close', onClose);
    if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL) {
      socket.close(CloseCode.SubprotocolNotAcceptable, 'Subprotocol not acceptable');
      return;
    }
    const connection = new Connection(socket, opened++, new MessageBucket(options.limits, Date.now()), releaseSubscription);
    connections.set(socket, connection);
    connection.initTimer = setTimeout(() => {
      connection.initTimer = undefined;
      if (!connection.initReceived) socket.close(CloseCode.ConnectionInitialisationTimeout, 'Connection initialisation timeout');
    }, options.connectionInitTimeoutMs);
    socket.on('message', onMessage);
    socket.on('pong', onPong);
  });

  // One keep-alive timer for every socket: each socket is pinged every keepAliveMs, and one that did
  // not answer its previous ping is gone. The sockets are spread over KEEP_ALIVE_SLICES ticks, so
  // thousands of them are not pinged (and do not answer) in one burst.
  let tick = 0;
  const keepAlive = setInterval(() => {
    const slice = tick++ % KEEP_ALIVE_SLICES;
    for (const connection of connections.values()) {
      if (connection.serial % KEEP_ALIVE_SLICES !== slice) continue;
      const socket = connection.socket;
      if (socket.readyState !== socket.OPEN) continue;
      if (connection.awaitingPong) {
        socket.terminate();
        continue;
      }
      connection.awaitingPong = true;
      socket.ping();
    }
  }, options.keepAliveMs / KEEP_ALIVE_SLICES);
  keepAlive.unref();

  async function handleMessage(connection: Connection, data: string): Promise<void> {
    const socket = connection.socket;
    let message: Message;
    try {
      message = parseMessage(data);
    } catch {
      // The protocol closes the socket on a malformed message (4400); a subscribe whose payload has
      // a field of the wrong type says which, with the code HTTP gives the same refusal.
      const reason = subscribeRefusal(data) ?? 'Invalid message received';
      log.info({ connectionId: connection.acknowledged ? connection.connectionId : undefined, reason }, 'graphql-ws message refused');
      socket.close(CloseCode.BadRequest, reason);
      return;
    }
    switch (message.type) {
      case MessageType.ConnectionInit: {
        if (connection.initReceived) {
          socket.close(CloseCode.TooManyInitialisationRequests, 'Too many initialisation requests');
          return;
        }
        connection.initReceived = true;
        clearTimeout(connection.initTimer);
        connection.initTimer = undefined;
        const params = message.payload ?? {};
        // GraphiQL sends its header editor's names as they are typed; accept either case.
        const authorization = params.authorization ?? params.Authorization;
        let authenticated: Awaited<ReturnType<typeof authenticate>>;
        try {
          authenticated = await authenticate(options.services, options.db.fork(), authorization);
        } catch (error) {
          // The reason carries the correlation id of the logged error, never the error itself.
          const correlationId = randomUUID();
          log.error({ err: error, correlationId }, 'unexpected error accepting a graphql-ws connection');
          socket.close(CloseCode.InternalServerError, `Internal error ${correlationId}`);
          return;
        }
        if (!authenticated.client) {
          options.metrics.wsConnections.inc({ outcome: 'rejected' });
          socket.close(WS_UNAUTHORIZED, authenticated.authFailure === 'EXPIRED' ? 'API key expired' : 'Unauthorized');
          return;
        }
        if (socket.readyState !== socket.OPEN) return;
        options.metrics.wsConnections.inc({ outcome: 'accepted' });
        // Thousands of sockets may send one key: each keeps the text another socket of the key holds, not a copy.
        connection.authorization = byKey.sharedAuthorization(authenticated.apiKey.id, authorization);
        byKey.add(authenticated.apiKey, connection);
        if (socket.readyState !== socket.OPEN) return;
        connection.acknowledged = true;
        // Its traceparent, if it gave one, is the parent of its operations that bring none (docs/tracing.md).
        if (tracingOn()) keepConnectionTraceContext(connection, params);
        connection.send({ type: MessageType.ConnectionAck });
        return;
      }
      case MessageType.Ping:
        connection.send(message.payload ? { type: MessageType.Pong, payload: message.payload } : { type: MessageType.Pong });
        return;
      case MessageType.Pong:
        return;
      case MessageType.Subscribe: {
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
        if (connection.operationCount() >= options.limits.maxOperations) {
          sendErrors(connection, id, [new GraphQLError(`A socket may hold at most ${options.limits.maxOperations} operations at once; complete one first`, { extensions: { code: SUBSCRIPTION_LIMIT } })]);
          return;
        }
        connection.setOperation(id, null);
        // Backpressure: while too many of its operations are being set up, the socket is not read.
        connection.pending += 1;
        if (connection.pending >= MAX_PENDING_OPERATIONS) socket.pause();
        try {
          // With tracing on, in a GraphQL span of its own (docs/tracing.md): a subscription's until it is set up.
          if (tracingOn()) await inGraphqlSpan(() => runOperation(connection, id, payload), { extensions: payload.extensions, connection });
          else await runOperation(connection, id, payload);
        } catch (error) {
          // An unexpected failure (a database outage while authenticating, say) becomes an error
          // for the formatter to mask and log, where graphql-ws would close the socket.
          if (connection.operation(id) !== null) return;
          connection.deleteOperation(id);
          const original = error instanceof Error ? error : new Error(String(error));
          sendErrors(connection, id, [new GraphQLError(original.message, { originalError: original })]);
        } finally {
          connection.pending -= 1;
          if (socket.isPaused && connection.pending < MAX_PENDING_OPERATIONS) socket.resume();
        }
        return;
      }
      case MessageType.Complete: {
        const member = connection.operation(message.id);
        connection.deleteOperation(message.id);
        member?.close();
        return;
      }
      default: {
        // A message only a server sends (next, error, connection_ack): the protocol's 4400.
        const reason = `Unexpected message of type ${message.type} received`;
        log.info({ connectionId: connection.acknowledged ? connection.connectionId : undefined, reason }, 'graphql-ws message refused');
        socket.close(CloseCode.BadRequest, reason);
        return;
      }
    }
  }

  /** Parses, checks and runs one operation; a subscription stays among the connection's operations. */
  async function runOperation(connection: Connection, id: string, payload: SubscribePayload): Promise<void> {
    const socket = connection.socket;
    const stillWanted = () => connection.operation(id) === null;
    const refuse = (errors: readonly GraphQLError[]) => {
      if (!stillWanted()) return;
      failGraphqlSpan(errors[0]?.extensions.code);
      connection.deleteOperation(id);
      sendErrors(connection, id, errors);
    };
    // Well-typed (graphql-ws checked the fields' types), but too deep or with a bad persisted query.
    const malformed = checkEnvelope(payload as unknown as Record<string, unknown>, 'ws');
    if (malformed) return refuse([refusalError(malformed)]);
    const connectionKey = await authenticate(options.services, options.db.fork(), connection.authorization);
    if (!connectionKey.client) {
      // Expired a moment before the key's expiry timer fires: closed as the timer would close it.
      if (connectionKey.authFailure === 'EXPIRED') socket.close(WS_KEY_REVOKED, 'API key expired');
      else socket.close(WS_UNAUTHORIZED, 'Unauthorized');
      return refuse([new GraphQLError('The API key is no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })]);
    }
    // GraphiQL sends its Headers tab with every operation; such an operation runs as that key
    // (which must itself be valid), never as more than it.
    const operationAuthorization = headerOf(payload.extensions, 'authorization');
    let { client, apiKey } = connectionKey;
    if (operationAuthorization !== undefined) {
      const operationKey = await authenticate(options.services, options.db.fork(), operationAuthorization);
      if (!operationKey.client) return refuse([unauthenticated(operationKey.authFailure === 'EXPIRED' ? 'EXPIRED' : 'INVALID')]);
      ({ client, apiKey } = operationKey);
      // Revoking this key (or its client), or its expiry, must end the subscriptions it opened here too.
      byKey.add(apiKey, connection);
    }
    // The client's rate, as over HTTP: this operation is refused, the socket stays open.
    const admission = clients.admit(client);
    if (!admission.ok) return refuse([rateLimited(admission.retryAfterSeconds)]);
    // A document sent by hash (graphql-ws wants a `query`: such a client sends ""), or a document a
    // trusted-documents-only client may not run: resolved or refused before parsing, as over HTTP.
    const persisted = options.trustedDocuments.resolve(payload, client, { automaticPersistedQueries: false });
    if (!persisted.ok) return refuse([persisted.error]);
    if (persisted.query !== undefined) payload = { ...payload, query: persisted.query };
    // Refused before parsing, as over HTTP.
    if (payload.query.length > options.maxQueryChars) return refuse([queryTooLong(options.maxQueryChars)]);
    // A document parsed and validated once is shared by every operation sending the same text.
    let document = documents.get(payload.query);
    if (!document) {
      try {
        document = parse(payload.query, { maxTokens: options.maxTokens });
      } catch (error) {
        return refuse([withCode(error instanceof GraphQLError ? error : new GraphQLError('Could not parse the operation'), 'GRAPHQL_PARSE_FAILED')]);
      }
      const errors = validate(options.schema, document, rules);
      if (errors.length > 0) return refuse(errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')));
      if (documents.size >= DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value!);
      documents.set(payload.query, document);
    }
    const operation = resolveOperation(document, payload.operationName);
    if ('code' in operation) return refuse([refusalError(operation)]);
    if (tracingOn()) describeGraphqlSpan({ type: operation.operation, name: operation.name?.value, documentId: documentHashOf(payload) });
    const introspectionAllowed = options.development || client.isAdmin();
    if (!introspectionAllowed && usesIntrospection(document)) return refuse([forbidden('introspection is available to ADMIN keys only')]);
    // The socket's counterpart of an HTTP request line: who runs which operation.
    log.info({ connectionId: connection.connectionId, clientId: client.id, operationId: id, operation: describeOperation(operation) }, 'graphql-ws operation started');
    if (!stillWanted()) return;
    const args: ExecutionArgs = { schema: options.schema, document, operationName: payload.operationName, variableValues: payload.variables };
    const label = () => operationLabel(options.schema, document, payload.operationName);
    if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
      // A subscription keeps only a member of its group; its contexts are built when used.
      // The key cache's copy of the client is shared by every subscription using that key.
      const caller = { client: detachedClient(client), connectionId: connection.connectionId, query: payload.query, introspectionAllowed };
      // The client's subscriptions, on every socket and instance: over its maximum, this one is refused and the others run on.
      const opened = clients.openSubscription(client);
      if (!opened.ok) {
        return refuse([new GraphQLError(`This client may hold at most ${opened.maxSubscriptions} subscriptions at once; complete one first`, { extensions: { code: SUBSCRIPTION_LIMIT } })]);
      }
      // Held by the socket once it keeps the subscription, given back when it lets the operation go
      // (Connection.deleteOperation, takeOperations); given back here on every other way out.
      let kept = false;
      try {
        const subscribed = await fanOut.subscribe(args, caller, connection, id);
        options.metrics.graphqlOperations.inc({ operation: label(), type: 'ws', outcome: 'success' });
        if (!('close' in subscribed)) {
          // Refused by the root field (not allowed, no such id): its errors in a `next`, then `complete`, as graphql-ws does.
          if (!stillWanted()) return;
          failGraphqlSpan(subscribed.errors?.[0]?.extensions.code);
          connection.deleteOperation(id);
          sendResult(connection, id, subscribed);
          connection.send({ id, type: MessageType.Complete });
          return;
        }
        if (!stillWanted() || socket.readyState !== socket.OPEN) {
          subscribed.close();
          return;
        }
        subscribed.heldFor = client.id;
        connection.setOperation(id, subscribed);
        kept = true;
      } finally {
        if (!kept) clients.closeSubscription(client.id);
      }
      return;
    }
    const contextValue = fanOut.context(client, introspectionAllowed, `${connection.connectionId}/${payload.operationName ?? 'anonymous'}`, log.child({ connectionId: connection.connectionId, clientId: client.id }), apiKey);
    const result = await execute({ ...args, contextValue });
    options.metrics.graphqlOperations.inc({ operation: label(), type: 'ws', outcome: 'success' });
    if (!stillWanted()) return;
    connection.deleteOperation(id);
    if ('next' in result) throw new Error('incremental delivery is not supported over graphql-ws');
    if (result.errors) failGraphqlSpan(result.errors[0]?.extensions.code);
    sendResult(connection, id, result);
    connection.send({ id, type: MessageType.Complete });
  }

  return {
    async close() {
      clearInterval(keepAlive);
      await unlistenClients();
      await unlistenKeys();
      // No socket opens after this (ws refuses upgrades once closing); then every open one closes.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      const closed = openSockets === 0 ? Promise.resolve() : new Promise<void>((resolve) => (allClosed = resolve));
      for (const connection of connections.values()) connection.socket.close(1001, 'Server shutting down');
      await closed;
    },
  };
}

/** This instance's random part of every connection id: a UUID's first 24 characters. */
const CONNECTION_ID_PREFIX = randomUUID().slice(0, 24);

/**
 * A connection's id: a UUID whose last 12 hex digits are the socket's serial number on this
 * instance, the rest (74 bits) random per instance: unique across sockets and instances, and built
 * when a log line or request id needs it instead of held as a string by every idle socket.
 */
function connectionIdOf(serial: number): string {
  return CONNECTION_ID_PREFIX + serial.toString(16).padStart(12, '0');
}

/** As graphql-ws: a close reason fits in the 123 bytes a close frame allows. */
function limitCloseReason(reason: string): string {
  return Buffer.byteLength(reason) < 124 ? reason : 'Internal server error';
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

/**
 * The close reason for a `subscribe` message that graphql-ws found malformed, when the fault is one
 * the envelope names (a field of the wrong type): the same code as over HTTP.
 */
function subscribeRefusal(data: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { type?: unknown }).type !== MessageType.Subscribe) return undefined;
  const payload = (parsed as { payload?: unknown }).payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const refused = checkEnvelope(payload as Record<string, unknown>, 'ws');
  return refused ? closeReason(refused) : undefined;
}

/** A header from an operation's `extensions.headers`, matched case-insensitively. */
function headerOf(extensions: Record<string, unknown> | null | undefined, name: string): unknown {
  const headers = extensions?.headers;
  if (!headers || typeof headers !== 'object') return undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}
