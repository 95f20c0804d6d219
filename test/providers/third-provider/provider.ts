// The test-only "third gateway": an adapter offering deposits (PIX, a rail the deposit gateway also
// serves), refunds, payouts and webhook registration, and its registry definition, written against
// the public provider interface (src/providers/provider.ts, ports.ts) and registry
// (src/providers/registry.ts) alone. Nothing in src/ knows it: it proves that adding a provider,
// with every capability it offers, is adding a folder and registering it.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { positiveInt } from '../../../src/lib/env-values.js';
import { Money } from '../../../src/lib/money.js';
import type { PayoutPort, RefundPort, WebhookRegistrationPort } from '../../../src/providers/ports.js';
import type {
  CreateDepositRequest,
  DepositProvider,
  DepositStatus,
  FieldError,
  MerchantAccount,
  PayoutStatus,
  ProviderDeposit,
  ProviderPayout,
  ProviderRefund,
  ProviderResult,
  RailDetails,
  RawWebhook,
  RefundStatus,
  WebhookEvent,
  WebhookVerification,
} from '../../../src/providers/provider.js';
import type { ProviderDefinition } from '../../../src/providers/registry.js';
import { defineProviderSettings } from '../../../src/providers/settings.js';
import { noTransport, type ProviderTransport } from '../../../src/providers/transport.js';
import { startThirdSandbox, type ThirdPayment, type ThirdPayout, type ThirdRefund, type ThirdSandbox } from './sandbox.js';

declare module '../../../src/providers/provider.js' {
  interface ProviderNames {
    'third-gateway': true;
  }
}

declare module '../../../src/providers/registry.js' {
  interface ProviderSandboxes {
    'third-gateway': ThirdSandbox;
  }
}

export const THIRD_PROVIDER = 'third-gateway';

/** Its own settings: two it needs, each with a default (`THIRD_GATEWAY_SIGNATURE_HEADER`, `THIRD_GATEWAY_FRESHNESS_SECONDS`). */
export interface ThirdSettings {
  /** The header its webhooks carry their signature in, as its sandbox sends them. */
  signatureHeader: string;
  /** How old (or early) a signed webhook may be. */
  freshnessSeconds: number;
}

export const THIRD_SETTINGS = defineProviderSettings({
  schema: z.object({
    SIGNATURE_HEADER: z
      .string()
      .regex(/^[a-z-]+$/i, 'must be a header name')
      .transform((name) => name.toLowerCase())
      .default('tp-signature'),
    FRESHNESS_SECONDS: positiveInt(3600).default(300),
  }),
  aliases: { FRESHNESS_SECONDS: 'THIRD_FRESHNESS' },
  fromEnv: (variables): ThirdSettings => ({ signatureHeader: variables.SIGNATURE_HEADER, freshnessSeconds: variables.FRESHNESS_SECONDS }),
});
const PAYMENT_STATUS: Record<ThirdPayment['status'], DepositStatus> = { pending: 'PENDING', paid: 'SUCCEEDED', failed: 'FAILED' };
const REFUND_STATUS: Record<ThirdRefund['status'], RefundStatus> = { pending: 'REQUESTED', approved: 'APPROVED', rejected: 'REJECTED' };
const PAYOUT_STATUS: Record<ThirdPayout['status'], PayoutStatus> = { pending: 'PENDING', paid: 'PAID', bounced: 'BOUNCED' };
/** It pays out to Brazil only, in reais. */
const PAYOUT_COUNTRY = 'BRAZIL';
const WEBHOOK_EVENTS = ['payment.paid', 'refund.approved', 'payout.paid'] as const;

function toDeposit(payment: ThirdPayment): ProviderDeposit {
  return {
    reference: payment.id,
    status: PAYMENT_STATUS[payment.status],
    providerStatus: payment.status,
    merchantReference: payment.merchant_reference,
    amount: Money.fromDecimal(payment.amount, payment.currency),
    createdAt: new Date(payment.created_at),
  };
}

function toRefund(refund: ThirdRefund): ProviderRefund {
  return { reference: refund.id, status: REFUND_STATUS[refund.status], providerStatus: refund.status, amount: Money.fromDecimal(refund.amount, refund.currency) };
}

function toPayout(payout: ThirdPayout): ProviderPayout {
  return {
    reference: payout.id,
    status: PAYOUT_STATUS[payout.status],
    providerStatus: payout.status,
    merchantReference: payout.merchant_reference,
    amount: Money.fromDecimal(payout.amount, payout.currency),
    createdAt: new Date(payout.created_at),
  };
}

function subjectOf(type: string, object: Record<string, unknown>): WebhookEvent['subject'] {
  if (type.startsWith('payment.')) {
    const deposit = toDeposit(object as unknown as ThirdPayment);
    return { kind: 'deposit', reference: deposit.reference, merchantReference: deposit.merchantReference!, status: deposit.status, providerStatus: deposit.providerStatus, amount: deposit.amount! };
  }
  if (type.startsWith('refund.')) {
    const refund = object as unknown as ThirdRefund;
    return { kind: 'refund', depositReference: refund.payment_id, ...toRefund(refund) };
  }
  if (type.startsWith('payout.')) return { kind: 'payout', ...toPayout(object as unknown as ThirdPayout) };
  return { kind: 'other' };
}

function unavailable<T>(message: string, httpStatus?: number): ProviderResult<T> {
  return { ok: false, error: { code: 'PROVIDER_UNAVAILABLE', message, ...(httpStatus ? { httpStatus } : {}), outcomeUnknown: true } };
}

type ThirdAdapter = DepositProvider & RefundPort & PayoutPort & WebhookRegistrationPort;

export function createThirdAdapter(options: { transport?: ProviderTransport } & ThirdSettings): ThirdAdapter {
  // It builds requests and reads answers; the gateway's transport sends them (time-outs, retries, call logs, metrics).
  const sender = options.transport?.sender({ provider: THIRD_PROVIDER, idempotencyHeader: 'tp-idempotency-key', shownFields: ['status', 'amount', 'currency'] }) ?? noTransport(THIRD_PROVIDER);

  /**
   * One call. It deduplicates payments, refunds and payouts by the id it is given, so those may be
   * repeated; a registration may not (a repeat would register the URL twice).
   */
  async function call<T>(account: MerchantAccount, operation: string, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<ProviderResult<T>> {
    const response = await sender.send({
      operation,
      account: account.code,
      method,
      baseUrl: account.baseUrl,
      path,
      headers: { authorization: `Bearer ${account.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      retryable: operation !== 'registerWebhook',
    });
    if (response.kind === 'unanswered') return unavailable(`third gateway unreachable: ${response.message}`);
    if (response.status === 422) return { ok: false, error: { code: 'PROVIDER_REJECTED', message: 'The third gateway refused the request', httpStatus: 422, outcomeUnknown: false } };
    if (response.status < 200 || response.status >= 300) return unavailable(`third gateway answered ${response.status}`, response.status);
    return { ok: true, value: JSON.parse(response.text) as T };
  }

  function parse(account: MerchantAccount, body: Buffer): WebhookVerification {
    try {
      const event = JSON.parse(body.toString('utf8')) as { id: string; type: string; object: Record<string, unknown> };
      return { ok: true, event: { eventId: event.id, name: event.type, livemode: account.livemode, subject: subjectOf(event.type, event.object) } };
    } catch {
      return { ok: false, reason: 'PAYLOAD_INVALID' };
    }
  }

  return {
    name: THIRD_PROVIDER,
    rails: ['PIX'],
    webhookEvents: WEBHOOK_EVENTS,
    validateDeposit(_account, request): FieldError[] {
      return request.amount.currency === 'BRL' ? [] : [{ field: ['currency'], code: 'CURRENCY_NOT_SUPPORTED', message: 'The third gateway takes BRL only' }];
    },
    defaultCurrency: (details: RailDetails) => (details.rail === 'PIX' ? 'BRL' : ''),
    createDeposit: async (account, request: CreateDepositRequest) => {
      const result = await call<ThirdPayment>(account, 'createDeposit', 'POST', '/payments', { merchant_reference: request.depositId, amount: request.amount.toDecimal(), currency: request.amount.currency });
      return result.ok ? { ok: true, value: toDeposit(result.value) } : result;
    },
    getDeposit: async (account, reference) => {
      const result = await call<ThirdPayment>(account, 'getDeposit', 'GET', `/payments/${encodeURIComponent(reference)}`);
      return result.ok ? { ok: true, value: toDeposit(result.value) } : result;
    },
    verifyWebhook(account, webhook: RawWebhook): WebhookVerification {
      const header = webhook.headers[options.signatureHeader];
      if (!header) return { ok: false, reason: 'SIGNATURE_MISSING' };
      const parts = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      if (!parts) return { ok: false, reason: 'SIGNATURE_MALFORMED' };
      const at = Number(parts[1]);
      const now = (webhook.receivedAt ?? new Date()).getTime() / 1000;
      if (Math.abs(now - at) > options.freshnessSeconds) return { ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' };
      const given = Buffer.from(parts[2]!, 'hex');
      const signed = Buffer.concat([Buffer.from(`${at}.`), webhook.body]);
      const matches = account.webhookSecrets.some((secret) => timingSafeEqual(createHmac('sha256', secret).update(signed).digest(), given));
      return matches ? parse(account, webhook.body) : { ok: false, reason: 'SIGNATURE_MISMATCH' };
    },
    parseWebhook: parse,
    ping: async (account) => (await call(account, 'ping', 'GET', '/health')).ok,
    requestRefund: async (account, refund) => {
      const result = await call<ThirdRefund>(account, 'requestRefund', 'POST', '/refunds', { payment_id: refund.depositReference, refund_id: refund.refundId, amount: refund.amount?.toDecimal() });
      return result.ok ? { ok: true, value: toRefund(result.value) } : result;
    },
    payoutCurrency: (country) => (country === PAYOUT_COUNTRY ? 'BRL' : ''),
    validatePayout(_account, payout): FieldError[] {
      const errors: FieldError[] = [];
      if (payout.country !== PAYOUT_COUNTRY) errors.push({ field: ['country'], code: 'INVALID_VALUE', message: `The third gateway pays out to ${PAYOUT_COUNTRY} only` });
      if (payout.amount.currency !== 'BRL') errors.push({ field: ['currency'], code: 'CURRENCY_NOT_SUPPORTED', message: 'The third gateway pays out BRL only' });
      if (!payout.beneficiary.accountNumber) errors.push({ field: ['beneficiary', 'accountNumber'], code: 'FIELD_REQUIRED', message: 'beneficiary.accountNumber is required' });
      return errors;
    },
    createPayout: async (account, payout) => {
      const body = { merchant_reference: payout.payoutId, country: payout.country, amount: payout.amount.toDecimal(), currency: payout.amount.currency, account_number: payout.beneficiary.accountNumber };
      const result = await call<ThirdPayout>(account, 'createPayout', 'POST', '/payouts', body);
      return result.ok ? { ok: true, value: toPayout(result.value) } : result;
    },
    listPayouts: async (account) => {
      const result = await call<{ items: ThirdPayout[] }>(account, 'listPayouts', 'GET', '/payouts');
      return result.ok ? { ok: true, value: { items: result.value.items.map(toPayout) } } : result;
    },
    registerWebhook: async (account, registration) => {
      const secret = registration.secret ?? account.webhookSecrets[0]!;
      const result = await call<{ id: string; url: string; events: string[]; status: string; created_at: string }>(account, 'registerWebhook', 'POST', '/webhooks', { url: registration.url, events: registration.events, secret });
      return result.ok ? { ok: true, value: { id: result.value.id, url: result.value.url, events: result.value.events, status: result.value.status, createdAt: new Date(result.value.created_at), secret } } : result;
    },
  };
}

/** Registered with `startTestGateway({ providers: [thirdProvider] })`. */
export const thirdProvider: ProviderDefinition<ThirdSettings> = {
  name: THIRD_PROVIDER,
  description: 'A provider registered by a test: PIX deposits, refunds, payouts and webhook registration.',
  rails: ['PIX'],
  keys: {
    prefixes: { test: 'tp_test_', live: 'tp_live_' },
    mode: (apiKey) => (apiKey.startsWith('tp_test_') ? 'test' : apiKey.startsWith('tp_live_') ? 'live' : undefined),
    rule: () => 'a third-gateway key starts with tp_test_ (test) or tp_live_ (live)',
  },
  settings: THIRD_SETTINGS,
  createAdapter(settings, _logger, transport) {
    const adapter = createThirdAdapter({ ...settings, ...(transport ? { transport } : {}) });
    return { deposits: adapter, refunds: adapter, payouts: adapter, webhookRegistration: adapter };
  },
  // Started by the gateway's sandbox host for `sandbox: true` accounts, through the hook the
  // built-in ones use, with the same settings as its adapter. No default port: any free one.
  sandbox: {
    async start({ accounts, port, settings }) {
      if (accounts.length !== 1) throw new Error('the third gateway sandbox serves one account');
      // It reports to the URL the gateway registers at start, as a provider with a registration API does.
      return startThirdSandbox({ port, signatureHeader: settings.signatureHeader });
    },
  },
};
