// GraphQL over HTTP: the query limits both transports apply, Apollo Server with its plugins, and
// the per-request context (the caller's key, its rate, the trusted-documents rule) of `/graphql`.

import type { Server } from 'node:http';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLSchema, OperationDefinitionNode, ValidationRule } from 'graphql';
import type { GatewayConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { compiledExecution } from '../graphql/compiled-execution.js';
import { authenticate, describeOperation, NO_VIEWER, type RequestContext, type RequestLineFields } from '../graphql/context.js';
import { createFormatError, rateLimited } from '../graphql/errors.js';
import { armorLimits, maxMoneyFieldsRule } from '../graphql/limits.js';
import type { Services } from '../graphql/services.js';
import { documentHashOf, httpDocumentRequest, type TrustedDocuments } from '../graphql/trusted-documents.js';
import { lazyChild, type Logger } from '../lib/logger.js';
import { describeGraphqlSpan, failGraphqlSpan } from '../lib/tracing/request-spans.js';
import { apolloHttpHandler, urlSearch } from './apollo-http.js';
import { drainHttpServer } from './drain.js';
import { envelopePlugin } from './envelope.js';
import { introspectionGuard } from './introspection.js';
import type { GatewayMetrics } from './metrics.js';
import type { RequestWithLog } from './request-log.js';

/** The query limits of both transports: a limit that holds on one holds on the other. */
export interface GraphqlLimits {
  validationRules: ValidationRule[];
  /** graphql-armor's own plugins (Apollo only). */
  armorPlugins: ApolloServerPlugin<RequestContext>[];
}

export function graphqlLimits(graphql: GatewayConfig['graphql']): GraphqlLimits {
  const armor = new ApolloArmor({
    // Each refusal with a code and message of its own (QUERY_TOO_COSTLY, QUERY_TOO_DEEP, TOO_MANY_ALIASES).
    ...armorLimits(graphql),
    // The token limit is graphql-js's own parse option (below): a refusal there is a 400 parse
    // failure, where armor's plugin-based check surfaces as a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: 50 },
    // Suggestions are removed by formatError, over HTTP and graphql-ws alike; armor's own plugin
    // would leave "[Suggestion hidden]?" in HTTP messages only.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    validationRules: [...armor.validationRules, maxMoneyFieldsRule(graphql.maxMoneyFields)],
    // graphql-armor types its plugins for BaseContext; they read nothing of ours.
    armorPlugins: armor.plugins as ApolloServerPlugin<RequestContext>[],
  };
}

export interface ApolloOptions {
  config: GatewayConfig;
  schema: GraphQLSchema;
  limits: GraphqlLimits;
  trustedDocuments: TrustedDocuments;
  /** The API's server, which Apollo's stop drains. */
  httpServer: Server;
  metrics: GatewayMetrics;
  logger: Logger;
  /** NODE_ENV=development: stack traces in errors. */
  development: boolean;
}

/** Apollo Server, started. Its stop drains the API's HTTP server. */
export async function startApollo(options: ApolloOptions): Promise<ApolloServer<RequestContext>> {
  const { config, metrics } = options;
  const apollo = new ApolloServer<RequestContext>({
    // Queries sent again and again run as compiled code (src/graphql/compiled-execution.ts).
    gateway: compiledExecution(options.schema, { compileAfter: config.graphql.compileAfter, maxDocuments: config.graphql.compiledDocuments, onExecution: (mode) => metrics.recordExecution(mode) }),
    formatError: createFormatError({ logger: options.logger, development: options.development }),
    includeStacktraceInErrorResponses: options.development,
    allowBatchedHttpRequests: false,
    // main.ts owns the process's signals; Apollo's own handler would race it and swallow SIGTERM.
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: config.graphql.maxTokens },
    csrfPrevention: true,
    // Guarded per caller by introspectionGuard: open in development, ADMIN keys elsewhere.
    introspection: true,
    validationRules: options.limits.validationRules,
    plugins: [
      envelopePlugin(),
      ...options.limits.armorPlugins,
      // Apollo's drainHttpServer, without its listener on every connection (each graphql-ws socket's too).
      drainHttpServer(options.httpServer),
      introspectionGuard(),
      options.trustedDocuments.apolloPlugin(),
      metrics.apolloPlugin(),
      requestLineOperation(),
      ...(config.tracing ? [tracingPlugin()] : []),
      // GraphiQL, when on, is served by Express: whether it carries the demo key depends on the peer address.
      ApolloServerPluginLandingPageDisabled(),
      // The gateway sets no cache hints; Apollo's default cache-control plugin would still wrap
      // every field's resolver to look for them, which is most of the cost of a long list.
      ApolloServerPluginCacheControlDisabled(),
      noStore(),
    ],
  });
  await apollo.start();
  return apollo;
}

export interface GraphqlHttpOptions {
  db: Database;
  services: Services;
  trustedDocuments: TrustedDocuments;
  logger: Logger;
  development: boolean;
}

/** The `/graphql` handler: each request's context, then Apollo. */
export function graphqlHttpHandler(apollo: ApolloServer<RequestContext>, options: GraphqlHttpOptions) {
  const { db, services, trustedDocuments, logger, development } = options;
  return apolloHttpHandler(apollo, {
    context: async ({ req }): Promise<RequestContext> => {
      const em = db.fork();
      const { client, apiKey, authFailure } = await authenticate(services, em, req.headers.authorization);
      const { id: requestId, line: requestLine } = req as RequestWithLog;
      if (client) {
        requestLine.clientId = client.id;
        // The client's rate (docs/clients.md "Client limits"), from memory: over it, 429 with Retry-After.
        const admission = services.clients.admit(client);
        if (!admission.ok) throw rateLimited(admission.retryAfterSeconds);
      }
      // Refused before Apollo reads the document (a request hook's error would be a 500).
      const refusal = trustedDocuments.refusalForHttp({ method: req.method!, body: req.body, search: urlSearch(req.url!) }, client);
      if (refusal) throw refusal;
      return new HttpRequestContext(
        {
          requestId,
          requestLine,
          em,
          client,
          ...(apiKey ? { apiKey } : {}),
          authFailure,
          viewer: client ?? NO_VIEWER,
          services,
          introspectionAllowed: development || Boolean(client?.isAdmin()),
          ...(typeof req.headers['idempotency-key'] === 'string' ? { idempotencyKey: req.headers['idempotency-key'] } : {}),
        },
        // Made on first use (the audit line of a mutation, say): a query that logs nothing makes none.
        lazyChild(() => logger, client ? { requestId, clientId: client.id } : { requestId }),
      );
    },
  });
}

/**
 * An HTTP request's context. Its logger is a getter on the prototype, not on the object: Apollo
 * copies the context's own properties into a fresh object for every request (Object.assign),
 * which would call an own getter and make the child logger that the getter was there to spare.
 */
class HttpRequestContext implements RequestContext {
  declare requestId: string;
  declare requestLine?: RequestLineFields;
  declare em: RequestContext['em'];
  declare client: RequestContext['client'];
  declare apiKey?: RequestContext['apiKey'];
  declare authFailure: RequestContext['authFailure'];
  declare viewer: RequestContext['viewer'];
  declare services: Services;
  declare introspectionAllowed: boolean;
  declare idempotencyKey?: string;

  constructor(
    fields: Omit<RequestContext, 'logger'>,
    /** Copied with the other own properties; the getter below stays on the prototype. */
    readonly requestLogger: () => Logger,
  ) {
    Object.assign(this, fields);
  }

  get logger(): Logger {
    return this.requestLogger();
  }
}

/**
 * `Cache-Control: no-store` on every GraphQL answer, as Apollo's cache-control plugin gave it
 * before it was disabled: payment data must never be kept by a shared cache (a GET query could be).
 */
function noStore(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

/** Names the GraphQL operation on the request's line once Apollo has resolved it. */
function requestLineOperation(): ApolloServerPlugin<RequestContext> {
  // The same parsed operation comes back for every request of a cached query text: described once.
  const descriptions = new WeakMap<OperationDefinitionNode, string>();
  const describe = (operation: OperationDefinitionNode): string => {
    let description = descriptions.get(operation);
    if (description === undefined) {
      description = describeOperation(operation);
      descriptions.set(operation, description);
    }
    return description;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation }) {
          if (contextValue.requestLine && operation) contextValue.requestLine.operation = describe(operation);
        },
      };
    },
  };
}

/**
 * Names the GraphQL span of an HTTP request by its operation once Apollo has resolved it, with the
 * trusted document's id when the request named one by hash; a request that ends in errors marks it
 * failed by the first error's code. Installed only when tracing is on.
 */
function tracingPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart({ request }) {
      return {
        async didResolveOperation({ operation }) {
          if (operation) describeGraphqlSpan({ type: operation.operation, name: operation.name?.value, documentId: request.http ? documentHashOf(httpDocumentRequest(request.http)) : undefined });
        },
        async didEncounterErrors({ errors }) {
          const code = errors[0]?.extensions?.code;
          failGraphqlSpan(typeof code === 'string' ? code : undefined);
        },
      };
    },
  };
}
