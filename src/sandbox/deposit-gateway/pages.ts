// HTML of the sandbox's hosted pages (checkout, payment redirect, result) and the card loader
// script. Self-contained: inline styles, plain forms, no external hosts; the pages work without
// JavaScript (the card fields only use it to tell their frame how tall they are).

import { createHash } from 'node:crypto';
import type { Outcome } from './simulator.js';
import type { PaymentRecord, SessionRecord } from './store.js';
import { wireAmount } from './amounts.js';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 4px}.muted{color:#6b7280;font-size:13px}.amount{font-size:34px;font-weight:700;margin:18px 0}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:6px;padding:2px 8px;font-size:12px;font-weight:600}
label{display:block;font-size:13px;margin:10px 0 4px}input,select{width:100%;box-sizing:border-box;padding:8px;border:1px solid #d1d5db;border-radius:6px}
.actions{display:flex;gap:12px;margin-top:20px}button{flex:1;padding:12px;border:0;border-radius:8px;font-size:15px;font-weight:600;cursor:pointer}
.pay{background:#16a34a;color:#fff}.decline{background:#e5e7eb;color:#111827}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:14px}
dt{color:#6b7280}dd{margin:0;word-break:break-all}`;

/** Inside the loader's frame the fields fill the frame: no page margin or card around them. */
const FRAMED_STYLE = 'body{background:#fff}main{max-width:none;margin:0;padding:16px;border-radius:0;box-shadow:none}';

function layout(title: string, content: string, options: { framed?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}${options.framed ? FRAMED_STYLE : ''}</style></head>
<body><main>${content}</main></body></html>`;
}

const TEST_BADGE = '<span class="badge">SANDBOX</span>';

/**
 * What the payer can do on a sandbox page, by the path segment each button posts to: the spec's two
 * transitions first, then the statuses it lists without a transition (A27), so a person can reach
 * every status from the page as the test control can.
 */
export const PAGE_ACTIONS = {
  pay: { outcome: 'approved', label: 'Pay' },
  decline: { outcome: 'declined', label: 'Decline' },
  authorize: { outcome: 'approved_for_payment', label: 'Authorise only' },
  cancel: { outcome: 'cancelled', label: 'Cancel' },
  expire: { outcome: 'expired', label: 'Let it expire' },
  error: { outcome: 'error', label: 'Fail with an error' },
} as const;

export type PageAction = keyof typeof PAGE_ACTIONS;

/** What the crypto page's two buttons stand for (spec, Events: the crypto flow's only two events). */
export const CRYPTO_LABELS: Partial<Record<PageAction, string>> = { pay: 'Deposit confirmed on-chain', decline: 'Quote expired, no deposit' };

interface ActionOptions {
  declineReasons?: readonly string[];
  /** The outcomes the payment can have: a button for any other is not drawn. Default: all. */
  outcomes?: readonly Outcome[];
  labels?: Partial<Record<PageAction, string>>;
}

function actions(basePath: string, extraFields = '', options: ActionOptions = {}): string {
  const offered = (action: PageAction) => options.outcomes === undefined || options.outcomes.includes(PAGE_ACTIONS[action].outcome);
  const button = (action: PageAction, className: string) =>
    offered(action)
      ? `<button class="${className}" type="submit" formaction="${escapeHtml(basePath)}/${action}" name="action" value="${action}">${escapeHtml(options.labels?.[action] ?? PAGE_ACTIONS[action].label)}</button>`
      : '';
  const reasons = options.declineReasons
    ? `<label for="decline_reason">Decline reason</label><select id="decline_reason" name="decline_reason">${options.declineReasons
        .map((reason) => `<option value="${escapeHtml(reason)}"${reason === 'declined' ? ' selected' : ''}>${escapeHtml(reason)}</option>`)
        .join('')}</select>`
    : '';
  const others = (['authorize', 'cancel', 'expire', 'error'] as const).filter(offered);
  return `${extraFields}
<div class="actions">
  ${button('pay', 'pay')}
  ${button('decline', 'decline')}
</div>
${reasons}
${
  others.length > 0
    ? `<details class="more"><summary class="muted">Other outcomes</summary><div class="actions">
  ${others.map((action) => button(action, 'decline')).join('\n  ')}
</div></details>`
    : ''
}`;
}

const METHOD_LABELS: Record<string, string> = { cards: 'Card', sepa: 'SEPA bank transfer', instant: 'Instant bank transfer', fps: 'Faster Payments (GB)' };

/** GET /c/<session>: the hosted checkout page. Amount and account are locked to the session. */
export function checkoutPage(session: SessionRecord, declineReasons?: readonly string[]): string {
  const methodField = session.method
    ? `<p class="muted">Pay with ${escapeHtml(METHOD_LABELS[session.method] ?? session.method)}</p><input type="hidden" name="method" value="${escapeHtml(session.method)}">`
    : `<label for="method">Payment method</label><select id="method" name="method">${Object.entries(METHOD_LABELS)
        .map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`)
        .join('')}</select>`;
  const prefillable: Array<[string, string]> = [
    ['email', 'Email'],
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
  ];
  const detailFields = prefillable
    .map(([field, label]) => {
      const value = session.prefill[field];
      return value !== undefined
        ? `<input type="hidden" name="${field}" value="${escapeHtml(value)}">`
        : `<label for="${field}">${label}</label><input id="${field}" name="${field}" autocomplete="off">`;
    })
    .join('');
  return layout(
    'Checkout',
    `${TEST_BADGE}<h1>Checkout</h1><p class="muted">Session ${escapeHtml(session.id)}${session.merchantReference ? ` · order ${escapeHtml(session.merchantReference)}` : ''}</p>
<div class="amount">${escapeHtml(wireAmount(session.amount))} ${escapeHtml(session.amount.currency)}</div>
<form method="post" action="/c/${escapeHtml(session.id)}/pay">${actions(`/c/${session.id}`, methodField + detailFields, declineReasons ? { declineReasons } : {})}</form>`,
  );
}

/**
 * GET /r/<reference> (and the simulated acquirer page): the player completes or declines a direct
 * payment, with a button for each of `outcomes` (a crypto payment has two, labelled as its flow).
 */
export function paymentPage(payment: PaymentRecord, basePath: string, options: { outcomes: readonly Outcome[]; declineReasons?: readonly string[] }): string {
  const railName: Record<string, string> = { cards: 'Card', openbanking: 'Bank transfer', latam: 'Local payment', upi: 'UPI', pix: 'PIX', crypto: 'Crypto' };
  return layout(
    'Complete your payment',
    `${TEST_BADGE}<h1>${escapeHtml(railName[payment.rail] ?? payment.rail)} payment</h1><p class="muted">Reference ${escapeHtml(payment.reference)}</p>
<div class="amount">${escapeHtml(wireAmount(payment.amount))} ${escapeHtml(payment.amount.currency)}</div>
<dl><dt>Payer</dt><dd>${escapeHtml(payment.customerName ?? '—')}</dd><dt>Order</dt><dd>${escapeHtml(payment.merchantReference ?? '—')}</dd></dl>
<form method="post" action="${escapeHtml(basePath)}/pay">${actions(basePath, '', { ...options, ...(payment.rail === 'crypto' ? { labels: CRYPTO_LABELS } : {}) })}</form>`,
  );
}

export function resultPage(reference: string | null, status: string | null): string {
  const approved = status === 'approved';
  return layout(
    'Payment result',
    `${TEST_BADGE}<h1>${approved ? 'Payment received' : status ? `Payment ${escapeHtml(status)}` : 'Payment'}</h1>
<dl><dt>Reference</dt><dd>${escapeHtml(reference ?? '—')}</dd><dt>Status</dt><dd>${escapeHtml(status ?? 'unknown')}</dd></dl>
<p class="muted">You can close this window.</p>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `${TEST_BADGE}<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** The message the card fields send their loader with the height they need (cross-origin, so postMessage). */
export const CARD_FRAME_HEIGHT_MESSAGE = 'deposit-gateway:card-frame-height';

/**
 * The per-checkout card loader named by `script_url` (spec: Card session). It replaces each form whose
 * class is `paymentWidgets` with the processor's card fields in a frame served by the processor, so
 * card data goes from the shopper's browser to the processor and never to the merchant (spec: Cards).
 * The merchant's form action (its return address with the order token) travels along as `result_url`.
 *
 * Widget scripts usually go in `<head>`, where the form does not exist yet: the loader waits for the
 * document before looking for it. The frame then grows to the height the fields report, so on a
 * narrow phone (fields wrapped onto more lines) the Pay button is never cut off.
 */
export function cardLoaderScript(fieldsUrl: string, brands: string): string {
  return `// deposit-gateway sandbox card loader
(function () {
  var FIELDS = ${JSON.stringify(fieldsUrl)};
  var ORIGIN = new URL(FIELDS).origin;
  var frames = [];
  function mount() {
    var forms = document.querySelectorAll('form.paymentWidgets');
    for (var i = 0; i < forms.length; i++) {
      var form = forms[i];
      var frame = document.createElement('iframe');
      frame.setAttribute('title', 'Card payment');
      frame.setAttribute('style', 'border:0;display:block;width:100%;max-width:100%;height:560px');
      frame.setAttribute('src', FIELDS + '&brands=' + encodeURIComponent(form.getAttribute('data-brands') || ${JSON.stringify(brands)}) +
        '&result_url=' + encodeURIComponent(form.getAttribute('action') || ''));
      form.parentNode.replaceChild(frame, form);
      frames.push(frame);
    }
  }
  // The fields say how tall they are; only a message from the processor's own origin is believed.
  if (typeof window !== 'undefined' && window.addEventListener) {
    window.addEventListener('message', function (event) {
      var data = event.data;
      if (event.origin !== ORIGIN || !data || data.type !== ${JSON.stringify(CARD_FRAME_HEIGHT_MESSAGE)}) return;
      var height = Math.ceil(Number(data.height));
      if (!(height > 0 && height < 5000)) return;
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].contentWindow === event.source) frames[i].style.height = height + 'px';
      }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
  else mount();
})();
`;
}

/**
 * The card fields' only script: tells the loader's frame how tall the fields are, so it shows them
 * whole (the fields work without it). Allowed by its hash in the page's content security policy.
 */
export const CARD_FIELDS_SCRIPT = `
(function () {
  function report() {
    if (window.parent === window) return;
    window.parent.postMessage({ type: ${JSON.stringify(CARD_FRAME_HEIGHT_MESSAGE)}, height: document.documentElement.scrollHeight }, '*');
  }
  window.addEventListener('load', report);
  window.addEventListener('resize', report);
  report();
})();
`;

/** `CARD_FIELDS_SCRIPT`'s CSP source expression. */
export const CARD_FIELDS_SCRIPT_HASH = `'sha256-${createHash('sha256').update(CARD_FIELDS_SCRIPT).digest('base64')}'`;

/** What the card fields page needs: where they post, where the shopper goes next, what to show. */
export interface CardFieldsForm {
  payment: PaymentRecord;
  /** The processor's own address the fields post to. */
  action: string;
  resultUrl: string;
  checkout: string;
  brands: string;
  error?: string;
}

/**
 * GET /card/<reference>: the processor's card fields (what the loader frames). The form posts to the
 * processor and its answer takes the whole window (`target="_top"`) back to the merchant.
 */
export function cardFieldsPage(form: CardFieldsForm): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return layout(
    'Card payment',
    `${TEST_BADGE}<h1>Card payment</h1><p class="muted">Accepted: ${escapeHtml(form.brands)}</p>
<div class="amount">${escapeHtml(wireAmount(form.payment.amount))} ${escapeHtml(form.payment.amount.currency)}</div>
${form.error ? `<p role="alert" style="color:#b91c1c">${escapeHtml(form.error)}</p>` : ''}
<form method="post" action="${escapeHtml(form.action)}" target="_top" autocomplete="off">
${hidden('result_url', form.resultUrl)}${hidden('checkout', form.checkout)}${hidden('brands', form.brands)}
<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" placeholder="4242 4242 4242 4242">
<label for="card_expiry">Expiry (MM/YY)</label><input id="card_expiry" name="card_expiry" placeholder="12/34">
<label for="card_cvv">Security code</label><input id="card_cvv" name="card_cvv" inputmode="numeric" placeholder="123">
<div class="actions"><button class="pay" type="submit">Pay</button></div>
</form>
<script>${CARD_FIELDS_SCRIPT}</script>`,
    { framed: true },
  );
}
