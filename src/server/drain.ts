// Stops the API's HTTP server gracefully, as Apollo's drainHttpServer plugin does: no new
// connections, idle keep-alive connections closed at once, requests in flight answered and their
// connections closed after them, and whatever is left cut off after a grace period. Apollo's keeps
// a Map entry and a `close` listener (a closure and its once-wrapper) on every connection, for as
// long as it is open: some 350 bytes for each of the gateway's idle graphql-ws sockets, which
// share the server. Node's HTTP server already knows which of its connections are idle (and stops
// tracking one that upgrades), so here only a request in flight is watched, while it runs.
//
// The WebSockets are not this plugin's: graphql-ws's close() ends them before Apollo stops.

import type { ServerResponse, Server } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';

/** As Apollo's default: how long requests in flight may run on once the stop begins. */
export const STOP_GRACE_PERIOD_MS = 10_000;

export function drainHttpServer(httpServer: Server, stopGracePeriodMs = STOP_GRACE_PERIOD_MS): ApolloServerPlugin {
  let stopping = false;
  // Once stopping, a response that ends leaves its kept-alive connection idle: closed then.
  const responseClosed = () => {
    if (stopping) httpServer.closeIdleConnections();
  };
  // Before the application's own listener, so a request that arrives on a kept-alive connection
  // during the stop is answered with `Connection: close`.
  httpServer.prependListener('request', (_request, response: ServerResponse) => {
    if (stopping) response.shouldKeepAlive = false;
    response.on('close', responseClosed);
  });
  return {
    async serverWillStart() {
      return {
        async drainServer() {
          // As Apollo's: what is being accepted this very tick is let in first.
          await new Promise((resolve) => setImmediate(resolve));
          stopping = true;
          // close() stops accepting and closes the idle connections; its callback waits for the rest.
          const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
          const deadline = setTimeout(() => httpServer.closeAllConnections(), stopGracePeriodMs);
          await closed;
          clearTimeout(deadline);
        },
      };
    },
  };
}
