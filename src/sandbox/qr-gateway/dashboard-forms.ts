// The QR sandbox's merchant dashboard as served: the page (GET /dashboard) and its three forms,
// simulate, refund and withdraw, acting on the code book as the provider's dashboard would (Q7, Q8).
// No API key: a browser page on loopback, listing and acting on test keys only.

import { ERROR_CODES, type AmountUnit } from '../../providers/qr-gateway/assumptions.js';
import type { QrCodeBook } from './codes.js';
import { dashboardPage, type DashboardAccount } from './dashboard.js';
import { HttpError, invalid } from './errors.js';
import { amountFromBahtText, bahtText } from './wire.js';

/** GET /dashboard and its forms (simulate, refund, withdraw); no API key (a browser page on loopback), test keys only. */
export function dashboard(book: QrCodeBook, testKeys: string[], unit: AmountUnit, method: string, path: string, raw: Buffer): { status: number; html?: string; location?: string } {
  const page = (status: number, notice?: string) => {
    const accounts: DashboardAccount[] = testKeys.map((apiKey, index) => ({
      index,
      maskedKey: `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`,
      codes: [...book.codes.values()]
        .filter((code) => code.apiKey === apiKey)
        .reverse()
        .map((code) => ({
          id: code.id,
          reference: code.reference,
          status: code.status,
          amount: bahtText(code.amount, unit),
          refunded: bahtText(code.refunded, unit),
          refundable: bahtText(code.amount - code.refunded, unit),
        })),
    }));
    return { status, html: dashboardPage(accounts, notice) };
  };
  if (method === 'GET' && path === '/dashboard') return page(200);
  if (method !== 'POST' || !['/dashboard/simulate', '/dashboard/refunds', '/dashboard/withdrawals'].includes(path)) return page(404, `No page ${method} ${path}`);
  const form = new URLSearchParams(raw.toString('utf8'));
  try {
    const outcome = form.get('outcome') ?? '';
    if (path === '/dashboard/simulate') {
      const code = book.codes.get(form.get('code') ?? '');
      if (!code || !testKeys.includes(code.apiKey)) throw new HttpError(404, ERROR_CODES.notFound, 'No such QR code', 'invalid_request_error');
      book.simulate(code, outcome);
      return { status: 303, location: '/dashboard' };
    }
    const amount = dashboardAmount(form.get('amount'), unit);
    if (path === '/dashboard/refunds') {
      const code = book.codes.get(form.get('code') ?? '');
      if (!code || !testKeys.includes(code.apiKey)) throw invalid('No such QR code');
      if (outcome !== 'completed' && outcome !== 'failed') throw invalid('outcome must be completed or failed');
      book.refund(code, amount, outcome);
    } else {
      const apiKey = testKeys[Number(form.get('account'))];
      if (!apiKey) throw invalid('No such account');
      if (outcome !== 'succeeded' && outcome !== 'failed') throw invalid('outcome must be succeeded or failed');
      book.withdraw(apiKey, amount, outcome);
    }
    return { status: 303, location: '/dashboard' };
  } catch (error) {
    if (error instanceof HttpError) return page(error.status, error.message);
    throw error;
  }
}

/** A baht amount typed on the dashboard ("50.00") as the provider integer. */
function dashboardAmount(text: string | null, unit: AmountUnit): bigint {
  if (!/^[0-9]{1,13}(\.[0-9]{1,2})?$/.test((text ?? '').trim())) throw invalid('amount must be baht with up to two decimals, e.g. 50.00');
  const amount = amountFromBahtText(text ?? '', unit);
  if (amount === undefined) throw invalid('amount must be whole baht: this sandbox counts in baht');
  return amount;
}
