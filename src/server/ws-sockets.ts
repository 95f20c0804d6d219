// The sockets of one graphql-ws server, each from its opening to its close: the subprotocol check
// and the connection_init deadline, connection_init's key check (a missing or bad key closes the
// socket with 4401), every message read under the socket's rate and dispatched (a `subscribe` to
// src/server/ws-subscribe.ts), the keep-alive pings, and the close that lets go of the socket's
// operations and keys. One set of socket handlers serves every socket, so an idle socket holds one
// Connection (src/server/ws-connection.ts) and no closure.

import { randomUUID } from 'node:crypto';
import { CloseCode, GRAPHQL_TRANSPORT_WS_PROTOCOL, MessageType, parseMessage, type ConnectionInitMessage, type Message } from 'graphql-ws';
import { WebSocket, type RawData } from 'ws';
import type { Logger } from '../lib/logger.js';
import { messageText } from '../lib/ws-message.js';
import { authenticate } from '../graphql/context.js';
import { checkEnvelope, closeReason } from '../graphql/envelope.js';
import { keepConnectionTraceContext } from '../lib/tracing/request-spans.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import type { ConnectionsByKey } from './connections-by-key.js';
import { fullBucket, messageClock, refillMessages, takeMessage, WS_TOO_MANY_MESSAGES } from './ws-limits.js';
import { Connection, WS_UNAUTHORIZED } from './ws-connection.js';
import type { GraphqlWsOptions } from './ws-options.js';
import { internalCloseReason } from './ws-replies.js';
import type { WsOperations } from './ws-subscribe.js';

/** Keep-alive ticks per keep-alive period, each pinging its share of the sockets. */
export const KEEP_ALIVE_SLICES = 12;

/** What a socket's events call: functions whose `this` is the socket. */
interface SocketHandlers {
  message: (this: WebSocket, data: RawData) => void;
  error: (this: WebSocket, error: Error) => void;
  close: (this: WebSocket) => void;
}

export class WsSockets {
  /**
   * The sockets that speak the protocol. No client tracking in ws: it would keep every socket in a
   * Set of its own, with a 'close' listener (a closure) per socket to take it out.
   */
  readonly connections = new Map<WebSocket, Connection>();
  /** Every socket until it closes, for shutDown() to wait on. */
  private openSockets = 0;
  private allClosed: (() => void) | undefined;
  /** Sockets opened so far: the next one's serial number. */
  private opened = 0;
  private tick = 0;
  private readonly handlers = WsSockets.handlersOf(this);
  /** The class of this server's sockets (ws's WebSocketServer option `WebSocket`): ws's, its pongs told without a listener. */
  readonly socketClass = WsSockets.socketClassOf(this);
  /** Where a closed operation's hold on its client's subscriptions goes back. */
  private readonly holds: GraphqlWsOptions['services']['clients'];

  constructor(
    private readonly options: GraphqlWsOptions,
    private readonly log: Logger,
    private readonly byKey: ConnectionsByKey,
    private readonly operations: WsOperations,
  ) {
    this.holds = options.services.clients;
  }

  /** One set of handlers for every socket (`this` is the socket), so a socket costs no closures. */
  private static handlersOf(sockets: WsSockets): SocketHandlers {
    return {
      message(this: WebSocket, data: RawData): void {
        sockets.read(this, data);
      },
      error(this: WebSocket, error: Error): void {
        sockets.failed(this, error);
      },
      close(this: WebSocket): void {
        sockets.closed(this);
      },
    };
  }

  /**
   * ws's socket, which tells this server of a pong itself: a fourth listener on every socket (with
   * message, error and close) would grow each one's table of listeners by 96 bytes.
   */
  private static socketClassOf(sockets: WsSockets): typeof WebSocket {
    return class GraphqlWsSocket extends WebSocket {
      override emit(event: string | symbol, ...args: unknown[]): boolean {
        if (event !== 'pong') return super.emit(event, ...args);
        const connection = sockets.connections.get(this);
        if (connection) connection.awaitingPong = false;
        return true;
      }
    };
  }

  /** A socket the ws server just opened. */
  accept(socket: WebSocket): void {
    this.openSockets += 1;
    socket.on('error', this.handlers.error);
    socket.on('close', this.handlers.close);
    if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL) {
      socket.close(CloseCode.SubprotocolNotAcceptable, 'Subprotocol not acceptable');
      return;
    }
    const connection = new Connection(socket, this.opened++, fullBucket(this.options.limits), messageClock());
    this.connections.set(socket, connection);
    connection.initTimer = setTimeout(() => {
      connection.initTimer = undefined;
      if (!connection.initReceived) socket.close(CloseCode.ConnectionInitialisationTimeout, 'Connection initialisation timeout');
    }, this.options.connectionInitTimeoutMs);
    socket.on('message', this.handlers.message);
  }

  /**
   * One keep-alive tick: each socket is pinged every keepAliveMs, and one that did not answer its
   * previous ping is gone. The sockets are spread over KEEP_ALIVE_SLICES ticks, so thousands of
   * them are not pinged (and do not answer) in one burst. A pinged socket's message bucket is
   * counted too, so that no two counts are 49.7 days apart, where its 32-bit clock wraps.
   */
  ping(): void {
    const slice = this.tick++ % KEEP_ALIVE_SLICES;
    const now = messageClock();
    for (const connection of this.connections.values()) {
      if (connection.serial % KEEP_ALIVE_SLICES !== slice) continue;
      const socket = connection.socket;
      if (socket.readyState !== socket.OPEN) continue;
      if (connection.awaitingPong) {
        socket.terminate();
        continue;
      }
      connection.awaitingPong = true;
      refillMessages(connection, this.options.limits, now);
      socket.ping();
    }
  }

  /** Closes every socket that speaks the protocol (one refused its subprotocol is closing already). */
  closeAll(code: number, reason: string): void {
    for (const connection of this.connections.values()) connection.socket.close(code, reason);
  }

  /** Closes every socket as the server shuts down; resolves once every socket opened has closed. */
  async shutDown(): Promise<void> {
    const closed = this.openSockets === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.allClosed = resolve));
    this.closeAll(1001, 'Server shutting down');
    await closed;
  }

  private read(socket: WebSocket, data: RawData): void {
    const connection = this.connections.get(socket);
    // A socket closing (over its rate, say) is read no further.
    if (!connection || socket.readyState !== socket.OPEN) return;
    if (!takeMessage(connection, this.options.limits, messageClock())) {
      const keys = [connection.keys ?? []].flat();
      this.log.warn({ connectionId: connection.acknowledged ? connection.connectionId : undefined, clientIds: [...new Set(keys.map((use) => use.clientId))] }, 'graphql-ws socket closed: too many messages');
      socket.close(WS_TOO_MANY_MESSAGES, 'Too many messages');
      return;
    }
    this.handle(connection, messageText(data)).catch((error: unknown) => {
      this.log.error({ err: error }, 'unexpected error handling a graphql-ws message');
      connection.socket.close(CloseCode.InternalServerError, internalCloseReason(error, this.options.development));
    });
  }

  private failed(socket: WebSocket, error: Error): void {
    // A frame the client should not have sent (too large, not UTF-8, unmasked): ws closes the
    // socket itself with the WebSocket close code for it (1009, 1007, 1002), and the fault is the client's.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
      this.log.info({ reason: code }, 'graphql-ws frame refused');
      return;
    }
    this.log.error({ err: error }, 'graphql-ws socket error');
    socket.close(CloseCode.InternalServerError, internalCloseReason(error, this.options.development));
  }

  private closed(socket: WebSocket): void {
    this.openSockets -= 1;
    const connection = this.connections.get(socket);
    if (connection) {
      this.connections.delete(socket);
      clearTimeout(connection.initTimer);
      // Before its keys go: a subscription's hold goes back to the client of the socket's key.
      const members = connection.takeOperations(this.holds);
      this.byKey.remove(connection);
      for (const member of members) member.close();
    }
    if (this.openSockets === 0) this.allClosed?.();
  }

  private async handle(connection: Connection, data: string): Promise<void> {
    const socket = connection.socket;
    let message: Message;
    try {
      message = parseMessage(data);
    } catch {
      // The protocol closes the socket on a malformed message (4400); a subscribe whose payload has
      // a field of the wrong type says which, with the code HTTP gives the same refusal.
      const reason = subscribeRefusal(data) ?? 'Invalid message received';
      this.log.info({ connectionId: connection.acknowledged ? connection.connectionId : undefined, reason }, 'graphql-ws message refused');
      socket.close(CloseCode.BadRequest, reason);
      return;
    }
    switch (message.type) {
      case MessageType.ConnectionInit:
        await this.init(connection, message);
        return;
      case MessageType.Ping:
        connection.send(message.payload ? { type: MessageType.Pong, payload: message.payload } : { type: MessageType.Pong });
        return;
      case MessageType.Pong:
        return;
      case MessageType.Subscribe:
        await this.operations.subscribe(connection, message);
        return;
      case MessageType.Complete: {
        const member = connection.operation(message.id);
        connection.deleteOperation(message.id, this.holds);
        member?.close();
        return;
      }
      default: {
        // A message only a server sends (next, error, connection_ack): the protocol's 4400.
        const reason = `Unexpected message of type ${message.type} received`;
        this.log.info({ connectionId: connection.acknowledged ? connection.connectionId : undefined, reason }, 'graphql-ws message refused');
        socket.close(CloseCode.BadRequest, reason);
        return;
      }
    }
  }

  /** connection_init: the key checked, then the socket acknowledged, or closed. */
  private async init(connection: Connection, message: ConnectionInitMessage): Promise<void> {
    const socket = connection.socket;
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
      authenticated = await authenticate(this.options.services, this.options.db.fork(), authorization);
    } catch (error) {
      // The reason carries the correlation id of the logged error, never the error itself.
      const correlationId = randomUUID();
      this.log.error({ err: error, correlationId }, 'unexpected error accepting a graphql-ws connection');
      socket.close(CloseCode.InternalServerError, `Internal error ${correlationId}`);
      return;
    }
    if (!authenticated.client) {
      this.options.metrics.wsConnections.inc({ outcome: 'rejected' });
      socket.close(WS_UNAUTHORIZED, authenticated.authFailure === 'EXPIRED' ? 'API key expired' : 'Unauthorized');
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    this.options.metrics.wsConnections.inc({ outcome: 'accepted' });
    // Thousands of sockets may send one key: each keeps the text another socket of the key holds, not a copy.
    connection.authorization = this.byKey.sharedAuthorization(authenticated.apiKey.id, authorization);
    this.byKey.add(authenticated.apiKey, connection);
    if (socket.readyState !== socket.OPEN) return;
    connection.acknowledged = true;
    // Its traceparent, if it gave one, is the parent of its operations that bring none (docs/tracing.md).
    if (tracingOn()) keepConnectionTraceContext(connection, params);
    connection.send({ type: MessageType.ConnectionAck });
  }
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
