// HTTP transport to the deposit gateway: bearer auth, timeouts, retries of safe requests, error mapping.

import { exchange, ExchangeTimedOut, networkErrorText } from '../../lib/http.js';
import type { Logger } from '../../lib/logger.js';
import type { MerchantAccount, ProviderError } from '../provider.js';
import { errorFromResponse, unavailable, type ErrorContext } from './errors.js';
import { parseJsonExact, stringifyJsonExact, type JsonObject } from './json.js';

export interface HttpOptions {
  timeoutMs: number;
  maxRetries: number;
  /** First retry delay; doubles per attempt. */
  retryBaseMs: number;
  logger: Logger;
}

export interface Call {
  method: 'GET' | 'POST';
  /** Path below the account's base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: JsonObject;
  /** Sent as the `Idempotency-Key` header (spec: Payment create request, idempotency_key). */
  idempotencyKey?: string;
  /**
   * Whether a failed attempt may be repeated: only reads and requests the provider deduplicates
   * (an idempotency key, or the idempotent settle call). A repeated checkout session would be a second session.
   */
  retryable: boolean;
  /** Overrides the adapter's retry budget (ping uses 0). */
  maxRetries?: number;
  errorContext?: ErrorContext;
}

export type HttpResult = { ok: true; status: number; body: unknown } | { ok: false; error: ProviderError };

type Attempt = { kind: 'answer'; result: HttpResult } | { kind: 'transient'; error: ProviderError };

export class DepositGatewayHttp {
  constructor(private readonly options: HttpOptions) {}

  async call(account: MerchantAccount, call: Call): Promise<HttpResult> {
    const retries = call.retryable ? (call.maxRetries ?? this.options.maxRetries) : 0;
    let last: ProviderError = unavailable('no attempt made');
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      const outcome = await this.attempt(account, call, attempt);
      if (outcome.kind === 'answer') return outcome.result;
      last = outcome.error;
      if (attempt <= retries) await sleep(this.options.retryBaseMs * 2 ** (attempt - 1));
    }
    return { ok: false, error: last };
  }

  private async attempt(account: MerchantAccount, call: Call, attempt: number): Promise<Attempt> {
    const started = performance.now();
    // No `provider`: the registry's logger binds it (a second one would repeat the key in the line).
    const log = { account: account.code, method: call.method, path: call.path, attempt };
    const headers: Record<string, string> = {
      authorization: `Bearer ${account.apiKey}`,
      accept: 'application/json',
    };
    if (call.body) headers['content-type'] = 'application/json';
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;

    let status: number;
    let raw: string;
    try {
      ({ status, text: raw } = await exchange(this.url(account, call), {
        method: call.method,
        headers,
        ...(call.body ? { body: stringifyJsonExact(call.body) } : {}),
        timeoutMs: this.options.timeoutMs,
      }));
    } catch (error) {
      const reason = error instanceof ExchangeTimedOut ? `timed out after ${this.options.timeoutMs} ms` : `network error: ${networkErrorText(error)}`;
      this.options.logger.warn({ ...log, durationMs: elapsed(started), reason }, 'deposit gateway call failed');
      return { kind: 'transient', error: unavailable(reason) };
    }

    const durationMs = elapsed(started);
    const level = status < 400 ? 'debug' : status < 500 ? 'info' : 'warn';
    this.options.logger[level]({ ...log, status, durationMs }, 'deposit gateway call');

    if (status === 503 && call.errorContext?.payoutCreate) {
      return { kind: 'answer', result: { ok: false, error: errorFromResponse(status, parseOrUndefined(raw), call.errorContext) } };
    }
    if (status >= 500) return { kind: 'transient', error: unavailable(`HTTP ${status}`, status) };

    const body = parseOrUndefined(raw);
    if (status >= 200 && status < 300) {
      if (body === undefined) return { kind: 'answer', result: { ok: false, error: unavailable('unparseable response body', status) } };
      return { kind: 'answer', result: { ok: true, status, body } };
    }
    return { kind: 'answer', result: { ok: false, error: errorFromResponse(status, body, call.errorContext) } };
  }

  private url(account: MerchantAccount, call: Call): URL {
    const url = new URL(account.baseUrl.replace(/\/+$/, '') + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }
}

function parseOrUndefined(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return parseJsonExact(raw);
  } catch {
    return undefined;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
