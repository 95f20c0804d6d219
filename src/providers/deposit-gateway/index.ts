// The deposit gateway adapter: deposits, refunds, payouts, the card form and the payment list over the provider's HTTP API.

import type { Logger } from '../../lib/logger.js';
import type {
  CardSession,
  CardSettleResult,
  CreateDepositRequest,
  CreatePayoutRequest,
  DepositProvider,
  FieldError,
  MerchantAccount,
  Page,
  ProviderDeposit,
  ProviderError,
  ProviderPayout,
  ProviderRefund,
  ProviderResult,
  Rail,
  RailDetails,
  RawWebhook,
  RequestRefundRequest,
  WebhookVerification,
} from '../provider.js';
import type { ProviderTransport } from '../transport.js';
import {
  CARD_SETTLE_BODY,
  cardSettlePath,
  CHECKOUT_SESSION_DEFAULT_LIFETIME_SECONDS,
  CHECKOUT_SESSION_EXPIRY_MARGIN_SECONDS,
  PAYOUT_CREATE_PATH,
  SIGNATURE_HEADER,
} from './assumptions.js';
import { unavailable } from './errors.js';
import { DepositGatewayHttp, type Call } from './http.js';
import { parseJsonExact } from './json.js';
import { parseCardSession, parseCheckoutSession, parseCreatedPayment, parsePage, parsePayment, parsePayout, parseRefund, parseSettleResult, ShapeError } from './mapping.js';
import { checkoutSessionBody, paymentBody, payoutBody, refundBody } from './request-bodies.js';
import { AMOUNT_BANDS, PAGE_LIMIT } from './rules.js';
import { verifySignature } from './signature.js';
import { parseWebhookEnvelope } from './webhook-events.js';
import type { CardFormPort, DepositListingPort, PayoutPort, RefundPort } from '../ports.js';
import { defaultCurrency, validateDepositRequest, validatePayoutRequest, validateRefundRequest, type DepositToValidate, type PayoutToValidate } from './validation.js';

export interface DepositGatewayAdapterOptions {
  /**
   * Sends the provider calls (time-outs, retries, call logs, metrics): the gateway's, or one a test
   * makes (src/kernel/provider-transport.ts). Without one the adapter validates, verifies and
   * parses, and throws on a call.
   */
  transport?: ProviderTransport;
  logger?: Logger;
  /** Clock for time-relative rules (Ecuador `expiresAt`, webhook freshness). */
  now?: () => Date;
}

export type DepositGatewayAdapter = DepositProvider &
  RefundPort &
  PayoutPort &
  CardFormPort &
  DepositListingPort & {
    validateDeposit(account: MerchantAccount, request: DepositToValidate): FieldError[];
    validatePayout(account: MerchantAccount, request: PayoutToValidate): FieldError[];
    validateRefund(account: MerchantAccount, request: Pick<RequestRefundRequest, 'amount'>): FieldError[];
  };

export const DEPOSIT_GATEWAY_RAILS: readonly Rail[] = ['HOSTED_CHECKOUT', 'CARD', 'OPEN_BANKING', 'LATAM', 'UPI', 'PIX', 'CRYPTO'];

/** One call, its 2xx body read by `parse`; a body that does not fit leaves the outcome unknown. */
type Request = <T>(account: MerchantAccount, call: Call, parse: (body: unknown) => T) => Promise<ProviderResult<T>>;

function requester(http: DepositGatewayHttp): Request {
  return async (account, call, parse) => {
    const result = await http.call(account, call);
    if (!result.ok) return result;
    try {
      return { ok: true, value: parse(result.body) };
    } catch (error) {
      if (error instanceof ShapeError) return { ok: false, error: unavailable(`unexpected response: ${error.message}`, result.status) };
      throw error;
    }
  };
}

/**
 * Creates the adapter. Stateless apart from its options: every call names the merchant account
 * (one API key per merchant, spec: Authentication 3).
 *
 * @example
 * const gateway = createDepositGatewayAdapter({ transport, logger });
 * const errors = gateway.validateDeposit(account, request);
 * if (errors.length === 0) await gateway.createDeposit(account, { ...request, depositId });
 */
export function createDepositGatewayAdapter(options: DepositGatewayAdapterOptions = {}): DepositGatewayAdapter {
  const now = options.now ?? (() => new Date());
  const http = new DepositGatewayHttp(options);
  const request = requester(http);
  return {
    name: 'deposit-gateway',
    rails: DEPOSIT_GATEWAY_RAILS,
    ...depositOperations(request, now),
    ...webhookOperations(now),
    ...listingOperations(request, http),
    ...refundOperations(request),
    ...payoutOperations(request),
    ...cardFormOperations(request),
  };
}

/** Deposits: validating, creating (a checkout session or a payment) and looking one up. */
function depositOperations(request: Request, now: () => Date): Pick<DepositGatewayAdapter, 'validateDeposit' | 'defaultCurrency' | 'createDeposit' | 'getDeposit'> {
  return {
    validateDeposit(account, deposit) {
      return validateDepositRequest(account, deposit, now());
    },

    defaultCurrency(details: RailDetails) {
      return defaultCurrency(details);
    },

    async createDeposit(account, deposit: CreateDepositRequest) {
      const { details } = deposit;
      if (details.rail === 'HOSTED_CHECKOUT') {
        if (!account.livemode) {
          // Spec, POST /checkout-sessions: a test-key session "produces a real charge". Refused here
          // too, not only in validation, because the cost of a slip is real money.
          return { ok: false, error: hostedCheckoutOnTestAccount() };
        }
        // No idempotency key exists for sessions, so this is never retried: a retry could open a second session.
        return request(
          account,
          { operation: 'createDeposit', method: 'POST', path: '/checkout-sessions', body: checkoutSessionBody(deposit, details), retryable: false, errorContext: { amount: deposit.amount } },
          (body) => parseCheckoutSession(body, deposit),
        );
      }
      if (details.rail === 'THAI_QR') {
        return { ok: false, error: { code: 'RAIL_DISABLED', message: 'The deposit gateway does not serve the THAI_QR rail.', outcomeUnknown: false } };
      }
      return request(
        account,
        {
          operation: 'createDeposit',
          method: 'POST',
          path: '/payments',
          body: paymentBody(deposit, { whiteLabel: account.whiteLabel === true }),
          idempotencyKey: deposit.depositId,
          retryable: true,
          errorContext: { amount: deposit.amount, band: AMOUNT_BANDS[details.rail] },
        },
        (body) => parseCreatedPayment(body, deposit),
      );
    },

    async getDeposit(account, reference): Promise<ProviderResult<ProviderDeposit>> {
      return request(account, { operation: 'getDeposit', method: 'GET', path: `/payments/${encodeURIComponent(reference)}`, retryable: true }, (body) =>
        parsePayment(objectField(body, 'payment')),
      );
    },
  };
}

/** Webhooks: the signature checked before the body is read. */
function webhookOperations(now: () => Date): Pick<DepositGatewayAdapter, 'verifyWebhook' | 'parseWebhook'> {
  return {
    verifyWebhook(account, webhook: RawWebhook): WebhookVerification {
      const check = verifySignature({
        body: webhook.body,
        header: webhook.headers[SIGNATURE_HEADER],
        secrets: account.webhookSecrets,
        receivedAt: webhook.receivedAt ?? now(),
      });
      if (!check.ok) return check;
      // Only now, with the bytes proven to be the provider's, is the body read.
      return parseVerifiedWebhook(webhook.body);
    },

    parseWebhook(_account, body: Buffer): WebhookVerification {
      return parseVerifiedWebhook(body);
    },
  };
}

/** The payment list: a ping, the newest-first pages, and how long a checkout session can still be paid. */
function listingOperations(request: Request, http: DepositGatewayHttp): Pick<DepositGatewayAdapter, 'ping' | 'listDeposits' | 'checkoutSessionDeadline'> {
  return {
    async ping(account) {
      const result = await http.call(account, { operation: 'ping', method: 'GET', path: '/payments', query: { limit: 1 }, retryable: false });
      return result.ok;
    },

    async listDeposits(account, page): Promise<ProviderResult<Page<ProviderDeposit>>> {
      return request(account, { operation: 'listDeposits', method: 'GET', path: '/payments', query: pageQuery(page), retryable: true }, (body) => parsePage(body, parsePayment));
    },

    checkoutSessionDeadline(createdAt, expiresInSeconds) {
      // A24: the session's lifetime plus a margin.
      const lifetime = expiresInSeconds ?? CHECKOUT_SESSION_DEFAULT_LIFETIME_SECONDS;
      return new Date(createdAt.getTime() + (lifetime + CHECKOUT_SESSION_EXPIRY_MARGIN_SECONDS) * 1000);
    },
  };
}

function refundOperations(request: Request): Pick<DepositGatewayAdapter, 'requestRefund' | 'validateRefund'> {
  return {
    async requestRefund(account, refund: RequestRefundRequest): Promise<ProviderResult<ProviderRefund>> {
      return request(
        account,
        { operation: 'requestRefund', method: 'POST', path: '/refunds', body: refundBody(refund), idempotencyKey: refund.refundId, retryable: true },
        (body) => parseRefund(body, refund),
      );
    },

    validateRefund(_account, refund) {
      return validateRefundRequest(refund);
    },
  };
}

function payoutOperations(request: Request): Pick<DepositGatewayAdapter, 'payoutCurrency' | 'validatePayout' | 'createPayout' | 'listPayouts'> {
  return {
    payoutCurrency(country: string) {
      // Spec (Payout request): `country` "selects rail and currency"; the currency defaults to the country's.
      return defaultCurrency({ rail: 'LATAM', country });
    },

    validatePayout(_account, payout) {
      return validatePayoutRequest(payout);
    },

    async createPayout(account, payout: CreatePayoutRequest): Promise<ProviderResult<ProviderPayout>> {
      return request(
        account,
        {
          operation: 'createPayout',
          method: 'POST',
          path: PAYOUT_CREATE_PATH,
          body: payoutBody(payout),
          idempotencyKey: payout.payoutId,
          retryable: true,
          errorContext: { payoutCreate: true, amount: payout.amount },
        },
        (body) => parsePayout(objectField(body, 'payout')),
      );
    },

    async listPayouts(account, page): Promise<ProviderResult<Page<ProviderPayout>>> {
      return request(account, { operation: 'listPayouts', method: 'GET', path: '/payouts', query: pageQuery(page), retryable: true }, (body) => parsePage(body, parsePayout));
    },
  };
}

function cardFormOperations(request: Request): Pick<DepositGatewayAdapter, 'getCardSession' | 'settleCard'> {
  return {
    async getCardSession(account, reference): Promise<ProviderResult<CardSession>> {
      return request(account, { operation: 'getCardSession', method: 'GET', path: `/payments/${encodeURIComponent(reference)}/card-session`, retryable: true }, parseCardSession);
    },

    async settleCard(account, reference): Promise<ProviderResult<CardSettleResult>> {
      // Idempotent and promote-only (spec: Card settle call), so safe to retry without a key (A20).
      return request(account, { operation: 'settleCard', method: 'POST', path: cardSettlePath(reference), body: { ...CARD_SETTLE_BODY }, retryable: true }, parseSettleResult);
    },
  };
}

function pageQuery(page?: { before?: string; limit?: number }) {
  return {
    limit: page?.limit === undefined ? undefined : Math.min(PAGE_LIMIT.max, Math.max(PAGE_LIMIT.min, Math.trunc(page.limit))),
    before: page?.before,
  };
}

/** Reads a body whose signature was already checked. */
function parseVerifiedWebhook(body: Buffer): WebhookVerification {
  let envelope: unknown;
  try {
    envelope = parseJsonExact(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { ok: false, reason: 'PAYLOAD_INVALID' };
  }
  const event = parseWebhookEnvelope(envelope);
  return event ? { ok: true, event } : { ok: false, reason: 'PAYLOAD_INVALID' };
}

function objectField(body: unknown, key: string): unknown {
  if (typeof body !== 'object' || body === null || !(key in body)) throw new ShapeError(`response has no ${key}`);
  return (body as Record<string, unknown>)[key];
}

function hostedCheckoutOnTestAccount(): ProviderError {
  return {
    code: 'RAIL_DISABLED',
    message: 'Hosted checkout is only available on a live merchant account: a test-mode session would still make a real charge.',
    outcomeUnknown: false,
  };
}

export { signatureHeader } from './signature.js';
