// The QR gateway's test mode as an HTTP server of its own: QR code creation and lookup, webhook
// registration and signed deliveries, and a merchant dashboard where payments are simulated and
// refunds and withdrawals made, written from spec/qr-gateway.md and the Q assumptions.
// This file serves the HTTP API and keeps the sandbox's state; the codes are codes.ts's, the
// dashboard's forms dashboard-forms.ts's, webhook registration webhook-registration.ts's.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { BodyTooLarge, listen, readBody as readBytes } from '../../lib/http.js';
import type { Logger } from '../../lib/logger.js';
import {
  CREATE_STATUS,
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  PUBLISHABLE_KEY_PREFIX,
  QR_CODES_PATH,
  QR_WIRE,
  SECRET_KEY_PREFIX,
  WEBHOOKS_PATH,
  secretKeyMode,
  type AmountUnit,
  type QrWire,
} from '../../providers/qr-gateway/assumptions.js';
import { StateFile } from '../state-file.js';
import { QrCodeBook, type QrSandboxCode, type StoredCode } from './codes.js';
import { dashboard } from './dashboard-forms.js';
import { DeliveryQueue, type DeliveryAttempt, type DeliveryFaults, type PendingDelivery, type SandboxRegistration } from './deliveries.js';
import { HttpError, invalid } from './errors.js';
import { registerWebhook } from './webhook-registration.js';
import { isJsonObject as isObject, parseJson, stringifyJson } from './wire.js';

export interface QrSandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /**
   * Secret keys the sandbox accepts (Q20): any `sk_…` key, in test mode unless `livemode` says live
   * or the key is written `sk_live_…` (a live key cannot simulate or use the dashboard).
   */
  accounts: Array<{ apiKey: string; livemode?: boolean }>;
  /** Unit of the integer `amount` (assumption Q2); the adapter must use the same. */
  amountUnit: AmountUnit;
  /** The unstated wire names (Q1, Q3, Q4, Q15): the sandbox host gives the provider's settings, as the adapter gets; default `QR_WIRE`. */
  wire?: Partial<QrWire>;
  /** Multiplies every duration of the sandbox's clock (expiry, retry delays): 0.001 makes 15 minutes 0.9 s. Default 1. */
  timeScale?: number;
  /**
   * Directory to keep the sandbox's state in (`qr-gateway.json`): QR codes, idempotency answers,
   * webhook registrations and undelivered webhooks survive a restart. Without it, memory only.
   */
  stateDir?: string;
  logger?: Logger;
}

/** What the QR sandbox writes to its state file. */
interface QrSandboxState {
  codes: StoredCode[];
  idempotency: Array<[string, IdempotentResponse]>;
  registrations: SandboxRegistration[];
  undelivered: PendingDelivery[];
}

/** What the QR sandbox writes to its state file. */
interface QrSandboxState {
  codes: StoredCode[];
  idempotency: Array<[string, IdempotentResponse]>;
  registrations: SandboxRegistration[];
  undelivered: PendingDelivery[];
}

export interface QrSandboxControls {
  /** The dashboard's simulate button, without HTTP. Throws for an unknown, live or no longer pending code. */
  simulate(id: string, outcome: 'succeeded' | 'failed'): QrSandboxCode;
  /** Every delivery attempt so far, oldest first. */
  deliveries(): DeliveryAttempt[];
  /** Requests received whose path starts with `pathPrefix` (all requests when omitted). */
  requestCount(pathPrefix?: string): number;
  /** Sets delivery faults (when given) and returns the registrations, secrets included. */
  webhooks(faults?: DeliveryFaults): SandboxRegistration[];
  /** Resolves once no delivery is in flight or waiting for a retry. */
  idle(): Promise<void>;
  /** Sends any event (withdrawal, refund, …) with `data` to the key's subscribed registrations. */
  emit(keyOrAccount: string | { apiKey: string }, event: string, data: Record<string, unknown>): void;
  /** A stored code, or undefined. */
  code(id: string): QrSandboxCode | undefined;
  /** The dashboard's refund of a paid code (amount in the sandbox's unit); returns the refund id. */
  refund(id: string, amount: bigint, outcome: 'completed' | 'failed'): string;
  /** The dashboard's withdrawal: pending, processed, then `outcome`; returns the withdrawal id. */
  withdraw(keyOrAccount: string | { apiKey: string }, amount: bigint, outcome: 'succeeded' | 'failed'): string;
}

export interface QrGatewaySandbox {
  /** `http://127.0.0.1:PORT`, with no version: paths carry their versions (Q16). */
  baseUrl: string;
  controls: QrSandboxControls;
  close(): Promise<void>;
}

interface IdempotentResponse {
  fingerprint: string;
  status: number;
  body: string;
}

const MAX_BODY_BYTES = 1_000_000;

/** One running sandbox: its accounts and keys, its codes, idempotency answers and webhook queue, its state file and log. */
interface SandboxContext {
  options: QrSandboxOptions;
  unit: AmountUnit;
  /** The secret keys it accepts. */
  keys: Set<string>;
  isLiveKey: (apiKey: string) => boolean;
  book: QrCodeBook;
  idempotency: Map<string, IdempotentResponse>;
  /** The path of every request received, for `controls.requestCount`. */
  requestPaths: string[];
  /** Q15's lookup path with its `{id}` as a capture. */
  lookupPattern: RegExp;
  queue: DeliveryQueue;
  state: StateFile<QrSandboxState> | undefined;
  log: Logger | undefined;
}

/**
 * Starts the sandbox on a free port (or `options.port`).
 *
 * @example
 * const sandbox = await startQrGatewaySandbox({ accounts: [{ apiKey: 'sk_test_demo' }], amountUnit: 'satang', timeScale: 0.001 });
 */
export async function startQrGatewaySandbox(options: QrSandboxOptions): Promise<QrGatewaySandbox> {
  const sandbox = sandboxContext(options);
  const { book, queue, state, log } = sandbox;
  const server = createServer((request, response) => {
    void handle(sandbox, request, response);
  });

  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  // Restored once listening (a port already taken fails before any timer or delivery starts), and
  // before any request is read: this runs in the same turn as the listen callback.
  restoreState(sandbox);
  if (state) queue.onChange = state.saveSoon.bind(state);

  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  log?.info({ baseUrl, amountUnit: sandbox.unit, timeScale: options.timeScale ?? 1 }, 'qr sandbox listening');

  return {
    baseUrl,
    controls: controlsOf(sandbox),
    async close() {
      // Saved before the queue drops its deliveries: those cut short are sent again next start.
      try {
        state?.close();
      } catch (error) {
        log?.error({ err: error }, 'qr sandbox state not saved on close');
      }
      queue.close();
      book.clearTimers();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The sandbox's keys (Q20), code book, webhook queue and state file, from its options. */
function sandboxContext(options: QrSandboxOptions): SandboxContext {
  const unit = options.amountUnit;
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError('timeScale must be positive');
  const log = options.logger?.child({ sandbox: 'qr-gateway' });
  // Spec, Authentication 1-2: the bearer is the backend secret key (sk_); the provider knows each key's mode (Q20).
  const liveKeys = new Map<string, boolean>();
  for (const account of options.accounts) {
    const marked = secretKeyMode(account.apiKey);
    if (!marked) throw new RangeError(`QR sandbox accounts are secret keys starting with ${SECRET_KEY_PREFIX}`);
    liveKeys.set(account.apiKey, account.livemode ?? marked === 'live');
  }
  const isLiveKey = (apiKey: string): boolean => liveKeys.get(apiKey) === true;
  const idempotency = new Map<string, IdempotentResponse>();
  const wire: QrWire = { ...QR_WIRE, ...options.wire };
  const queue = new DeliveryQueue({ timeScale, signatureHeader: wire.signatureHeader, logger: log });
  const book = new QrCodeBook({ unit, wire, timeScale, queue, isLiveKey, log });
  const state =
    options.stateDir === undefined
      ? undefined
      : new StateFile<QrSandboxState>(
          path.join(options.stateDir, 'qr-gateway.json'),
          () => ({
            codes: [...book.codes.values()].map(({ expiryTimer: _timer, ...code }) => code),
            idempotency: [...idempotency.entries()],
            registrations: queue.list(),
            undelivered: queue.undelivered(),
          }),
          log,
        );
  if (state) book.onChange = () => state.saveSoon();
  return {
    options,
    unit,
    keys: new Set(liveKeys.keys()),
    isLiveKey,
    book,
    idempotency,
    requestPaths: [],
    lookupPattern: new RegExp(`^${wire.lookupPath.split('{id}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`),
    queue,
    state,
    log,
  };
}

/** What the state file kept, back in place: registrations, idempotency answers, codes (with their expiry), undelivered webhooks. */
function restoreState(sandbox: SandboxContext): void {
  const { state, queue, log } = sandbox;
  const saved = state?.load();
  if (!saved) return;
  for (const registration of saved.registrations) queue.register(registration);
  for (const [key, response] of saved.idempotency) sandbox.idempotency.set(key, response);
  sandbox.book.restore(saved.codes);
  queue.resend(saved.undelivered);
  log?.info({ codes: saved.codes.length, registrations: saved.registrations.length, undeliveredWebhooks: saved.undelivered.length, file: state?.file }, 'qr sandbox state restored');
}

/** The test controls: the dashboard's actions without HTTP, and what the sandbox received and sent. */
function controlsOf(sandbox: SandboxContext): QrSandboxControls {
  const { book, queue, state, requestPaths } = sandbox;
  return {
    simulate(id, outcome) {
      const code = book.codes.get(id);
      if (!code) throw new Error(`No QR code ${id}`);
      book.simulate(code, outcome);
      return book.snapshot(code);
    },
    deliveries: () => queue.attempts(),
    requestCount: (pathPrefix) => (pathPrefix === undefined ? requestPaths.length : requestPaths.filter((path) => path.startsWith(pathPrefix)).length),
    webhooks(faults) {
      if (faults) queue.setFaults(faults);
      return queue.list();
    },
    idle: () => queue.idle(),
    emit(keyOrAccount, event, data) {
      queue.enqueue(typeof keyOrAccount === 'string' ? keyOrAccount : keyOrAccount.apiKey, event, data);
    },
    code(id) {
      const code = book.codes.get(id);
      return code ? book.snapshot(code) : undefined;
    },
    refund(id, amount, outcome) {
      const code = book.codes.get(id);
      if (!code) throw new Error(`No QR code ${id}`);
      const refundId = book.refund(code, amount, outcome);
      state?.saveSoon();
      return refundId;
    },
    withdraw(keyOrAccount, amount, outcome) {
      return book.withdraw(typeof keyOrAccount === 'string' ? keyOrAccount : keyOrAccount.apiKey, amount, outcome);
    },
  };
}

/** One API request of `apiKey`, authenticated: QR codes (create, list, look up, simulate) and webhook registration. */
async function route(sandbox: SandboxContext, request: IncomingMessage, apiKey: string, path: string, query: URLSearchParams, raw: Buffer): Promise<Reply> {
  const { book, idempotency } = sandbox;
  const method = request.method ?? 'GET';
  const body = (): unknown => {
    if (raw.length === 0) return undefined;
    try {
      return parseJson(raw.toString('utf8'));
    } catch {
      throw invalid('The request body is not valid JSON');
    }
  };

  if (path === QR_CODES_PATH && method === 'POST') {
    const key = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    const idempotencyKey = typeof key === 'string' && key !== '' ? `${apiKey}\u0000${key}` : undefined;
    const fingerprint = createHash('sha256').update(raw).digest('hex');
    if (idempotencyKey) {
      const stored = idempotency.get(idempotencyKey);
      if (stored && stored.fingerprint !== fingerprint) {
        throw new HttpError(409, ERROR_CODES.idempotencyConflict, 'This Idempotency-Key was used with a different request body', 'invalid_request_error');
      }
      if (stored) return { status: stored.status, text: stored.body };
    }
    const code = book.create(apiKey, body());
    const text = stringifyJson(book.json(code));
    if (idempotencyKey) idempotency.set(idempotencyKey, { fingerprint, status: CREATE_STATUS, body: text });
    return { status: CREATE_STATUS, text };
  }
  if (path === QR_CODES_PATH && method === 'GET') {
    const limit = Math.min(Math.max(Number.parseInt(query.get('limit') ?? '10', 10) || 10, 1), 100);
    const mine = [...book.codes.values()].filter((code) => code.apiKey === apiKey).reverse();
    return reply(200, { data: mine.slice(0, limit).map((code) => book.json(code)), has_more: mine.length > limit });
  }
  const simulated = /^\/v1\/qr-codes\/([^/]+)\/simulate$/.exec(path);
  if (simulated && method === 'POST') {
    // Q8: the dashboard's simulate button for a caller with the account's key, through the same path.
    const code = book.owned(apiKey, decodeURIComponent(simulated[1] ?? ''));
    const input = body();
    book.simulate(code, isObject(input) && typeof input.outcome === 'string' ? input.outcome : '');
    return reply(200, book.json(code));
  }
  const lookup = sandbox.lookupPattern.exec(path);
  if (lookup && method === 'GET') return reply(200, book.json(book.owned(apiKey, decodeURIComponent(lookup[1] ?? ''))));
  if (path === WEBHOOKS_PATH && method === 'POST') return reply(200, await registerWebhook(sandbox.queue, sandbox.isLiveKey, sandbox.log, apiKey, body()));
  throw new HttpError(404, ERROR_CODES.notFound, `No route ${method} ${path}`, 'invalid_request_error');
}

/** Every request: the health check, the dashboard (no key), then the API behind the secret key; a refusal answered in the provider's error shape. */
async function handle(sandbox: SandboxContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { options, state, log } = sandbox;
  const url = new URL(request.url ?? '/', 'http://sandbox');
  sandbox.requestPaths.push(url.pathname);
  try {
    const raw = await readBody(request);
    if (url.pathname === '/healthz' && request.method === 'GET') return send(response, reply(200, { ok: true }));
    if (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) {
      const testKeys = options.accounts.map((account) => account.apiKey).filter((key) => !sandbox.isLiveKey(key));
      const answer = dashboard(sandbox.book, testKeys, sandbox.unit, request.method ?? 'GET', url.pathname, raw);
      if (request.method !== 'GET') state?.saveSoon();
      if (answer.location) response.writeHead(answer.status, { Location: answer.location }).end();
      else response.writeHead(answer.status, { 'Content-Type': 'text/html; charset=utf-8' }).end(answer.html);
      return;
    }
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    const apiKey = match?.[1];
    if (apiKey?.startsWith(PUBLISHABLE_KEY_PREFIX)) {
      // Authentication 2: the publishable key is for client-side code; the API takes the secret key.
      throw new HttpError(401, ERROR_CODES.unauthorized, 'A publishable key (pk_) cannot call the API; send the secret key (sk_) as the bearer', 'authentication_error');
    }
    if (!apiKey || !sandbox.keys.has(apiKey)) {
      throw new HttpError(401, ERROR_CODES.unauthorized, 'Invalid or missing API key', 'authentication_error');
    }
    const answer = await route(sandbox, request, apiKey, url.pathname, url.searchParams, raw);
    // Durable before acknowledged: a created code or a registration is on disk before the answer leaves.
    if (request.method !== 'GET') state?.save();
    send(response, answer);
  } catch (error) {
    if (error instanceof HttpError) {
      send(response, reply(error.status, { error: { code: error.code, message: error.message, type: error.type } }));
    } else {
      log?.error({ err: error }, 'qr sandbox internal error');
      send(response, reply(500, { error: { code: ERROR_CODES.internal, message: 'Internal error', type: 'api_error' } }));
    }
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  try {
    return await readBytes(request, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new HttpError(413, ERROR_CODES.invalidRequest, 'The request body is too large', 'invalid_request_error');
    throw error;
  }
}

/** A serialised JSON answer; kept as text so an idempotent replay is byte-identical to the original. */
interface Reply {
  status: number;
  text: string;
}

function reply(status: number, body: unknown): Reply {
  return { status, text: stringifyJson(body) };
}

function send(response: ServerResponse, answer: Reply): void {
  response.writeHead(answer.status, { 'Content-Type': 'application/json' });
  response.end(answer.text);
}

