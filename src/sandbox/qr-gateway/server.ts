// The QR gateway's test mode as an HTTP server of its own: QR code creation and lookup, webhook
// registration and signed deliveries, and a merchant dashboard where payments are simulated and
// refunds and withdrawals made, written from spec/qr-gateway.md and the Q assumptions.

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { BodyTooLarge, listen, readBody as readBytes } from '../../lib/http.js';
import type { Logger } from '../../lib/logger.js';
import {
  BANK_ACCOUNT_PATTERN,
  CREATE_STATUS,
  DEFAULT_EXPIRY_SECONDS,
  ERROR_CODES,
  EXPIRY_BOUNDS_SECONDS,
  GENERATED_SECRET_PREFIX,
  IDEMPOTENCY_HEADER,
  LOOPBACK_HOSTS,
  NAME_MAX_LENGTH,
  PUBLISHABLE_KEY_PREFIX,
  QR_CODES_PATH,
  QR_CODE_ID_PREFIX,
  QR_CURRENCY,
  QR_WIRE,
  REACHABILITY_TIMEOUT_MS,
  REFERENCE_MAX_LENGTH,
  SECRET_KEY_PREFIX,
  SECRET_LENGTH,
  SIMULATION_OUTCOMES,
  WEBHOOKS_PATH,
  WEBHOOK_ID_PREFIX,
  isQrEvent,
  secretKeyMode,
  type AmountUnit,
  type FailureReason,
  type PaymentStatusWord,
  type QrWire,
} from '../../providers/qr-gateway/assumptions.js';
import { dashboardPage, type DashboardAccount } from './dashboard.js';
import { StateFile } from '../state-file.js';
import { DeliveryQueue, type DeliveryAttempt, type DeliveryFaults, type PendingDelivery, type SandboxRegistration } from './deliveries.js';
import { buildPromptPayPayload, sandboxMerchantId } from './promptpay.js';
import { amountBounds, amountFromBahtText, bahtText, isJsonObject as isObject, parseJson, stringifyJson, type JsonObject } from './wire.js';

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

/** A stored QR code, as the controls report it. */
export interface QrSandboxCode {
  id: string;
  reference: string;
  /** In the sandbox's amount unit. */
  amount: bigint;
  currency: string;
  status: PaymentStatusWord;
  failureReason?: FailureReason;
  qrPayload: string;
  metadata: JsonObject;
  livemode: boolean;
  createdAt: Date;
  expiresAt: Date;
  paidAt?: Date;
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

interface StoredCode extends QrSandboxCode {
  apiKey: string;
  /** Refunded through the dashboard so far, in the sandbox's unit. */
  refunded: bigint;
  clientName: string;
  clientBankName?: string;
  expiryTimer?: NodeJS.Timeout;
}

interface IdempotentResponse {
  fingerprint: string;
  status: number;
  body: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 1_000_000;
const invalid = (message: string, code: string = ERROR_CODES.invalidRequest): HttpError => new HttpError(400, code, message, 'validation_error');

/**
 * Starts the sandbox on a free port (or `options.port`).
 *
 * @example
 * const sandbox = await startQrGatewaySandbox({ accounts: [{ apiKey: 'sk_test_demo' }], amountUnit: 'satang', timeScale: 0.001 });
 */
export async function startQrGatewaySandbox(options: QrSandboxOptions): Promise<QrGatewaySandbox> {
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
  const keys = new Set(liveKeys.keys());
  const isLiveKey = (apiKey: string): boolean => liveKeys.get(apiKey) === true;
  const codes = new Map<string, StoredCode>();
  const idempotency = new Map<string, IdempotentResponse>();
  const requestPaths: string[] = [];
  const wire: QrWire = { ...QR_WIRE, ...options.wire };
  /** Q15's lookup path with its `{id}` as a capture. */
  const lookupPattern = new RegExp(`^${wire.lookupPath.split('{id}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`);
  const queue = new DeliveryQueue({ timeScale, signatureHeader: wire.signatureHeader, logger: log });
  const bounds = amountBounds(unit);
  const state =
    options.stateDir === undefined
      ? undefined
      : new StateFile<QrSandboxState>(
          path.join(options.stateDir, 'qr-gateway.json'),
          () => ({
            codes: [...codes.values()].map(({ expiryTimer: _timer, ...code }) => code),
            idempotency: [...idempotency.entries()],
            registrations: queue.list(),
            undelivered: queue.undelivered(),
          }),
          log,
        );

  function snapshot(code: StoredCode): QrSandboxCode {
    const { apiKey: _key, clientName: _name, clientBankName: _bank, expiryTimer: _timer, refunded: _refunded, ...rest } = code;
    return { ...rest, metadata: { ...rest.metadata } };
  }

  /** Q1's object. */
  function codeJson(code: StoredCode): JsonObject {
    return {
      [wire.codeIdField]: code.id,
      reference: code.reference,
      amount: code.amount,
      currency: code.currency,
      status: code.status,
      [wire.payloadField]: code.qrPayload,
      [wire.expiresAtField]: code.expiresAt.toISOString(),
      created_at: code.createdAt.toISOString(),
      paid_at: code.paidAt?.toISOString() ?? null,
      failure_reason: code.failureReason ?? null,
      client_name: code.clientName,
      client_bank_name: code.clientBankName ?? null,
      metadata: code.metadata,
      livemode: code.livemode,
    };
  }

  function emitPayment(code: StoredCode): void {
    const data: JsonObject = {
      payment_id: code.id,
      reference: code.reference,
      status: code.status,
      amount: code.amount,
      currency: code.currency,
    };
    if (code.failureReason) data.failure_reason = code.failureReason;
    queue.enqueue(code.apiKey, `payment.${code.status}`, data);
  }

  /** Q5: pending → succeeded | failed, once. */
  function settle(code: StoredCode, outcome: 'succeeded' | 'failed', reason?: FailureReason): void {
    if (code.status !== 'pending') throw new HttpError(409, ERROR_CODES.invalidState, `QR code ${code.id} is already ${code.status}`, 'invalid_request_error');
    if (code.expiryTimer) clearTimeout(code.expiryTimer);
    code.expiryTimer = undefined;
    code.status = outcome;
    if (outcome === 'succeeded') code.paidAt = new Date();
    else code.failureReason = reason ?? 'declined';
    log?.info({ id: code.id, status: code.status, failureReason: code.failureReason }, 'qr sandbox code settled');
    emitPayment(code);
    state?.saveSoon();
  }

  function createCode(apiKey: string, body: unknown): StoredCode {
    if (!isObject(body)) throw invalid('The request body must be a JSON object');
    const { amount, currency, reference } = body;
    if (amount === undefined || amount === null) throw invalid('amount is required');
    if (typeof amount !== 'bigint') throw invalid(`amount must be an integer in ${unit}`);
    if (amount <= 0n) throw invalid('amount must be greater than zero');
    if (amount < bounds.min) throw invalid(`amount must be at least ${bounds.min} ${unit}`, ERROR_CODES.amountTooSmall);
    if (amount > bounds.max) throw invalid(`amount must be at most ${bounds.max} ${unit}`, ERROR_CODES.amountTooLarge);
    if (currency === undefined || currency === null) throw invalid('currency is required');
    if (currency !== QR_CURRENCY) throw invalid('currency must be THB', ERROR_CODES.currencyNotSupported);
    if (typeof reference !== 'string' || reference.length === 0 || reference.length > REFERENCE_MAX_LENGTH) {
      throw invalid(`reference is required, 1 to ${REFERENCE_MAX_LENGTH} characters`);
    }
    const clientName = body.client_name;
    if (typeof clientName !== 'string' || clientName.trim() === '' || clientName.length > NAME_MAX_LENGTH) {
      throw invalid(`client_name is required, at most ${NAME_MAX_LENGTH} characters`);
    }
    const bankName = body.client_bank_name;
    if (bankName !== undefined && bankName !== null && (typeof bankName !== 'string' || bankName.length > NAME_MAX_LENGTH)) {
      throw invalid(`client_bank_name must be a string of at most ${NAME_MAX_LENGTH} characters`);
    }
    const bankAccount = body.client_bank_account;
    if (bankAccount !== undefined && bankAccount !== null && (typeof bankAccount !== 'string' || !BANK_ACCOUNT_PATTERN.test(bankAccount))) {
      throw invalid('client_bank_account must be 10 to 15 digits');
    }
    const metadata = body.metadata ?? {};
    if (!isObject(metadata)) throw invalid('metadata must be an object');
    const expiresIn = body[wire.expiryField] ?? BigInt(DEFAULT_EXPIRY_SECONDS);
    if (typeof expiresIn !== 'bigint' || expiresIn < BigInt(EXPIRY_BOUNDS_SECONDS.min) || expiresIn > BigInt(EXPIRY_BOUNDS_SECONDS.max)) {
      throw invalid(`${wire.expiryField} must be whole seconds from ${EXPIRY_BOUNDS_SECONDS.min} to ${EXPIRY_BOUNDS_SECONDS.max}`);
    }

    const id = `${QR_CODE_ID_PREFIX}${randomBytes(10).toString('hex')}`;
    const createdAt = new Date();
    const lifetimeMs = Number(expiresIn) * 1000 * timeScale;
    const code: StoredCode = {
      id,
      apiKey,
      reference,
      amount,
      currency: QR_CURRENCY,
      status: 'pending',
      qrPayload: buildPromptPayPayload({
        amountText: bahtText(amount, unit),
        merchantId: sandboxMerchantId(apiKey),
        referenceLabel: id,
      }),
      metadata,
      livemode: isLiveKey(apiKey),
      createdAt,
      // expires_at is when the code really stops working, on the scaled clock.
      expiresAt: new Date(createdAt.getTime() + lifetimeMs),
      clientName,
      refunded: 0n,
    };
    if (typeof bankName === 'string') code.clientBankName = bankName;
    code.expiryTimer = setTimeout(() => {
      code.expiryTimer = undefined;
      if (code.status === 'pending') settle(code, 'failed', 'expired');
    }, lifetimeMs);
    codes.set(id, code);
    log?.info({ id, reference, amount: amount.toString() }, 'qr sandbox code created');
    emitPayment(code);
    return code;
  }

  /**
   * The dashboard's simulate button (spec: "success or failure is simulated from the merchant
   * dashboard"; Q8): test keys only, pending codes only. The one path every simulation takes, the
   * dashboard's form, the API twin the gateway's sandbox accounts call, and the test control alike.
   */
  function simulate(code: StoredCode, outcome: string): void {
    if (isLiveKey(code.apiKey)) throw new HttpError(403, ERROR_CODES.testModeOnly, 'Payments can be simulated with test keys only', 'invalid_request_error');
    if (!(SIMULATION_OUTCOMES as readonly string[]).includes(outcome)) throw invalid(`outcome must be one of ${SIMULATION_OUTCOMES.join(', ')}`);
    settle(code, outcome as (typeof SIMULATION_OUTCOMES)[number]);
  }

  /** The dashboard's refund of a paid code: refund.completed or refund.failed (payload Q7). */
  function refund(code: StoredCode, amount: bigint, outcome: 'completed' | 'failed'): string {
    if (code.livemode) throw new HttpError(403, ERROR_CODES.testModeOnly, 'The sandbox dashboard works with test keys only', 'invalid_request_error');
    if (code.status !== 'succeeded') {
      throw new HttpError(409, ERROR_CODES.invalidState, `QR code ${code.id} is ${code.status}; only a paid code can be refunded`, 'invalid_request_error');
    }
    const refundable = code.amount - code.refunded;
    if (amount <= 0n || amount > refundable) throw invalid(`amount must be from 1 to ${refundable} ${unit}`);
    const refundId = `rf_${randomBytes(10).toString('hex')}`;
    if (outcome === 'completed') code.refunded += amount;
    log?.info({ id: code.id, refundId, amount: amount.toString(), outcome }, 'qr sandbox refund made on the dashboard');
    queue.enqueue(code.apiKey, `refund.${outcome}`, { refund_id: refundId, payment_id: code.id, status: outcome, amount, currency: code.currency });
    return refundId;
  }

  /** The dashboard's withdrawal from the balance: pending now, processed and then `outcome` a few (scaled) seconds apart (Q7). */
  function withdraw(apiKey: string, amount: bigint, outcome: 'succeeded' | 'failed'): string {
    if (isLiveKey(apiKey)) throw new HttpError(403, ERROR_CODES.testModeOnly, 'The sandbox dashboard works with test keys only', 'invalid_request_error');
    if (amount <= 0n) throw invalid('amount must be greater than zero');
    const withdrawalId = `wd_${randomBytes(10).toString('hex')}`;
    // All three events are queued now, the later two due later: the queue keeps them across a restart.
    for (const [status, delayMs] of [['pending', 0], ['processed', 2_000], [outcome, 4_000]] as const) {
      queue.enqueue(apiKey, `withdrawal.${status}`, { withdrawal_id: withdrawalId, status, amount, currency: QR_CURRENCY }, delayMs * timeScale);
    }
    log?.info({ withdrawalId, amount: amount.toString(), outcome }, 'qr sandbox withdrawal made on the dashboard');
    return withdrawalId;
  }

  /** GET /dashboard and its forms (simulate, refund, withdraw); no API key (a browser page on loopback), test keys only. */
  function dashboard(method: string, path: string, raw: Buffer): { status: number; html?: string; location?: string } {
    const testKeys = options.accounts.map((account) => account.apiKey).filter((key) => !isLiveKey(key));
    const page = (status: number, notice?: string) => {
      const accounts: DashboardAccount[] = testKeys.map((apiKey, index) => ({
        index,
        maskedKey: `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`,
        codes: [...codes.values()]
          .filter((code) => code.apiKey === apiKey)
          .reverse()
          .map((code) => ({
            id: code.id,
            reference: code.reference,
            status: code.status,
            amount: bahtText(code.amount, unit),
            refunded: bahtText(code.refunded, unit),
            refundable: bahtText(code.amount - code.refunded, unit),
          })),
      }));
      return { status, html: dashboardPage(accounts, notice) };
    };
    if (method === 'GET' && path === '/dashboard') return page(200);
    if (method !== 'POST' || !['/dashboard/simulate', '/dashboard/refunds', '/dashboard/withdrawals'].includes(path)) return page(404, `No page ${method} ${path}`);
    const form = new URLSearchParams(raw.toString('utf8'));
    try {
      const outcome = form.get('outcome') ?? '';
      if (path === '/dashboard/simulate') {
        const code = codes.get(form.get('code') ?? '');
        if (!code || !testKeys.includes(code.apiKey)) throw new HttpError(404, ERROR_CODES.notFound, 'No such QR code', 'invalid_request_error');
        simulate(code, outcome);
        return { status: 303, location: '/dashboard' };
      }
      const amount = dashboardAmount(form.get('amount'));
      if (path === '/dashboard/refunds') {
        const code = codes.get(form.get('code') ?? '');
        if (!code || !testKeys.includes(code.apiKey)) throw invalid('No such QR code');
        if (outcome !== 'completed' && outcome !== 'failed') throw invalid('outcome must be completed or failed');
        refund(code, amount, outcome);
      } else {
        const apiKey = testKeys[Number(form.get('account'))];
        if (!apiKey) throw invalid('No such account');
        if (outcome !== 'succeeded' && outcome !== 'failed') throw invalid('outcome must be succeeded or failed');
        withdraw(apiKey, amount, outcome);
      }
      return { status: 303, location: '/dashboard' };
    } catch (error) {
      if (error instanceof HttpError) return page(error.status, error.message);
      throw error;
    }
  }

  /** A baht amount typed on the dashboard ("50.00") as the provider integer. */
  function dashboardAmount(text: string | null): bigint {
    if (!/^[0-9]{1,13}(\.[0-9]{1,2})?$/.test((text ?? '').trim())) throw invalid('amount must be baht with up to two decimals, e.g. 50.00');
    const amount = amountFromBahtText(text ?? '', unit);
    if (amount === undefined) throw invalid('amount must be whole baht: this sandbox counts in baht');
    return amount;
  }

  function ownedCode(apiKey: string, id: string): StoredCode {
    const code = codes.get(id);
    if (!code || code.apiKey !== apiKey) throw new HttpError(404, ERROR_CODES.notFound, `No QR code ${id}`, 'invalid_request_error');
    return code;
  }

  async function register(apiKey: string, body: unknown): Promise<JsonObject> {
    if (!isObject(body)) throw invalid('The request body must be a JSON object');
    const { url, events, secret } = body;
    if (typeof url !== 'string' || url === '') throw invalid('url is required');
    if (!Array.isArray(events) || events.length === 0) throw invalid('events must be a non-empty array of event names');
    const unknown = events.filter((event) => !isQrEvent(event));
    if (unknown.length > 0) throw invalid(`Unknown events: ${unknown.map(String).join(', ')}`);
    if (secret !== undefined && secret !== null && (typeof secret !== 'string' || secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)) {
      throw invalid(`secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters`);
    }
    const badUrl = (message: string): HttpError => new HttpError(422, ERROR_CODES.invalidUrl, message, 'validation_error');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw badUrl('url is not a valid URL');
    }
    const loopbackHttp = parsed.protocol === 'http:' && LOOPBACK_HOSTS.includes(parsed.hostname) && !isLiveKey(apiKey);
    if (parsed.protocol !== 'https:' && !loopbackHttp) throw badUrl('url must be an HTTPS URL');
    try {
      await fetch(parsed, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(REACHABILITY_TIMEOUT_MS) });
    } catch {
      throw badUrl('url is not reachable');
    }
    const registration: SandboxRegistration = {
      webhookId: `${WEBHOOK_ID_PREFIX}${randomBytes(12).toString('hex')}`,
      apiKey,
      url,
      events: [...new Set(events as string[])],
      secret: typeof secret === 'string' ? secret : `${GENERATED_SECRET_PREFIX}${randomBytes(32).toString('hex')}`,
      status: 'active',
      createdAt: new Date(),
    };
    queue.register(registration);
    log?.debug({ webhookId: registration.webhookId, events: registration.events }, 'qr sandbox webhook registered');
    return {
      webhook_id: registration.webhookId,
      url: registration.url,
      events: registration.events,
      status: registration.status,
      created_at: registration.createdAt.toISOString(),
    };
  }

  async function route(request: IncomingMessage, apiKey: string, path: string, query: URLSearchParams, raw: Buffer): Promise<Reply> {
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
      const code = createCode(apiKey, body());
      const text = stringifyJson(codeJson(code));
      if (idempotencyKey) idempotency.set(idempotencyKey, { fingerprint, status: CREATE_STATUS, body: text });
      return { status: CREATE_STATUS, text };
    }
    if (path === QR_CODES_PATH && method === 'GET') {
      const limit = Math.min(Math.max(Number.parseInt(query.get('limit') ?? '10', 10) || 10, 1), 100);
      const mine = [...codes.values()].filter((code) => code.apiKey === apiKey).reverse();
      return reply(200, { data: mine.slice(0, limit).map(codeJson), has_more: mine.length > limit });
    }
    const simulated = /^\/v1\/qr-codes\/([^/]+)\/simulate$/.exec(path);
    if (simulated && method === 'POST') {
      // Q8: the dashboard's simulate button for a caller with the account's key, through the same path.
      const code = ownedCode(apiKey, decodeURIComponent(simulated[1] ?? ''));
      const input = body();
      simulate(code, isObject(input) && typeof input.outcome === 'string' ? input.outcome : '');
      return reply(200, codeJson(code));
    }
    const lookup = lookupPattern.exec(path);
    if (lookup && method === 'GET') return reply(200, codeJson(ownedCode(apiKey, decodeURIComponent(lookup[1] ?? ''))));
    if (path === WEBHOOKS_PATH && method === 'POST') return reply(200, await register(apiKey, body()));
    throw new HttpError(404, ERROR_CODES.notFound, `No route ${method} ${path}`, 'invalid_request_error');
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    requestPaths.push(url.pathname);
    try {
      const raw = await readBody(request);
      if (url.pathname === '/healthz' && request.method === 'GET') return send(response, reply(200, { ok: true }));
      if (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) {
        const answer = dashboard(request.method ?? 'GET', url.pathname, raw);
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
      if (!apiKey || !keys.has(apiKey)) {
        throw new HttpError(401, ERROR_CODES.unauthorized, 'Invalid or missing API key', 'authentication_error');
      }
      const answer = await route(request, apiKey, url.pathname, url.searchParams, raw);
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

  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  // Restored once listening (a port already taken fails before any timer or delivery starts), and
  // before any request is read: this runs in the same turn as the listen callback.
  const saved = state?.load();
  if (saved) {
    for (const registration of saved.registrations) queue.register(registration);
    for (const [key, response] of saved.idempotency) idempotency.set(key, response);
    for (const code of saved.codes) {
      codes.set(code.id, code);
      if (code.status !== 'pending') continue;
      // The code's lifetime kept running while the sandbox was down: it expires when it would have.
      code.expiryTimer = setTimeout(() => {
        code.expiryTimer = undefined;
        if (code.status === 'pending') settle(code, 'failed', 'expired');
      }, Math.max(0, code.expiresAt.getTime() - Date.now()));
    }
    queue.resend(saved.undelivered);
    log?.info({ codes: saved.codes.length, registrations: saved.registrations.length, undeliveredWebhooks: saved.undelivered.length, file: state?.file }, 'qr sandbox state restored');
  }
  if (state) queue.onChange = state.saveSoon.bind(state);

  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  log?.info({ baseUrl, amountUnit: unit, timeScale }, 'qr sandbox listening');

  const controls: QrSandboxControls = {
    simulate(id, outcome) {
      const code = codes.get(id);
      if (!code) throw new Error(`No QR code ${id}`);
      simulate(code, outcome);
      return snapshot(code);
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
      const code = codes.get(id);
      return code ? snapshot(code) : undefined;
    },
    refund(id, amount, outcome) {
      const code = codes.get(id);
      if (!code) throw new Error(`No QR code ${id}`);
      const refundId = refund(code, amount, outcome);
      state?.saveSoon();
      return refundId;
    },
    withdraw(keyOrAccount, amount, outcome) {
      return withdraw(typeof keyOrAccount === 'string' ? keyOrAccount : keyOrAccount.apiKey, amount, outcome);
    },
  };

  return {
    baseUrl,
    controls,
    async close() {
      // Saved before the queue drops its deliveries: those cut short are sent again next start.
      try {
        state?.close();
      } catch (error) {
        log?.error({ err: error }, 'qr sandbox state not saved on close');
      }
      queue.close();
      for (const code of codes.values()) if (code.expiryTimer) clearTimeout(code.expiryTimer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
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
