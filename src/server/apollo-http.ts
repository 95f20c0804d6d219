// Apollo Server on node:http's own request and response: what @as-integrations/express5 does,
// for a request Express routed or one served before it (src/server/envelope.ts), with the answer
// written by Node's `res.end` instead of Express's `res.send`. `res.send` parses and formats the
// content type Apollo already set (to add the charset it has), and copies every answer over 1,000
// characters into a Buffer first (to count its bytes): for a page of deposits, a copy of the whole
// JSON on each request. Node counts the bytes of a single `end` itself and sends the Content-Length.

import type { ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from '@apollo/server';
import { sendJson } from '../lib/http.js';
import { inGraphqlSpan } from '../lib/tracing/request-spans.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { INTERNAL_ERROR_BODY, type GraphqlHttpRequest } from './envelope.js';

export interface ApolloHttpOptions<TContext extends BaseContext> {
  context: (args: { req: GraphqlHttpRequest; res: ServerResponse }) => Promise<TContext>;
}

/** The `/graphql` handler: the request as Apollo's HTTPGraphQLRequest, its answer as the HTTP response. */
export function apolloHttpHandler<TContext extends BaseContext>(server: ApolloServer<TContext>, options: ApolloHttpOptions<TContext>) {
  server.assertStarted('apolloHttpHandler()');
  return async (req: GraphqlHttpRequest, res: ServerResponse): Promise<void> => {
    if (req.method === 'POST' && req.body === undefined) {
      // The envelope parses every POST body first; this is a wiring mistake, not a caller's.
      sendJson(res, 500, INTERNAL_ERROR_BODY);
      return;
    }
    const headers = new HeaderMap();
    for (const key in req.headers) {
      const value = req.headers[key];
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const httpGraphQLRequest: HTTPGraphQLRequest = {
      method: req.method!.toUpperCase(),
      headers,
      search: urlSearch(req.url!),
      body: req.body,
    };
    // With tracing on, in a GraphQL span of its own, which the tracing plugin names by the operation.
    const execute = () => server.executeHTTPGraphQLRequest({ httpGraphQLRequest, context: () => options.context({ req, res }) });
    const response = tracingOn() ? await inGraphqlSpan(execute) : await execute();
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') {
      if (req.method === 'HEAD') res.end();
      else res.end(response.body.string);
      return;
    }
    // An incremental answer (@defer/@stream), part by part.
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/** The query string of a request URL, `?` included (empty when there is none), without a fragment: what `url.parse(url).search` gives. */
export function urlSearch(url: string): string {
  const hash = url.indexOf('#');
  const path = hash === -1 ? url : url.slice(0, hash);
  const start = path.indexOf('?');
  return start === -1 ? '' : path.slice(start);
}
