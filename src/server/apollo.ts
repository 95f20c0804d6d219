// GraphQL over HTTP: the query limits both transports apply, Apollo Server with its plugins, and
// the per-request context (the caller's key, its rate, the trusted-documents rule) of `/graphql`.

import type { Server } from 'node:http';
import { ApolloServer, type ApolloServerPlugin, type GraphQLRequestContextDidResolveOperation, type GraphQLRequestContextWillSendResponse, type GraphQLRequestListener } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { GraphQLSchema, OperationDefinitionNode, ValidationRule } from 'graphql';
import type { GatewayConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { compiledExecution } from '../graphql/compiled-execution.js';
import { authenticateFromDatabase, authenticateFromMemory, describeOperation, NO_VIEWER, type RequestContext, type RequestLineFields } from '../graphql/context.js';
import { createFormatError, rateLimited } from '../graphql/errors.js';
import { armorLimits, maxMoneyFieldsRule } from '../graphql/limits.js';
import type { Services } from '../graphql/services.js';
import { documentHashOf, httpDocumentRequest, putInPlace, type TrustedDocuments } from '../graphql/trusted-documents.js';
import { lazyChild, type Logger } from '../lib/logger.js';
import { describeGraphqlSpan, failGraphqlSpan } from '../lib/tracing/request-spans.js';
import { apolloHttpHandler, urlSearch } from './apollo-http.js';
import { drainHttpServer } from './drain.js';
import { envelopeChecks, usualAnswerType } from './envelope.js';
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
    // Off: the envelope in front of Apollo (src/server/envelope.ts) refuses, before any request
    // reaches it, everything Apollo's check would (a POST whose body is not JSON, a GET with
    // another content type, or with none and no preflight header); Apollo's would parse every
    // request's Content-Type again to find nothing.
    csrfPrevention: false,
    // Guarded per caller by the request plugin: open in development, ADMIN keys elsewhere.
    introspection: true,
    validationRules: options.limits.validationRules,
    plugins: [
      // Every per-request hook of ours, in one plugin: Apollo awaits each plugin's hooks at each
      // step of every request, a cost paid per plugin whether it has work to do or not.
      requestPlugin(metrics),
      ...options.limits.armorPlugins,
      // Apollo's drainHttpServer, without its listener on every connection (each graphql-ws socket's too).
      drainHttpServer(options.httpServer),
      ...(config.tracing ? [tracingPlugin()] : []),
      // GraphiQL, when on, is served by Express: whether it carries the demo key depends on the peer address.
      ApolloServerPluginLandingPageDisabled(),
      // The gateway sets no cache hints; Apollo's default cache-control plugin would still wrap
      // every field's resolver to look for them, which is most of the cost of a long list.
      ApolloServerPluginCacheControlDisabled(),
      // Ours is not a federation subgraph: Apollo's inline tracing would ask so on every request.
      ApolloServerPluginInlineTraceDisabled(),
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
      // The request's fork is made when something reads the database: a key known from memory
      // and a query that reads nothing (`{ __typename }`) make none.
      const fork = onFirstUse(() => db.fork());
      // A key held in memory is answered without a promise; the database is asked only for the others.
      const { client, apiKey, authFailure } = authenticateFromMemory(services, req.headers.authorization) ?? (await authenticateFromDatabase(services, deferredFork(fork), req.headers.authorization));
      const { id: requestId, line: requestLine } = req as RequestWithLog;
      if (client) {
        requestLine.clientId = client.id;
        // The client's rate (docs/clients.md "Client limits"), from memory: over it, 429 with Retry-After.
        const admission = services.clients.admit(client);
        if (!admission.ok) throw rateLimited(admission.retryAfterSeconds);
      }
      // Looked up once: refused here, before Apollo reads the document (a request hook's error
      // would be a 500); a manifest document named by hash is put in place by the request plugin.
      const documents = trustedDocuments.forHttp({ method: req.method!, body: req.body, search: urlSearch(req.url!) }, client);
      if (!documents.ok) throw documents.error;
      return new HttpRequestContext(
        {
          requestId,
          requestLine,
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
        fork,
        documents.query,
      );
    },
  });
}

/** `make`'s value, made on the first call and the same on every later one. */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/**
 * An EntityManager standing for `fork()`'s, made on its first use: what the key lookup is given,
 * which reads the database only for a key it does not hold in memory.
 */
function deferredFork(fork: () => SqlEntityManager): SqlEntityManager {
  return new Proxy({} as SqlEntityManager, {
    get(_target, property) {
      const em = fork();
      const value: unknown = Reflect.get(em, property, em);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(em) : value;
    },
  });
}

/**
 * An HTTP request's context. Its logger and its EntityManager are getters on the prototype, not
 * on the object: Apollo copies the context's own properties into a fresh object for every
 * request (Object.assign onto the same prototype), which would call an own getter and make the
 * child logger or the fork that the getter was there to spare.
 */
class HttpRequestContext implements RequestContext {
  declare requestId: string;
  declare requestLine?: RequestLineFields;
  declare client: RequestContext['client'];
  declare apiKey?: RequestContext['apiKey'];
  declare authFailure: RequestContext['authFailure'];
  declare viewer: RequestContext['viewer'];
  declare services: Services;
  declare introspectionAllowed: boolean;
  declare idempotencyKey?: string;

  constructor(
    fields: Omit<RequestContext, 'logger' | 'em'>,
    /** Copied with the other own properties; the getters below stay on the prototype. */
    readonly requestLogger: () => Logger,
    readonly requestFork: () => SqlEntityManager,
    /** The trusted document the request named by hash, for the request plugin to put in place. */
    readonly trustedDocument: string | undefined,
  ) {
    Object.assign(this, fields);
  }

  get logger(): Logger {
    return this.requestLogger();
  }

  get em(): SqlEntityManager {
    return this.requestFork();
  }
}

/**
 * Every per-request hook of ours over HTTP, once plugins of their own: the trusted document put in
 * place, the request line's operation, the envelope's checks before the introspection guard (its
 * refusal is the one answered when both would refuse the same request), the operation metrics,
 * `Cache-Control: no-store` on every answer (payment data must never be kept
 * by a shared cache, and a GET query could be; Apollo's cache-control plugin, disabled, gave it before)
 * and the content type of an answer to a usual Accept.
 */
function requestPlugin(metrics: GatewayMetrics): ApolloServerPlugin<RequestContext> {
  const shared: RequestHookParts = { guardIntrospection: introspectionGuard(), recordOperation: metrics.operationRecorder(), describe: operationDescriptions() };
  return {
    async requestDidStart({ request, contextValue }) {
      if (request.http && contextValue instanceof HttpRequestContext && contextValue.trustedDocument !== undefined) putInPlace(request, contextValue.trustedDocument);
      return new RequestHooks(shared, process.hrtime.bigint());
    },
  };
}

interface RequestHookParts {
  guardIntrospection: ReturnType<typeof introspectionGuard>;
  recordOperation: ReturnType<GatewayMetrics['operationRecorder']>;
  describe: (operation: OperationDefinitionNode) => string;
}

/** One request's listener: the shared parts and when the request started (one object a request). */
class RequestHooks implements GraphQLRequestListener<RequestContext> {
  constructor(
    private readonly parts: RequestHookParts,
    private readonly started: bigint,
  ) {}

  async didResolveOperation(requestContext: GraphQLRequestContextDidResolveOperation<RequestContext>): Promise<void> {
    const { contextValue, operation, document } = requestContext;
    // Named first: a refused operation's line says which it was.
    if (contextValue.requestLine && operation) contextValue.requestLine.operation = this.parts.describe(operation);
    envelopeChecks.didResolveOperation(requestContext);
    this.parts.guardIntrospection(document, contextValue);
  }

  async willSendResponse(requestContext: GraphQLRequestContextWillSendResponse<RequestContext>): Promise<void> {
    envelopeChecks.willSendResponse(requestContext);
    this.parts.recordOperation(requestContext, this.started);
    const { request, response } = requestContext;
    response.http.headers.set('cache-control', 'no-store');
    // Apollo negotiates the type of every answer that has none; a usual Accept's is known.
    if (response.body.kind === 'single' && request.http && !response.http.headers.has('content-type')) {
      const type = usualAnswerType(request.http.headers.get('accept'));
      if (type) response.http.headers.set('content-type', type);
    }
  }
}

/** An operation's description for the request line: the same parsed operation comes back for every request of a cached query text, described once. */
function operationDescriptions(): (operation: OperationDefinitionNode) => string {
  const descriptions = new WeakMap<OperationDefinitionNode, string>();
  return (operation) => {
    let description = descriptions.get(operation);
    if (description === undefined) {
      description = describeOperation(operation);
      descriptions.set(operation, description);
    }
    return description;
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
