// Execution of HTTP operations: the query documents clients send again and again (a cashier's or
// a back office's few operations) run as code that graphql-jit compiled once for that document;
// everything else through graphql-js's `execute`, as before. Plugged into Apollo Server through its
// gateway interface, the one place where it takes another executor: parsing, validation, the
// limits, plugins and error formatting all stay Apollo's.

import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, getVariableValues, GraphQLError, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLSchema, type SourceLocation } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export interface CompiledExecutionOptions {
  /**
   * Runs of a query document through graphql-js before it is compiled (0: from its first run). A
   * document sent once or twice is never compiled, so a stream of distinct queries costs no
   * compilation.
   */
  compileAfter: number;
  /** Documents followed (counted, and compiled once hot); the least recently used beyond it are forgotten. */
  maxDocuments: number;
  /** Told how each operation ran (a metric). */
  onExecution?: (mode: 'compiled' | 'interpreted') => void;
}

interface DocumentState {
  runs: number;
  /** By operation name ('' when none is given); `null`: graphql-jit cannot compile it, graphql-js runs it. */
  compiled: Map<string, CompiledQuery | null>;
}

/**
 * Apollo's `gateway` option for one local schema: `load` hands Apollo the schema and the executor.
 *
 * Only queries run compiled. A mutation always runs through graphql-js: its root fields must run
 * one after the other, the path every money-moving test exercises, and a mutation document is not
 * the same hot loop a page of reads is. A compiled query answers what graphql-js would (same data,
 * same errors with the same paths, same null propagation); variables are coerced by graphql-js
 * first, so a bad value gets the very error, and status 400, it always had.
 */
export function compiledExecution(schema: GraphQLSchema, options: CompiledExecutionOptions): GatewayInterface {
  // Insertion order is recency: a document used again moves to the end, the first is the oldest.
  const documents = new Map<DocumentNode, DocumentState>();

  const follow = (document: DocumentNode): DocumentState => {
    let state = documents.get(document);
    if (state) {
      documents.delete(document);
    } else {
      state = { runs: 0, compiled: new Map() };
      if (documents.size >= options.maxDocuments) documents.delete(documents.keys().next().value!);
    }
    documents.set(document, state);
    state.runs += 1;
    return state;
  };

  const compiledFor = (state: DocumentState, document: DocumentNode, operationName: string | undefined): CompiledQuery | null => {
    const key = operationName ?? '';
    let compiled = state.compiled.get(key);
    if (compiled === undefined) {
      let result: CompiledQuery | ExecutionResult | undefined;
      try {
        result = compileQuery<Record<string, unknown>, Record<string, unknown>>(schema, document, operationName, { disablingCapturingStackErrors: true });
      } catch {
        // A construct the compiler does not handle: graphql-js runs the document, as it always did.
        result = undefined;
      }
      compiled = result && isCompiledQuery(result) ? result : null;
      state.compiled.set(key, compiled);
    }
    return compiled;
  };

  const executor: GatewayExecutor = async (request) => {
    const { document, operation, context } = request;
    const variables = request.request.variables ?? {};
    const operationName = request.request.operationName ?? undefined;
    const interpreted = (): Promise<ExecutionResult> | ExecutionResult => {
      options.onExecution?.('interpreted');
      return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
    };
    // No operation: graphql-js reports why (the envelope check refuses it before it gets here).
    if (!operation || operation.operation !== OperationTypeNode.QUERY) return interpreted();
    const state = follow(document);
    if (state.runs <= options.compileAfter) return interpreted();
    const compiled = compiledFor(state, document, operationName);
    if (!compiled) return interpreted();
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    options.onExecution?.('compiled');
    const result = await compiled.query(undefined, context, variables);
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };

  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async stop() {
      documents.clear();
    },
  };
}

/**
 * graphql-jit reports an error as its own GraphQLError, made the way graphql 15 made them: without
 * `extensions` when the thrown error had none (a database error, a bug). Apollo and the error
 * formatter expect graphql 16's, as graphql-js's `execute` gives them: the same error again, as one.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  const { message, path, originalError, extensions, locations } = error;
  const normal = new GraphQLError(message, { ...(path ? { path } : {}), ...(originalError ? { originalError } : {}), ...(extensions ? { extensions } : {}) });
  if (locations) (normal as { locations: readonly SourceLocation[] | undefined }).locations = locations;
  return normal;
}
