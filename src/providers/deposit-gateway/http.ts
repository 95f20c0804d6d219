// The deposit gateway's requests and answers: bearer auth, the idempotency key, which answers are
// transient, and error mapping. The provider transport (src/providers/transport.ts) sends them.

import type { Logger } from '../../lib/logger.js';
import type { MerchantAccount, ProviderError } from '../provider.js';
import { noTransport, type ProviderSender, type ProviderTransport } from '../transport.js';
import { errorFromResponse, unavailable, type ErrorContext } from './errors.js';
import { parseJsonExact, stringifyJsonExact, type JsonObject } from './json.js';

/** Spec: Payment create request, idempotency_key: "Also accepted as the `Idempotency-Key` request header". */
const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The fields whose values the call logs show: statuses, amounts and references, never a person's or an account's details. */
const SHOWN_FIELDS = ['ok', 'status', 'amount', 'currency', 'reference', 'merchant_reference', 'decline_reason', 'refund_status', 'settlement', 'settled', 'changed', 'method', 'solution', 'provider', 'limit', 'next_before', 'expires_in'];

export interface HttpOptions {
  /** Sends the requests; without one, the adapter can verify and parse but not call. */
  transport?: ProviderTransport;
  logger?: Logger;
}

export interface Call {
  /** The adapter operation, for the logs and metrics (`createDeposit`, `listPayouts`, …). */
  operation: string;
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
  errorContext?: ErrorContext;
}

export type HttpResult = { ok: true; status: number; body: unknown } | { ok: false; error: ProviderError };

/** A payout create's 503 means "live payouts not enabled" (spec: Errors, 2): an answer, never retried. */
const payoutCreateTransient = (status: number) => status >= 500 && status !== 503;

export class DepositGatewayHttp {
  private readonly sender: ProviderSender;

  constructor(options: HttpOptions) {
    this.sender = options.transport?.sender({ provider: 'deposit-gateway', idempotencyHeader: IDEMPOTENCY_HEADER, shownFields: SHOWN_FIELDS, logger: options.logger }) ?? noTransport('deposit-gateway');
  }

  async call(account: MerchantAccount, call: Call): Promise<HttpResult> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${account.apiKey}`,
      accept: 'application/json',
    };
    if (call.body) headers['content-type'] = 'application/json';
    const payoutCreate = call.errorContext?.payoutCreate === true;
    const response = await this.sender.send({
      operation: call.operation,
      account: account.code,
      method: call.method,
      baseUrl: account.baseUrl,
      path: call.path,
      query: call.query,
      headers,
      body: call.body ? stringifyJsonExact(call.body) : undefined,
      idempotencyKey: call.idempotencyKey,
      retryable: call.retryable,
      transientStatus: payoutCreate ? payoutCreateTransient : undefined,
    });
    if (response.kind === 'unanswered') {
      return { ok: false, error: unavailable(response.reason === 'timeout' ? response.message : `network error: ${response.message}`) };
    }

    const { status, text } = response;
    if (status === 503 && payoutCreate) return { ok: false, error: errorFromResponse(status, parseOrUndefined(text), call.errorContext) };
    if (status >= 500) return { ok: false, error: unavailable(`HTTP ${status}`, status) };

    const body = parseOrUndefined(text);
    if (status >= 200 && status < 300) {
      if (body === undefined) return { ok: false, error: unavailable('unparseable response body', status) };
      return { ok: true, status, body };
    }
    return { ok: false, error: errorFromResponse(status, body, call.errorContext) };
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
