// One bounded HTTP POST to a destination an admin registered: the address checked before the
// socket connects and again once it has, no redirects, no pooled connections, a deadline over the
// whole exchange, and only a short excerpt of the answer kept. Network faults are results; only
// a caller's mistake (an oversized body, a bad header, a bad option) is thrown.

import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, validateHeaderName, validateHeaderValue, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import { parseIp } from './addresses.js';
import { checkDestinationUrl, judgeAddress, type DestinationRefusal, type OutboundPolicy, type ResolvedAddress } from './destination.js';

export interface PostInput {
  url: string;
  /** Sent as given; never logged nor returned (they carry signatures). */
  headers: Record<string, string>;
  body: string;
  /** Deadline for the whole exchange: lookup, connect, TLS, request, response headers and body. */
  timeoutMs: number;
  policy: OutboundPolicy;
  /** Bytes of the response body kept (default 4096). */
  maxResponseBytes?: number;
  /** Aborting rejects the promise with the signal's reason, as `fetch` does. */
  signal?: AbortSignal;
}

export type PostResult =
  | {
      kind: 'response';
      status: number;
      durationMs: number;
      /** At most maxResponseBytes of UTF-8, cut at a character boundary; invalid bytes and NUL replaced by U+FFFD. */
      body: string;
      /** Some of the body was not kept (longer than maxResponseBytes, or past MAX_RESPONSE_READ_BYTES and not read at all). */
      truncated: boolean;
      remoteAddress: string;
    }
  | ({ kind: 'refused'; durationMs: number } & DestinationRefusal)
  | { kind: 'failed'; code: 'TIMEOUT' | 'DNS_FAILED' | 'CONNECTION_FAILED' | 'TLS_FAILED' | 'RESPONSE_TOO_LARGE' | 'PROTOCOL_ERROR'; message: string; durationMs: number };

type Failure = Extract<PostResult, { kind: 'failed' }>;

/** Largest request body sent; a larger one is a caller's error (thrown). */
export const MAX_REQUEST_BODY_BYTES = 256 * 1024;
/** Largest total of request header names and values. */
export const MAX_REQUEST_HEADER_BYTES = 16 * 1024;
/** Largest response head (status line and headers) read; a larger one fails with RESPONSE_TOO_LARGE. */
export const MAX_RESPONSE_HEADER_BYTES = 16 * 1024;
/**
 * Response body bytes read at most. A longer body is not read further: the connection is closed
 * and the status kept (a receiver that answered 200 with a large page did take the notification).
 */
export const MAX_RESPONSE_READ_BYTES = 64 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;

// Set by postOnce itself; a caller's value would describe a different message or connection.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'proxy-authorization', 'proxy-connection']);

/** Refuses a request postOnce will not send, naming the problem but never a header's value or the body. */
function assertSendable(input: PostInput): Buffer {
  if (!Number.isSafeInteger(input.timeoutMs) || input.timeoutMs < 1) throw new RangeError('postOnce: timeoutMs must be a positive whole number of milliseconds');
  const kept = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(kept) || kept < 0 || kept > MAX_RESPONSE_READ_BYTES) throw new RangeError(`postOnce: maxResponseBytes must be a whole number from 0 to ${MAX_RESPONSE_READ_BYTES}`);
  const body = Buffer.from(input.body, 'utf8');
  if (body.length > MAX_REQUEST_BODY_BYTES) throw new RangeError(`postOnce: the body is ${body.length} bytes, over the limit of ${MAX_REQUEST_BODY_BYTES}`);
  let headerBytes = 0;
  for (const [name, value] of Object.entries(input.headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new TypeError(`postOnce: the ${name} header is set by postOnce itself`);
    headerBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  if (headerBytes > MAX_REQUEST_HEADER_BYTES) throw new RangeError(`postOnce: the headers are ${headerBytes} bytes, over the limit of ${MAX_REQUEST_HEADER_BYTES}`);
  return body;
}

/** A destination refused after the URL's check: by address, at lookup or after connecting. */
class DestinationRefused extends Error {
  constructor(readonly refusal: DestinationRefusal) {
    super(refusal.message);
  }
}

class LookupFailed extends Error {
  constructor(readonly reason: string) {
    super(`lookup failed: ${reason}`);
  }
}

class DeadlineExceeded extends Error {}

const systemResolve = (hostname: string): Promise<readonly ResolvedAddress[]> => dnsLookup(hostname, { all: true, order: 'verbatim' });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` given to http(s).request: resolves the name and refuses the connection if ANY
 * address is not allowed, rather than picking the allowed ones. A name that mixes public and
 * private addresses is misconfigured or hostile, and which answer a connection would use (Happy
 * Eyeballs tries several) should not decide whether we reach an internal service.
 */
function guardedLookup(policy: OutboundPolicy, plaintext: boolean) {
  const resolve = policy.resolve ?? systemResolve;
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname)
      .then((answers) => {
        const usable = answers.filter((answer) => options.family === undefined || options.family === 0 || options.family === answer.family);
        if (usable.length === 0) throw new LookupFailed('no address');
        for (const answer of answers) {
          const address = parseIp(answer.address);
          if (!address) throw new LookupFailed('not an IP address');
          const refusal = judgeAddress(address, hostname, policy, plaintext);
          if (refusal) throw new DestinationRefused(refusal);
        }
        const addresses = usable.map((answer) => ({ address: answer.address, family: answer.family }));
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((error: unknown) => {
        const failure = error instanceof DestinationRefused || error instanceof LookupFailed ? error : new LookupFailed(codeOf(error) ?? 'unknown error');
        callback(failure, '', 0);
      });
  };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code) ? code : undefined;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|SIGNATURE/;

/** A network fault as a result; messages carry error codes only, never Node's text (it names hosts) nor any body. */
function failure(error: unknown, timeoutMs: number, durationMs: number): PostResult {
  if (error instanceof DestinationRefused) return { kind: 'refused', ...error.refusal, durationMs };
  const failed = (code: Failure['code'], message: string): Failure => ({ kind: 'failed', code, message, durationMs });
  if (error instanceof DeadlineExceeded) return failed('TIMEOUT', `No complete response within ${timeoutMs} ms`);
  if (error instanceof LookupFailed) return failed('DNS_FAILED', `The destination's host name could not be resolved (${error.reason})`);
  const code = codeOf(error) ?? 'unknown error';
  if (code === 'HPE_HEADER_OVERFLOW') return failed('RESPONSE_TOO_LARGE', `The response headers are larger than ${MAX_RESPONSE_HEADER_BYTES} bytes`);
  if (code.startsWith('HPE_')) return failed('PROTOCOL_ERROR', `The response is not valid HTTP (${code})`);
  if (TLS_CODE.test(code)) return failed('TLS_FAILED', `The TLS connection or the destination's certificate failed (${code})`);
  return failed('CONNECTION_FAILED', `The connection failed (${code})`);
}

/**
 * The first `max` bytes of a body as text: cut before a character the limit would split, invalid
 * bytes and NUL (which PostgreSQL text cannot hold) as U+FFFD, and never more than `max` bytes of
 * UTF-8. `cut` says whether some of `bytes` is not in the text.
 */
export function utf8Excerpt(bytes: Buffer, max: number): { text: string; cut: boolean } {
  let end = Math.min(bytes.length, max);
  // bytes[end] continuing a character means the cut splits it: back up to that character's start.
  for (let back = 0; end < bytes.length && end > 0 && back < 3 && (bytes[end]! & 0xc0) === 0x80; back++) end--;
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, end)).replaceAll('\u0000', '\ufffd');
  if (Buffer.byteLength(text) <= max) return { text, cut: end < bytes.length };
  // Replacement characters (3 bytes each) took the place of invalid single bytes: trim to fit.
  let kept = '';
  let size = 0;
  for (const character of text) {
    size += Buffer.byteLength(character);
    if (size > max) break;
    kept += character;
  }
  return { text: kept, cut: true };
}

/** One POST, never follows redirects (a 3xx is just a response), never throws for network faults. */
export async function postOnce(input: PostInput): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const body = assertSendable(input);
  input.signal?.throwIfAborted();
  const checked = checkDestinationUrl(input.url, input.policy);
  if (!checked.ok) return { kind: 'refused', code: checked.code, message: checked.message, durationMs: elapsed() };
  const url = checked.url;
  const keep = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return new Promise<PostResult>((resolve, reject) => {
    let remoteAddress = '';
    let settled = false;
    let request: ClientRequest | undefined;
    const settle = (outcome: { result: PostResult } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      input.signal?.removeEventListener('abort', onAbort);
      // One connection per call (agent: false): closing it ends everything this call opened.
      request?.destroy();
      if ('result' in outcome) resolve(outcome.result);
      // The only error is an abort's: its signal's reason, passed on as is, as throwIfAborted()
      // above and the platform's own APIs do, so the caller sees the reason it aborted with.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      else reject(outcome.error);
    };
    const fail = (error: unknown) => settle({ result: failure(error, input.timeoutMs, elapsed()) });
    const deadline = setTimeout(() => fail(new DeadlineExceeded()), input.timeoutMs);
    const onAbort = () => settle({ error: input.signal!.reason });
    input.signal?.addEventListener('abort', onAbort, { once: true });

    const options: HttpsRequestOptions = {
      method: 'POST',
      headers: { ...input.headers, 'content-length': String(body.length), connection: 'close' },
      // No pooling: a kept-alive socket would skip the address checks of this call.
      agent: false,
      lookup: guardedLookup(input.policy, url.protocol === 'http:'),
      maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
    };
    const ca = input.policy.ca;
    if (url.protocol === 'https:' && ca !== undefined) options.ca = typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca];
    try {
      request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options);
    } catch (error) {
      fail(error);
      return;
    }
    request.on('error', fail);
    request.on('socket', (socket: Socket) => {
      // Belt and braces: the address the socket reached, whatever resolved it, is judged again
      // before a byte of the request is written (http writes on a later 'connect' listener).
      socket.once('connect', () => {
        remoteAddress = socket.remoteAddress ?? '';
        const address = parseIp(remoteAddress);
        const refusal = address ? judgeAddress(address, url.hostname, input.policy, url.protocol === 'http:') : { code: 'ADDRESS_NOT_ALLOWED' as const, message: 'The connected address is unknown' };
        if (refusal) request.destroy(new DestinationRefused(refusal));
      });
    });
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      // One byte past what is kept tells whether the cut splits a character.
      const head: Buffer[] = [];
      let headBytes = 0;
      let total = 0;
      const answer = (unread: boolean): PostResult => {
        const excerpt = utf8Excerpt(Buffer.concat(head), keep);
        return { kind: 'response', status, durationMs: elapsed(), body: excerpt.text, truncated: unread || excerpt.cut || total > headBytes, remoteAddress };
      };
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (headBytes <= keep) {
          head.push(chunk.subarray(0, keep + 1 - headBytes));
          headBytes += Math.min(chunk.length, keep + 1 - headBytes);
        }
        if (total > MAX_RESPONSE_READ_BYTES) settle({ result: answer(true) });
      });
      response.on('end', () => settle({ result: answer(false) }));
      response.on('error', fail);
      // Closed before the body ended: the answer is incomplete, whatever its status said.
      response.on('close', () => {
        if (!response.complete) fail(Object.assign(new Error('response closed early'), { code: 'ECONNRESET' }));
      });
    });
    request.end(body);
  });
}
