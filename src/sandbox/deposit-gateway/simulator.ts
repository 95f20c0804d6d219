// What the simulated provider does over time: creates payments, refunds and payouts, decides their
// outcomes by the test-mode rules, moves their states and emits the matching webhook events.

import { CARD_DECLINE_REASONS, latamLinkExpiresAt, SANDBOX_TRIGGERS, REFUND_EVENT_STATUS, REFUND_ID_PREFIX, type LatamCountry } from '../../providers/deposit-gateway/assumptions.js';
import type { Money } from '../../lib/money.js';
import type { ScaledClock, TimerHandle } from './clock.js';
import {
  newId,
  TERMINAL_PAYMENT_STATUSES,
  type CardAuthorization,
  type PaymentRecord,
  type PayoutRecord,
  type Rail,
  type RefundRecord,
  type SandboxStore,
  type SessionRecord,
} from './store.js';
import { providerUnits, wireAmount } from './amounts.js';
import type { ValidPayment, ValidPayout } from './validation.js';
import type { WebhookDispatcher } from './webhooks.js';

/**
 * What happens to an open payment. `approved` and `declined` are the spec's transitions; the others
 * are statuses the spec lists without their transitions (A27): reachable through `complete`.
 */
export type Outcome = 'approved' | 'declined' | 'approved_for_payment' | 'expired' | 'cancelled' | 'error';

const EVERY_OUTCOME: readonly Outcome[] = ['approved', 'declined', 'approved_for_payment', 'expired', 'cancelled', 'error'];

/**
 * The outcomes a payment on `rail` can have. Spec (Events, crediting rule): "The crypto flow uses
 * only payment.approved (deposit confirmed on-chain) and payment.declined (quote expired with no
 * matching deposit)", and its transitions go from `pending` to those two alone; the statuses the
 * spec lists without a transition (A27) are for the other rails.
 */
export function outcomesOf(rail: Rail): readonly Outcome[] {
  return rail === 'crypto' ? ['approved', 'declined'] : EVERY_OUTCOME;
}

/** A27: why each no-money outcome happened, in `status_reason` (for the merchant only). */
const NO_MONEY_REASONS = { expired: 'Not completed in time', cancelled: 'Abandoned by the payer', error: 'Technical failure; safe to retry' } as const;

// Assumption: refunds and payouts are decided after a short review (scaled clock), whatever autoComplete says,
// since the spec offers no page where a person would decide them.
export const PROCESSING_DELAY_MS = 100;
/** Simulated time between a trigger payout's `paid` and its `reverted`. */
export const REVERT_DELAY_MS = 500;

export const PAYMENT_REFERENCE_PREFIX = 'svc_pay_';
export const PAYOUT_REFERENCE_PREFIX = 'svc_po_';
export const SESSION_ID_PREFIX = 'cs_';

/** The `method` word each rail reports on the payment record (spec: payment fields, e.g. `card`). */
const RECORD_METHOD: Record<Rail, string> = { cards: 'card', openbanking: 'openbanking', latam: 'latam', upi: 'upi', pix: 'pix', crypto: 'crypto' };

/** Spec test mode: "An amount ending in .13 is declined; any other amount is approved". */
export function testModeOutcome(amount: Money): Outcome {
  return wireAmount(amount).endsWith(SANDBOX_TRIGGERS.declineAmountSuffix) ? 'declined' : 'approved';
}

export class SandboxError extends Error {}

export type DeclineReason = (typeof CARD_DECLINE_REASONS)[number];

/** A decline reason a page or the test control named, when it is one of the spec's. */
export function declineReasonOf(details: Record<string, string>): { declineReason?: DeclineReason } {
  const reason = details.decline_reason;
  if (reason === undefined || reason === '') return {};
  if (!(CARD_DECLINE_REASONS as readonly string[]).includes(reason)) throw new SandboxError(`Unknown decline reason ${reason}; use ${CARD_DECLINE_REASONS.join(', ')}`);
  return { declineReason: reason as DeclineReason };
}

export class Simulator {
  autoComplete: boolean;
  /** The expiry timer of each open LATAM link, by payment reference. */
  private readonly linkExpiries = new Map<string, TimerHandle>();

  constructor(
    private readonly store: SandboxStore,
    private readonly webhooks: WebhookDispatcher,
    private readonly clock: ScaledClock,
    private readonly checkoutUrl: string,
    autoComplete: boolean,
  ) {
    this.autoComplete = autoComplete;
  }

  // -------------------------------------------------------------------------------------------
  // Payments

  createPayment(apiKey: string, livemode: boolean, valid: ValidPayment, sessionId: string | null = null): PaymentRecord {
    const now = this.clock.now();
    const reference = newId(PAYMENT_REFERENCE_PREFIX);
    const payment: PaymentRecord = {
      seq: this.store.nextSeq(),
      reference,
      apiKey,
      livemode,
      rail: valid.rail,
      method: RECORD_METHOD[valid.rail],
      status: valid.rail === 'crypto' ? 'pending' : 'redirected',
      amount: valid.amount,
      merchantReference: valid.merchantReference,
      customerEmail: valid.customerEmail || null,
      customerName: valid.customerName || null,
      declineReason: null,
      statusReason: null,
      card: null,
      midCode: `SBX-${valid.rail.toUpperCase()}-01`,
      approvedAt: null,
      refundStatus: null,
      createdAt: now,
      updatedAt: now,
      redirectUrl: this.redirectUrlFor(valid.rail, reference, valid.whiteLabel),
      returnUrl: valid.returnUrl,
      successUrl: valid.successUrl,
      errorUrl: valid.errorUrl,
      colombiaRedirectUrl: valid.colombiaRedirectUrl,
      linkExpiresAtMs: valid.rail === 'latam' ? this.linkExpiryMs(valid, now) : null,
      metadata: valid.metadata,
      sessionId,
      pendingEventSent: false,
      chargeback: null,
    };
    this.store.payments.set(reference, payment);
    this.watchLink(payment);
    return payment;
  }

  /**
   * When a LATAM link stops taking a payment: Peru and Chile after the provider's 30 minutes,
   * Ecuador at its `expiresAt`, Mexico and Colombia at theirs or after 30 minutes (A33). The lifetime
   * runs on the scaled clock, like every other simulated duration.
   */
  private linkExpiryMs(valid: ValidPayment, now: Date): number {
    const expiresAt = latamLinkExpiresAt(valid.country as LatamCountry, now, valid.expiresAt);
    return now.getTime() + this.clock.toReal(expiresAt.getTime() - now.getTime());
  }

  /** Whether the payment's link is past its expiry (only LATAM links have one). */
  linkLapsed(payment: PaymentRecord): boolean {
    return payment.linkExpiresAtMs != null && Date.now() >= payment.linkExpiresAtMs;
  }

  /**
   * Expires a payment whose link lapsed before the payer completed it: status `expired` ("Customer
   * never completed in time; no money taken"), announced by payment.expired (A27). An authorised
   * payment has taken the money already and is left to settle. Returns whether the link has lapsed.
   */
  expireLapsedLink(payment: PaymentRecord): boolean {
    if (!this.linkLapsed(payment)) return false;
    if (payment.status === 'redirected' || payment.status === 'pending') this.resolve(payment, 'expired', { emitPending: false });
    return true;
  }

  /** Expires the link when its time comes; `idle()` does not wait for it (half an hour, scaled). */
  private watchLink(payment: PaymentRecord): void {
    const expiresAtMs = payment.linkExpiresAtMs;
    if (expiresAtMs == null || TERMINAL_PAYMENT_STATUSES.has(payment.status)) return;
    this.linkExpiries.get(payment.reference)?.cancel();
    const handle = this.clock.afterReal(
      expiresAtMs - Date.now(),
      () => {
        this.linkExpiries.delete(payment.reference);
        // A timer may fire a millisecond early: it looks again at the expiry it was set for.
        if (!this.expireLapsedLink(payment)) this.watchLink(payment);
      },
      { holdsIdle: false },
    );
    this.linkExpiries.set(payment.reference, handle);
  }

  /** Test mode completes a direct payment right after creation returns, unless auto-completion is off. */
  // Assumption: the .13 rule decides the automatic outcome only; a person on the hosted page decides by button.
  afterCreate(payment: PaymentRecord): void {
    if (!this.autoComplete) return;
    this.clock.after(0, () => this.resolve(payment, testModeOutcome(payment.amount), { emitPending: true }));
  }

  /**
   * Moves an open payment to its outcome and emits the events. Promote-only: a payment that already
   * reached a terminal state is never changed (spec: States and transitions). Returns whether it changed.
   */
  resolve(payment: PaymentRecord, outcome: Outcome, options: { emitPending: boolean; declineReason?: DeclineReason }): boolean {
    if (TERMINAL_PAYMENT_STATUSES.has(payment.status)) return false;
    if (outcome !== 'approved_for_payment') {
      // Final now: its link's expiry has nothing left to end.
      this.linkExpiries.get(payment.reference)?.cancel();
      this.linkExpiries.delete(payment.reference);
    }
    // Spec: the crypto flow uses only payment.approved and payment.declined.
    // Assumption: payment.pending marks the payer reaching the bank step, so the status word becomes `pending`.
    if (options.emitPending && payment.rail !== 'crypto' && !payment.pendingEventSent) {
      payment.status = 'pending';
      payment.pendingEventSent = true;
      payment.updatedAt = this.clock.now();
      this.emitPayment(payment, 'payment.pending');
    }
    const now = this.clock.now();
    payment.updatedAt = now;
    if (outcome === 'approved_for_payment') {
      // A27: authorized, money has left the payer, not settled: open still, settled later by approved (or declined).
      if (payment.status === 'approved_for_payment') return false;
      payment.status = 'approved_for_payment';
      this.emitPayment(payment, 'payment.approved_for_payment');
      return true;
    }
    if (outcome === 'expired' || outcome === 'cancelled' || outcome === 'error') {
      // A27: terminal, no money taken, announced by its own event; never a payment.declined.
      payment.status = outcome;
      payment.statusReason = NO_MONEY_REASONS[outcome];
      this.emitPayment(payment, `payment.${outcome}`);
      return true;
    }
    if (outcome === 'approved') {
      payment.status = 'approved';
      payment.approvedAt = now;
      // The card the shopper entered in the embedded form; on the hosted card page, assumed the
      // VISA test card 4242 4242 4242 4242.
      if (payment.rail === 'cards') payment.card = payment.cardAuthorization?.card ?? { bin: '424242', last4: '4242', scheme: 'VISA' };
    } else {
      payment.status = 'declined';
      // A reason chosen on the payment page (or by the test control) wins over the card's own.
      payment.declineReason = options.declineReason ?? payment.cardAuthorization?.declineReason ?? 'declined';
      // The processor code stays in status_reason, for the merchant only (spec: Cards, decline reasons).
      payment.statusReason = options.declineReason
        ? `Declined by the payer's page: ${options.declineReason}`
        : (payment.cardAuthorization?.statusReason ?? (payment.rail === 'cards' ? '05 Do not honour' : 'Not completed by the payer'));
    }
    this.emitPayment(payment, outcome === 'approved' ? 'payment.approved' : 'payment.declined');
    return true;
  }

  /**
   * Card settle call (assumption A2): asks the simulated processor for the outcome of the card the
   * shopper submitted in the embedded form; promote-only and idempotent. Before any submission the
   * processor has no outcome, and the payment stays open.
   */
  settle(payment: PaymentRecord): boolean {
    const authorization = payment.cardAuthorization;
    // Assumption: before the shopper submitted a card, settling changes nothing (the processor has no outcome).
    if (!authorization) return false;
    return this.resolve(payment, authorization.outcome, { emitPending: false });
  }

  /** The shopper submitted the embedded card form: the processor's decision waits for the settle call. */
  authorizeCard(payment: PaymentRecord, authorization: CardAuthorization): void {
    if (TERMINAL_PAYMENT_STATUSES.has(payment.status)) throw new SandboxError(`Payment ${payment.reference} is already ${payment.status}`);
    if (payment.cardAuthorization?.outcome === 'approved') throw new SandboxError(`Payment ${payment.reference} is already paid`);
    // A declined attempt may be retried with another card while the payment is open.
    payment.cardAuthorization = authorization;
    payment.updatedAt = this.clock.now();
  }

  /**
   * What the hosted pages' buttons do. Returns the payment reference. `details.decline_reason`
   * (one of the spec's card decline reasons) says why a decline happened.
   */
  complete(referenceOrSessionId: string, outcome: Outcome, details: Record<string, string> = {}): string {
    const session = this.store.sessions.get(referenceOrSessionId);
    if (session) return this.completeSession(session, outcome, details).reference;
    const payment = this.store.payments.get(referenceOrSessionId);
    if (!payment) throw new SandboxError(`Unknown payment or checkout session ${referenceOrSessionId}`);
    if (!outcomesOf(payment.rail).includes(outcome)) {
      throw new SandboxError(`A ${payment.rail} payment cannot become ${outcome}; its outcomes are ${outcomesOf(payment.rail).join(' and ')}`);
    }
    // A late payment on a link past its expiry is refused, as the link's page refuses it.
    if (this.expireLapsedLink(payment) && payment.status === 'expired') {
      throw new SandboxError(`Payment ${payment.reference}: its link expired at ${new Date(payment.linkExpiresAtMs!).toISOString()}`);
    }
    this.resolve(payment, outcome, { emitPending: true, ...declineReasonOf(details) });
    return payment.reference;
  }

  sessionExpired(session: SessionRecord): boolean {
    return session.paymentReference === null && Date.now() >= session.expiresAtMs;
  }

  /** The player acts on the hosted checkout page: the payment exists only from this moment. */
  completeSession(session: SessionRecord, outcome: Outcome, details: Record<string, string>): PaymentRecord {
    if (session.paymentReference !== null) {
      const existing = this.store.payments.get(session.paymentReference);
      if (!existing) throw new SandboxError(`Session ${session.id} lost its payment`);
      this.resolve(existing, outcome, { emitPending: true, ...(existing.rail === 'cards' ? declineReasonOf(details) : {}) });
      return existing;
    }
    if (this.sessionExpired(session)) throw new SandboxError(`Checkout session ${session.id} has expired`);
    const method = details.method || session.method || 'cards';
    const rail: Rail = method === 'cards' ? 'cards' : 'openbanking';
    const field = (name: string): string => details[name] || session.prefill[name] || '';
    const name = [field('firstName'), field('lastName')].filter((part) => part !== '').join(' ');
    // Spec (POST /checkout-sessions): a session created with a test key carries no test flag, so its
    // payment is a live one and its events say livemode: true.
    const payment = this.createPayment(
      session.apiKey,
      true,
      {
        rail,
        requestMethod: method,
        amount: session.amount,
        merchantReference: session.merchantReference,
        returnUrl: session.returnUrl,
        idempotencyKey: null,
        metadata: null,
        whiteLabel: true,
        customerEmail: field('email'),
        customerName: name,
        country: session.prefill.country ?? null,
        // A31: the session's partner return addresses play the part of the hosted link's own.
        successUrl: session.successUrl ?? null,
        errorUrl: session.cancelUrl ?? null,
        colombiaRedirectUrl: null,
        expiresAt: null,
      },
      session.id,
    );
    session.paymentReference = payment.reference;
    this.resolve(payment, outcome, { emitPending: true, ...(rail === 'cards' ? declineReasonOf(details) : {}) });
    return payment;
  }

  /**
   * Where the player goes after acting, with `?ref=&status=`: the address for this outcome (LATAM
   * successUrl / errorUrl, a session's success_url / cancel_url, A31) when there is one, else
   * `return_url` (or Colombia's redirectUrl), else the generic result page.
   */
  returnTarget(payment: PaymentRecord): string {
    // Assumption: the address for the outcome wins over return_url when both are given; a payment
    // still open (authorised, say) has no outcome yet and goes by return_url.
    const outcomeUrl = payment.status === 'approved' ? payment.successUrl : TERMINAL_PAYMENT_STATUSES.has(payment.status) ? payment.errorUrl : null;
    const base = outcomeUrl ?? payment.returnUrl ?? payment.colombiaRedirectUrl ?? `${this.checkoutUrl}/result`;
    const url = new URL(base);
    url.searchParams.set('ref', payment.reference);
    url.searchParams.set('status', payment.status);
    return url.toString();
  }

  openChargeback(reference: string): void {
    const payment = this.store.payments.get(reference);
    if (!payment) throw new SandboxError(`Unknown payment ${reference}`);
    // Spec (UPI and PIX): push payments have no chargeback.
    if (payment.rail === 'upi' || payment.rail === 'pix') throw new SandboxError(`${payment.rail} payments have no chargebacks`);
    if (payment.status !== 'approved' && payment.status !== 'refunded') throw new SandboxError(`Payment ${reference} is ${payment.status}; only approved payments can be disputed`);
    payment.chargeback = 'opened';
    payment.updatedAt = this.clock.now();
    this.webhooks.emit(payment.apiKey, 'chargeback.opened', payment.livemode, {
      reference: payment.reference,
      merchant_reference: payment.merchantReference,
      status: 'opened',
      amount: wireAmount(payment.amount),
      currency: payment.amount.currency,
    });
  }

  private redirectUrlFor(rail: Rail, reference: string, whiteLabel: boolean): string {
    // Spec: UPI/PIX always, and white_label payments, redirect on the checkout host; others go to the
    // acquirer's own page, which the sandbox serves under /acquirer/.
    if (whiteLabel || rail === 'upi' || rail === 'pix') return `${this.checkoutUrl}/r/${reference}`;
    return `${this.checkoutUrl}/acquirer/${rail}/${reference}`;
  }

  private emitPayment(payment: PaymentRecord, event: string): void {
    this.webhooks.emit(payment.apiKey, event, payment.livemode, {
      reference: payment.reference,
      merchant_reference: payment.merchantReference,
      status: payment.status,
      amount: wireAmount(payment.amount),
      currency: payment.amount.currency,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Refunds (assumptions A3, A4, A11)

  createRefund(payment: PaymentRecord, amount: Money, reason: string | null): RefundRecord {
    const now = this.clock.now();
    const refund: RefundRecord = {
      seq: this.store.nextSeq(),
      id: newId(REFUND_ID_PREFIX),
      apiKey: payment.apiKey,
      paymentReference: payment.reference,
      amount,
      reason,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    };
    this.store.refunds.set(refund.id, refund);
    payment.refundStatus = 'pending';
    payment.updatedAt = now;
    this.emitRefund(payment, refund, 'refund.requested');
    this.clock.after(PROCESSING_DELAY_MS, () => this.decideRefund(payment, refund));
    return refund;
  }

  private decideRefund(payment: PaymentRecord, refund: RefundRecord): void {
    // Decided (or cancelled) meanwhile: nothing left to decide.
    if (refund.status !== 'pending') return;
    if (providerUnits(refund.amount).toString().endsWith(SANDBOX_TRIGGERS.refundCancelMinorSuffix)) {
      this.cancelRefund(refund);
      return;
    }
    const now = this.clock.now();
    refund.updatedAt = now;
    payment.updatedAt = now;
    if (providerUnits(refund.amount).toString().endsWith(SANDBOX_TRIGGERS.refundRejectMinorSuffix)) {
      refund.status = 'rejected';
      const anyApproved = this.store.refundsOf(payment.reference).some((other) => other.status === 'approved');
      if (payment.refundStatus !== 'refunded') payment.refundStatus = anyApproved ? 'approved' : 'rejected';
      this.emitRefund(payment, refund, 'refund.rejected');
      return;
    }
    refund.status = 'approved';
    // Spec, payment status `refunded`: "returned, in full or in part" (approved → refunded on "Refund
    // executed"), so any executed refund moves the payment. `refund_status: refunded` is kept for
    // "once the payment itself is reversed", i.e. the whole amount (A25).
    payment.status = 'refunded';
    payment.refundStatus = this.store.approvedRefundTotal(payment).equals(payment.amount) ? 'refunded' : 'approved';
    this.emitRefund(payment, refund, 'refund.approved');
  }

  /**
   * Ends an open refund request with no money moved: refund_status `cancelled` (spec: payment fields).
   * The spec names no event for it; new event types "are added over time", so it is announced as
   * `refund.cancelled` with `data.status` `cancelled` (A11). Throws SandboxError once decided.
   */
  cancelRefund(refund: RefundRecord): void {
    const payment = this.store.payments.get(refund.paymentReference);
    if (!payment) throw new SandboxError(`Refund ${refund.id} lost its payment`);
    if (refund.status !== 'pending') throw new SandboxError(`Refund ${refund.id} is already ${refund.status}`);
    const now = this.clock.now();
    refund.status = 'cancelled';
    refund.updatedAt = now;
    payment.updatedAt = now;
    const anyApproved = this.store.refundsOf(payment.reference).some((other) => other.status === 'approved');
    if (payment.refundStatus !== 'refunded') payment.refundStatus = anyApproved ? 'approved' : 'cancelled';
    this.emitRefund(payment, refund, 'refund.cancelled');
  }

  private emitRefund(payment: PaymentRecord, refund: RefundRecord, event: keyof typeof REFUND_EVENT_STATUS | 'refund.cancelled'): void {
    this.webhooks.emit(payment.apiKey, event, payment.livemode, {
      reference: refund.id,
      payment_reference: payment.reference,
      merchant_reference: payment.merchantReference,
      status: event === 'refund.cancelled' ? 'cancelled' : REFUND_EVENT_STATUS[event],
      amount: wireAmount(refund.amount),
      currency: refund.amount.currency,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Payouts (assumptions A1, A4, A5, A11)

  createPayout(apiKey: string, livemode: boolean, valid: ValidPayout): PayoutRecord {
    const now = this.clock.now();
    const payout: PayoutRecord = {
      seq: this.store.nextSeq(),
      reference: newId(PAYOUT_REFERENCE_PREFIX),
      apiKey,
      livemode,
      status: 'pending',
      amount: valid.amount,
      country: valid.country,
      merchantReference: valid.merchantReference,
      beneficiary: valid.beneficiary,
      createdAt: now,
      updatedAt: now,
    };
    this.store.payouts.set(payout.reference, payout);
    this.schedulePayout(payout);
    return payout;
  }

  private schedulePayout(payout: PayoutRecord): void {
    const account = payout.beneficiary.account_number ?? '';
    this.clock.after(PROCESSING_DELAY_MS, () => {
      if (account.endsWith(SANDBOX_TRIGGERS.payoutBounceAccountSuffix)) {
        this.movePayout(payout, 'bounced');
        return;
      }
      if (account.endsWith(SANDBOX_TRIGGERS.payoutFailAccountSuffix)) {
        this.movePayout(payout, 'failed');
        return;
      }
      this.movePayout(payout, 'paid');
      if (account.endsWith(SANDBOX_TRIGGERS.payoutRevertAccountSuffix)) this.scheduleRevert(payout);
    });
  }

  private scheduleRevert(payout: PayoutRecord): void {
    this.clock.after(REVERT_DELAY_MS, () => this.movePayout(payout, 'reverted'));
  }

  /**
   * After a restart: refunds and payouts still under review are decided, as they would have been,
   * and open LATAM links expire when they would have (at once, if that time passed meanwhile).
   */
  resume(): void {
    for (const payment of this.store.payments.values()) {
      if (!this.expireLapsedLink(payment)) this.watchLink(payment);
    }
    for (const refund of this.store.refunds.values()) {
      const payment = this.store.payments.get(refund.paymentReference);
      if (refund.status === 'pending' && payment) this.clock.after(PROCESSING_DELAY_MS, () => this.decideRefund(payment, refund));
    }
    for (const payout of this.store.payouts.values()) {
      if (payout.status === 'pending') this.schedulePayout(payout);
      else if (payout.status === 'paid' && (payout.beneficiary.account_number ?? '').endsWith(SANDBOX_TRIGGERS.payoutRevertAccountSuffix)) this.scheduleRevert(payout);
    }
  }

  private movePayout(payout: PayoutRecord, status: 'paid' | 'bounced' | 'reverted' | 'failed'): void {
    payout.status = status;
    payout.updatedAt = this.clock.now();
    this.webhooks.emit(payout.apiKey, `payout.${status}`, payout.livemode, {
      reference: payout.reference,
      merchant_reference: payout.merchantReference,
      status,
      amount: wireAmount(payout.amount),
      currency: payout.amount.currency,
    });
  }
}
