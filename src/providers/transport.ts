// What an adapter hands the provider transport and what it gets back. An adapter builds requests
// and parses answers; the transport (src/kernel/provider-transport.ts, made once per gateway by
// src/services.ts) sends them: per-attempt time-out, retries of the calls that are safe to repeat,
// the idempotency key header, masked call logs and per-provider metrics.

import type { Logger } from '../lib/logger.js';

/** One provider call as an adapter builds it. */
export interface ProviderRequest {
  /**
   * The adapter operation it serves (`createDeposit`, `getDeposit`, …): the `operation` label of
   * the metrics and the logs, so a fixed word of the adapter's code, never data.
   */
  operation: string;
  /** The merchant account's code, for the logs. */
  account: string;
  method: 'GET' | 'POST';
  /** The account's base URL; `path` goes below it. */
  baseUrl: string;
  /** Below the base URL, starting with `/`; logged as it is (a provider reference may be in it, never a secret). */
  path: string;
  /** Added to the URL; undefined values are left out. Not logged. */
  query?: Record<string, string | number | undefined>;
  /** Every header the provider needs, its authentication included. Never logged. */
  headers: Record<string, string>;
  /** The exact text sent. The logs show a masked summary of it (`ProviderProfile.shownFields`). */
  body?: string;
  /** Sent in the provider's idempotency header (`ProviderProfile.idempotencyHeader`). */
  idempotencyKey?: string;
  /**
   * Whether a failed attempt (a time-out, a network error, a transient status) may be sent again:
   * only reads and calls the provider deduplicates (by the idempotency key, or documented as
   * idempotent). Repeating anything else could make a second payment.
   */
  retryable: boolean;
  /** Which statuses of this call are transient, when they differ from the provider's (`ProviderProfile.transientStatus`). */
  transientStatus?: (status: number) => boolean;
}

/**
 * What came back of a call, after its retries: the last answer, whatever its status (the adapter
 * reads it), or why none came. Without an answer the outcome is unknown: the provider may have
 * acted on a request whose answer was lost.
 */
export type ProviderResponse =
  | { kind: 'answered'; status: number; text: string; attempts: number }
  | { kind: 'unanswered'; reason: 'timeout' | 'network'; message: string; attempts: number };

/** How one provider is called: given once, by its adapter, for all its requests. */
export interface ProviderProfile {
  /** The provider's name: the `provider` label of the metrics. */
  provider: string;
  /** The header that carries `ProviderRequest.idempotencyKey`, as the provider names it. */
  idempotencyHeader: string;
  /** Which answers are transient, so a retryable call is sent again. Default: 5xx. */
  transientStatus?: (status: number) => boolean;
  /**
   * The body fields whose values the logs may show (statuses, amounts, references); every other
   * value is masked. Field names are always shown.
   */
  shownFields?: readonly string[];
  /**
   * Where this provider's calls are logged: the adapter's logger, which the provider registry
   * binds to `provider` already. Default: the transport's, bound to `provider`.
   */
  logger?: Logger;
}

/** Sends one provider's requests. */
export interface ProviderSender {
  send(request: ProviderRequest): Promise<ProviderResponse>;
}

/**
 * The gateway's provider transport, as adapters see it.
 *
 * @example
 * const sender = transport.sender({ provider: 'acme-pay', idempotencyHeader: 'Idempotency-Key', logger });
 * const response = await sender.send({ operation: 'getDeposit', account: account.code, method: 'GET', baseUrl: account.baseUrl, path: `/payments/${id}`, headers: { authorization: `Bearer ${account.apiKey}` }, retryable: true });
 */
export interface ProviderTransport {
  sender(profile: ProviderProfile): ProviderSender;
}

/**
 * The sender of an adapter made without a transport (a unit spec that only verifies webhooks or
 * validates requests): any call it is asked to make is a mistake of whoever made the adapter.
 */
export function noTransport(provider: string): ProviderSender {
  return {
    send(request) {
      return Promise.reject(new Error(`The ${provider} adapter was made without a provider transport and cannot call ${request.operation}: pass one (src/kernel/provider-transport.ts)`));
    },
  };
}
