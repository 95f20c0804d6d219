// HTTP side of the embedded card form's return address: the processor sends the shopper's browser
// here with the signed order token in the path. The token is verified before anything else, the
// query and any body are never read (spec: "on return, ignore the query parameters"), and the
// deposit is settled server to server before the shopper moves on to the client's return address.
// Without one, the shopper sees a result page here, which leads back to the cashier: to the
// example cashier on this gateway, on the deposit, when the gateway serves it.

import { Router, type Request, type Response } from 'express';
import type { Database } from '../db/database.js';
import type { Logger } from '../lib/logger.js';
import { CARD_FORM_RETURN_PATH } from '../modules/deposits/card-form.service.js';
import type { Deposit } from '../modules/deposits/deposit.entity.js';
import type { Services } from '../services.js';
import { requestLog } from './request-log.js';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The shopper's way back from a result page: an address, or none (then the page says to close it). */
type WayBack = string | undefined;

function page(res: Response, status: number, title: string, message: string, back: WayBack): void {
  const way = back ? `<p><a href="${escapeHtml(back)}">Back to the cashier</a></p>` : '<p>You can close this window.</p>';
  res
    .status(status)
    .set({ 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'referrer-policy': 'no-referrer' })
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:48px auto;padding:0 16px;color:#1d2330}a{font-weight:600}</style></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${way}</body></html>`,
    );
}

const OUTCOME_MESSAGES: Record<string, [string, string]> = {
  SUCCEEDED: ['Payment received', 'Thank you: your payment went through.'],
  DECLINED: ['Payment declined', 'Your payment did not go through and nothing was charged.'],
  PENDING: ['Payment not completed', 'The payment is not complete yet. You can go back and try again.'],
};

/**
 * `cashierPath`: the example cashier on this gateway, when it is served: a result page of a deposit
 * without a returnUrl links there, on the deposit.
 */
export function cardFormReturnRouter(options: { db: Database; services: Services; logger: Logger; cashierPath?: string }): Router {
  const router = Router();
  /** The deposit's returnUrl with `?deposit=&status=`, the address the shopper is sent to. */
  const returnAddress = (deposit: Deposit): string | undefined => {
    const returnUrl = deposit.request.returnUrl;
    if (!returnUrl) return undefined;
    const target = new URL(returnUrl);
    target.searchParams.set('deposit', deposit.id);
    target.searchParams.set('status', deposit.status);
    return target.toString();
  };
  const cashierOn = (deposit?: Deposit): WayBack => (options.cashierPath ? `${options.cashierPath}${deposit ? `#${deposit.id}` : ''}` : undefined);
  const handle = async (req: Request<{ token: string }>, res: Response): Promise<void> => {
    const log = (requestLog(req) ?? options.logger).child({ component: 'card-form' });
    const result = await options.services.cardForm.settleReturn(options.db.fork(), req.params.token);
    if (!result.ok) {
      log.warn({ reason: result.reason }, 'card form return refused');
      return page(res, result.reason === 'EXPIRED' ? 410 : 400, 'Link not valid', 'This payment return link is not valid or has expired. Nothing was changed.', cashierOn());
    }
    const { deposit, settle } = result;
    const back = returnAddress(deposit) ?? cashierOn(deposit);
    const failure = settle.errors[0];
    if (failure && !settle.deposit) return page(res, 503, 'Payment not confirmed yet', 'We could not confirm your payment just now. Reload this page in a moment.', back);
    if (failure && (failure.code === 'PROVIDER_UNAVAILABLE' || failure.code === 'DEPOSIT_NOT_SUBMITTED')) {
      return page(res, 503, 'Payment not confirmed yet', 'We could not confirm your payment just now. Reload this page in a moment.', back);
    }
    if (failure) log.error({ depositId: deposit.id, code: failure.code }, 'card form return could not settle the deposit');
    // The client's return address is a UX signal only: clients credit on SUCCEEDED from the API.
    const target = returnAddress(deposit);
    if (target) {
      res.set('cache-control', 'no-store').redirect(303, target);
      return;
    }
    const [title, message] = OUTCOME_MESSAGES[deposit.status] ?? ['Payment received by the provider', `Status: ${deposit.status}.`];
    page(res, 200, title, message, back);
  };
  router.get(`${CARD_FORM_RETURN_PATH}/:token`, (req, res, next) => void handle(req, res).catch(next));
  // Some processors return the shopper with a POST: same answer, and its body is never read.
  router.post(`${CARD_FORM_RETURN_PATH}/:token`, (req, res, next) => void handle(req, res).catch(next));
  return router;
}
