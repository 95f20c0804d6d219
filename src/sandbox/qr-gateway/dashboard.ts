// HTML of the QR sandbox's merchant dashboard: the place where, at the real provider, test payments
// are simulated ("success or failure is simulated from the merchant dashboard") and refunds and
// withdrawals are made (the spec shows no API for any of them). Self-contained: inline styles,
// plain forms, no external hosts, no JavaScript. Test-mode keys only.

export interface DashboardCode {
  id: string;
  reference: string;
  status: string;
  /** Baht text, e.g. "150.00". */
  amount: string;
  refunded: string;
  /** Still refundable, baht text. */
  refundable: string;
}

export interface DashboardAccount {
  /** Position in the sandbox's key list: the forms name the account by it, never by its key. */
  index: number;
  /** The key with all but its last four characters hidden. */
  maskedKey: string;
  codes: DashboardCode[];
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:860px;margin:32px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.muted{color:#6b7280;font-size:13px}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:6px;padding:2px 8px;font-size:12px;font-weight:600}
table{width:100%;border-collapse:collapse;font-size:13px}td,th{text-align:left;padding:6px;border-bottom:1px solid #e5e7eb;vertical-align:middle}
form{display:flex;gap:6px;align-items:center;margin:0}input,select{padding:5px;border:1px solid #d1d5db;border-radius:6px;width:90px}
button{padding:6px 10px;border:0;border-radius:6px;background:#1d4ed8;color:#fff;font-weight:600;cursor:pointer}`;

const OUTCOMES = (first: string, second: string): string =>
  `<select name="outcome"><option value="${first}">${first}</option><option value="${second}">${second}</option></select>`;

/** What can be done to a code: a pending one is paid or failed (simulated), a paid one refunded. */
function codeAction(code: DashboardCode): string {
  const codeField = `<input type="hidden" name="code" value="${escapeHtml(code.id)}">`;
  if (code.status === 'pending') {
    return `<form method="post" action="/dashboard/simulate">${codeField}
<select name="outcome" aria-label="Simulated outcome"><option value="succeeded">success</option><option value="failed">failure</option></select><button type="submit">Simulate payment</button></form>`;
  }
  if (code.status === 'succeeded' && code.refundable !== '0.00') {
    return `<form method="post" action="/dashboard/refunds">${codeField}
<input name="amount" value="${escapeHtml(code.refundable)}" aria-label="Refund amount">${OUTCOMES('completed', 'failed')}<button type="submit">Refund</button></form>`;
  }
  return '';
}

function codeRow(code: DashboardCode): string {
  return `<tr><td>${escapeHtml(code.id)}</td><td>${escapeHtml(code.reference)}</td><td>${escapeHtml(code.status)}</td><td>${escapeHtml(code.amount)}</td><td>${escapeHtml(code.refunded)}</td><td>${codeAction(code)}</td></tr>`;
}

function accountSection(account: DashboardAccount): string {
  const rows = account.codes.length
    ? account.codes.map(codeRow).join('')
    : '<tr><td colspan="6" class="muted">No QR codes yet.</td></tr>';
  return `<h2>Account ${escapeHtml(account.maskedKey)}</h2>
<table><thead><tr><th>Code</th><th>Reference</th><th>Status</th><th>THB</th><th>Refunded</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<h2>Withdraw from the balance</h2>
<form method="post" action="/dashboard/withdrawals"><input type="hidden" name="account" value="${account.index}">
<input name="amount" value="1000.00" aria-label="Withdrawal amount">${OUTCOMES('succeeded', 'failed')}<button type="submit">Withdraw</button></form>`;
}

/** GET /dashboard: every test account's codes, each pending one with a simulate form and each paid one with a refund form, and a withdrawal form. */
export function dashboardPage(accounts: DashboardAccount[], notice?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>QR sandbox dashboard</title><style>${STYLE}</style></head>
<body><main><h1>QR gateway dashboard <span class="badge">SANDBOX</span></h1>
<p class="muted">Test payments are simulated and refunds and withdrawals made here, as on the provider's dashboard; each sends its signed events to the account's webhook registrations.</p>
${notice ? `<p>${escapeHtml(notice)}</p>` : ''}
${accounts.map(accountSection).join('')}</main></body></html>`;
}
