// Browser-facing routes of the checkout host: hosted checkout (/c/), payment redirect pages (/r/ and
// the simulated acquirer pages), the generic result page, the card loader script and the card
// processor's fields (/card/), which take card data from the shopper's browser and send the shopper
// back to the merchant with nothing but what the merchant's form action carried.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, redirect, sendHtml, sendText } from './http.js';
import { readCard } from './card-processor.js';
import { CARD_DECLINE_REASONS } from '../../providers/deposit-gateway/assumptions.js';
import { CARD_FIELDS_SCRIPT_HASH, cardFieldsPage, cardLoaderScript, checkoutPage, messagePage, PAGE_ACTIONS, paymentPage, resultPage, type PageAction } from './pages.js';
import { outcomesOf, SandboxError, type Outcome, type Simulator } from './simulator.js';
import { TERMINAL_PAYMENT_STATUSES, type PaymentRecord, type SandboxStore } from './store.js';
import type { ScaledClock } from './clock.js';

/** Form fields that would name what a checkout session locks: its amount, currency and merchant account. */
const LOCKED_SESSION_FIELD = /^(amount|currency|api_?key|account|merchant(_?account|_?id)?|session(_?id)?)$/i;

/** Spec: card brands default to `VISA MASTER`. */
export const DEFAULT_CARD_BRANDS = 'VISA MASTER';

export class HostedPages {
  constructor(
    private readonly store: SandboxStore,
    private readonly simulator: Simulator,
    private readonly clock: ScaledClock,
    private readonly checkoutUrl: string,
  ) {}

  /** Returns false when the path is not one of the hosted pages. */
  async handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    const segments = url.pathname.split('/').filter((part) => part !== '').map(decode);
    const method = request.method ?? 'GET';
    const [first, second, third, fourth] = segments;

    if (first === 'c' && second !== undefined && segments.length <= 3) {
      if (method === 'GET' && third === undefined) this.showCheckout(second, response);
      else if (method === 'POST' && isPageAction(third)) await this.actOnCheckout(second, third, request, response);
      else sendHtml(response, 405, messagePage('Not allowed', 'This page does not accept that request.'));
      return true;
    }
    // /r/<reference> is the checkout host's redirect page; /acquirer/<rail>/<reference> stands in for the acquirer's own page.
    const isRedirect = first === 'r' && second !== undefined && segments.length <= 3;
    const isAcquirer = first === 'acquirer' && third !== undefined && segments.length <= 4;
    if (isRedirect || isAcquirer) {
      const reference = (isRedirect ? second : third) ?? '';
      const action = isRedirect ? third : fourth;
      const basePath = isRedirect ? `/r/${encodeURIComponent(reference)}` : `/acquirer/${encodeURIComponent(second ?? '')}/${encodeURIComponent(reference)}`;
      if (method === 'GET' && action === undefined) this.showPayment(reference, basePath, response);
      else if (method === 'POST' && isPageAction(action)) await this.actOnPayment(reference, action, request, response);
      else sendHtml(response, 405, messagePage('Not allowed', 'This page does not accept that request.'));
      return true;
    }
    if (first === 'result' && segments.length === 1 && method === 'GET') {
      sendHtml(response, 200, resultPage(url.searchParams.get('ref'), url.searchParams.get('status')));
      return true;
    }
    if (first === 'js' && second === 'loader' && third?.endsWith('.js') && segments.length === 3 && method === 'GET') {
      const reference = third.slice(0, -3);
      const payment = this.store.payments.get(reference);
      if (!payment) sendText(response, 404, 'application/javascript; charset=utf-8', '// unknown checkout\n');
      else {
        const fields = `${this.checkoutUrl}/card/${encodeURIComponent(reference)}?checkout=${encodeURIComponent(url.searchParams.get('checkout') ?? '')}`;
        sendText(response, 200, 'application/javascript; charset=utf-8', cardLoaderScript(fields, this.brandsOf(payment)));
      }
      return true;
    }
    if (first === 'card' && second !== undefined && segments.length === 2) {
      if (method === 'GET') this.showCardFields(second, url.searchParams, response);
      else if (method === 'POST') await this.submitCard(second, request, response);
      else sendHtml(response, 405, messagePage('Not allowed', 'This page does not accept that request.'));
      return true;
    }
    return false;
  }

  /** The brands boarded on the account that owns the payment. */
  private brandsOf(payment: PaymentRecord): string {
    return this.store.accounts.get(payment.apiKey)?.cardBrands ?? DEFAULT_CARD_BRANDS;
  }

  private showCheckout(sessionId: string, response: ServerResponse): void {
    const session = this.store.sessions.get(sessionId);
    if (!session) return sendHtml(response, 404, messagePage('Checkout not found', 'This checkout link is not valid.'));
    if (session.paymentReference !== null) {
      const payment = this.store.payments.get(session.paymentReference);
      return sendHtml(response, 200, resultPage(session.paymentReference, payment?.status ?? null));
    }
    if (this.simulator.sessionExpired(session)) return sendHtml(response, 410, messagePage('Checkout expired', 'This checkout session has expired. Return to the merchant and start again.'));
    sendHtml(response, 200, checkoutPage(session, CARD_DECLINE_REASONS));
  }

  private async actOnCheckout(sessionId: string, action: PageAction, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const details = Object.fromEntries(new URLSearchParams(await readBody(request)));
    const session = this.store.sessions.get(sessionId);
    if (!session) return sendHtml(response, 404, messagePage('Checkout not found', 'This checkout link is not valid.'));
    // Spec (Checkout session): "Amount and merchant account are locked to the session; the player
    // cannot change them". Assumption: a post that tries to (an amount, a currency, an account or
    // key) is refused whole (400) rather than half-used; the player's own details are taken as they come.
    const locked = Object.keys(details).filter((field) => LOCKED_SESSION_FIELD.test(field));
    if (locked.length > 0) {
      return sendHtml(response, 400, messagePage('Checkout refused', `The amount and merchant account are locked to this checkout; the page does not take ${locked.join(', ')}.`));
    }
    if (this.simulator.sessionExpired(session)) return sendHtml(response, 410, messagePage('Checkout expired', 'This checkout session has expired. Return to the merchant and start again.'));
    let payment: PaymentRecord;
    try {
      payment = this.simulator.completeSession(session, outcomeOf(action), details);
    } catch (error) {
      if (error instanceof SandboxError) return sendHtml(response, 409, messagePage('Payment unavailable', error.message));
      throw error;
    }
    redirect(response, this.simulator.returnTarget(payment));
  }

  private showPayment(reference: string, basePath: string, response: ServerResponse): void {
    const payment = this.store.payments.get(reference);
    if (!payment) return sendHtml(response, 404, messagePage('Payment not found', 'This payment link is not valid.'));
    if (this.expiredLink(payment)) return sendExpiredLink(response);
    if (TERMINAL_PAYMENT_STATUSES.has(payment.status)) return sendHtml(response, 200, resultPage(payment.reference, payment.status));
    sendHtml(response, 200, paymentPage(payment, basePath, { outcomes: outcomesOf(payment.rail), ...(payment.rail === 'cards' ? { declineReasons: CARD_DECLINE_REASONS } : {}) }));
  }

  /**
   * Whether the payment's page is a dead link: expired, by its link's lifetime (A33; expired now if
   * that just passed, with its payment.expired) or otherwise.
   */
  private expiredLink(payment: PaymentRecord): boolean {
    this.simulator.expireLapsedLink(payment);
    return payment.status === 'expired';
  }

  private openCardPayment(reference: string, response: ServerResponse): PaymentRecord | undefined {
    const payment = this.store.payments.get(reference);
    if (!payment || payment.rail !== 'cards') {
      sendHtml(response, 404, messagePage('Payment not found', 'This card payment is not valid.'));
      return undefined;
    }
    if (TERMINAL_PAYMENT_STATUSES.has(payment.status) || payment.cardAuthorization?.outcome === 'approved') {
      sendHtml(response, 409, resultPage(payment.reference, payment.status));
      return undefined;
    }
    return payment;
  }

  private showCardFields(reference: string, query: URLSearchParams, response: ServerResponse): void {
    const payment = this.openCardPayment(reference, response);
    if (!payment) return;
    const resultUrl = resultUrlOf(query.get('result_url'));
    if (!resultUrl) return sendHtml(response, 400, messagePage('Card form misconfigured', 'The merchant\'s form has no valid action (its return address).'));
    sendHtml(
      response,
      200,
      cardFieldsPage({
        payment,
        action: `/card/${encodeURIComponent(payment.reference)}`,
        resultUrl: resultUrl.toString(),
        checkout: query.get('checkout') ?? '',
        brands: query.get('brands') || this.brandsOf(payment),
      }),
      { scriptHashes: [CARD_FIELDS_SCRIPT_HASH] },
    );
  }

  /**
   * The card fields' POST: the processor authorises the card and sends the shopper back to the
   * merchant's form action with `?ref=&status=` appended (the merchant ignores them and settles
   * server to server). No card data leaves the processor; a malformed card shows the fields again.
   */
  private async submitCard(reference: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const fields = new URLSearchParams(await readBody(request));
    const payment = this.openCardPayment(reference, response);
    if (!payment) return;
    const resultUrl = resultUrlOf(fields.get('result_url'));
    if (!resultUrl) return sendHtml(response, 400, messagePage('Card form misconfigured', 'The merchant\'s form has no valid action (its return address).'));
    // Spec (Cards): "Only brands boarded on the merchant's account authorise", whatever the form said.
    const brands = this.brandsOf(payment).split(' ');
    const reading = readCard(fields, payment.amount, brands, this.clock.now());
    if (!reading.ok) {
      const form = { payment, action: `/card/${encodeURIComponent(payment.reference)}`, resultUrl: resultUrl.toString(), checkout: fields.get('checkout') ?? '', brands: brands.join(' ') };
      return sendHtml(response, 422, cardFieldsPage({ ...form, error: reading.error }), { scriptHashes: [CARD_FIELDS_SCRIPT_HASH] });
    }
    try {
      this.simulator.authorizeCard(payment, reading.authorization);
    } catch (error) {
      if (error instanceof SandboxError) return sendHtml(response, 409, messagePage('Payment unavailable', error.message));
      throw error;
    }
    // Assumption: the processor sends the shopper back with `?ref=&status=` (the shared return_url format).
    resultUrl.searchParams.set('ref', payment.reference);
    resultUrl.searchParams.set('status', reading.authorization.outcome);
    redirect(response, resultUrl.toString());
  }

  private async actOnPayment(reference: string, action: PageAction, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const fields = new URLSearchParams(await readBody(request));
    const payment = this.store.payments.get(reference);
    if (!payment) return sendHtml(response, 404, messagePage('Payment not found', 'This payment link is not valid.'));
    // A late payment is refused, whatever the button: the link is gone.
    if (this.expiredLink(payment)) return sendExpiredLink(response);
    // Only the buttons the page drew: a crypto payment has no outcome but approved and declined.
    if (!outcomesOf(payment.rail).includes(outcomeOf(action))) return sendHtml(response, 405, messagePage('Not allowed', 'This payment does not offer that outcome.'));
    // Decline reasons are the card rail's (spec: Cards); other rails decline as plain `declined`.
    const details: Record<string, string> = payment.rail === 'cards' && fields.get('decline_reason') ? { decline_reason: fields.get('decline_reason')! } : {};
    try {
      this.simulator.complete(reference, outcomeOf(action), details);
    } catch (error) {
      if (error instanceof SandboxError) return sendHtml(response, 409, messagePage('Payment unavailable', error.message));
      throw error;
    }
    redirect(response, this.simulator.returnTarget(payment));
  }
}

// Assumption: an expired payment's link answers 410 Gone with a page saying so, to a visit and to a
// late payment alike; the payment stays expired and nothing is charged.
function sendExpiredLink(response: ServerResponse): void {
  sendHtml(response, 410, messagePage('Payment link expired', 'This payment link has expired and can no longer be paid; no money was taken. Return to the merchant and start again.'));
}

/** The shopper's way back: the merchant's form action, an http(s) address (never `javascript:` and the like). */
function resultUrlOf(text: string | null): URL | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function isPageAction(value: string | undefined): value is PageAction {
  return value !== undefined && Object.hasOwn(PAGE_ACTIONS, value);
}

function outcomeOf(action: PageAction): Outcome {
  return PAGE_ACTIONS[action].outcome;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
