// The provider's JSON API under /v1: authentication, the endpoints of the spec (plus the paths of
// assumptions A1 and A2), their status codes and response shapes.

import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { cardSettlePath, PAYOUT_CREATE_PATH, RAIL_DISABLED_MESSAGE, RAIL_UNAVAILABLE_MESSAGE } from '../../providers/deposit-gateway/assumptions.js';
import type { ScaledClock } from './clock.js';
import { wireAmount } from './amounts.js';
import { DEFAULT_CARD_BRANDS } from './hosted.js';
import { SESSION_ID_PREFIX, type Simulator } from './simulator.js';
import {
  newId,
  paymentView,
  payoutView,
  refundView,
  TERMINAL_PAYMENT_STATUSES,
  type PaymentRecord,
  type Rail,
  type SandboxAccount,
  type SandboxStore,
} from './store.js';
import {
  pageLimit,
  parseJsonBody,
  refundAmount,
  selectRail,
  validatePayment,
  validatePayout,
  validateRefund,
  validateSession,
  type Body,
  type ValidationContext,
} from './validation.js';

export interface ApiRequest {
  method: string;
  /** Path below /v1, e.g. `/payments/svc_pay_1`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  bodyText: string;
}

export interface ApiResult {
  status: number;
  body: unknown;
}

export interface Caller {
  apiKey: string;
  account: SandboxAccount;
  livemode: boolean;
}

// Assumption: the spec names the crypto quote fields, not their values or units: 15 minutes, 1 percent, as numbers.
const CRYPTO_TERMS = { quote_ttl_minutes: 15, underpay_tolerance_pct: 1 } as const;
const NOT_AVAILABLE = RAIL_UNAVAILABLE_MESSAGE;

function error(status: number, message: string, extra: Record<string, unknown> = {}): ApiResult {
  return { status, body: { ok: false, error: message, ...extra } };
}

export class Api {
  constructor(
    private readonly store: SandboxStore,
    private readonly simulator: Simulator,
    private readonly clock: ScaledClock,
    private readonly checkoutUrl: string,
    private readonly allowInsecureReturnUrls: boolean,
  ) {}

  /** Spec: Authentication 1-4. Every failure is a 401. */
  authenticate(header: string | undefined): Caller | ApiResult {
    if (header === undefined || header.trim() === '') return error(401, 'Missing API key: send Authorization: Bearer <key>');
    const match = /^Bearer ([^\s]+)$/.exec(header.trim());
    if (!match?.[1]) return error(401, 'Malformed Authorization header: expected Bearer <key>');
    const apiKey = match[1];
    const account = this.store.accounts.get(apiKey);
    if (!account || !(apiKey.startsWith('svc_test_') || apiKey.startsWith('svc_live_'))) return error(401, 'Invalid API key');
    return { apiKey, account, livemode: apiKey.startsWith('svc_live_') };
  }

  handle(request: ApiRequest, caller: Caller): ApiResult {
    const { method, path } = request;
    const segments = path.split('/').filter((part) => part !== '');
    const reference = segments[1] !== undefined ? safeDecode(segments[1]) : undefined;
    let body: Body = {};
    if (method === 'POST') {
      const parsed = this.parseBody(request.bodyText);
      if ('status' in parsed) return parsed;
      body = parsed.body;
    }
    const headerKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;

    if (path === '/checkout-sessions') return method === 'POST' ? this.createSession(body, caller) : error(405, 'Method not allowed');
    if (path === '/payments') {
      if (method === 'POST') return this.createPayment(body, headerKey, caller);
      if (method === 'GET') return this.listPayments(request.query, caller);
      return error(405, 'Method not allowed');
    }
    if (segments[0] === 'payments' && reference !== undefined) {
      if (segments.length === 2) return method === 'GET' ? this.getPayment(reference, caller) : error(405, 'Method not allowed');
      if (segments.length === 3 && segments[2] === 'card-session') return method === 'GET' ? this.cardSession(reference, caller) : error(405, 'Method not allowed');
      if (path === cardSettlePath(reference)) return method === 'POST' ? this.settle(reference, caller) : error(405, 'Method not allowed');
    }
    if (path === '/refunds') return method === 'POST' ? this.createRefund(body, headerKey, caller) : error(405, 'Method not allowed');
    if (path === PAYOUT_CREATE_PATH && method === 'POST') return this.createPayout(body, headerKey, caller);
    if (path === '/payouts') return method === 'GET' ? this.listPayouts(request.query, caller) : error(405, 'Method not allowed');
    return error(404, `No such endpoint: ${method} /v1${path}`);
  }

  private parseBody(text: string): { body: Body } | ApiResult {
    if (text.trim() === '') return { body: {} };
    let parsed: unknown;
    try {
      parsed = parseJsonBody(text);
    } catch {
      return error(400, 'Request body must be valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return error(400, 'Request body must be a JSON object');
    return { body: parsed as Body };
  }

  private context(): ValidationContext {
    return { now: this.clock.now(), allowInsecureReturnUrls: this.allowInsecureReturnUrls };
  }

  private disabled(caller: Caller, rail: Rail | 'checkout' | 'payouts'): boolean {
    return caller.account.disabledRails?.includes(rail) ?? false;
  }

  // -------------------------------------------------------------------------------------------

  private createSession(body: Body, caller: Caller): ApiResult {
    if (this.disabled(caller, 'checkout')) return error(403, NOT_AVAILABLE);
    const valid = validateSession(body, this.context());
    if (!valid.ok) return error(valid.status, valid.error);
    const id = newId(SESSION_ID_PREFIX);
    const now = this.clock.now();
    this.store.sessions.set(id, {
      id,
      apiKey: caller.apiKey,
      amount: valid.value.amount,
      returnUrl: valid.value.returnUrl,
      successUrl: valid.value.successUrl,
      cancelUrl: valid.value.cancelUrl,
      merchantReference: valid.value.merchantReference,
      method: valid.value.method,
      bankCountry: valid.value.bankCountry,
      prefill: valid.value.prefill,
      createdAt: now,
      // The lifetime runs on the scaled clock, like every other simulated duration.
      expiresAtMs: now.getTime() + this.clock.toReal(valid.value.expiresIn * 1000),
      paymentReference: null,
    });
    return { status: 201, body: { ok: true, id, url: `${this.checkoutUrl}/c/${id}`, expires_in: valid.value.expiresIn } };
  }

  private createPayment(body: Body, headerKey: string | null, caller: Caller): ApiResult {
    const rail = selectRail(body);
    if (!rail.ok) return error(rail.status, rail.error);
    // Spec (Errors, 1): the crypto rail also puts the numeric status in the body.
    const fail = (status: number, message: string): ApiResult => error(status, message, rail.value === 'crypto' ? { status } : {});
    // A26: the crypto rail disabled by the operator (spec: 403 row) versus a solution not enabled (Errors 3).
    if (this.disabled(caller, rail.value)) return fail(403, rail.value === 'crypto' ? RAIL_DISABLED_MESSAGE : RAIL_UNAVAILABLE_MESSAGE);
    const key = typeof body.idempotency_key === 'string' && body.idempotency_key !== '' ? body.idempotency_key : headerKey;
    const replay = this.store.recall(caller.apiKey, 'payments', key);
    if (replay) return replay;
    const valid = validatePayment(rail.value, body, headerKey, this.context());
    if (!valid.ok) return fail(valid.status, valid.error);
    const payment = this.simulator.createPayment(caller.apiKey, caller.livemode, valid.value);
    const result: ApiResult = { status: 201, body: createResponse(payment) };
    this.store.remember(caller.apiKey, 'payments', key, result);
    this.simulator.afterCreate(payment);
    return result;
  }

  private ownPayment(reference: string, caller: Caller): PaymentRecord | undefined {
    const payment = this.store.payments.get(reference);
    return payment && payment.apiKey === caller.apiKey ? payment : undefined;
  }

  private getPayment(reference: string, caller: Caller): ApiResult {
    const payment = this.ownPayment(reference, caller);
    if (!payment) return error(404, `Payment ${reference} not found`);
    // A link whose expiry timer has yet to run (it runs at that very moment) is already expired.
    this.simulator.expireLapsedLink(payment);
    return { status: 200, body: { ok: true, payment: paymentView(payment) } };
  }

  private listPayments(query: URLSearchParams, caller: Caller): ApiResult {
    const own = [...this.store.payments.values()].filter((payment) => payment.apiKey === caller.apiKey);
    for (const payment of own) this.simulator.expireLapsedLink(payment);
    return page(own, query, (payment) => payment.reference, paymentView);
  }

  private cardSession(reference: string, caller: Caller): ApiResult {
    const payment = this.ownPayment(reference, caller);
    if (!payment) return error(404, `Payment ${reference} not found`);
    if (payment.rail !== 'cards') return error(422, `Payment ${reference} is not a card payment; card sessions exist for card payments only`);
    const settled = TERMINAL_PAYMENT_STATUSES.has(payment.status);
    const base = { ok: true, settled, status: payment.status, amount: wireAmount(payment.amount), currency: payment.amount.currency };
    if (settled) return { status: 200, body: base };
    // Spec: the loader is per checkout and its hash is not fixed, so `integrity` changes on every call.
    const checkout = randomBytes(6).toString('hex');
    return {
      status: 200,
      body: {
        ...base,
        script_url: `${this.checkoutUrl}/js/loader/${encodeURIComponent(payment.reference)}.js?checkout=${checkout}`,
        integrity: `sha384-${randomBytes(48).toString('base64')}`,
        brands: caller.account.cardBrands ?? DEFAULT_CARD_BRANDS,
      },
    };
  }

  private settle(reference: string, caller: Caller): ApiResult {
    const payment = this.ownPayment(reference, caller);
    if (!payment) return error(404, `Payment ${reference} not found`);
    if (payment.rail !== 'cards') return error(422, `Payment ${reference} is not a card payment; only card payments are settled by this call`);
    const changed = this.simulator.settle(payment);
    return {
      status: 200,
      body: {
        ok: true,
        settled: TERMINAL_PAYMENT_STATUSES.has(payment.status),
        changed,
        payment: {
          reference: payment.reference,
          status: payment.status,
          amount: wireAmount(payment.amount),
          currency: payment.amount.currency,
          merchant_reference: payment.merchantReference,
          decline_reason: payment.status === 'declined' ? payment.declineReason : null,
        },
      },
    };
  }

  private createRefund(body: Body, headerKey: string | null, caller: Caller): ApiResult {
    const key = typeof body.idempotency_key === 'string' && body.idempotency_key !== '' ? body.idempotency_key : headerKey;
    const replay = this.store.recall(caller.apiKey, 'refunds', key);
    if (replay) return replay;
    const valid = validateRefund(body, headerKey);
    if (!valid.ok) return error(valid.status, valid.error);
    const payment = this.ownPayment(valid.value.reference, caller);
    if (!payment) return error(404, `Payment ${valid.value.reference} not found`);
    // A payment refunded in part (status `refunded`, spec) still takes refunds up to the rest.
    if (payment.status !== 'approved' && payment.status !== 'refunded') {
      return error(422, `Payment ${payment.reference} is ${payment.status}; only approved payments can be refunded`);
    }
    const refundable = this.store.refundable(payment);
    let amount = refundable;
    if (valid.value.amount !== null) {
      const parsed = refundAmount(valid.value.amount, payment.amount.currency);
      if (!parsed.ok) return error(parsed.status, parsed.error);
      amount = parsed.value;
    }
    if (!amount.isPositive() || amount.compare(refundable) > 0) {
      return error(
        422,
        `Refund amount ${wireAmount(amount)} ${amount.currency} exceeds the refundable amount ${wireAmount(refundable)} ${amount.currency} of payment ${payment.reference}`,
      );
    }
    const refund = this.simulator.createRefund(payment, amount, valid.value.reason);
    const result: ApiResult = { status: 201, body: { ok: true, refund: refundView(refund) } };
    this.store.remember(caller.apiKey, 'refunds', key, result);
    return result;
  }

  private createPayout(body: Body, headerKey: string | null, caller: Caller): ApiResult {
    // Spec (Authentication, 7): a live payout before live payouts are enabled answers 503.
    if (caller.livemode && caller.account.livePayoutsEnabled !== true) return error(503, 'Live payouts are not enabled on this account');
    if (this.disabled(caller, 'payouts')) return error(403, 'Payouts are not available right now');
    const key = typeof body.idempotency_key === 'string' && body.idempotency_key !== '' ? body.idempotency_key : headerKey;
    const replay = this.store.recall(caller.apiKey, 'payouts', key);
    if (replay) return replay;
    const valid = validatePayout(body, headerKey);
    if (!valid.ok) return error(valid.status, valid.error, valid.missing ? { missing: valid.missing } : {});
    const payout = this.simulator.createPayout(caller.apiKey, caller.livemode, valid.value);
    const result: ApiResult = { status: 201, body: { ok: true, payout: payoutView(payout) } };
    this.store.remember(caller.apiKey, 'payouts', key, result);
    return result;
  }

  private listPayouts(query: URLSearchParams, caller: Caller): ApiResult {
    const own = [...this.store.payouts.values()].filter((payout) => payout.apiKey === caller.apiKey);
    return page(own, query, (payout) => payout.reference, (payout) => payoutView(payout, { timestamps: true }));
  }
}

function createResponse(payment: PaymentRecord): Record<string, unknown> {
  switch (payment.rail) {
    case 'cards':
    case 'openbanking':
      return {
        ok: true,
        payment: { reference: payment.reference, redirect_url: payment.redirectUrl, status: payment.status, merchant_reference: payment.merchantReference },
      };
    case 'latam':
    case 'upi':
    case 'pix':
      return { ok: true, reference: payment.reference, redirect_url: payment.redirectUrl };
    case 'crypto':
      return { ok: true, reference: payment.reference, redirect_url: payment.redirectUrl, status: payment.status, provider: 'crypto', crypto: { ...CRYPTO_TERMS } };
  }
}

/** Newest first; `before` is the last reference of the previous page (spec: GET /payments). */
function page<T extends { seq: number }>(items: T[], query: URLSearchParams, id: (item: T) => string, view: (item: T) => unknown): ApiResult {
  const limit = pageLimit(query.get('limit'));
  if (!limit.ok) return error(limit.status, limit.error);
  const sorted = [...items].sort((a, b) => b.seq - a.seq);
  let start = 0;
  const before = query.get('before');
  if (before !== null && before !== '') {
    const index = sorted.findIndex((item) => id(item) === before);
    if (index < 0) return error(422, `Unknown cursor before=${before}`);
    start = index + 1;
  }
  const slice = sorted.slice(start, start + limit.value);
  const last = slice[slice.length - 1];
  const more = start + limit.value < sorted.length;
  return { status: 200, body: { ok: true, data: slice.map(view), paging: { limit: limit.value, next_before: more && last ? id(last) : null } } };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
