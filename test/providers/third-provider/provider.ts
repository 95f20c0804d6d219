// The test-only "third gateway": an adapter for one rail (PIX) and its registry definition, written
// against the public provider interface (src/providers/provider.ts) and registry
// (src/providers/registry.ts) alone. Nothing in src/ knows it: it proves that adding a provider is
// adding a folder and registering it.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { positiveInt } from '../../../src/lib/env-values.js';
import { Money } from '../../../src/lib/money.js';
import type {
  CreateDepositRequest,
  DepositProvider,
  DepositStatus,
  FieldError,
  MerchantAccount,
  ProviderDeposit,
  ProviderResult,
  RailDetails,
  RawWebhook,
  WebhookVerification,
} from '../../../src/providers/provider.js';
import type { ProviderDefinition } from '../../../src/providers/registry.js';
import { defineProviderSettings } from '../../../src/providers/settings.js';
import { startThirdSandbox, type ThirdPayment, type ThirdSandbox } from './sandbox.js';

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
const STATUS: Record<ThirdPayment['status'], DepositStatus> = { pending: 'PENDING', paid: 'SUCCEEDED', failed: 'FAILED' };

function toDeposit(payment: ThirdPayment): ProviderDeposit {
  return {
    reference: payment.id,
    status: STATUS[payment.status],
    providerStatus: payment.status,
    merchantReference: payment.merchant_reference,
    amount: Money.fromDecimal(payment.amount, payment.currency),
    createdAt: new Date(payment.created_at),
  };
}

function unavailable<T>(message: string, httpStatus?: number): ProviderResult<T> {
  return { ok: false, error: { code: 'PROVIDER_UNAVAILABLE', message, ...(httpStatus ? { httpStatus } : {}), outcomeUnknown: true } };
}

export function createThirdAdapter(options: { timeoutMs: number } & ThirdSettings): DepositProvider {
  async function call(account: MerchantAccount, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ProviderResult<ThirdPayment>> {
    try {
      const response = await fetch(`${account.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${account.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) return unavailable(`third gateway answered ${response.status}`, response.status);
      return { ok: true, value: (await response.json()) as ThirdPayment };
    } catch {
      return unavailable('third gateway unreachable');
    }
  }

  function parse(account: MerchantAccount, body: Buffer): WebhookVerification {
    try {
      const event = JSON.parse(body.toString('utf8')) as { id: string; type: string; payment: ThirdPayment };
      const deposit = toDeposit(event.payment);
      return {
        ok: true,
        event: {
          eventId: event.id,
          name: event.type,
          livemode: account.livemode,
          subject: { kind: 'deposit', reference: deposit.reference, merchantReference: deposit.merchantReference!, status: deposit.status, providerStatus: deposit.providerStatus, amount: deposit.amount! },
        },
      };
    } catch {
      return { ok: false, reason: 'PAYLOAD_INVALID' };
    }
  }

  return {
    name: THIRD_PROVIDER,
    rails: ['PIX'],
    validateDeposit(_account, request): FieldError[] {
      return request.amount.currency === 'BRL' ? [] : [{ field: ['currency'], code: 'CURRENCY_NOT_SUPPORTED', message: 'The third gateway takes BRL only' }];
    },
    defaultCurrency: (details: RailDetails) => (details.rail === 'PIX' ? 'BRL' : ''),
    createDeposit: async (account, request: CreateDepositRequest) => {
      const result = await call(account, 'POST', '/payments', { merchant_reference: request.depositId, amount: request.amount.toDecimal(), currency: request.amount.currency });
      return result.ok ? { ok: true, value: toDeposit(result.value) } : result;
    },
    getDeposit: async (account, reference) => {
      const result = await call(account, 'GET', `/payments/${encodeURIComponent(reference)}`);
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
    ping: async (account) => (await fetch(`${account.baseUrl}/health`, { headers: { authorization: `Bearer ${account.apiKey}` } }).catch(() => undefined))?.ok ?? false,
  };
}

/** Registered with `startTestGateway({ providers: [thirdProvider] })`. */
export const thirdProvider: ProviderDefinition<ThirdSettings> = {
  name: THIRD_PROVIDER,
  description: 'A provider registered by a test: PIX only.',
  rails: ['PIX'],
  keys: {
    prefixes: { test: 'tp_test_', live: 'tp_live_' },
    mode: (apiKey) => (apiKey.startsWith('tp_test_') ? 'test' : apiKey.startsWith('tp_live_') ? 'live' : undefined),
    rule: () => 'a third-gateway key starts with tp_test_ (test) or tp_live_ (live)',
  },
  capabilities: {},
  settings: THIRD_SETTINGS,
  createAdapter: (settings) => createThirdAdapter(settings),
  // Started by the gateway's sandbox host for `sandbox: true` accounts, through the hook the
  // built-in ones use, with the same settings as its adapter. No default port: any free one.
  sandbox: {
    async start({ accounts, webhookBaseUrl, port, settings }) {
      if (accounts.length !== 1) throw new Error('the third gateway sandbox serves one account');
      const sandbox = await startThirdSandbox({ port, signatureHeader: settings.signatureHeader });
      sandbox.webhookUrl = `${webhookBaseUrl}/webhooks/${THIRD_PROVIDER}/${accounts[0]!.code}`;
      return sandbox;
    },
  },
};
