// Translation between the gateway's types and the deposit gateway's wire format: request bodies,
// the response shapes, status words and webhook envelopes (spec: Resources, Endpoints, Events).

import { Money } from '../../lib/money.js';
import type {
  CardSession,
  CardSettleResult,
  CreateDepositRequest,
  CreatePayoutRequest,
  DepositStatus,
  PayoutStatus,
  ProviderDeposit,
  ProviderPayout,
  ProviderRefund,
  RailDetails,
  RefundStatus,
  RequestRefundRequest,
  WebhookEvent,
} from '../provider.js';
import {
  CHECKOUT_SESSION_TAKES_METADATA,
  HOSTED_CHECKOUT_CURRENCY_FIELD,
  HOSTED_CHECKOUT_RETURN_FIELDS,
} from './assumptions.js';
import { CREATED_STATUS_WORD, REFUND_EVENT_STATUS, REFUND_STATUS_REVERSED_IN_FULL, REFUND_STATUS_WORDS, UNKNOWN_LOOKUP_STATUS, type BeneficiaryField } from './assumptions.js';
import { wireAmount } from './amount.js';
import { JsonNumber, decimalText, integerValue, isObject, text, type JsonObject } from './json.js';
import { BENEFICIARY_FIELD_NAMES } from './validation.js';

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

// ---------------------------------------------------------------- request bodies

type Details<R extends RailDetails['rail']> = Extract<RailDetails, { rail: R }>;

/**
 * POST /checkout-sessions (spec: Checkout session request; currency per A10, the partner return
 * addresses per A31; no metadata, A32). No idempotency key exists for it.
 */
export function checkoutSessionBody(request: CreateDepositRequest, details: Details<'HOSTED_CHECKOUT'>): JsonObject {
  const { customer } = request;
  return {
    amount: wireAmount(request.amount),
    [HOSTED_CHECKOUT_CURRENCY_FIELD]: request.amount.currency,
    merchant_reference: request.depositId,
    return_url: request.returnUrl,
    [HOSTED_CHECKOUT_RETURN_FIELDS.success]: details.successUrl,
    [HOSTED_CHECKOUT_RETURN_FIELDS.cancel]: details.cancelUrl,
    ...(CHECKOUT_SESSION_TAKES_METADATA ? { metadata: request.metadata } : {}),
    method: details.preselect?.method,
    bankCountry: details.preselect?.bankCountry,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    country: customer.country,
    address1: customer.address1,
    city: customer.city,
    zipCode: customer.zipCode,
    phone: customer.phone,
    expires_in: details.expiresInSeconds,
  };
}

/**
 * POST /payments: the shared fields plus the rail's own (spec: Payment create request and rail
 * tables). `whiteLabel` is the account's choice of redirect host (spec: shared `white_label`).
 */
export function paymentBody(request: CreateDepositRequest, options: { whiteLabel?: boolean } = {}): JsonObject {
  const { customer, details } = request;
  const shared: JsonObject = {
    // Decimal string in every rail but crypto (A21); CLP and COP as integers ("send integers").
    amount: wireAmount(request.amount),
    currency: request.amount.currency,
    merchant_reference: request.depositId,
    idempotency_key: request.depositId,
    return_url: request.returnUrl,
    // A32: a shared field, echoed back on the payment; an object of strings as the client gave it.
    metadata: request.metadata && Object.keys(request.metadata).length > 0 ? { ...request.metadata } : undefined,
    // Sent only when the account asks for it: false is the spec's default.
    white_label: options.whiteLabel === true ? true : undefined,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
  };
  const billing = {
    country: customer.country,
    address1: customer.address1,
    city: customer.city,
    zipCode: customer.zipCode,
    phone: customer.phone,
  };
  switch (details.rail) {
    case 'CARD':
      // `solution` names the rail, so the provider never routes a card payment by its billing
      // country (spec: shared fields, `solution`; a LATAM country otherwise selects a LATAM rail).
      return { ...shared, solution: 'cards', method: 'cards', ...billing };
    case 'OPEN_BANKING':
      return { ...shared, method: details.method, bankCountry: details.bankCountry, ...billing };
    case 'LATAM':
      return {
        ...shared,
        country: details.country,
        method: details.method,
        documentType: customer.documentType,
        documentNumber: customer.documentNumber,
        phone: customer.phone,
        phoneCode: customer.phoneCode,
        successUrl: details.successUrl,
        errorUrl: details.errorUrl,
        redirectUrl: details.redirectUrl,
        expiresAt: details.expiresAt?.toISOString(),
      };
    case 'UPI':
    case 'PIX':
      return { ...shared, solution: details.rail === 'UPI' ? 'upi' : 'pix', phone: customer.phone, personalId: customer.personalId };
    case 'CRYPTO':
      // A JSON number as the crypto examples send it, written from the decimal's own digits (A21).
      return { ...shared, amount: new JsonNumber(wireAmount(request.amount)), provider: 'crypto' };
    case 'HOSTED_CHECKOUT':
    case 'THAI_QR':
      throw new Error(`${details.rail} is not created through POST /payments`);
  }
}

/** POST /refunds (spec: Refund request). */
export function refundBody(request: RequestRefundRequest): JsonObject {
  return {
    reference: request.depositReference,
    amount: request.amount && wireAmount(request.amount),
    reason: request.reason,
    idempotency_key: request.refundId,
  };
}

/** Payout create (spec: Payout request; path A1). */
export function payoutBody(request: CreatePayoutRequest): JsonObject {
  const beneficiary: JsonObject = {};
  for (const [wire, name] of Object.entries(BENEFICIARY_FIELD_NAMES)) beneficiary[wire] = request.beneficiary[name];
  return {
    country: request.country,
    amount: wireAmount(request.amount),
    currency: request.amount.currency,
    beneficiary,
    merchant_reference: request.payoutId,
    idempotency_key: request.payoutId,
  };
}

/** A 422's `missing` entries (provider names, possibly `beneficiary.`-prefixed) as gateway field paths. */
export function missingFieldPaths(missing: unknown): string[][] {
  if (!Array.isArray(missing)) return [];
  const paths: string[][] = [];
  for (const entry of missing) {
    if (typeof entry !== 'string' || entry === '') continue;
    const prefixed = /^beneficiary[.[]/.test(entry);
    const name = entry.replace(/^beneficiary[.[]/, '').replace(/\]$/, '');
    if (Object.hasOwn(BENEFICIARY_FIELD_NAMES, name)) paths.push(['beneficiary', BENEFICIARY_FIELD_NAMES[name as BeneficiaryField]]);
    else paths.push(prefixed ? ['beneficiary', camel(name)] : [camel(name)]);
  }
  return paths;
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

// ---------------------------------------------------------------- webhooks

/**
 * Maps a verified envelope `{ id, event, livemode, created_at, data }` (spec: Webhook event envelope;
 * refund, payout and chargeback data per A4). Undefined when the envelope is unusable. Events this
 * adapter does not know become `other`: "unknown events are ignored rather than rejected" (spec: Events).
 */
export function parseWebhookEnvelope(body: unknown): WebhookEvent | undefined {
  if (!isObject(body)) return undefined;
  const name = text(body, 'event');
  if (!name) return undefined;
  const data = isObject(body.data) ? body.data : undefined;
  const reference = text(data, 'reference');
  const word = text(data, 'status');
  const eventId = text(body, 'id') ?? (reference && word ? `${reference}:${word}` : undefined);
  if (!eventId) return undefined;

  let subject: WebhookEvent['subject'] | undefined;
  try {
    subject = webhookSubject(name, data, reference, word);
  } catch {
    return undefined;
  }
  if (!subject) return undefined;
  return withoutUndefined({
    eventId,
    name,
    livemode: typeof body.livemode === 'boolean' ? body.livemode : undefined,
    occurredAt: date(body.created_at),
    subject,
  });
}

function webhookSubject(
  name: string,
  data: JsonObject | undefined,
  reference: string | undefined,
  word: string | undefined,
): WebhookEvent['subject'] | undefined {
  const [family, action = ''] = splitOnce(name, '.');
  const other: WebhookEvent['subject'] = reference ? { kind: 'other', reference } : { kind: 'other' };
  const amount = () => money(data?.amount, text(data, 'currency'));
  switch (family) {
    case 'payment': {
      const providerStatus = word ?? action;
      const status = depositStatusOf(providerStatus);
      if (!status) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'deposit' as const,
        reference,
        merchantReference: text(data, 'merchant_reference'),
        status,
        providerStatus,
        amount: amount(),
        declineReason: text(data, 'decline_reason'),
      });
    }
    case 'refund': {
      const fromName = Object.hasOwn(REFUND_EVENT_STATUS, name) ? REFUND_EVENT_STATUS[name as keyof typeof REFUND_EVENT_STATUS] : undefined;
      const providerStatus = word ?? fromName;
      const status = providerStatus ? refundStatusOf(providerStatus) : undefined;
      if (!status || !providerStatus) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'refund' as const,
        reference,
        depositReference: text(data, 'payment_reference'),
        status,
        providerStatus,
        amount: amount(),
      });
    }
    case 'payout': {
      const providerStatus = word ?? action;
      const status = payoutStatusOf(providerStatus);
      if (!status) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'payout' as const,
        reference,
        merchantReference: text(data, 'merchant_reference'),
        status,
        providerStatus,
        amount: amount(),
      });
    }
    case 'chargeback':
      if (action !== 'opened') return other;
      if (!reference) return undefined;
      return withoutUndefined({ kind: 'chargeback' as const, reference, merchantReference: text(data, 'merchant_reference') });
    default:
      return other;
  }
}

// ---------------------------------------------------------------- readers

function object(value: unknown): JsonObject {
  if (!isObject(value)) throw new ShapeError('expected a JSON object');
  return value;
}

function required<T>(value: T | undefined, what: string): T {
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

function date(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

function splitOnce(value: string, separator: string): [string, string?] {
  const at = value.indexOf(separator);
  return at < 0 ? [value] : [value.slice(0, at), value.slice(at + separator.length)];
}

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Drops undefined properties so results compare cleanly and serialise without noise. */
function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
