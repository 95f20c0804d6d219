// GraphQL errors the gateway throws on purpose, and the masking of everything else.
// Business failures are not here: they are `userErrors` in payloads.

import { randomUUID } from 'node:crypto';
import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError, Kind } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { Logger } from '../lib/logger.js';
import { PROVIDER_ERROR_CODES } from '../providers/provider.js';
import { ENVELOPE_CODES } from './envelope.js';
import { LIMIT_RULE_CODES } from './limits.js';
import { PERSISTED_DOCUMENT_CODES } from './trusted-documents.js';

/** Why a request has no client: no key, a key that is not valid, or one past its expiry. */
export type AuthFailure = 'MISSING' | 'INVALID' | 'EXPIRED';

const AUTH_FAILURE_MESSAGES: Record<AuthFailure, string> = {
  MISSING: 'Authentication required: send "Authorization: Bearer <key>"',
  INVALID: 'The API key is not valid (unknown, malformed or revoked)',
  EXPIRED: 'The API key has expired: use another key of this client, or ask an admin for a new one',
};

export function unauthenticated(failure: AuthFailure = 'MISSING'): GraphQLError {
  const message = AUTH_FAILURE_MESSAGES[failure];
  return new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
}

/**
 * @param options.httpStatus for a refusal before anything executes (Apollo answers an error thrown
 * in a request hook with 500 unless told otherwise); the formatter strips it from the body.
 */
export function forbidden(detail: string, options: { httpStatus?: number } = {}): GraphQLError {
  return new GraphQLError(`Forbidden: ${detail}`, {
    extensions: { code: 'FORBIDDEN', ...(options.httpStatus ? { http: { status: options.httpStatus } } : {}) },
  });
}

/**
 * A client over its request rate (src/modules/clients/client-limits.ts): HTTP 429 with Retry-After
 * (the formatter strips `http` from the body), or an error on that graphql-ws operation.
 */
export function rateLimited(retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`Too many requests: this client is over its rate (docs/clients.md "Client limits"); retry after ${retryAfterSeconds} s`, {
    extensions: {
      code: 'RATE_LIMITED',
      retryAfterSeconds,
      // Apollo takes an error's headers only as a Map; graphql-yoga's typings (a GraphiQL dependency) declare a record.
      http: { status: 429, headers: new Map([['retry-after', String(retryAfterSeconds)]]) as unknown as Record<string, string> },
    },
  });
}

/**
 * A subscription's `after` that is not an event cursor of this gateway's log (malformed, from
 * another list or another gateway): nothing is sent before it, and the subscription ends.
 */
export function cursorInvalid(): GraphQLError {
  return new GraphQLError('The "after" cursor is not an event cursor of this gateway: pass a cursor from a subscription message (extensions.cursor) or from events(after:), or subscribe without after', {
    extensions: { code: 'CURSOR_INVALID' },
  });
}

/**
 * A subscription's `after` older than the replay window (`SUBSCRIPTION_RESUME_WINDOW_MS`): the client reloads
 * what it shows with a query, then subscribes without `after`.
 */
export function cursorExpired(windowHours: number): GraphQLError {
  return new GraphQLError(`The "after" cursor is older than the ${windowHours} hours a subscription can replay: reload the state with a query, then subscribe without after`, {
    extensions: { code: 'CURSOR_EXPIRED' },
  });
}

/** Error codes whose messages were written for clients and pass through unmasked. */
const CLIENT_CODES = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'NOT_FOUND',
  'TOO_MANY_MONEY_OPERATIONS',
  'QUERY_TOO_LONG',
  // A graphql-ws socket's `subscribe` beyond its operation limit (src/server/ws-limits.ts), or its client's.
  'SUBSCRIPTION_LIMIT',
  // A subscription's `after` that cannot be resumed from (cursorInvalid, cursorExpired above).
  'CURSOR_INVALID',
  'CURSOR_EXPIRED',
  // A client over its request rate (rateLimited above); also a provider's code (PROVIDER_ERROR_CODES).
  'RATE_LIMITED',
  ...LIMIT_RULE_CODES,
  ...PERSISTED_DOCUMENT_CODES,
  ...ENVELOPE_CODES,
  // A provider error's message is written for clients (src/providers/provider.ts, ProviderError).
  ...PROVIDER_ERROR_CODES,
]);

/** Codes of the gateway's own validation rules, which Apollo relabels GRAPHQL_VALIDATION_FAILED. */
const RULE_CODES = new Set(['TOO_MANY_MONEY_OPERATIONS', ...LIMIT_RULE_CODES]);

/** True for the code of one of the gateway's own validation rules (kept instead of GRAPHQL_VALIDATION_FAILED). */
export function isRuleCode(code: string): boolean {
  return RULE_CODES.has(code);
}

/**
 * graphql-js's refusal of a variable's value (missing, of the wrong type), which carries no code:
 * Apollo labels it BAD_USER_INPUT over HTTP, and over graphql-ws it reaches the formatter bare.
 */
function isVariableError(error: unknown): boolean {
  return error instanceof GraphQLError && error.nodes?.length === 1 && error.nodes[0]!.kind === Kind.VARIABLE_DEFINITION && error.message.startsWith('Variable "$');
}

/**
 * graphql-js's "Did you mean …?" suggestions (field, argument, type and enum value names): they
 * would let a caller without introspection map the schema one typo at a time. GraphQL names
 * cannot contain "?", so the sentence ends at the first one.
 */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** How every error leaves the gateway, over HTTP (Apollo) and graphql-ws alike. */
export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Apollo's `formatError`, also applied to graphql-ws results: errors meant for clients pass,
 * without schema suggestions outside development; anything else (a bug, a database error with
 * SQL in its message, a provider fault that escaped) becomes "Internal error" with a correlation
 * id that is logged beside the real error. Stack traces only in development.
 */
export function createFormatError(options: { logger: Logger; development: boolean }): FormatError {
  return (given: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    // A client told TOO_MANY_MONEY_OPERATIONS knows what to change; the rule's code is kept.
    const ruleCode = error instanceof GraphQLError && error.originalError instanceof GraphQLError ? error.originalError.extensions.code : undefined;
    const formatted =
      given.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' && typeof ruleCode === 'string' && RULE_CODES.has(ruleCode)
        ? { ...given, extensions: { ...given.extensions, code: ruleCode } }
        : given.extensions?.code === undefined && isVariableError(error)
          ? { ...given, extensions: { ...given.extensions, code: 'BAD_USER_INPUT' } }
          : given;
    const code = formatted.extensions?.code;
    const deliberate = typeof code === 'string' && CLIENT_CODES.has(code) && (original instanceof GraphQLError || error instanceof GraphQLError);
    if (deliberate) {
      if (options.development) return formatted;
      const { stacktrace: _stacktrace, http: _http, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, message: formatted.message.replace(SUGGESTION, ''), extensions };
    }
    const correlationId = randomUUID();
    options.logger.error({ err: original, correlationId, path: formatted.path }, 'unexpected error in GraphQL operation');
    return {
      message: 'Internal error',
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: {
        code: 'INTERNAL_SERVER_ERROR',
        correlationId,
        ...(options.development && original instanceof Error ? { stacktrace: original.stack?.split('\n') } : {}),
      },
    };
  };
}
