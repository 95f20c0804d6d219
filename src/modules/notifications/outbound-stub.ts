// TEMPORARY stand-in for src/lib/outbound-http.ts (built separately, with the SSRF rules): the same
// exports, a plain node:http(s) POST and a URL parse, no address checks. The notifications module
// imports outbound HTTP from this file only, so the swap is one import line.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface OutboundPolicy {
  production: boolean;
  allow: readonly string[];
}

export type DestinationRefusal = { code: 'URL_INVALID' | 'URL_SCHEME_NOT_ALLOWED' | 'URL_CREDENTIALS_NOT_ALLOWED' | 'ADDRESS_NOT_ALLOWED'; message: string };

export function checkDestinationUrl(url: string, _policy: OutboundPolicy): { ok: true; url: URL } | ({ ok: false } & DestinationRefusal) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: 'URL_INVALID', message: 'Not an absolute URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, code: 'URL_SCHEME_NOT_ALLOWED', message: 'Only http and https URLs are allowed.' };
  return { ok: true, url: parsed };
}

export interface PostInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: OutboundPolicy;
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

/** Why a POST got no usable answer. */
export type PostFailureCode = 'TIMEOUT' | 'DNS_FAILED' | 'CONNECTION_FAILED' | 'TLS_FAILED' | 'RESPONSE_TOO_LARGE' | 'PROTOCOL_ERROR';

export type PostResult =
  | { kind: 'response'; status: number; durationMs: number; body: string; truncated: boolean; remoteAddress: string }
  | ({ kind: 'refused'; durationMs: number } & DestinationRefusal)
  | { kind: 'failed'; code: PostFailureCode; message: string; durationMs: number };

/** A transport failure (its codes are attempt outcomes, not userError codes). */
function failure(reason: PostFailureCode, message: string, durationMs: number): PostResult {
  return { kind: 'failed', code: reason, message, durationMs };
}

export function postOnce(input: PostInput): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = checkDestinationUrl(input.url, input.policy);
  if (!checked.ok) return Promise.resolve({ kind: 'refused', durationMs: 0, code: checked.code, message: checked.message });
  const limit = input.maxResponseBytes ?? 64 * 1024;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const send = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(checked.url, { method: 'POST', headers: { ...input.headers, 'content-length': Buffer.byteLength(input.body) } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (size < limit) chunks.push(chunk.subarray(0, limit - size));
        size += chunk.length;
        if (size > limit) truncated = true;
      });
      res.on('end', () => finish({ kind: 'response', status: res.statusCode ?? 0, durationMs: elapsed(), body: Buffer.concat(chunks).toString('utf8'), truncated, remoteAddress: req.socket?.remoteAddress ?? '' }));
      res.on('error', (error) => finish(failure('PROTOCOL_ERROR', error.message, elapsed())));
    });
    const timer = setTimeout(() => {
      finish(failure('TIMEOUT', `No complete answer within ${input.timeoutMs} ms`, elapsed()));
      req.destroy();
    }, input.timeoutMs);
    input.signal?.addEventListener('abort', () => req.destroy(), { once: true });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish(failure(error.code === 'ENOTFOUND' ? 'DNS_FAILED' : 'CONNECTION_FAILED', error.message, elapsed())),
    );
    req.end(input.body);
  });
}
