// What every resolver receives: the calling client (or why there is none), a per-request
// EntityManager fork, a request-scoped logger and the services.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { OperationDefinitionNode } from 'graphql';
import type { Logger } from '../lib/logger.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { Services } from '../services.js';
import type { AuthFailure } from './errors.js';

export interface GatewayContext {
  requestId: string;
  logger: Logger;
  /** One fork per HTTP request or per graphql-ws operation; never the global EntityManager. */
  em: SqlEntityManager;
  client: ApiClient | null;
  /** Why `client` is null. */
  authFailure: AuthFailure;
  services: Services;
  /** Introspection is open to every key in development, to ADMIN keys only elsewhere. */
  introspectionAllowed: boolean;
  /** The request's Idempotency-Key header, if any (an input's own idempotencyKey wins). */
  idempotencyKey?: string;
  /** Over HTTP: what the request's own log line reports besides the HTTP facts, filled in as they become known. */
  requestLine?: RequestLineFields;
}

/** The GraphQL facts of an HTTP request's `request completed` line. */
export interface RequestLineFields {
  clientId?: string;
  /** The operation's name, or its type and root fields when it has none: `mutation createDeposit`. */
  operation?: string;
}

/** Reads `Bearer <key>` from an Authorization header or graphql-ws connection parameter. */
export function bearerKey(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/** Authenticates a raw Authorization value into the fields of a context. */
export async function authenticate(
  services: Services,
  em: SqlEntityManager,
  authorization: unknown,
): Promise<{ client: ApiClient | null; authFailure: AuthFailure }> {
  if (authorization === undefined || authorization === null || authorization === '') return { client: null, authFailure: 'MISSING' };
  const key = bearerKey(authorization);
  const client = key ? await services.clients.authenticate(em, key) : null;
  return { client, authFailure: client ? 'MISSING' : 'INVALID' };
}

/** Longest operation description a log line carries; the name is the caller's own text. */
const MAX_OPERATION_DESCRIPTION = 200;

/** The operation's name, or its type and root fields when it has none: `mutation createDeposit`. */
export function describeOperation(operation: OperationDefinitionNode): string {
  const description = operation.name?.value ?? `${operation.operation} ${operation.selectionSet.selections.map((selection) => (selection.kind === 'Field' ? selection.name.value : '…')).join(',')}`;
  return description.slice(0, MAX_OPERATION_DESCRIPTION);
}
