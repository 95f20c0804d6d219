// graphql-ws on the same HTTP server and path as POST /graphql. The key arrives as
// connectionParams.authorization; a missing or bad key closes the socket with 4401, and the key is
// checked again for every operation, so revoking it ends access on open sockets too.

import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Logger } from '../lib/logger.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { authenticate, type GatewayContext } from '../graphql/context.js';
import { forbidden, unauthenticated } from '../graphql/errors.js';
import { usesIntrospection } from './introspection.js';
import type { GatewayMetrics } from './metrics.js';

export const WS_UNAUTHORIZED = 4401;

interface ConnectionState {
  authorization: unknown;
  client: ApiClient;
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
}

export function attachGraphqlWs(options: GraphqlWsOptions): { close(): Promise<void> } {
  const log = options.logger.child({ component: 'graphql-ws' });
  const wss = new WebSocketServer({ server: options.httpServer, path: '/graphql', maxPayload: options.maxPayloadBytes });
  const states = new WeakMap<object, ConnectionState>();
  const rules = [...specifiedRules, ...options.validationRules];

  const disposable = useServer<Record<string, unknown> | undefined, { state?: ConnectionState }>(
    {
      schema: options.schema,
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        // GraphiQL sends its header editor's names as they are typed; accept either case.
        const authorization = params.authorization ?? params.Authorization;
        const { client } = await authenticate(options.services, options.db.fork(), authorization);
        if (!client) {
          options.metrics.wsConnections.inc({ outcome: 'rejected' });
          ctx.extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized');
          return false;
        }
        options.metrics.wsConnections.inc({ outcome: 'accepted' });
        states.set(ctx.extra.socket, { authorization, client, connectionId: randomUUID() });
        return true;
      },
      // Parse and validate here, with the same token limit and rules as HTTP, then hand graphql-ws
      // ready execution arguments.
      onSubscribe: async (ctx, _id, payload) => {
        const state = states.get(ctx.extra.socket);
        const connectionClient = (await authenticate(options.services, options.db.fork(), state?.authorization)).client;
        if (!state || !connectionClient) {
          ctx.extra.socket.close(WS_UNAUTHORIZED, 'Unauthorized');
          return [new GraphQLError('The API key is no longer valid', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        state.client = connectionClient;
        // GraphiQL sends its Headers tab with every operation; such an operation runs as that key
        // (which must itself be valid), never as more than it.
        const operationAuthorization = headerOf(payload.extensions, 'authorization');
        let client = connectionClient;
        if (operationAuthorization !== undefined) {
          const operationClient = (await authenticate(options.services, options.db.fork(), operationAuthorization)).client;
          if (!operationClient) return [unauthenticated('INVALID')];
          client = operationClient;
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: options.maxTokens });
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('Could not parse the operation')];
        }
        const errors = validate(options.schema, document, rules);
        if (errors.length > 0) return errors;
        const introspectionAllowed = options.development || client.isAdmin();
        if (!introspectionAllowed && usesIntrospection(document)) return [forbidden('introspection is available to ADMIN keys only')];
        const contextValue: GatewayContext = {
          requestId: `${state.connectionId}/${payload.operationName ?? 'anonymous'}`,
          logger: log.child({ connectionId: state.connectionId, clientId: client.id }),
          em: options.db.fork(),
          client,
          authFailure: 'MISSING',
          services: options.services,
          introspectionAllowed,
        };
        return {
          schema: options.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
      onOperation: (ctx, _id, payload) => {
        options.metrics.graphqlOperations.inc({ operation: payload.operationName ?? 'anonymous', type: 'ws', outcome: 'success' });
        return undefined;
      },
      onError: (_ctx, _id, payload, errors) => {
        options.metrics.graphqlOperations.inc({ operation: payload.operationName ?? 'anonymous', type: 'ws', outcome: 'error' });
        log.debug({ errors: errors.map((error) => error.message) }, 'graphql-ws operation failed');
        return undefined;
      },
    },
    wss,
  );

  return {
    async close() {
      for (const socket of wss.clients) socket.close(1001, 'Server shutting down');
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A header from an operation's `extensions.headers`, matched case-insensitively. */
function headerOf(extensions: Record<string, unknown> | null | undefined, name: string): unknown {
  const headers = extensions?.headers;
  if (!headers || typeof headers !== 'object') return undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}
