// Maps the QR gateway's words to domain terms: the QR code object (Q1), its status words (Q5),
// error bodies (Q9) and verified webhook deliveries (Q5-Q7). Pure functions, no I/O.

import { createHash } from 'node:crypto';
import type { Money } from '../../lib/money.js';
import type { DepositStatus, ProviderDeposit, ProviderError, ProviderErrorCode, WebhookEvent } from '../provider.js';
import { fromProviderAmount } from './amount.js';
import { ERROR_CODES, QR_CURRENCY, QR_WIRE, REFUND_EVENT_STATUS, SPEC_PAYMENT_ID_FIELD, WITHDRAWAL_EVENT_STATUS, eventIdFor, type AmountUnit, type QrWire } from './assumptions.js';
import { isObject, type JsonObject } from './json.js';

/** Q5: the provider's payment status word in gateway terms. */
export function depositStatusFor(status: string, failureReason?: string): DepositStatus {
  switch (status) {
    case 'succeeded':
      return 'SUCCEEDED';
    case 'failed':
      return failureReason === 'expired' ? 'EXPIRED' : 'DECLINED';
    default:
      // `pending` and any word the spec does not show: never a reason to credit.
      return 'PENDING';
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function date(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** Money from a `{ amount, currency }` pair; undefined when absent, null when present but not an exact integer. */
function money(data: JsonObject, unit: AmountUnit): Money | undefined | null {
  if (data.amount === undefined || data.amount === null) return undefined;
  if (typeof data.amount !== 'bigint' || data.amount < 0n) return null;
  const currency = text(data.currency) ?? QR_CURRENCY;
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  return fromProviderAmount(data.amount, currency, unit);
}

/**
 * Q1: a QR code object (create, lookup, simulate) as a ProviderDeposit; null when it has no id. The
 * id is the spec's `payment_id` when present, else `wire.codeIdField`; no `status` reads as pending.
 * `expiresAfter` is the moment to assume when the body names none (Q3); without it, no QR code is read.
 */
export function mapQrCode(body: unknown, unit: AmountUnit, wire: QrWire = QR_WIRE, expiresAfter?: Date): ProviderDeposit | null {
  if (!isObject(body)) return null;
  const id = text(body[SPEC_PAYMENT_ID_FIELD]) ?? text(body[wire.codeIdField]);
  const status = text(body.status) ?? 'pending';
  if (!id) return null;
  const amount = money(body, unit);
  if (amount === null) return null;
  const failureReason = text(body.failure_reason);
  const deposit: ProviderDeposit = {
    reference: id,
    status: depositStatusFor(status, failureReason),
    providerStatus: status,
  };
  const merchantReference = text(body.reference);
  if (merchantReference) deposit.merchantReference = merchantReference;
  if (amount) deposit.amount = amount;
  if (status === 'failed') deposit.declineReason = failureReason ?? 'declined';
  const paidAt = date(body.paid_at);
  if (status === 'succeeded' && paidAt) deposit.approvedAt = paidAt;
  const payload = text(body[wire.payloadField]);
  const expiresAt = date(body[wire.expiresAtField]) ?? expiresAfter;
  if (payload && expiresAt) deposit.qrCode = { payload, expiresAt };
  return deposit;
}

export interface ErrorBody {
  code?: string;
  message?: string;
  type?: string;
}

/** The spec's error shape `{ error: { code, message, type } }`, tolerating anything else. */
export function readErrorBody(body: unknown): ErrorBody {
  if (!isObject(body) || !isObject(body.error)) return {};
  return { code: text(body.error.code), message: text(body.error.message), type: text(body.error.type) };
}

const SAFE_MESSAGES: Record<ProviderErrorCode, string> = {
  PROVIDER_AUTH_FAILED: 'The QR provider refused our credentials',
  RAIL_DISABLED: 'Thai QR payments are not enabled for this account',
  RAIL_UNAVAILABLE: 'Thai QR payments are not available right now',
  AMOUNT_BELOW_MINIMUM: 'The amount is below the QR provider minimum',
  AMOUNT_ABOVE_MAXIMUM: 'The amount is above the QR provider maximum',
  CURRENCY_NOT_SUPPORTED: 'Thai QR payments are in THB only',
  BENEFICIARY_FIELDS_MISSING: 'Beneficiary details are missing',
  PAYOUTS_NOT_ENABLED: 'Payouts are not enabled',
  WEBHOOK_URL_INVALID: 'The webhook URL is invalid or cannot be reached from the QR provider',
  RATE_LIMITED: 'The QR provider is rate limiting requests; retry later',
  PROVIDER_REJECTED: 'The QR provider rejected the request',
  PROVIDER_UNAVAILABLE: 'The QR provider is unavailable; the outcome is unknown',
};

export function providerError(
  code: ProviderErrorCode,
  extra: { providerMessage?: string; httpStatus?: number; message?: string } = {},
): ProviderError {
  const error: ProviderError = { code, message: extra.message ?? SAFE_MESSAGES[code], outcomeUnknown: code === 'PROVIDER_UNAVAILABLE' };
  if (extra.providerMessage !== undefined) error.providerMessage = extra.providerMessage;
  if (extra.httpStatus !== undefined) error.httpStatus = extra.httpStatus;
  return error;
}

/** Which call answered: the spec gives 422 a meaning only for webhook registration. */
export type QrCall = 'registerWebhook' | 'qrCode';

/**
 * Q9: an error response as a stable code. 5xx means the call may or may not have taken effect.
 * A 422 means "Invalid URL or unreachable endpoint" on `POST /Thai/v1/webhooks` only (spec: status
 * table of that call); the errors of QR code creation are not shown, so there a 422 is read by its
 * body's code like any other refusal, and is never a webhook URL problem.
 */
export function mapErrorResponse(httpStatus: number, body: unknown, call: QrCall): ProviderError {
  const { code, message } = readErrorBody(body);
  const extra = { httpStatus, providerMessage: message ?? code };
  if (httpStatus >= 500) return providerError('PROVIDER_UNAVAILABLE', extra);
  if (httpStatus === 401) return providerError('PROVIDER_AUTH_FAILED', extra);
  if (httpStatus === 429) return providerError('RATE_LIMITED', extra);
  if (call === 'registerWebhook' && (httpStatus === 422 || code === ERROR_CODES.invalidUrl)) return providerError('WEBHOOK_URL_INVALID', extra);
  if (code === ERROR_CODES.amountTooSmall) return providerError('AMOUNT_BELOW_MINIMUM', extra);
  if (code === ERROR_CODES.amountTooLarge) return providerError('AMOUNT_ABOVE_MAXIMUM', extra);
  if (code === ERROR_CODES.currencyNotSupported) return providerError('CURRENCY_NOT_SUPPORTED', extra);
  if (code === ERROR_CODES.idempotencyConflict) {
    // Q14: the key was already used, so a code exists under it, and this answer does not say in
    // which state. A resubmission differs from the first request when the payer's bank account (never
    // stored) was sent the first time: the deposit must stay recoverable, not fail, since its code
    // can still be paid; its webhook (found by our id) or its expiry settles it.
    return { ...providerError('PROVIDER_REJECTED', extra), outcomeUnknown: true };
  }
  return providerError('PROVIDER_REJECTED', extra);
}

/**
 * Q5-Q7: a verified, parsed delivery as a domain event; null when the envelope is unusable.
 * `rawBody` only feeds the dedupe key of events that carry no id at all.
 */
export function mapWebhookEvent(payload: unknown, rawBody: Buffer, unit: AmountUnit, livemode: boolean): WebhookEvent | null {
  if (!isObject(payload)) return null;
  const name = text(payload.event);
  if (!name) return null;
  const data: JsonObject = isObject(payload.data) ? payload.data : {};
  const base: Pick<WebhookEvent, 'name' | 'livemode' | 'occurredAt'> = { name, livemode };
  const occurredAt = date(payload.timestamp);
  if (occurredAt) base.occurredAt = occurredAt;

  const amount = money(data, unit);
  if (amount === null) return null;
  const status = text(data.status);

  if (name.startsWith('payment.')) {
    const paymentId = text(data.payment_id);
    if (!paymentId) return null;
    const word = status ?? name.slice('payment.'.length);
    const failureReason = text(data.failure_reason);
    const subject: Extract<WebhookEvent['subject'], { kind: 'deposit' }> = {
      kind: 'deposit',
      reference: paymentId,
      status: depositStatusFor(word, failureReason),
      providerStatus: word,
    };
    const merchantReference = text(data.reference);
    if (merchantReference) subject.merchantReference = merchantReference;
    if (amount) subject.amount = amount;
    if (word === 'failed') subject.declineReason = failureReason ?? 'declined';
    return { ...base, eventId: eventIdFor(paymentId, name), subject };
  }

  if (name === 'refund.completed' || name === 'refund.failed') {
    const refundId = text(data.refund_id);
    if (!refundId) return null;
    const subject: Extract<WebhookEvent['subject'], { kind: 'refund' }> = {
      kind: 'refund',
      reference: refundId,
      status: REFUND_EVENT_STATUS[name],
      providerStatus: status ?? name.slice('refund.'.length),
    };
    const paymentId = text(data.payment_id);
    if (paymentId) subject.depositReference = paymentId;
    if (amount) subject.amount = amount;
    return { ...base, eventId: eventIdFor(refundId, name), subject };
  }

  if (Object.hasOwn(WITHDRAWAL_EVENT_STATUS, name)) {
    const withdrawalId = text(data.withdrawal_id);
    if (!withdrawalId) return null;
    const subject: Extract<WebhookEvent['subject'], { kind: 'withdrawal' }> = {
      kind: 'withdrawal',
      reference: withdrawalId,
      status: WITHDRAWAL_EVENT_STATUS[name as keyof typeof WITHDRAWAL_EVENT_STATUS],
      providerStatus: status ?? name.slice('withdrawal.'.length),
    };
    if (amount) subject.amount = amount;
    return { ...base, eventId: eventIdFor(withdrawalId, name), subject };
  }

  // Events the spec does not list: kept for admins, never applied.
  const reference = text(data.refund_id) ?? text(data.payment_id);
  const eventId = reference ? eventIdFor(reference, name) : `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  return { ...base, eventId, subject: reference ? { kind: 'other', reference } : { kind: 'other' } };
}
