// What every resolver receives: what the caller may see (and, for one caller's request, who it is
// or why there is none), a per-execution EntityManager fork, a logger and the services.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { Kind, type OperationDefinitionNode } from 'graphql';
import type { Viewer, Visibility } from '../kernel/visibility.js';
import type { Logger } from '../lib/logger.js';
import type { ApiClient } from '../modules/clients/api-client.entity.js';
import type { KeyAuthentication } from '../modules/clients/key-authentication.js';
import type { UsedKey } from '../modules/clients/key-cache.js';
import type { Services } from './services.js';
import type { AuthFailure } from './errors.js';

/**
 * The context of one execution: a {@link RequestContext} (one caller) or a {@link GroupContext}
 * (every member of a subscription group at once). A field resolver, which may run in either,
 * takes this and reads `viewer` for every check of what may be seen. Only root fields read
 * `client`: queries, mutations and a subscription's `subscribe` take a RequestContext, since a
 * group executes nothing but a subscription field's `resolve` and the fields below it.
 */
export type GatewayContext = RequestContext | GroupContext;

interface ExecutionContext {
  requestId: string;
  logger: Logger;
  /** One fork per HTTP request, graphql-ws operation or group execution; never the global EntityManager. */
  em: SqlEntityManager;
  /** What may be seen: the policy's input for `maySee`, `visibleWhere` and admin-only fields. */
  viewer: Viewer;
  services: Services;
  /** Introspection is open to every key in development, to ADMIN keys only elsewhere. */
  introspectionAllowed: boolean;
}

/** One caller's execution: an HTTP request, or one graphql-ws operation (a subscription's root field subscribing included). */
export interface RequestContext extends ExecutionContext {
  client: ApiClient | null;
  /** The key `client` authenticated with (absent when there is no client). */
  apiKey?: UsedKey;
  /** Why `client` is null. */
  authFailure: AuthFailure;
  /** The client itself, or {@link NO_VIEWER} when there is none. */
  viewer: Viewer;
  /** The request's Idempotency-Key header, if any (an input's own idempotencyKey wins). */
  idempotencyKey?: string;
  /** Over HTTP: what the request's own log line reports besides the HTTP facts, filled in as they become known. */
  requestLine?: RequestLineFields;
}

/**
 * A subscription group's execution of one event, whose payload every member is sent: the
 * members' common visibility, and no member's identity (no client, id, name or key), so that no
 * resolver can show one member what depends on another. Each member was authorized, and has each
 * event filtered, as itself, in a request context of its own.
 */
export interface GroupContext extends ExecutionContext {
  viewer: Visibility;
  client?: undefined;
  authFailure?: undefined;
}

/** The viewer of a request without a client: no roles, so it sees nothing (the auth checker refuses it first). */
export const NO_VIEWER: Visibility = Object.freeze({ roles: Object.freeze([]), merchantAccounts: Object.freeze([]), owner: null });

/** The GraphQL facts of an HTTP request's `request completed` line. */
export interface RequestLineFields {
  clientId?: string;
  /** The operation's name, or its type and root fields when it has none: `mutation createDeposit`. */
  operation?: string;
  /** The code of a malformed envelope's refusal (src/graphql/envelope.ts), when the request was one. */
  refusal?: string;
}

/** Reads `Bearer <key>` from an Authorization header or graphql-ws connection parameter. */
export function bearerKey(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/** The fields of a context that say who is calling. */
export type Authentication = { client: ApiClient; apiKey: UsedKey; authFailure: 'MISSING' } | { client: null; apiKey?: undefined; authFailure: AuthFailure };

const MISSING_AUTHENTICATION: Authentication = Object.freeze({ client: null, authFailure: 'MISSING' });
const INVALID_AUTHENTICATION: Authentication = Object.freeze({ client: null, authFailure: 'INVALID' });

/** Authenticates a raw Authorization value into the fields of a context. */
export async function authenticate(services: Services, em: SqlEntityManager, authorization: unknown): Promise<Authentication> {
  return authenticateFromMemory(services, authorization) ?? authenticateFromDatabase(services, em, authorization);
}

/**
 * What `authenticate` answers when it needs no database (no Authorization, a malformed one, a key
 * this instance knows), without a promise; undefined: only `authenticate` can tell.
 */
export function authenticateFromMemory(services: Services, authorization: unknown): Authentication | undefined {
  if (authorization === undefined || authorization === null || authorization === '') return MISSING_AUTHENTICATION;
  const key = bearerKey(authorization);
  if (!key) return INVALID_AUTHENTICATION;
  const outcome = services.clients.authenticateKnownKey(key);
  return outcome && asAuthentication(outcome);
}

/** What `authenticate` answers for a bearer key `authenticateFromMemory` could not tell. */
export async function authenticateFromDatabase(services: Services, em: SqlEntityManager, authorization: unknown): Promise<Authentication> {
  const key = bearerKey(authorization);
  return key ? asAuthentication(await services.clients.authenticateKey(em, key)) : INVALID_AUTHENTICATION;
}

function asAuthentication(outcome: KeyAuthentication): Authentication {
  return outcome.ok ? { client: outcome.client, apiKey: outcome.key, authFailure: 'MISSING' } : { client: null, authFailure: outcome.refusal };
}

/** Longest operation description a log line carries; the name is the caller's own text. */
const MAX_OPERATION_DESCRIPTION = 200;

/** The operation's name, or its type and root fields when it has none: `mutation createDeposit`. */
export function describeOperation(operation: OperationDefinitionNode): string {
  const description = operation.name?.value ?? `${operation.operation} ${operation.selectionSet.selections.map((selection) => (selection.kind === Kind.FIELD ? selection.name.value : '…')).join(',')}`;
  return description.slice(0, MAX_OPERATION_DESCRIPTION);
}
