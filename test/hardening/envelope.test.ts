// Malformed request envelopes, over HTTP and graphql-ws, sent without a key as anyone could: each
// is refused with a 4xx (or the graphql-ws protocol's answer), a code of its own and a message
// saying what to send, and leaves nothing above info in the log.

import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { acknowledgedSocket, type RawSocket } from '../support/ws.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const VIEWER = '{ viewer { id } }';
/** JSON text of `depth` arrays, one inside the other: deeper than JSON.stringify (or graphql-js's coercion) can walk. */
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

interface Logged {
  level: number;
  msg: string;
  stack?: string;
  err?: unknown;
  [field: string]: unknown;
}

/** The log lines written while `run` ran, and then until its request's line is in. */
async function logsDuring<T>(run: () => Promise<T>, done: (lines: Logged[]) => boolean = () => true): Promise<{ result: T; lines: Logged[] }> {
  const from = t.logs.length;
  const result = await run();
  const lines = () => t.logs.slice(from).map((line) => JSON.parse(line) as Logged);
  await expect.poll(() => done(lines()), { interval: 10 }).toBe(true);
  return { result, lines: lines() };
}

/** Nothing above info, and no stack anywhere. */
function expectQuiet(lines: Logged[]): void {
  expect(lines.filter((line) => line.level > 30)).toEqual([]);
  expect(JSON.stringify(lines)).not.toMatch(/"stack"|"err"/);
}

interface HttpCase {
  name: string;
  method?: string;
  /** Search parameters of a GET. */
  search?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  code: string;
  message: RegExp;
}

const HTTP_CASES: HttpCase[] = [
  { name: 'a method other than GET and POST', method: 'PUT', body: { query: VIEWER }, status: 405, code: 'METHOD_NOT_ALLOWED', message: /GET \(queries\) and POST only/ },
  { name: 'a POST body that is not JSON', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: VIEWER }), status: 415, code: 'UNSUPPORTED_CONTENT_TYPE', message: /Content-Type: application\/json/ },
  { name: 'a POST with no content type', headers: { 'content-type': '' }, body: JSON.stringify({ query: VIEWER }), status: 415, code: 'UNSUPPORTED_CONTENT_TYPE', message: /application\/json/ },
  { name: 'JSON in a charset other than UTF-8', headers: { 'content-type': 'application/json; charset=latin1' }, body: { query: VIEWER }, status: 415, code: 'UNSUPPORTED_CONTENT_TYPE', message: /UTF-8/ },
  { name: 'a GET with a form content type', method: 'GET', search: { query: VIEWER }, headers: { 'content-type': 'application/x-www-form-urlencoded', 'apollo-require-preflight': 'true' }, status: 415, code: 'UNSUPPORTED_CONTENT_TYPE', message: /GET request has no body/ },
  { name: 'an Accept the answer cannot meet', headers: { accept: 'application/xml' }, body: { query: VIEWER }, status: 406, code: 'NOT_ACCEPTABLE', message: /accept application\/json/ },
  { name: 'a simple cross-site GET', method: 'GET', search: { query: VIEWER }, status: 400, code: 'CSRF_PREFLIGHT_REQUIRED', message: /Apollo-Require-Preflight/ },
  { name: 'JSON cut short', body: '{"query": "{ viewer', status: 400, code: 'MALFORMED_JSON', message: /not a JSON object/ },
  { name: 'a JSON string for a body', body: '"{ viewer { id } }"', status: 400, code: 'MALFORMED_JSON', message: /not a JSON object/ },
  { name: 'an empty body', body: '', status: 400, code: 'QUERY_MISSING', message: /Send "query"/ },
  { name: 'a query text over the length limit', body: { query: `# ${'x'.repeat(20_000)}\n${VIEWER}` }, status: 400, code: 'QUERY_TOO_LONG', message: /longer than 20000 characters/ },
  { name: 'a body over the size limit', body: { query: VIEWER, variables: { padding: 'x'.repeat(200_000) } }, status: 413, code: 'PAYLOAD_TOO_LARGE', message: /larger than 102400 bytes/ },
  { name: 'a batch', body: [{ query: VIEWER }, { query: VIEWER }], status: 400, code: 'BATCH_NOT_SUPPORTED', message: /one operation per request/ },
  { name: 'no query', body: { variables: {} }, status: 400, code: 'QUERY_MISSING', message: /Send "query"/ },
  { name: 'a documentId that is not sha256:<hex>', body: { documentId: 'deadbeef' }, status: 400, code: 'INVALID_PERSISTED_QUERY', message: /"documentId" must be "sha256:"/ },
  { name: 'a documentId that is not a string', body: { documentId: 7 }, status: 400, code: 'INVALID_PERSISTED_QUERY', message: /"documentId" must be "sha256:"/ },
  { name: 'a query that is not a string', body: { query: { kind: 'Document' } }, status: 400, code: 'INVALID_QUERY', message: /"query" must be a string of GraphQL, not an object/ },
  { name: 'an operationName that is not a string', body: { query: VIEWER, operationName: ['A'] }, status: 400, code: 'INVALID_OPERATION_NAME', message: /"operationName" must be a string or null, not an array/ },
  { name: 'variables as a JSON-encoded string', body: { query: VIEWER, variables: '{}' }, status: 400, code: 'INVALID_VARIABLES', message: /not a JSON-encoded string/ },
  { name: 'variables as an array', body: { query: VIEWER, variables: [1] }, status: 400, code: 'INVALID_VARIABLES', message: /"variables" must be a JSON object or null, not an array/ },
  { name: 'extensions as a number', body: { query: VIEWER, extensions: 7 }, status: 400, code: 'INVALID_EXTENSIONS', message: /"extensions" must be a JSON object or null, not a number/ },
  { name: 'variables nested too deep', body: `{"query": "mutation ($input: CreateQrCodeInput!) { createQrCode(input: $input) { userErrors { code } } }", "variables": {"input": {"amount": ${nested(20_000)}}}}`, status: 400, code: 'JSON_TOO_DEEP', message: /deeper than 32 levels/ },
  { name: 'extensions nested too deep', body: `{"query": "${VIEWER}", "extensions": {"trace": ${nested(40)}}}`, status: 400, code: 'JSON_TOO_DEEP', message: /"extensions" nests/ },
  { name: 'a persisted query of another version', body: { extensions: { persistedQuery: { version: 2, sha256Hash: sha256(VIEWER) } } }, status: 400, code: 'INVALID_PERSISTED_QUERY', message: /must be 1/ },
  { name: 'a persisted query hash that is not one', body: { query: VIEWER, extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }, status: 400, code: 'INVALID_PERSISTED_QUERY', message: /64 lowercase hex digits/ },
  { name: 'a persisted query hash of another query', body: { query: VIEWER, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ viewer { name } }') } } }, status: 400, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: /not the SHA-256 of the query/ },
  { name: 'a documentId sent with the text of another document', body: { query: VIEWER, documentId: `sha256:${sha256('{ viewer { name } }')}` }, status: 400, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: /"documentId" is not the SHA-256 of the query/ },
  { name: 'a documentId in a GET with the text of another document', method: 'GET', search: { query: VIEWER, documentId: `sha256:${sha256('{ viewer { name } }')}` }, headers: { 'apollo-require-preflight': 'true' }, status: 400, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: /"documentId" is not the SHA-256 of the query/ },
  { name: 'an operationName that matches nothing', body: { query: 'query A { viewer { id } }', operationName: 'B' }, status: 400, code: 'OPERATION_NOT_FOUND', message: /no operation named "B"/ },
  { name: 'a name sent with an anonymous operation', body: { query: VIEWER, operationName: 'A' }, status: 400, code: 'OPERATION_NOT_FOUND', message: /operation has no name/ },
  { name: 'a mutation with a name that matches nothing', body: { query: 'mutation M { revokeApiClient(input: { id: "cli_x" }) { userErrors { code } } }', operationName: 'N' }, status: 400, code: 'OPERATION_NOT_FOUND', message: /no operation named "N"/ },
  { name: 'two operations and no name', body: { query: 'query A { viewer { id } } query B { viewer { name } }' }, status: 400, code: 'OPERATION_NAME_REQUIRED', message: /2 operations: name the one to run/ },
  { name: 'a subscription over POST', body: { query: 'subscription { heartbeat { sequence } }' }, status: 400, code: 'OPERATION_NOT_ALLOWED_ON_TRANSPORT', message: /Subscriptions run over graphql-ws/ },
  { name: 'a mutation over GET', method: 'GET', search: { query: 'mutation { revokeApiClient(input: { id: "cli_x" }) { userErrors { code } } }' }, headers: { 'apollo-require-preflight': 'true' }, status: 405, code: 'OPERATION_NOT_ALLOWED_ON_TRANSPORT', message: /GET request runs queries only/ },
  { name: 'a GET with variables twice', method: 'GET', search: { query: VIEWER, variables: ['{}', '{}'] }, headers: { 'apollo-require-preflight': 'true' }, status: 400, code: 'INVALID_VARIABLES', message: /given only once/ },
  { name: 'a GET with variables that are not JSON', method: 'GET', search: { query: VIEWER, variables: '{' }, headers: { 'apollo-require-preflight': 'true' }, status: 400, code: 'INVALID_VARIABLES', message: /not valid JSON/ },
];

/**
 * How a request reaches the envelope: a POST in its usual form (JSON in UTF-8 to `/graphql`) is
 * served before Express; the same request with a query string goes through Express's handlers.
 */
type Form = 'usual' | 'through Express';

async function sendHttp(one: HttpCase, form: Form = 'usual'): Promise<{ status: number; headers: Headers; body: any }> {
  const method = one.method ?? 'POST';
  const url = new URL(t.gateway.graphqlUrl);
  if (form === 'through Express') url.searchParams.set('form', 'express');
  for (const [name, value] of Object.entries(one.search ?? {})) for (const item of [value].flat()) url.searchParams.append(name, item);
  const headers: Record<string, string> = { ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...one.headers };
  // fetch sends text/plain for a string body unless told otherwise; an empty value means no header.
  const body = method === 'GET' ? undefined : typeof one.body === 'string' ? one.body : JSON.stringify(one.body);
  if (headers['content-type'] === '') delete headers['content-type'];
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : headers['content-type'] === undefined ? new Blob([body]) : body });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
}

const FORMS: Form[] = ['usual', 'through Express'];

describe('a malformed envelope over HTTP', () => {
  it.each(HTTP_CASES.flatMap((one) => FORMS.map((form) => ({ ...one, form }))))('$name ($form): $status $code, logged at info', async ({ form, ...one }) => {
    const { result, lines } = await logsDuring(() => sendHttp(one, form), (lines) => lines.some((line) => line.msg === 'request completed'));
    expect(result.body).toEqual({ errors: [{ message: expect.stringMatching(one.message), extensions: { code: one.code } }] });
    expect(result.status).toBe(one.status);
    expectQuiet(lines);
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ level: 30, status: one.status, refusal: one.code });
  });

  it.each(FORMS)('reads a body that starts with a byte-order mark (%s), as the JSON body parser does', async (form) => {
    const answered = await sendHttp({ name: 'BOM', headers: { authorization: `Bearer ${t.keys.webCashier}` }, body: `\uFEFF${JSON.stringify({ query: VIEWER })}`, status: 200, code: '', message: /./ }, form);
    expect(answered).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
  });

  it('names the methods a refused method or GET may use', async () => {
    expect((await sendHttp(HTTP_CASES.find((one) => one.code === 'METHOD_NOT_ALLOWED')!)).headers.get('allow')).toBe('GET, POST');
    expect((await sendHttp(HTTP_CASES.find((one) => one.name === 'a mutation over GET')!)).headers.get('allow')).toBe('POST');
  });

  it('runs nothing when the answer cannot be sent in an acceptable type', async () => {
    const name = `not-acceptable-${randomUUID()}`;
    const refused = await sendHttp({ name, headers: { accept: 'text/csv', authorization: `Bearer ${t.keys.admin}` }, body: { query: `mutation { createApiClient(input: { name: "${name}", roles: [CASHIER] }) { key } }` }, status: 406, code: 'NOT_ACCEPTABLE', message: /./ });
    expect(refused.status).toBe(406);
    const clients = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.admin}` },
      body: JSON.stringify({ query: '{ apiClients(first: 100) { edges { node { name } } } }' }),
    });
    expect(JSON.stringify(await clients.json())).not.toContain(name);
  });

  it('still serves automatic persisted queries: an unknown hash is PERSISTED_QUERY_NOT_FOUND, as Apollo clients expect, then the hash alone runs', async () => {
    const query = `{ viewer { id } } # ${randomUUID()}`;
    const persistedQuery = { version: 1, sha256Hash: sha256(query) };
    const headers = { authorization: `Bearer ${t.keys.webCashier}` };
    const unknown = await sendHttp({ name: 'unknown hash', headers, body: { extensions: { persistedQuery } }, status: 200, code: '', message: /./ });
    expect(unknown).toMatchObject({ status: 200, body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } });
    const registered = await sendHttp({ name: 'register', headers, body: { query, extensions: { persistedQuery } }, status: 200, code: '', message: /./ });
    expect(registered).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
    const byHash = await sendHttp({ name: 'by hash', headers, body: { extensions: { persistedQuery } }, status: 200, code: '', message: /./ });
    expect(byHash).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
  });

  it.each(FORMS)('reads an empty query beside a persisted query hash as no text, as graphql-ws does, with nothing logged above info (%s)', async (form) => {
    const query = `{ viewer { id } } # ${randomUUID()}`;
    const persistedQuery = { version: 1, sha256Hash: sha256(query) };
    const headers = { authorization: `Bearer ${t.keys.webCashier}` };
    const get = (hash: typeof persistedQuery): HttpCase => ({ name: 'GET', method: 'GET', search: { query: '', extensions: JSON.stringify({ persistedQuery: hash }) }, headers: { ...headers, 'apollo-require-preflight': 'true' }, status: 200, code: '', message: /./ });
    const post = (hash: typeof persistedQuery): HttpCase => ({ name: 'POST', headers, body: { query: '', extensions: { persistedQuery: hash } }, status: 200, code: '', message: /./ });
    const done = (lines: Logged[]) => lines.some((line) => line.msg === 'request completed');
    for (const unknown of [post(persistedQuery), get(persistedQuery)]) {
      const { result, lines } = await logsDuring(() => sendHttp(unknown, form), done);
      expect(result).toMatchObject({ status: 200, body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } });
      expectQuiet(lines);
    }
    await sendHttp({ name: 'register', headers, body: { query, extensions: { persistedQuery } }, status: 200, code: '', message: /./ }, form);
    for (const known of [post(persistedQuery), get(persistedQuery)]) {
      const { result, lines } = await logsDuring(() => sendHttp(known, form), done);
      expect(result).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
      expectQuiet(lines);
    }
  });

  it.each(FORMS)('reads variables and extensions given as null in a GET as none, as a POST does (%s)', async (form) => {
    const headers = { authorization: `Bearer ${t.keys.webCashier}`, 'apollo-require-preflight': 'true' };
    const { result, lines } = await logsDuring(
      () => sendHttp({ name: 'GET', method: 'GET', search: { query: VIEWER, variables: 'null', extensions: 'null' }, headers, status: 200, code: '', message: /./ }, form),
      (lines) => lines.some((line) => line.msg === 'request completed'),
    );
    expect(result).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
    expectQuiet(lines);
    const posted = await sendHttp({ name: 'POST', headers, body: { query: VIEWER, variables: null, extensions: null }, status: 200, code: '', message: /./ }, form);
    expect(posted).toMatchObject({ status: 200, body: { data: { viewer: { id: expect.any(String) } } } });
  });

  it('answers a document whose anonymous operation stands beside another as invalid GraphQL, not by operation name', async () => {
    const { result, lines } = await logsDuring(
      () => sendHttp({ name: 'two anonymous', headers: { authorization: `Bearer ${t.keys.webCashier}` }, body: { query: '{ viewer { id } } { viewer { name } }' }, status: 400, code: '', message: /./ }),
      (lines) => lines.some((line) => line.msg === 'request completed'),
    );
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual([expect.objectContaining({ message: 'This anonymous operation must be the only defined operation.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }), expect.anything()]);
    expectQuiet(lines);
  });
});

/** A graphql-transport-ws socket of the web cashier past `connection_ack`. */
const acknowledged = () => acknowledgedSocket(t.gateway.wsUrl, t.keys.webCashier);
const answer = (raw: RawSocket, id: string) => raw.next((message) => message.id === id);

interface WsCase {
  name: string;
  payload: Record<string, unknown>;
  code: string;
  message: RegExp;
}

/** Well-typed subscribe payloads the protocol lets through: a GraphQL `error` message for the operation, the socket stays open. */
const WS_ERROR_CASES: WsCase[] = [
  { name: 'an empty query', payload: { query: '' }, code: 'QUERY_MISSING', message: /Send the query text in "query"/ },
  { name: 'a persisted query of another version', payload: { query: VIEWER, extensions: { persistedQuery: { version: 3 } } }, code: 'INVALID_PERSISTED_QUERY', message: /must be 1/ },
  { name: 'a persisted query hash of another query', payload: { query: VIEWER, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ viewer { name } }') } } }, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: /not the SHA-256/ },
  { name: 'a documentId sent with the text of another document', payload: { query: VIEWER, documentId: `sha256:${sha256('{ viewer { name } }')}` }, code: 'PERSISTED_QUERY_HASH_MISMATCH', message: /"documentId" is not the SHA-256/ },
  { name: 'an operationName that matches nothing', payload: { query: 'query A { viewer { id } }', operationName: 'B' }, code: 'OPERATION_NOT_FOUND', message: /no operation named "B"/ },
  { name: 'a name sent with an anonymous operation', payload: { query: VIEWER, operationName: 'A' }, code: 'OPERATION_NOT_FOUND', message: /operation has no name/ },
  { name: 'two operations and no name', payload: { query: 'query A { viewer { id } } subscription B { heartbeat { sequence } }' }, code: 'OPERATION_NAME_REQUIRED', message: /2 operations/ },
];

/** Payloads the protocol calls malformed: the socket is closed with 4400, whose reason carries the code. */
const WS_CLOSE_CASES: WsCase[] = [
  { name: 'a query that is not a string', payload: { query: 5 }, code: 'INVALID_QUERY', message: /"query" must be a string/ },
  { name: 'an operationName that is not a string', payload: { query: VIEWER, operationName: 5 }, code: 'INVALID_OPERATION_NAME', message: /"operationName" must be a string/ },
  { name: 'variables as a JSON-encoded string', payload: { query: VIEWER, variables: '{}' }, code: 'INVALID_VARIABLES', message: /JSON-encoded string/ },
  { name: 'extensions as an array', payload: { query: VIEWER, extensions: [] }, code: 'INVALID_EXTENSIONS', message: /"extensions" must be a JSON object/ },
];

describe('a malformed envelope over graphql-ws', () => {
  it.each(WS_ERROR_CASES)('$name: an error with $code, and the socket stays open', async (one) => {
    const raw = await acknowledged();
    try {
      const id = randomUUID();
      const { result, lines } = await logsDuring(async () => {
        raw.send({ id, type: 'subscribe', payload: one.payload });
        return answer(raw, id);
      });
      expect(result).toEqual({ id, type: 'error', payload: [{ message: expect.stringMatching(one.message), extensions: { code: one.code } }] });
      expectQuiet(lines);
      // Still open: the next operation runs.
      const next = randomUUID();
      raw.send({ id: next, type: 'subscribe', payload: { query: VIEWER } });
      expect((await answer(raw, next)).type).toBe('next');
    } finally {
      raw.socket.close();
    }
  });

  it('variables nested too deep: an error with JSON_TOO_DEEP, and the socket stays open', async () => {
    const raw = await acknowledged();
    try {
      const id = randomUUID();
      const { result, lines } = await logsDuring(async () => {
        raw.send(`{"id": "${id}", "type": "subscribe", "payload": {"query": "subscription ($id: ID!) { depositUpdated(id: $id) { id } }", "variables": {"id": ${nested(20_000)}}}}`);
        return answer(raw, id);
      });
      expect(result).toEqual({ id, type: 'error', payload: [{ message: expect.stringMatching(/"variables" nests objects and arrays deeper than 32 levels/), extensions: { code: 'JSON_TOO_DEEP' } }] });
      expectQuiet(lines);
    } finally {
      raw.socket.close();
    }
  });

  it.each(WS_CLOSE_CASES)('$name: closed with 4400 and $code', async (one) => {
    const raw = await acknowledged();
    const { result, lines } = await logsDuring(async () => {
      raw.send({ id: randomUUID(), type: 'subscribe', payload: one.payload });
      return raw.closed;
    }, (lines) => lines.some((line) => line.msg === 'graphql-ws message refused'));
    expect(result.code).toBe(4400);
    expect(result.reason.startsWith(`${one.code}: `)).toBe(true);
    expect(result.reason).toMatch(one.message);
    expectQuiet(lines);
    expect(lines.find((line) => line.msg === 'graphql-ws message refused')).toMatchObject({ level: 30, reason: result.reason });
  });

  it('variables that do not fit the operation: BAD_USER_INPUT, as over HTTP, not an internal error', async () => {
    const raw = await acknowledged();
    try {
      const query = randomUUID();
      const subscription = randomUUID();
      const { result, lines } = await logsDuring(async () => {
        raw.send({ id: query, type: 'subscribe', payload: { query: 'query ($id: ID!) { deposit(id: $id) { id } }', variables: { id: [true] } } });
        raw.send({ id: subscription, type: 'subscribe', payload: { query: 'subscription ($id: ID!) { depositUpdated(id: $id) { id } }' } });
        return [await answer(raw, query), await answer(raw, subscription)];
      });
      for (const answer of result) {
        expect(answer).toMatchObject({ type: 'next', payload: { errors: [{ message: expect.stringMatching(/^Variable "\$id"/), extensions: { code: 'BAD_USER_INPUT' } }] } });
      }
      expectQuiet(lines);
    } finally {
      raw.socket.close();
    }
  });

  it('closes with 4400, not an internal error, a socket that sends a message only servers send', async () => {
    const raw = await acknowledged();
    const { result, lines } = await logsDuring(async () => {
      raw.send({ id: randomUUID(), type: 'next', payload: { data: {} } });
      return raw.closed;
    });
    expect(result).toEqual({ code: 4400, reason: 'Unexpected message of type next received' });
    expectQuiet(lines);
  });

  it('lets ws close a socket whose frame is over the size limit (1009), logged at info', async () => {
    const raw = await acknowledged();
    const { result, lines } = await logsDuring(async () => {
      raw.send({ id: randomUUID(), type: 'subscribe', payload: { query: VIEWER, variables: { padding: 'x'.repeat(200_000) } } });
      return raw.closed;
    }, (lines) => lines.some((line) => line.msg === 'graphql-ws frame refused'));
    expect(result.code).toBe(1009);
    expectQuiet(lines);
  });

  it('runs a mutation sent over graphql-ws: every operation kind may use it', async () => {
    const raw = await acknowledged();
    try {
      const id = randomUUID();
      raw.send({ id, type: 'subscribe', payload: { query: 'mutation { revokeApiClient(input: { id: "cli_x" }) { userErrors { code } } }' } });
      expect((await answer(raw, id)).type).toBe('next');
    } finally {
      raw.socket.close();
    }
  });
});
