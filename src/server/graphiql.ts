// GraphiQL on GET /graphql, self-contained (no CDN: every script and style is inlined), with
// subscriptions over graphql-ws. In development the demo admin key is pre-filled in the headers.

import type { ApolloServerPlugin } from '@apollo/server';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

const DEFAULT_QUERY = `# Welcome to the payments gateway.
# The Authorization header below carries a key; every operation needs one.

query Viewer {
  viewer {
    id
    name
    roles
  }
  merchantAccounts {
    code
    provider
    livemode
  }
}
`;

export function graphiqlLandingPage(options: { defaultAuthorization?: string }): ApolloServerPlugin {
  const headers = options.defaultAuthorization ? JSON.stringify({ Authorization: options.defaultAuthorization }, null, 2) : undefined;
  const html = renderGraphiQL({
    title: 'Payments gateway',
    endpoint: '/graphql',
    subscriptionsProtocol: 'WS',
    defaultQuery: DEFAULT_QUERY,
    ...(headers ? { defaultHeaders: headers } : {}),
    // GraphiQL opens graphql-ws with these parameters; each operation then carries the Headers
    // tab in its extensions, which the ws server authenticates per operation.
    ...(options.defaultAuthorization ? { connectionParams: { authorization: options.defaultAuthorization } } : {}),
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  });
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
