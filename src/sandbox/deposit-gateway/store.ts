// State of the simulated provider: accounts, checkout sessions, payments, refunds, payouts,
// idempotency records, and the JSON views the API returns for them. Held in memory; `snapshot` and
// `restore` carry it across restarts (accounts come from the configuration each time).

import { randomBytes } from 'node:crypto';
import { Money } from '../../lib/money.js';
import { fromProviderUnits, providerUnits, wireAmount } from './amounts.js';

export interface SandboxAccount {
  apiKey: string;
  webhookSecret: string;
  webhookUrl?: string;
  /** Live keys only (spec: Authentication, 7). Defaults to false: a live payout answers 503 until enabled. */
  // Assumption: "must be enabled before they process" read as off until an account says otherwise.
  livePayoutsEnabled?: boolean;
  /** Rails answering 403 "not available right now": `cards`, `openbanking`, `latam`, `upi`, `pix`, `crypto`, `checkout`. */
  disabledRails?: string[];
  /**
   * Card brands boarded on this account, space-separated as the card session's `brands` (spec:
   * Cards). Default `VISA MASTER`. Only these authorise.
   */
  cardBrands?: string;
}

export type Rail = 'cards' | 'openbanking' | 'latam' | 'upi' | 'pix' | 'crypto';

export type PaymentStatus =
  | 'redirected'
  | 'pending'
  | 'approved_for_payment'
  | 'approved'
  | 'declined'
  | 'expired'
  | 'cancelled'
  | 'error'
  | 'refunded';

export const TERMINAL_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set(['approved', 'declined', 'expired', 'cancelled', 'error', 'refunded']);

export type RefundStatus = 'pending' | 'approved' | 'rejected' | 'cancelled';
export type PaymentRefundStatus = RefundStatus | 'refunded';
export type PayoutStatus = 'pending' | 'paid' | 'bounced' | 'reverted' | 'failed';

export interface PaymentRecord {
  seq: number;
  reference: string;
  apiKey: string;
  livemode: boolean;
  rail: Rail;
  /** The `method` word of the payment record (spec: payment fields, e.g. `card`, `openbanking`). */
  method: string;
  status: PaymentStatus;
  amount: Money;
  merchantReference: string | null;
  customerEmail: string | null;
  customerName: string | null;
  declineReason: string | null;
  statusReason: string | null;
  card: { bin: string; last4: string; scheme: string } | null;
  midCode: string | null;
  approvedAt: Date | null;
  /** Test control: a `net` the sandbox reports instead of amount minus fee (a provider fault). */
  reportedNet?: Money;
  refundStatus: PaymentRefundStatus | null;
  createdAt: Date;
  updatedAt: Date;
  redirectUrl: string;
  returnUrl: string | null;
  /** LATAM hosted-link return addresses (spec: LATAM table). */
  successUrl: string | null;
  errorUrl: string | null;
  colombiaRedirectUrl: string | null;
  /**
   * A LATAM link's expiry (A33), real epoch milliseconds with the lifetime scaled by the sandbox
   * clock: past it, the link takes no payment. Null (or absent, in state saved before) otherwise.
   */
  linkExpiresAtMs?: number | null;
  metadata: Record<string, unknown> | null;
  sessionId: string | null;
  /** What the processor decided when the shopper submitted the embedded card form; settled by the card settle call. */
  cardAuthorization?: CardAuthorization | null;
  pendingEventSent: boolean;
  chargeback: 'opened' | null;
}

/** The processor's answer to a submitted card form: only the masked card is kept. */
export interface CardAuthorization {
  outcome: 'approved' | 'declined';
  declineReason: string | null;
  /** The processor code, for the merchant only (spec: Cards). */
  statusReason: string | null;
  card: { bin: string; last4: string; scheme: string };
}

export interface SessionRecord {
  id: string;
  apiKey: string;
  amount: Money;
  returnUrl: string | null;
  /** A31: the partner return addresses; absent in state saved before they existed. */
  successUrl?: string | null;
  cancelUrl?: string | null;
  merchantReference: string | null;
  method: string | null;
  bankCountry: string | null;
  prefill: Record<string, string>;
  createdAt: Date;
  /** Real epoch milliseconds; the lifetime is scaled by the sandbox clock. */
  expiresAtMs: number;
  paymentReference: string | null;
}

export interface RefundRecord {
  seq: number;
  id: string;
  apiKey: string;
  paymentReference: string;
  amount: Money;
  reason: string | null;
  status: RefundStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface PayoutRecord {
  seq: number;
  reference: string;
  apiKey: string;
  livemode: boolean;
  status: PayoutStatus;
  amount: Money;
  country: string;
  merchantReference: string | null;
  beneficiary: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/** A stored answer replayed for a repeated idempotency key (spec: shared fields, idempotency_key). */
export interface StoredResponse {
  status: number;
  body: unknown;
}

/** `svc_pay_…`-style ids: a time part so they sort by creation, then randomness. */
export function newId(prefix: string): string {
  return `${prefix}${Date.now().toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

// Assumption: the spec gives no fee formula. The sandbox charges 2.9% of the amount, rounded half-up
// to the smallest unit the provider writes (cents, whole CLP and COP), quoted on every payment
// whatever its status; `net` is amount minus fee.
export const FEE_PER_MILLE = 29n;

export function feeFor(amount: Money): Money {
  return fromProviderUnits((providerUnits(amount) * FEE_PER_MILLE + 500n) / 1000n, amount.currency);
}

/** What a restart needs of the store: every record, the idempotency answers and the sequence. */
export interface StoreSnapshot {
  /** The checkout address the records' redirect URLs were made for. */
  checkoutUrl: string;
  seq: number;
  sessions: SessionRecord[];
  payments: PaymentRecord[];
  refunds: RefundRecord[];
  payouts: PayoutRecord[];
  idempotency: Array<[string, StoredResponse]>;
}

export class SandboxStore {
  readonly accounts = new Map<string, SandboxAccount>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly payouts = new Map<string, PayoutRecord>();
  private readonly idempotency = new Map<string, StoredResponse>();
  private seq = 0;

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** Idempotency keys are scoped to the key that sent them and to the kind of object they create. */
  recall(apiKey: string, scope: string, key: string | null): StoredResponse | undefined {
    return key === null ? undefined : this.idempotency.get(`${apiKey}\u0000${scope}\u0000${key}`);
  }

  remember(apiKey: string, scope: string, key: string | null, response: StoredResponse): void {
    if (key !== null) this.idempotency.set(`${apiKey}\u0000${scope}\u0000${key}`, response);
  }

  snapshot(checkoutUrl: string): StoreSnapshot {
    return {
      checkoutUrl,
      seq: this.seq,
      sessions: [...this.sessions.values()],
      payments: [...this.payments.values()],
      refunds: [...this.refunds.values()],
      payouts: [...this.payouts.values()],
      idempotency: [...this.idempotency.entries()],
    };
  }

  /**
   * Takes back a snapshot. Redirect addresses point at the checkout host: when it moved (another
   * port), they are rewritten to the current one, so a payment's page still opens.
   */
  restore(snapshot: StoreSnapshot, checkoutUrl: string): void {
    const moved = (url: string): string => (snapshot.checkoutUrl !== checkoutUrl && url.startsWith(`${snapshot.checkoutUrl}/`) ? `${checkoutUrl}${url.slice(snapshot.checkoutUrl.length)}` : url);
    this.seq = Math.max(this.seq, snapshot.seq);
    for (const session of snapshot.sessions) this.sessions.set(session.id, session);
    for (const payment of snapshot.payments) this.payments.set(payment.reference, { ...payment, redirectUrl: moved(payment.redirectUrl) });
    for (const refund of snapshot.refunds) this.refunds.set(refund.id, refund);
    for (const payout of snapshot.payouts) this.payouts.set(payout.reference, payout);
    for (const [key, response] of snapshot.idempotency) this.idempotency.set(key, rewriteUrls(response, moved));
  }

  refundsOf(paymentReference: string): RefundRecord[] {
    return [...this.refunds.values()].filter((refund) => refund.paymentReference === paymentReference);
  }

  /** Amount still open to refunds. */
  // Assumption: a pending refund holds its share, so two concurrent requests cannot together exceed the amount.
  refundable(payment: PaymentRecord): Money {
    return this.refundsOf(payment.reference)
      .filter((refund) => refund.status !== 'rejected' && refund.status !== 'cancelled')
      .reduce((left, refund) => left.subtract(refund.amount), payment.amount);
  }

  approvedRefundTotal(payment: PaymentRecord): Money {
    return this.refundsOf(payment.reference)
      .filter((refund) => refund.status === 'approved')
      .reduce((sum, refund) => sum.add(refund.amount), Money.zero(payment.amount.currency));
  }
}

/** A stored answer with every string passed through `moved` (redirect URLs in replayed create answers). */
function rewriteUrls<T>(value: T, moved: (url: string) => string): T {
  if (typeof value === 'string') return moved(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => rewriteUrls(item, moved)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteUrls(item, moved)])) as T;
  }
  return value;
}

/** The `payment` object of GET /payments/{reference} (spec: Payment response fields). */
export interface PaymentView {
  reference: string;
  status: PaymentStatus;
  amount: string;
  fee: string;
  net: string;
  currency: string;
  method: string;
  settlement: string;
  customer_email: string | null;
  customer_name: string | null;
  merchant_reference: string | null;
  decline_reason: string | null;
  status_reason: string | null;
  card_bin: string | null;
  card_last4: string | null;
  card_scheme: string | null;
  mid_code: string | null;
  approved_at: string | null;
  settlement_date: string | null;
  refund_status: PaymentRefundStatus | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export function paymentView(payment: PaymentRecord): PaymentView {
  const fee = feeFor(payment.amount);
  const approvedLike = payment.approvedAt !== null;
  return {
    reference: payment.reference,
    status: payment.status,
    amount: wireAmount(payment.amount),
    fee: wireAmount(fee),
    net: wireAmount(payment.reportedNet ?? payment.amount.subtract(fee)),
    currency: payment.amount.currency,
    method: payment.method,
    // Assumption: the sandbox settles at approval, so the cycle position is `settled` from then on.
    settlement: approvedLike ? 'settled' : 'unsettled',
    customer_email: payment.customerEmail,
    customer_name: payment.customerName,
    merchant_reference: payment.merchantReference,
    decline_reason: payment.status === 'declined' ? payment.declineReason : null,
    status_reason: payment.statusReason,
    card_bin: payment.card?.bin ?? null,
    card_last4: payment.card?.last4 ?? null,
    card_scheme: payment.card?.scheme ?? null,
    mid_code: payment.midCode,
    approved_at: payment.approvedAt?.toISOString() ?? null,
    // Assumption: test mode settles the day it approves, so settlement_date is approved_at's UTC date.
    settlement_date: payment.approvedAt ? payment.approvedAt.toISOString().slice(0, 10) : null,
    refund_status: payment.refundStatus,
    metadata: payment.metadata,
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
  };
}

export function refundView(refund: RefundRecord): Record<string, unknown> {
  return {
    id: refund.id,
    reference: refund.paymentReference,
    amount: wireAmount(refund.amount),
    currency: refund.amount.currency,
    status: refund.status,
    reason: refund.reason,
    created_at: refund.createdAt.toISOString(),
  };
}

/** The payout object (spec: Payout response object); listings add timestamps. */
export function payoutView(payout: PayoutRecord, options: { timestamps?: boolean } = {}): Record<string, unknown> {
  const view: Record<string, unknown> = {
    reference: payout.reference,
    status: payout.status,
    amount: wireAmount(payout.amount),
    currency: payout.amount.currency,
    country: payout.country,
    merchant_reference: payout.merchantReference,
  };
  if (options.timestamps) {
    view.created_at = payout.createdAt.toISOString();
    view.updated_at = payout.updatedAt.toISOString();
  }
  return view;
}
