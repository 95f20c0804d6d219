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
//
// The parts, each in a file of its own: a socket's life and its messages (ws-sockets.ts), the
// `subscribe` path (ws-subscribe.ts), what is sent back for an operation (ws-replies.ts), a
// socket's state (ws-connection.ts), and the keys in use (connections-by-key.ts). This file only
// wires them to the HTTP server, to key revocations and to the fan-out.

import { GraphQLError } from 'graphql';
import { CloseCode, handleProtocols } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { API_CLIENT_REVOKED_CHANNEL, API_KEY_REVOKED_CHANNEL } from '../modules/clients/key-authentication.js';
import { createFormatError } from '../graphql/errors.js';
import { SubscriptionFanOut } from './fan-out.js';
import { ConnectionsByKey, WS_KEY_REVOKED } from './connections-by-key.js';
import type { Connection } from './ws-connection.js';
import type { GraphqlWsOptions } from './ws-options.js';
import { internalCloseReason, WsReplies } from './ws-replies.js';
import { KEEP_ALIVE_SLICES, WsSockets } from './ws-sockets.js';
import { WsOperations } from './ws-subscribe.js';

export { WS_KEY_REVOKED } from './connections-by-key.js';
export { WS_UNAUTHORIZED } from './ws-connection.js';

/** Attaches graphql-ws to the HTTP server; resolves once it listens for key revocations. */
export async function attachGraphqlWs(options: GraphqlWsOptions): Promise<{ close(): Promise<void> }> {
  const log = options.logger.child({ component: 'graphql-ws' });
  const byKey = new ConnectionsByKey();
  const formatError = createFormatError({ logger: log, development: options.development });
  const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
  const replies = new WsReplies(options.metrics, log, format, options.services.clients);
  const fanOut = new SubscriptionFanOut({
    schema: options.schema,
    services: options.services,
    db: options.db,
    logger: log,
    format,
    onExecution: () => options.metrics.subscriptionExecutions.inc(),
    // Every sink is a Connection: the fan-out is only ever given those.
    subscriptionEnded: (sink, operationId, error) => replies.streamEnded(sink as Connection, operationId, error),
  });
  const sockets = new WsSockets(options, log, byKey, new WsOperations(options, log, fanOut, byKey, replies));
  // No client tracking (WsSockets keeps the sockets instead); its own socket class (WsSockets.socketClass).
  const wss = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: options.maxPayloadBytes, handleProtocols, clientTracking: false, WebSocket: sockets.socketClass });

  // Any instance may commit a revocation: each one closes the sockets it holds for that client, or key.
  const unlistenClients = await options.db.listen(API_CLIENT_REVOKED_CHANNEL, (clientId) => {
    const closed = byKey.closeClient(clientId, WS_KEY_REVOKED, 'API key revoked');
    if (closed > 0) log.info({ clientId, sockets: closed }, 'closed the sockets of a revoked client');
  });
  const unlistenKeys = await options.db.listen(API_KEY_REVOKED_CHANNEL, (keyId) => {
    const closed = byKey.closeKey(keyId, WS_KEY_REVOKED, 'API key revoked');
    if (closed > 0) log.info({ keyId, sockets: closed }, 'closed the sockets of a revoked key');
  });

  // As graphql-ws: the server's own failure (its HTTP server's, forwarded) ends every socket.
  wss.on('error', (error) => {
    // Before it listens (a busy PORT), the failure is the gateway's start-up to report, in one line.
    if (!options.httpServer.listening) return;
    log.error({ err: error }, 'graphql-ws server error');
    sockets.closeAll(CloseCode.InternalServerError, internalCloseReason(error, options.development));
  });
  wss.on('connection', (socket: WebSocket) => sockets.accept(socket));

  // One keep-alive timer for every socket (WsSockets.ping).
  const keepAlive = setInterval(() => sockets.ping(), options.keepAliveMs / KEEP_ALIVE_SLICES);
  keepAlive.unref();

  return {
    async close() {
      clearInterval(keepAlive);
      await unlistenClients();
      await unlistenKeys();
      // No socket opens after this (ws refuses upgrades once closing); then every open one closes.
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await sockets.shutDown();
    },
  };
}
