// Provider failures as stable gateway error codes (spec: Errors). Provider text is kept for admins
// in `providerMessage`; `message` is written in gateway terms and safe for any client.

import type { Money } from '../../lib/money.js';
import type { ProviderError } from '../provider.js';
import { REJECTION_PATTERNS } from './assumptions.js';
import { isObject, text } from './json.js';
import { missingFieldPaths } from './request-bodies.js';
import type { AmountBand } from './rules.js';
import { compareWithBand } from './field-checks.js';

/** What the request was, so an ambiguous rejection can be read in its light. */
export interface ErrorContext {
  /** Payout create: its 503 means "live payouts not enabled" (spec: Errors, 2). */
  payoutCreate?: boolean;
  amount?: Money;
  band?: AmountBand;
}

/** A non-2xx answer the provider gave deliberately (4xx, and 503 on payout create). */
export function errorFromResponse(status: number, body: unknown, context: ErrorContext = {}): ProviderError {
  const providerMessage = isObject(body) ? text(body, 'error') : undefined;
  const base = { httpStatus: status, outcomeUnknown: false, ...(providerMessage ? { providerMessage } : {}) };
  if (status === 401) {
    return { ...base, code: 'PROVIDER_AUTH_FAILED', message: 'The payment provider refused the merchant account credentials.' };
  }
  // Spec, Errors 3: "solution not enabled" reads "This payment method is not available right now"
  // (its status is not shown, A26); told apart from the 403 of a rail the operator disabled.
  if (providerMessage && REJECTION_PATTERNS.railUnavailable.test(providerMessage) && status >= 400 && status < 500) {
    return { ...base, code: 'RAIL_UNAVAILABLE', message: 'This payment method is not available for this account right now; choose another one.' };
  }
  if (status === 403) {
    return { ...base, code: 'RAIL_DISABLED', message: 'This payment method is currently disabled at the provider.' };
  }
  if (status === 429) {
    return { ...base, code: 'RATE_LIMITED', message: 'The provider is limiting requests for this payer; try again later.' };
  }
  if (status === 503 && context.payoutCreate) {
    return { ...base, code: 'PAYOUTS_NOT_ENABLED', message: 'Live payouts are not enabled on this merchant account yet.' };
  }
  if (status === 422) return rejection(base, body, providerMessage ?? '', context);
  return { ...base, code: 'PROVIDER_REJECTED', message: `The payment provider rejected the request (HTTP ${status}).` };
}

function rejection(base: Omit<ProviderError, 'code' | 'message'>, body: unknown, providerMessage: string, context: ErrorContext): ProviderError {
  if (isObject(body) && Array.isArray(body.missing)) {
    const missing = missingFieldPaths(body.missing);
    const names = missing.map((path) => path.join('.')).join(', ');
    return { ...base, code: 'BENEFICIARY_FIELDS_MISSING', missing, message: `The provider needs more beneficiary details for this country: ${names || 'see the provider message'}.` };
  }
  const { amount, band } = context;
  const below = REJECTION_PATTERNS.belowMinimum.test(providerMessage);
  const above = REJECTION_PATTERNS.aboveMaximum.test(providerMessage);
  let verdict: 'below' | 'above' | undefined = below && !above ? 'below' : above && !below ? 'above' : undefined;
  // "Enter an amount between 100 and 50000 INR" names both bounds: our own band says which was crossed.
  if (!verdict && (below || above || REJECTION_PATTERNS.outOfBand.test(providerMessage)) && amount && band) {
    const position = compareWithBand(amount, band);
    verdict = position === 'within' ? undefined : position;
  }
  const shown = amount ? amount.toString() : 'The amount';
  if (verdict === 'below') {
    const limit = band && amount ? ` of ${amount.currency} ${band.min}` : '';
    return { ...base, code: 'AMOUNT_BELOW_MINIMUM', message: `${shown} is below the minimum${limit} for this payment method.` };
  }
  if (verdict === 'above') {
    const limit = band?.max && amount ? ` of ${amount.currency} ${band.max}` : '';
    return { ...base, code: 'AMOUNT_ABOVE_MAXIMUM', message: `${shown} is above the maximum${limit} for this payment method.` };
  }
  if (REJECTION_PATTERNS.currency.test(providerMessage)) {
    const currency = amount ? `${amount.currency} is` : 'This currency is';
    return { ...base, code: 'CURRENCY_NOT_SUPPORTED', message: `${currency} not supported for this payment method.` };
  }
  return { ...base, code: 'PROVIDER_REJECTED', message: 'The payment provider rejected the request as invalid.' };
}

/** No usable answer: timeout, network failure, 5xx or an unreadable body. The request may have taken effect. */
export function unavailable(reason: string, httpStatus?: number): ProviderError {
  return {
    code: 'PROVIDER_UNAVAILABLE',
    message: 'The payment provider did not give a usable answer; the request may or may not have been processed.',
    providerMessage: reason,
    outcomeUnknown: true,
    ...(httpStatus !== undefined ? { httpStatus } : {}),
  };
}
