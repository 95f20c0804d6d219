// Reading the deposit gateway's wire format into the gateway's types: status words, the response
// shapes (spec: Resources, Endpoints), and the readers of its values that webhook envelopes share.
// Request bodies are written by request-bodies.ts; webhook envelopes are read by webhook-events.ts.

import { Money } from '../../lib/money.js';
import type {
  CardSession,
  CardSettleResult,
  CreateDepositRequest,
  DepositStatus,
  PayoutStatus,
  ProviderDeposit,
  ProviderPayout,
  ProviderRefund,
  RefundStatus,
  RequestRefundRequest,
} from '../provider.js';
import { CREATED_STATUS_WORD, REFUND_STATUS_REVERSED_IN_FULL, REFUND_STATUS_WORDS, UNKNOWN_LOOKUP_STATUS } from './assumptions.js';
import { decimalText, integerValue, isObject, text, type JsonObject } from './json.js';

/** A provider body that lacks what the spec promises; the caller turns it into an error result. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

// ---------------------------------------------------------------- status words

/** Payment status words (spec: Payment status values). */
const DEPOSIT_STATUS_WORDS: Readonly<Record<string, DepositStatus>> = {
  redirected: 'PENDING',
  pending: 'PENDING',
  approved_for_payment: 'AUTHORIZED',
  approved: 'SUCCEEDED',
  declined: 'DECLINED',
  expired: 'EXPIRED',
  cancelled: 'CANCELLED',
  error: 'FAILED',
  refunded: 'REFUNDED',
};

/** Payout status words (spec: Payout status values; `failed` from the payout.failed event). */
const PAYOUT_STATUS_WORDS: Readonly<Record<string, PayoutStatus>> = {
  pending: 'PENDING',
  paid: 'PAID',
  bounced: 'BOUNCED',
  reverted: 'REVERTED',
  failed: 'FAILED',
};

export function depositStatusOf(word: string): DepositStatus | undefined {
  return Object.hasOwn(DEPOSIT_STATUS_WORDS, word) ? DEPOSIT_STATUS_WORDS[word] : undefined;
}

export function payoutStatusOf(word: string): PayoutStatus | undefined {
  return Object.hasOwn(PAYOUT_STATUS_WORDS, word) ? PAYOUT_STATUS_WORDS[word] : undefined;
}

export function refundStatusOf(word: string): RefundStatus | undefined {
  return Object.hasOwn(REFUND_STATUS_WORDS, word) ? REFUND_STATUS_WORDS[word as keyof typeof REFUND_STATUS_WORDS] : undefined;
}

/** A lookup must always yield a status: an unknown word is kept in `providerStatus` and read per A23. */
function lookupDepositStatus(word: string): DepositStatus {
  return depositStatusOf(word) ?? UNKNOWN_LOOKUP_STATUS;
}

// ---------------------------------------------------------------- responses

/** Checkout session response, HTTP 201: `{ ok, id, url, expires_in }`. */
export function parseCheckoutSession(body: unknown, request: CreateDepositRequest): ProviderDeposit {
  const session = object(body);
  return {
    reference: required(text(session, 'id'), 'checkout session id'),
    status: lookupDepositStatus(CREATED_STATUS_WORD),
    providerStatus: CREATED_STATUS_WORD,
    redirectUrl: required(text(session, 'url'), 'checkout session url'),
    merchantReference: request.depositId,
    amount: request.amount,
  };
}

/**
 * POST /payments 201 in its three shapes (spec: POST /payments): European and card nest a `payment`;
 * UPI/PIX and LATAM are flat with no status; crypto is flat with a status and a `crypto` quote.
 */
export function parseCreatedPayment(body: unknown, request: CreateDepositRequest): ProviderDeposit {
  const root = object(body);
  const source = isObject(root.payment) ? root.payment : root;
  const word = text(source, 'status') ?? CREATED_STATUS_WORD;
  const deposit: ProviderDeposit = {
    reference: required(text(source, 'reference'), 'payment reference'),
    status: lookupDepositStatus(word),
    providerStatus: word,
    redirectUrl: text(source, 'redirect_url'),
    merchantReference: text(source, 'merchant_reference') ?? request.depositId,
    amount: request.amount,
  };
  if (root.crypto !== undefined) {
    const crypto = object(root.crypto);
    const quoteTtlMinutes = integerValue(crypto.quote_ttl_minutes);
    const underpayTolerancePct = decimalText(crypto.underpay_tolerance_pct);
    if (quoteTtlMinutes === undefined || underpayTolerancePct === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(underpayTolerancePct)) {
      throw new ShapeError('crypto quote terms are unreadable');
    }
    deposit.crypto = { quoteTtlMinutes, underpayTolerancePct };
  }
  return withoutUndefined(deposit);
}

/** The `payment` object of GET /payments/{reference}, GET /payments and the settle result. */
export function parsePayment(value: unknown): ProviderDeposit {
  const payment = object(value);
  const word = required(text(payment, 'status'), 'payment status');
  const currency = text(payment, 'currency');
  const deposit: ProviderDeposit = {
    reference: required(text(payment, 'reference'), 'payment reference'),
    status: lookupDepositStatus(word),
    providerStatus: word,
    merchantReference: text(payment, 'merchant_reference'),
    amount: money(payment.amount, currency),
    fee: money(payment.fee, currency),
    net: money(payment.net, currency),
    declineReason: text(payment, 'decline_reason'),
    statusReason: text(payment, 'status_reason'),
    approvedAt: date(payment.approved_at),
    createdAt: date(payment.created_at),
  };
  // Spec: `net` is "amount minus fee". One that is not is a provider fault: kept apart, never applied.
  const { amount, fee, net } = deposit;
  if (amount && fee && net && (net.currency !== amount.currency || fee.currency !== amount.currency || !net.equals(amount.subtract(fee)))) {
    delete deposit.net;
    deposit.netMismatch = net;
  }
  const refundWord = text(payment, 'refund_status');
  if (refundWord) {
    const status = refundStatusOf(refundWord);
    // A25: `refunded` is the payment reversed in full; the other words say where its latest refund stands.
    if (status) deposit.refundStatus = { status, providerStatus: refundWord, ...(refundWord === REFUND_STATUS_REVERSED_IN_FULL ? { reversedInFull: true } : {}) };
  }
  return withoutUndefined(deposit);
}

/** `{ ok, data: [...], paging: { limit, next_before } }` (spec: GET /payments, GET /payouts). */
export function parsePage<T>(body: unknown, item: (value: unknown) => T): { items: T[]; nextBefore?: string } {
  const root = object(body);
  if (!Array.isArray(root.data)) throw new ShapeError('page has no data array');
  const paging = isObject(root.paging) ? root.paging : undefined;
  const nextBefore = text(paging, 'next_before');
  return nextBefore ? { items: root.data.map(item), nextBefore } : { items: root.data.map(item) };
}

/** A3: `{ ok, refund: { id, reference, amount, currency, status, ... } }`. */
export function parseRefund(body: unknown, request: RequestRefundRequest): ProviderRefund {
  const refund = object(object(body).refund);
  const word = required(text(refund, 'status'), 'refund status');
  return withoutUndefined({
    reference: required(text(refund, 'id'), 'refund id'),
    status: required(refundStatusOf(word), `refund status ${JSON.stringify(word)}`),
    providerStatus: word,
    amount: money(refund.amount, text(refund, 'currency') ?? request.amount?.currency),
  });
}

/** Payout object (spec: Payout response object). */
export function parsePayout(value: unknown): ProviderPayout {
  const payout = object(value);
  const word = required(text(payout, 'status'), 'payout status');
  return withoutUndefined({
    reference: required(text(payout, 'reference'), 'payout reference'),
    status: required(payoutStatusOf(word), `payout status ${JSON.stringify(word)}`),
    providerStatus: word,
    merchantReference: text(payout, 'merchant_reference'),
    amount: money(payout.amount, text(payout, 'currency')),
    createdAt: date(payout.created_at),
  });
}

/** Card session (spec: Card session). `integrity` is deliberately never read: the spec says it must be ignored. */
export function parseCardSession(body: unknown): CardSession {
  const session = object(body);
  if (typeof session.settled !== 'boolean') throw new ShapeError('card session has no settled flag');
  const word = required(text(session, 'status'), 'card session status');
  return withoutUndefined({
    settled: session.settled,
    status: lookupDepositStatus(word),
    providerStatus: word,
    amount: money(session.amount, text(session, 'currency')),
    scriptUrl: text(session, 'script_url'),
    brands: (text(session, 'brands') ?? '').split(' ').filter(Boolean),
  });
}

/** Card settle result (spec: Card settle result). */
export function parseSettleResult(body: unknown): CardSettleResult {
  const root = object(body);
  if (typeof root.settled !== 'boolean' || typeof root.changed !== 'boolean') throw new ShapeError('settle result flags missing');
  return { settled: root.settled, changed: root.changed, deposit: parsePayment(root.payment) };
}

// ---------------------------------------------------------------- readers

export function object(value: unknown): JsonObject {
  if (!isObject(value)) throw new ShapeError('expected a JSON object');
  return value;
}

export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ShapeError(`${what} is missing`);
  return value;
}

/**
 * Exact money from a decimal string or a JSON number's source text. Absent or null amount → undefined;
 * an amount without a currency, or one that is not an exact amount of its currency, is a shape error.
 */
export function money(amount: unknown, currency: string | undefined): Money | undefined {
  if (amount === undefined || amount === null) return undefined;
  const decimal = decimalText(amount);
  if (decimal === undefined || !currency) throw new ShapeError('amount is unreadable or has no currency');
  try {
    return Money.fromDecimal(decimal, currency);
  } catch (error) {
    throw new ShapeError(`amount ${decimal} ${currency} is not exact: ${(error as Error).message}`);
  }
}

export function date(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** Drops undefined properties so results compare cleanly and serialise without noise. */
export function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
