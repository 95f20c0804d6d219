// Real graphql-ws clients for tests.

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { messageText } from '../../src/lib/ws-message.js';

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
          results.push(result);
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

/** One message of the graphql-transport-ws protocol, parsed. */
export interface RawMessage {
  id?: string;
  type: string;
  // Payloads are whatever a test sends or the server answers: each test reads the fields it expects.
  payload?: any;
}

/** A WebSocket spoken to message by message, for tests of the protocol itself. */
export interface RawSocket {
  socket: WebSocket;
  /** Every message received, parsed. */
  messages: RawMessage[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** Resolves with the first message (already received or to come) that matches. */
  next(predicate: (message: RawMessage) => boolean): Promise<RawMessage>;
}

export async function rawSocket(url: string, protocols: string[] = ['graphql-transport-ws']): Promise<RawSocket> {
  const socket = new WebSocket(url, protocols);
  const messages: RawMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  socket.on('message', (data: WebSocket.RawData) => messages.push(JSON.parse(messageText(data)) as RawMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: async (predicate) => {
      await expect.poll(() => messages.some(predicate), { interval: 10 }).toBe(true);
      return messages.find(predicate)!;
    },
  };
}

/** A graphql-transport-ws socket past `connection_ack` with the key. */
export async function acknowledgedSocket(url: string, key: string): Promise<RawSocket> {
  const raw = await rawSocket(url);
  raw.send({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } });
  await raw.next((message) => message.type === 'connection_ack');
  return raw;
}
