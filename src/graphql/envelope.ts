// The request envelope: what wraps a GraphQL document on the wire (`query`, `operationName`,
// `variables`, `extensions` and its `persistedQuery`), checked before anything parses or runs, the
// same way over HTTP and graphql-ws. Each malformed envelope is refused with a code of its own and
// a message that says what to send instead; none is an internal error, a 5xx or an error log line.
// The HTTP side (methods, content types, body parsing) is src/server/envelope.ts.

import { createHash } from 'node:crypto';
import { GraphQLError, Kind, OperationTypeNode, type DocumentNode, type OperationDefinitionNode } from 'graphql';

export const METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED';
export const UNSUPPORTED_CONTENT_TYPE = 'UNSUPPORTED_CONTENT_TYPE';
export const NOT_ACCEPTABLE = 'NOT_ACCEPTABLE';
export const CSRF_PREFLIGHT_REQUIRED = 'CSRF_PREFLIGHT_REQUIRED';
export const MALFORMED_JSON = 'MALFORMED_JSON';
export const PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE';
export const BATCH_NOT_SUPPORTED = 'BATCH_NOT_SUPPORTED';
export const QUERY_MISSING = 'QUERY_MISSING';
export const INVALID_QUERY = 'INVALID_QUERY';
export const INVALID_OPERATION_NAME = 'INVALID_OPERATION_NAME';
export const INVALID_VARIABLES = 'INVALID_VARIABLES';
export const INVALID_EXTENSIONS = 'INVALID_EXTENSIONS';
export const JSON_TOO_DEEP = 'JSON_TOO_DEEP';
export const INVALID_PERSISTED_QUERY = 'INVALID_PERSISTED_QUERY';
export const PERSISTED_QUERY_HASH_MISMATCH = 'PERSISTED_QUERY_HASH_MISMATCH';
export const OPERATION_NOT_FOUND = 'OPERATION_NOT_FOUND';
export const OPERATION_NAME_REQUIRED = 'OPERATION_NAME_REQUIRED';
export const OPERATION_NOT_ALLOWED_ON_TRANSPORT = 'OPERATION_NOT_ALLOWED_ON_TRANSPORT';

/** Every code an envelope refusal carries; their messages are written for clients (errors.ts lets them through). */
export const ENVELOPE_CODES = [
  METHOD_NOT_ALLOWED,
  UNSUPPORTED_CONTENT_TYPE,
  NOT_ACCEPTABLE,
  CSRF_PREFLIGHT_REQUIRED,
  MALFORMED_JSON,
  PAYLOAD_TOO_LARGE,
  BATCH_NOT_SUPPORTED,
  QUERY_MISSING,
  INVALID_QUERY,
  INVALID_OPERATION_NAME,
  INVALID_VARIABLES,
  INVALID_EXTENSIONS,
  JSON_TOO_DEEP,
  INVALID_PERSISTED_QUERY,
  PERSISTED_QUERY_HASH_MISMATCH,
  OPERATION_NOT_FOUND,
  OPERATION_NAME_REQUIRED,
  OPERATION_NOT_ALLOWED_ON_TRANSPORT,
] as const;

export type EnvelopeCode = (typeof ENVELOPE_CODES)[number];

/**
 * Nesting of objects and arrays allowed in `variables` and `extensions`. The deepest input type
 * nests four levels; anything far deeper is an attack on whatever walks the value recursively
 * (graphql-js's coercion, a scalar's error message built with JSON.stringify), which overflows the
 * stack on some tens of thousands of levels, well inside the body limit.
 */
export const MAX_JSON_DEPTH = 32;

/** How an operation arrived: its transport decides which kinds of operation it may carry. */
export type Transport = 'http-get' | 'http-post' | 'ws';

/**
 * One refused envelope. Messages are short enough to be a graphql-ws close reason with their code
 * (123 bytes), and never repeat more than a few characters of what the caller sent.
 */
export interface EnvelopeRefusal {
  code: EnvelopeCode;
  message: string;
  /** The HTTP status; graphql-ws has none (a refusal there is an `error` message or a 4400 close). */
  status: number;
  headers?: Record<string, string>;
}

const refusal = (code: EnvelopeCode, message: string, status = 400, headers?: Record<string, string>): EnvelopeRefusal => ({ code, message, status, ...(headers ? { headers } : {}) });

/**
 * The refusal as a GraphQL error, with the HTTP status Apollo answers it with (the formatter drops
 * it from the body). Its headers are not carried: Apollo would take only a HeaderMap, and the
 * refusals raised inside Apollo have none.
 */
export function refusalError(refused: EnvelopeRefusal): GraphQLError {
  return new GraphQLError(refused.message, { extensions: { code: refused.code, http: { status: refused.status } } });
}

/** The refusal as a response body's error, as the formatter would leave it. */
export function refusalBody(refused: EnvelopeRefusal): { errors: Array<{ message: string; extensions: { code: EnvelopeCode } }> } {
  return { errors: [{ message: refused.message, extensions: { code: refused.code } }] };
}

/** What the caller sent, cut short and quoted, for a message. */
function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** A JSON value's kind as a message names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True when `value` nests objects and arrays deeper than `max` (walked without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const item of (Array.isArray(current) ? current : Object.values(current)) as unknown[]) {
      if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
    }
  }
  return false;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const DOCUMENT_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * Checks the fields of one request (a POST body, a GET's parameters, a graphql-ws `subscribe`
 * payload) before the query is parsed. `undefined`: the envelope is well formed. A persisted query
 * whose hash is merely unknown is not refused here: Apollo answers it PERSISTED_QUERY_NOT_FOUND, as
 * automatic persisted queries expect.
 */
export function checkEnvelope(fields: Record<string, unknown>, transport: Transport): EnvelopeRefusal | undefined {
  const { query, operationName, variables, extensions, documentId } = fields;
  if (query !== undefined && query !== null && typeof query !== 'string') {
    return refusal(INVALID_QUERY, `"query" must be a string of GraphQL, not ${kindOf(query)}.`);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return refusal(INVALID_OPERATION_NAME, `"operationName" must be a string or null, not ${kindOf(operationName)}.`);
  }
  if (variables !== undefined && variables !== null && !isRecord(variables)) {
    const hint = typeof variables === 'string' ? ', not a JSON-encoded string' : `, not ${kindOf(variables)}`;
    return refusal(INVALID_VARIABLES, `"variables" must be a JSON object or null${hint}.`);
  }
  if (extensions !== undefined && extensions !== null && !isRecord(extensions)) {
    const hint = typeof extensions === 'string' ? ', not a JSON-encoded string' : `, not ${kindOf(extensions)}`;
    return refusal(INVALID_EXTENSIONS, `"extensions" must be a JSON object or null${hint}.`);
  }
  // A persisted document's id (the GraphQL-over-HTTP persisted-documents draft), looked up in the
  // trusted-documents manifest (src/graphql/trusted-documents.ts).
  if (documentId !== undefined && documentId !== null && (typeof documentId !== 'string' || !DOCUMENT_ID.test(documentId))) {
    return refusal(INVALID_PERSISTED_QUERY, '"documentId" must be "sha256:" followed by 64 lowercase hex digits.');
  }
  if (deeperThan(variables, MAX_JSON_DEPTH)) return refusal(JSON_TOO_DEEP, `"variables" nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
  if (deeperThan(extensions, MAX_JSON_DEPTH)) return refusal(JSON_TOO_DEEP, `"extensions" nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`);
  const persisted = isRecord(extensions) ? extensions.persistedQuery : undefined;
  const text = typeof query === 'string' && query !== '' ? query : undefined;
  if (persisted !== undefined && persisted !== null) {
    const refused = checkPersistedQuery(persisted, text);
    if (refused) return refused;
  }
  // A document id sent with a text names that text, as a persisted query's hash does: a text of
  // another document is refused, never run in place of the one named (or the other way round).
  if (typeof documentId === 'string' && text !== undefined && `sha256:${sha256(text)}` !== documentId) {
    return refusal(PERSISTED_QUERY_HASH_MISMATCH, 'The "documentId" is not the SHA-256 of the query sent with it.');
  }
  if (text !== undefined) return undefined;
  // A document named by hash alone is looked up later: in the manifest (both transports), or in
  // Apollo's persisted-query cache (HTTP). graphql-ws wants a `query` string, so such a client sends "".
  if (typeof documentId === 'string' || (persisted !== undefined && persisted !== null)) return undefined;
  if (transport === 'ws') return refusal(QUERY_MISSING, 'Send the query text in "query", or a persisted document\'s hash in "extensions.persistedQuery" or "documentId".');
  return refusal(QUERY_MISSING, 'Send "query" (the GraphQL text), or a persisted document\'s hash in "extensions.persistedQuery" or "documentId".');
}

/** Apollo's automatic persisted queries: `{ version: 1, sha256Hash }`, the hash of `query` when both are sent. */
function checkPersistedQuery(persisted: unknown, query: string | undefined): EnvelopeRefusal | undefined {
  if (!isRecord(persisted)) return refusal(INVALID_PERSISTED_QUERY, `"extensions.persistedQuery" must be an object, not ${kindOf(persisted)}.`);
  if (persisted.version !== 1) return refusal(INVALID_PERSISTED_QUERY, '"extensions.persistedQuery.version" must be 1, the only version supported.');
  const hash = persisted.sha256Hash;
  if (typeof hash !== 'string' || !SHA256_HEX.test(hash)) {
    return refusal(INVALID_PERSISTED_QUERY, '"extensions.persistedQuery.sha256Hash" must be 64 lowercase hex digits.');
  }
  if (query !== undefined && sha256(query) !== hash) {
    return refusal(PERSISTED_QUERY_HASH_MISMATCH, 'The persisted query hash is not the SHA-256 of the query sent with it.');
  }
  return undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The fields of a well-formed envelope (`checkEnvelope` found nothing to refuse) that Apollo would
 * read otherwise than this file does, to be dropped before it reads them: `variables` or
 * `extensions` given as null (Apollo refuses null in a GET's parameters, and it means "none"), and
 * an empty `query` beside a persisted document's hash (no text: the hash names the document, as
 * over graphql-ws, where a client must send a string; Apollo would compare the hash with the
 * SHA-256 of "").
 */
export function fieldsMeaningNothing(fields: Record<string, unknown>): Array<'query' | 'variables' | 'extensions'> {
  const dropped: Array<'query' | 'variables' | 'extensions'> = [];
  const { query, variables, extensions, documentId } = fields;
  if (variables === null) dropped.push('variables');
  if (extensions === null) dropped.push('extensions');
  const persisted = isRecord(extensions) ? extensions.persistedQuery : undefined;
  if (query === '' && (typeof documentId === 'string' || (persisted !== undefined && persisted !== null))) dropped.push('query');
  return dropped;
}

/**
 * The operation of a parsed (and valid) document that `operationName` selects, or the refusal: no
 * operation by that name, or several operations and no name to choose one.
 */
export function resolveOperation(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | EnvelopeRefusal {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  if (operationName === undefined || operationName === null) {
    if (operations.length === 1) return operations[0]!;
    return operations.length === 0
      ? refusal(OPERATION_NOT_FOUND, 'The document has no operation to run.')
      : refusal(OPERATION_NAME_REQUIRED, `The document has ${operations.length} operations: name the one to run in "operationName".`);
  }
  const named = operations.find((operation) => operation.name?.value === operationName);
  if (named) return named;
  return operations.some((operation) => operation.name)
    ? refusal(OPERATION_NOT_FOUND, `The document has no operation named ${shown(operationName)}.`)
    : refusal(OPERATION_NOT_FOUND, `"operationName" is ${shown(operationName)}, but the document's operation has no name.`);
}

/**
 * Whether `transport` may carry the operation: subscriptions run over graphql-ws only, and a GET
 * (which a browser or a cache may send again on its own) runs queries only.
 */
export function checkTransport(operation: OperationDefinitionNode, transport: Transport): EnvelopeRefusal | undefined {
  if (transport === 'ws' || operation.operation === OperationTypeNode.QUERY) return undefined;
  if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
    return transport === 'http-get'
      ? refusal(OPERATION_NOT_ALLOWED_ON_TRANSPORT, 'Subscriptions run over graphql-ws (ws://…/graphql), not HTTP.', 405, { allow: 'POST' })
      : refusal(OPERATION_NOT_ALLOWED_ON_TRANSPORT, 'Subscriptions run over graphql-ws (ws://…/graphql), not HTTP.');
  }
  if (transport === 'http-get') return refusal(OPERATION_NOT_ALLOWED_ON_TRANSPORT, 'A GET request runs queries only: send mutations with POST.', 405, { allow: 'POST' });
  return undefined;
}

/** The refusals of HTTP itself, before any GraphQL field is looked at. */
export const httpRefusals = {
  method: () => refusal(METHOD_NOT_ALLOWED, 'GraphQL is served on GET (queries) and POST only.', 405, { allow: 'GET, POST' }),
  contentType: (method: string) =>
    method === 'GET'
      ? refusal(UNSUPPORTED_CONTENT_TYPE, 'A GET request has no body: send no Content-Type, or application/json.', 415)
      : refusal(UNSUPPORTED_CONTENT_TYPE, 'Send the body as JSON in UTF-8: Content-Type: application/json.', 415),
  notAcceptable: () => refusal(NOT_ACCEPTABLE, 'The answer is JSON: accept application/json or application/graphql-response+json.', 406),
  csrf: () => refusal(CSRF_PREFLIGHT_REQUIRED, 'A GET request needs an "Apollo-Require-Preflight: true" header (CSRF prevention).'),
  malformedJson: () => refusal(MALFORMED_JSON, 'The body is not a JSON object: send {"query": "…", "variables": {…}}.'),
  tooLarge: (limit: number) => refusal(PAYLOAD_TOO_LARGE, `The body is larger than ${limit} bytes.`, 413),
  batch: () => refusal(BATCH_NOT_SUPPORTED, 'Send one operation per request: batches (JSON arrays) are not supported.'),
  repeated: (parameter: 'query' | 'operationName' | 'variables' | 'extensions' | 'documentId') =>
    refusal(PARAMETER_CODES[parameter], `The "${parameter}" parameter may be given only once.`),
  parameterNotJson: (parameter: 'variables' | 'extensions') => refusal(PARAMETER_CODES[parameter], `The "${parameter}" parameter is not valid JSON.`),
};

const PARAMETER_CODES = { query: INVALID_QUERY, operationName: INVALID_OPERATION_NAME, variables: INVALID_VARIABLES, extensions: INVALID_EXTENSIONS, documentId: INVALID_PERSISTED_QUERY } as const;

/** A graphql-ws close reason for the refusal: its code, and its message when both fit in a close frame. */
export function closeReason(refused: EnvelopeRefusal): string {
  const reason = `${refused.code}: ${refused.message}`;
  return Buffer.byteLength(reason) <= 123 ? reason : refused.code;
}
