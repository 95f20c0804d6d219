// The graphql-ws server's settings, in a file of their own because each of its parts reads them
// (src/server/graphql-ws.ts wires the parts together).

import type { Server } from 'node:http';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { Logger } from '../lib/logger.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import type { TrustedDocuments } from '../graphql/trusted-documents.js';
import type { GatewayMetrics } from './metrics.js';
import type { WsLimits } from './ws-limits.js';

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
