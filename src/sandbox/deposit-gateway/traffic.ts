// The deposit sandbox's API traffic as tests see and shape it: every request under /v1 recorded
// (when, what body, whether it was processed) for the controls, and the failures `failNext`
// injects: an error status, a hang, a cut connection, or a slow answer to work done all the same.

import type { ServerResponse } from 'node:http';
import { sendJson } from './http.js';

export interface FailNextOptions {
  /** Status to answer with: 500 (default), 503 or 429. With `hangMs`, sent after the hang. */
  status?: number;
  /** Hold the request this many real milliseconds; without `status` the connection is then cut. */
  hangMs?: number;
  /** How many API requests to fail. Default 1. */
  count?: number;
  /** Only requests carrying this API key. */
  apiKey?: string;
  /** After `hangMs`, process the request normally (a slow provider: the client may have given up). */
  thenProcess?: boolean;
  /** Only requests with this HTTP method (e.g. POST, leaving status lookups alone). */
  method?: string;
  /** Only requests whose path starts with this (`/payments` or `/v1/payments`). */
  path?: string;
  /** With `thenProcess`: process the request even if the caller has closed the connection meanwhile (a client that died); only the answer is lost. */
  evenIfCallerGone?: boolean;
}

/** One API request received, as the controls report it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Epoch ms on the machine's real clock, not the scaled one. */
  receivedAt: number;
  bodyText?: string;
  /** Answered, or done for a caller that had gone. */
  processed?: boolean;
}

const FAILURE_MESSAGES: Record<number, string> = {
  429: 'Velocity limit exceeded',
  500: 'Internal server error',
  503: 'Service temporarily unavailable',
};

interface FailureRule {
  status: number | undefined;
  hangMs: number;
  remaining: number;
  apiKey: string | undefined;
  thenProcess: boolean;
  method: string | undefined;
  path: string | undefined;
  evenIfCallerGone: boolean;
}

export class ApiTraffic {
  private readonly requests: RecordedRequest[] = [];
  private readonly failures: FailureRule[] = [];
  private readonly hangTimers = new Set<NodeJS.Timeout>();

  /** A request just received, recorded before its body is read. */
  record(method: string, path: string): RecordedRequest {
    const entry: RecordedRequest = { method, path, receivedAt: Date.now() };
    this.requests.push(entry);
    return entry;
  }

  /** The recorded requests whose path starts with the prefix (with or without `/v1`) and, when given, of this method. */
  matching(pathPrefix?: string, method?: string): RecordedRequest[] {
    const prefixes = pathPrefix === undefined ? [''] : [pathPrefix, `/v1${pathPrefix.startsWith('/') ? '' : '/'}${pathPrefix}`];
    return this.requests.filter((entry) => (method === undefined || entry.method === method.toUpperCase()) && prefixes.some((prefix) => entry.path.startsWith(prefix)));
  }

  failNext(failure: FailNextOptions): void {
    this.failures.push({
      status: failure.status,
      hangMs: failure.hangMs ?? 0,
      remaining: failure.count ?? 1,
      apiKey: failure.apiKey,
      thenProcess: failure.thenProcess ?? false,
      method: failure.method?.toUpperCase(),
      path: failure.path === undefined || failure.path.startsWith('/v1') ? failure.path : `/v1${failure.path}`,
      evenIfCallerGone: failure.evenIfCallerGone ?? false,
    });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /**
   * Lets a request through to `answer`, or fails it as the first matching rule says (using the
   * rule up): at once, or after its hang, with its status, by cutting the connection, or by
   * answering late.
   */
  pass(request: { method: string | undefined; path: string; apiKey: string | undefined }, response: ServerResponse, answer: () => void): void {
    const rule = this.failures.find(
      (candidate) =>
        candidate.remaining > 0 &&
        (candidate.apiKey === undefined || candidate.apiKey === request.apiKey) &&
        (candidate.method === undefined || candidate.method === request.method) &&
        (candidate.path === undefined || request.path.startsWith(candidate.path)),
    );
    if (!rule) return answer();
    rule.remaining -= 1;
    if (rule.remaining === 0) this.failures.splice(this.failures.indexOf(rule), 1);
    const fail = (): void => {
      // The caller gave up or died meanwhile: a real provider finishes the work all the same.
      if (rule.thenProcess && rule.evenIfCallerGone) return answer();
      if (response.destroyed || response.writableEnded) return;
      if (rule.thenProcess) return answer();
      if (rule.hangMs > 0 && rule.status === undefined) {
        response.destroy();
        return;
      }
      const status = rule.status ?? 500;
      sendJson(response, status, { ok: false, error: FAILURE_MESSAGES[status] ?? 'Simulated failure' });
    };
    if (rule.hangMs <= 0) return fail();
    const timer = setTimeout(() => {
      this.hangTimers.delete(timer);
      fail();
    }, rule.hangMs);
    this.hangTimers.add(timer);
  }

  /** Ends every hang still running (the sandbox closes). */
  close(): void {
    for (const timer of this.hangTimers) clearTimeout(timer);
    this.hangTimers.clear();
  }
}
