// The provider transport: the one place that sends provider requests. Each attempt has its own
// time-out; a retryable call is sent again after a time-out, a network error or a transient status,
// with back-off; the provider's idempotency header is set here; every attempt is logged with a
// masked summary of what went and came back, and reported to the listeners (the gateway's metrics,
// and the recorder of the payment's timeline for a call made in a payment's scope).

import { backoffDelayMs, totalBackoffMs, type Backoff } from '../lib/backoff.js';
import { exchange, ExchangeTimedOut, networkErrorText, type OutgoingRequest, type ReceivedAnswer } from '../lib/http.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { tracingOn } from '../lib/tracing/sdk.js';
import { inSpan, SpanKind, SpanStatusCode } from '../lib/tracing/spans.js';
import { currentTraceId } from '../lib/tracing/trace-context.js';
import { currentPayment, type PaymentScope } from './payment-scope.js';
import type { ProviderProfile, ProviderRequest, ProviderResponse, ProviderSender, ProviderTransport } from '../providers/transport.js';

/** How one attempt ended: by the class of its status, or without an answer. Bounded: a metric label. */
export type ProviderCallOutcome = 'success' | 'client_error' | 'server_error' | 'unexpected_status' | 'timeout' | 'network_error';

/** One attempt of a provider call, as the listeners are told of it. */
export interface ProviderCallReport {
  provider: string;
  operation: string;
  outcome: ProviderCallOutcome;
  /** 1 for the first attempt. */
  attempt: number;
  /** Whether another attempt follows this one. */
  willRetry: boolean;
  durationMs: number;
  /** The merchant account's code. */
  account: string;
  /** When the attempt was sent. */
  startedAt: Date;
  /** The answer's HTTP status; null when none came. */
  httpStatus: number | null;
  /** Why no answer came (a time-out, a network error); null when one did. */
  error: string | null;
  /** The payment the call was made for (`forPayment`), when it was made in one's scope. */
  subject: PaymentScope | undefined;
  /** The trace the attempt ran in, when tracing is on; null otherwise. */
  traceId: string | null;
  /**
   * The masked summaries of the body sent and the answer (`maskedSummary`, the provider's shown
   * fields only), null where there was none. Made on demand: a listener that needs them pays for
   * the two JSON parses, the payment call does not.
   */
  summaries(): { request: string | null; response: string | null };
}

export interface ProviderTransportSettings {
  /** Per attempt: the wait for a socket, the request and the whole answer. Default 10 000 (PROVIDER_TIMEOUT_MS's). */
  timeoutMs?: number;
  /** Extra attempts of a retryable call. Default 2 (PROVIDER_MAX_RETRIES's). */
  maxRetries?: number;
  /** The waits between attempts. Default `DEFAULT_PROVIDER_BACKOFF`. */
  backoff?: Backoff;
  /** Where a provider whose profile names no logger is logged (bound to `provider`). Default: silent. */
  logger?: Logger;
  /** Sends one attempt; default node:http with keep-alive (src/lib/http.ts). Unit specs pass a fake. */
  exchange?: (url: URL, request: OutgoingRequest) => Promise<ReceivedAnswer>;
  /** Waits out a back-off; unit specs pass one that returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every attempt of every provider call, once it has ended (the payment's timeline, metrics). */
  onCall?: ReadonlyArray<(report: ProviderCallReport) => void>;
}

/** 200 ms, doubling, 2 s at most: a provider that is briefly unwell is asked again soon, one that is down is not hammered. */
export const DEFAULT_PROVIDER_BACKOFF: Backoff = { baseMs: 200, maxMs: 2_000 };

const isServerError = (status: number) => status >= 500;

/** One attempt: an answer, or why none came. */
type Attempt = { kind: 'answered'; status: number; text: string } | { kind: 'unanswered'; reason: 'timeout' | 'network'; message: string };

export class HttpProviderTransport implements ProviderTransport {
  private readonly listeners: ReadonlyArray<(report: ProviderCallReport) => void>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoff: Backoff;
  private readonly logger: Logger;
  private readonly exchange: NonNullable<ProviderTransportSettings['exchange']>;
  private readonly sleep: NonNullable<ProviderTransportSettings['sleep']>;

  constructor(settings: ProviderTransportSettings = {}) {
    this.timeoutMs = settings.timeoutMs ?? 10_000;
    this.maxRetries = settings.maxRetries ?? 2;
    this.backoff = settings.backoff ?? DEFAULT_PROVIDER_BACKOFF;
    this.logger = settings.logger ?? createLogger({ level: 'silent' });
    this.exchange = settings.exchange ?? exchange;
    this.sleep = settings.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.listeners = settings.onCall ?? [];
  }

  /** The longest a retryable call can take: every attempt timing out, and the back-off between them. */
  longestCallMs(): number {
    return this.timeoutMs * (this.maxRetries + 1) + totalBackoffMs(this.maxRetries, this.backoff);
  }

  sender(profile: ProviderProfile): ProviderSender {
    const logger = profile.logger ?? this.logger.child({ provider: profile.provider });
    const shown = new Set(profile.shownFields ?? []);
    return { send: (request) => this.send(profile, logger, shown, request) };
  }

  private async send(profile: ProviderProfile, logger: Logger, shown: ReadonlySet<string>, request: ProviderRequest): Promise<ProviderResponse> {
    const transient = request.transientStatus ?? profile.transientStatus ?? isServerError;
    const attempts = request.retryable ? this.maxRetries + 1 : 1;
    const url = urlOf(request);
    const outgoing: OutgoingRequest = {
      method: request.method,
      headers: request.idempotencyKey ? { ...request.headers, [profile.idempotencyHeader]: request.idempotencyKey } : request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      timeoutMs: this.timeoutMs,
    };
    // Read once per call: every attempt of it is for the same payment.
    const subject = currentPayment();
    for (let attempt = 1; ; attempt++) {
      const startedAt = new Date();
      const started = performance.now();
      const result = tracingOn() ? await tracedAttempt(profile.provider, request, url, attempt, () => this.attempt(url, outgoing)) : await this.attempt(url, outgoing);
      const durationMs = Math.round(performance.now() - started);
      const willRetry = attempt < attempts && (result.kind === 'unanswered' || transient(result.status));
      this.log(logger, shown, request, result, { attempt, durationMs, willRetry });
      if (this.listeners.length > 0) {
        this.report({
          provider: profile.provider,
          operation: request.operation,
          outcome: outcomeOf(result),
          attempt,
          willRetry,
          durationMs,
          account: request.account,
          startedAt,
          httpStatus: result.kind === 'answered' ? result.status : null,
          error: result.kind === 'unanswered' ? result.message : null,
          subject,
          traceId: currentTraceId() ?? null,
          summaries: () => ({
            request: request.body !== undefined ? maskedSummary(request.body, shown) : null,
            response: result.kind === 'answered' && result.text !== '' ? maskedSummary(result.text, shown) : null,
          }),
        });
      }
      if (!willRetry) return { ...result, attempts: attempt };
      await this.sleep(backoffDelayMs(attempt, this.backoff));
    }
  }

  private async attempt(url: URL, outgoing: OutgoingRequest): Promise<Attempt> {
    try {
      const answer = await this.exchange(url, outgoing);
      return { kind: 'answered', status: answer.status, text: answer.text };
    } catch (error) {
      if (error instanceof ExchangeTimedOut) return { kind: 'unanswered', reason: 'timeout', message: `timed out after ${error.timeoutMs} ms` };
      return { kind: 'unanswered', reason: 'network', message: networkErrorText(error) };
    }
  }

  /**
   * One line per attempt: method, path, status, duration, attempt and masked summaries. Never the
   * headers (the API key is one), the query, or a body as sent.
   */
  private log(logger: Logger, shown: ReadonlySet<string>, request: ProviderRequest, result: Attempt, at: { attempt: number; durationMs: number; willRetry: boolean }): void {
    const level = result.kind === 'unanswered' || result.status >= 500 ? 'warn' : result.status >= 400 ? 'info' : 'debug';
    // A successful call is a debug line: off by default, so its summaries (two JSON parses) are
    // made only when the line is written. Every payment pays for this check alone.
    if (!logger.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = { account: request.account, operation: request.operation, method: request.method, path: request.path, ...at };
    if (request.body !== undefined) line.request = maskedSummary(request.body, shown);
    if (result.kind === 'unanswered') {
      logger.warn({ ...line, reason: result.message }, 'provider call failed');
      return;
    }
    line.status = result.status;
    if (result.text !== '') line.response = maskedSummary(result.text, shown);
    logger[level](line, 'provider call');
  }

  private report(report: ProviderCallReport): void {
    for (const listener of this.listeners) {
      try {
        listener(report);
      } catch (error) {
        // A metric that fails to count must not fail the payment call it counts.
        this.logger.error({ err: error }, 'provider call listener failed');
      }
    }
  }
}

/**
 * The transport of a gateway (src/services.ts), or of a test that makes an adapter on its own.
 *
 * @example
 * const adapter = createQrGatewayAdapter({ amountUnit: 'satang', transport: createProviderTransport({ timeoutMs: 5_000, maxRetries: 1 }) });
 */
export function createProviderTransport(settings: ProviderTransportSettings = {}): HttpProviderTransport {
  return new HttpProviderTransport(settings);
}

/**
 * One attempt in its HTTP client span (docs/tracing.md): the provider and its operation, the
 * method, host and port, the answer's status, and from the second attempt on its resend count.
 * Never the path or query (a reference or key may be in them), a header or a body.
 */
function tracedAttempt(provider: string, request: ProviderRequest, url: URL, attempt: number, send: () => Promise<Attempt>): Promise<Attempt> {
  const attributes = {
    'http.request.method': request.method,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    'url.scheme': url.protocol.slice(0, -1),
    'payments.provider': provider,
    'payments.provider.operation': request.operation,
    ...(attempt > 1 ? { 'http.request.resend_count': attempt - 1 } : {}),
  };
  return inSpan(request.method, { kind: SpanKind.CLIENT, attributes }, send, (span, result) => {
    if (result.kind === 'unanswered') {
      span.setAttribute('error.type', result.reason === 'timeout' ? 'timeout' : 'network_error');
      span.setStatus({ code: SpanStatusCode.ERROR });
      return;
    }
    span.setAttribute('http.response.status_code', result.status);
    if (result.status >= 400) {
      span.setAttribute('error.type', String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}

function urlOf(request: ProviderRequest): URL {
  const url = new URL(request.baseUrl.replace(/\/+$/, '') + request.path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}

function outcomeOf(result: Attempt): ProviderCallOutcome {
  if (result.kind === 'unanswered') return result.reason === 'timeout' ? 'timeout' : 'network_error';
  if (result.status >= 200 && result.status < 300) return 'success';
  if (result.status >= 400 && result.status < 500) return 'client_error';
  return result.status >= 500 ? 'server_error' : 'unexpected_status';
}

/** Longest summary written; a longer one ends with `…`. */
const SUMMARY_MAX_CHARS = 300;
/** Objects deeper than this are summarised as `{…}`. */
const SUMMARY_MAX_DEPTH = 3;
/** A shown string longer than this is masked all the same: a status or a reference is short. */
const SHOWN_STRING_MAX_CHARS = 64;

/**
 * A short, masked summary of a JSON body for a log line: every field name, the values of the
 * `shown` fields when they are short scalars, and `***` for every other value, so no card or
 * account number, key, secret, name or e-mail address is written. Arrays are their length;
 * text that is not JSON is its length.
 *
 * @example
 * maskedSummary('{"status":"pending","client_bank_account":"1234567890"}', new Set(['status']));
 * // '{status: "pending", client_bank_account: ***}'
 */
export function maskedSummary(text: string, shown: ReadonlySet<string>): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `<${Buffer.byteLength(text)} bytes, not JSON>`;
  }
  const summary = summarise(value, shown, 0, undefined);
  return summary.length > SUMMARY_MAX_CHARS ? `${summary.slice(0, SUMMARY_MAX_CHARS - 1)}…` : summary;
}

function summarise(value: unknown, shown: ReadonlySet<string>, depth: number, field: string | undefined): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value !== null && typeof value === 'object') {
    if (depth >= SUMMARY_MAX_DEPTH) return '{…}';
    const fields = Object.entries(value).map(([name, inner]) => `${name}: ${summarise(inner, shown, depth + 1, name)}`);
    return `{${fields.join(', ')}}`;
  }
  const isShown = field !== undefined && shown.has(field) && (typeof value !== 'string' || value.length <= SHOWN_STRING_MAX_CHARS);
  return isShown ? JSON.stringify(value) : '***';
}
