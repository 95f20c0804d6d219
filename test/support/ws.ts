// Real graphql-ws clients for tests.

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export function wsClient(url: string, connectionParams?: Record<string, unknown>): Client {
  return createClient({ url, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/** Connects with the given parameters and resolves with the code the server closes with. */
export function closeCodeFor(url: string, connectionParams?: Record<string, unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      on: { closed: (event) => resolve((event as { code: number }).code) },
      onNonLazyError: () => undefined,
    });
    setTimeout(() => {
      void client.dispose();
      reject(new Error('server did not close the connection'));
    }, 10_000);
  });
}

/** Subscribes and collects the first `count` results, then unsubscribes. */
export function take<TResult, TVariables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  count: number,
  timeoutMs = 10_000,
): Promise<Array<{ data?: TResult | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }>> {
  return new Promise((resolve, reject) => {
    const results: Array<{ data?: TResult | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }> = [];
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${results.length} of ${count} results`));
    }, timeoutMs);
    const unsubscribe = client.subscribe<TResult>(
      { query: print(document), variables },
      {
        next: (result) => {
          results.push(result as (typeof results)[number]);
          if (results.length >= count) {
            clearTimeout(timer);
            unsubscribe();
            resolve(results);
          }
        },
        error: (error) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
        },
        complete: () => {
          clearTimeout(timer);
          resolve(results);
        },
      },
    );
  });
}
