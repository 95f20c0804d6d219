// HTML of the sandbox's hosted pages (checkout, payment redirect, result) and the card loader
// script. Self-contained: inline styles, plain forms, no external hosts, no JavaScript needed.

import type { PaymentRecord, SessionRecord } from './store.js';

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

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${content}</main></body></html>`;
}

const TEST_BADGE = '<span class="badge">SANDBOX</span>';

function actions(basePath: string, extraFields = ''): string {
  return `${extraFields}
<div class="actions">
  <button class="pay" type="submit" formaction="${escapeHtml(basePath)}/pay" name="action" value="pay">Pay</button>
  <button class="decline" type="submit" formaction="${escapeHtml(basePath)}/decline" name="action" value="decline">Decline</button>
</div>`;
}

const METHOD_LABELS: Record<string, string> = { cards: 'Card', sepa: 'SEPA bank transfer', instant: 'Instant bank transfer', fps: 'Faster Payments (GB)' };

/** GET /c/<session>: the hosted checkout page. Amount and account are locked to the session. */
export function checkoutPage(session: SessionRecord): string {
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
<div class="amount">${escapeHtml(session.amount.toDecimal())} ${escapeHtml(session.amount.currency)}</div>
<form method="post" action="/c/${escapeHtml(session.id)}/pay">${actions(`/c/${session.id}`, methodField + detailFields)}</form>`,
  );
}

/** GET /r/<reference> (and the simulated acquirer page): the player completes or declines a direct payment. */
export function paymentPage(payment: PaymentRecord, basePath: string): string {
  const railName: Record<string, string> = { cards: 'Card', openbanking: 'Bank transfer', latam: 'Local payment', upi: 'UPI', pix: 'PIX', crypto: 'Crypto' };
  return layout(
    'Complete your payment',
    `${TEST_BADGE}<h1>${escapeHtml(railName[payment.rail] ?? payment.rail)} payment</h1><p class="muted">Reference ${escapeHtml(payment.reference)}</p>
<div class="amount">${escapeHtml(payment.amount.toDecimal())} ${escapeHtml(payment.amount.currency)}</div>
<dl><dt>Payer</dt><dd>${escapeHtml(payment.customerName ?? '—')}</dd><dt>Order</dt><dd>${escapeHtml(payment.merchantReference ?? '—')}</dd></dl>
<form method="post" action="${escapeHtml(basePath)}/pay">${actions(basePath)}</form>`,
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

/**
 * The per-checkout card loader named by `script_url` (spec: Card session). It turns a form whose
 * class is `paymentWidgets` into simulated card fields; submitting returns to the form's action.
 */
export function cardLoaderScript(reference: string, brands: string): string {
  return `// deposit-gateway sandbox card loader for ${JSON.stringify(reference).slice(1, -1)}
(function () {
  var forms = document.querySelectorAll('form.paymentWidgets');
  for (var i = 0; i < forms.length; i++) {
    var form = forms[i];
    var brands = form.getAttribute('data-brands') || ${JSON.stringify(brands)};
    form.insertAdjacentHTML('afterbegin',
      '<p style="font:13px system-ui">Sandbox card form (' + brands + ')</p>' +
      '<input name="card_number" value="4242 4242 4242 4242" autocomplete="off"> ' +
      '<input name="card_expiry" value="12/34" size="5"> <input name="card_cvv" value="123" size="3"> ' +
      '<button type="submit">Pay</button>');
  }
})();
`;
}
