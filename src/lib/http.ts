// node:http plumbing shared by the gateway and the sandboxes: bounded body reading, small JSON
// answers, headers with one value each, listening, and the provider adapters' outgoing requests on
// kept-alive connections.

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * The request body as the exact bytes received, refusing (and cutting the connection of) any
 * body past `maxBytes` before it is buffered in full.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLarge(maxBytes));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * A small JSON answer in one write, as Express's `res.json` sends it (UTF-8, its length), without
 * its negotiation or ETag. `headers` are added (an `Allow`, a `Cache-Control`).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Lower-cased header names with one value each; a repeated header is joined, which no signature grammar accepts. */
export function singleValued(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) result[name] = Array.isArray(value) ? value.join(',') : value;
  return result;
}

/** Starts listening and resolves with the bound address (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * A listener that could not start, with a one-line message naming the setting to change: a busy
 * port is a configuration problem for whoever starts the process, not a stack trace to read.
 */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    message: string,
    /** The system error's code: EADDRINUSE, EACCES, EADDRNOTAVAIL… */
    readonly code: string,
  ) {
    super(message);
  }
}

/** Which settings chose the address a listener binds, for the message when it cannot. */
export interface ListenSettings {
  /** e.g. `PORT`. */
  portVariable: string;
  /** e.g. `HOST`. */
  hostVariable: string;
}

/** `listen`, with the common failures turned into a `ListenError` naming the variable to change. */
export async function listenAs(server: Server, port: number, host: string, settings: ListenSettings): Promise<AddressInfo> {
  try {
    return await listen(server, port, host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const { portVariable, hostVariable } = settings;
    if (code === 'EADDRINUSE') {
      throw new ListenError(`${portVariable}=${port}: port ${port} on ${host} is already in use (another gateway running?); stop what listens there, or set ${portVariable} to a free port`, code);
    }
    if (code === 'EACCES') {
      throw new ListenError(`${portVariable}=${port}: not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges); set ${portVariable} to a port above 1023`, code);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new ListenError(`${hostVariable}=${host}: no such address on this machine; set ${hostVariable} to one of its addresses, 127.0.0.1 or 0.0.0.0`, code);
    }
    throw error;
  }
}

/** Thrown by `exchange` when the whole answer did not arrive within its time-out. */
export class ExchangeTimedOut extends Error {
  override name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as these exact UTF-8 bytes, with their Content-Length. */
  body?: string;
  /** For the whole exchange: the wait for a socket, the request, and the answer read to its end. */
  timeoutMs: number;
}

export interface ReceivedAnswer {
  status: number;
  /** The body decoded as UTF-8 (a leading byte-order mark dropped, as `fetch`'s `text()` does). */
  text: string;
}

/**
 * Connections kept open per provider host: a provider call costs one request on a warm socket, not
 * a TCP (and TLS) handshake. Bounded, so a stalled provider cannot take every file descriptor;
 * beyond it calls wait for a socket, within their time-out. An idle socket is closed after
 * `IDLE_SOCKET_MS`, or earlier when the server announces a shorter keep-alive (`Keep-Alive:
 * timeout=5`, Node's default, gives 4 s): reusing a socket the server is closing would fail the call.
 * The agent's time-out applies to idle sockets only; a call in flight is bounded by its own.
 */
const MAX_SOCKETS_PER_HOST = 64;
const IDLE_SOCKET_MS = 4_000;
const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST, timeout: IDLE_SOCKET_MS };
const agents = { 'http:': new HttpAgent(agentOptions), 'https:': new HttpsAgent(agentOptions) };

/**
 * One HTTP request and its whole answer on node:http with keep-alive, for the provider adapters:
 * far less CPU per call than `fetch`, which builds web streams, a `Response` and an abort signal
 * for each. Redirects are not followed (a provider's API answers, it does not redirect). Rejects
 * with `ExchangeTimedOut`, or with the socket's error (its `code` says which: ECONNREFUSED, …).
 */
export function exchange(target: string | URL, request: OutgoingRequest): Promise<ReceivedAnswer> {
  return new Promise((resolve, reject) => {
    const url = typeof target === 'string' ? new URL(target) : target;
    const protocol = url.protocol === 'https:' || url.protocol === 'http:' ? url.protocol : undefined;
    if (!protocol) {
      reject(new Error(`unsupported protocol ${url.protocol}`));
      return;
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers = body ? { ...request.headers, 'content-length': String(body.length) } : request.headers;
    const outgoing = (protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: request.method, headers, agent: agents[protocol] });
    let settled = false;
    const settle = (error: Error | undefined, answer?: ReceivedAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(answer!);
    };
    // A socket that failed or timed out is destroyed, never handed to the next call.
    const timer = setTimeout(() => {
      settle(new ExchangeTimedOut(request.timeoutMs));
      outgoing.destroy();
    }, request.timeoutMs);
    outgoing.once('error', (error) => settle(error));
    outgoing.once('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('error', (error) => settle(error));
      incoming.once('end', () => {
        if (!incoming.complete) return settle(new Error('the connection closed before the whole answer arrived'));
        const text = Buffer.concat(chunks).toString('utf8');
        settle(undefined, { status: incoming.statusCode ?? 0, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
      });
    });
    outgoing.end(body);
  });
}

/** An `exchange` failure as text: the socket's message, with its code (ECONNREFUSED, …) when the message does not say it. */
export function networkErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
