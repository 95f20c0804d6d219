// Which POSTs to /graphql the HTTP server reads itself, before Express: the usual form only. Every
// other one goes through Express's handlers (test/hardening/envelope.test.ts sends each refusal
// both ways and expects the same answer).

import type { IncomingMessage } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { describe, expect, it } from 'vitest';
import { USUAL_ACCEPTS, usualGraphqlPost } from './envelope.js';

const request = (headers: Record<string, string>, method = 'POST', url = '/graphql') => ({ method, url, headers }) as unknown as IncomingMessage;
const USUAL = { 'content-type': 'application/json', 'content-length': '27' };

describe('a usual GraphQL POST', () => {
  it.each([
    ['fetch', { ...USUAL, accept: '*/*' }],
    ['curl -d with a JSON content type', { ...USUAL, 'content-type': 'application/json; charset=utf-8', accept: '*/*' }],
    ['Apollo Client', { ...USUAL, accept: 'application/graphql-response+json,application/json;q=0.9' }],
    ['no Accept', USUAL],
  ])('is %s', (_name, headers) => {
    expect(usualGraphqlPost(request(headers))).toBe(true);
  });

  it.each([
    ['a GET', request(USUAL, 'GET')],
    ['another path', request(USUAL, 'POST', '/graphql/')],
    ['a query string', request(USUAL, 'POST', '/graphql?x=1')],
    ['another charset', request({ ...USUAL, 'content-type': 'application/json; charset=latin1' })],
    ['another content type', request({ ...USUAL, 'content-type': 'text/plain' })],
    ['no length (chunked)', request({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' })],
    ['a compressed body', request({ ...USUAL, 'content-encoding': 'gzip' })],
    ['an Accept to negotiate', request({ ...USUAL, accept: 'text/html;q=0.9, application/json;q=0.1' })],
  ])('is not %s', (_name, req) => {
    expect(usualGraphqlPost(req)).toBe(false);
  });
});

describe('the answer type of a usual Accept', () => {
  it('is the one Apollo negotiates for it', async () => {
    const apollo = new ApolloServer({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } });
    await apollo.start();
    try {
      for (const [accept, type] of USUAL_ACCEPTS) {
        const headers = new HeaderMap([['content-type', 'application/json']]);
        if (accept !== undefined) headers.set('accept', accept);
        const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'POST', headers, search: '', body: { query: '{ ok }' } }, context: async () => ({}) });
        expect({ accept, type: response.headers.get('content-type') }).toEqual({ accept, type });
      }
    } finally {
      await apollo.stop();
    }
  });
});
