// What the deposit gateway declares to the provider registry: its rails, key rules and ports.

import type { ProviderDefinition } from '../registry.js';
import { createDepositGatewayAdapter, DEPOSIT_GATEWAY_RAILS } from './index.js';
import { DEPOSIT_GATEWAY_REFERENCE } from './reference.js';

/** Key prefixes of the spec (Authentication 2), which also tell test from live. */
const KEY_PREFIXES = { test: 'svc_test_', live: 'svc_live_' } as const;

/** Spec (Versioning): "The version is the path prefix `/v1` inside {base_url}". */
const API_VERSION_PREFIX = '/v1';

declare module '../provider.js' {
  interface ProviderNames {
    'deposit-gateway': true;
  }
}

export const depositGatewayProvider: ProviderDefinition = {
  name: 'deposit-gateway',
  description: 'The deposit gateway: hosted checkout, cards, open banking, LATAM, UPI, PIX, crypto, refunds and payouts.',
  rails: DEPOSIT_GATEWAY_RAILS,
  keys: {
    prefixes: KEY_PREFIXES,
    mode(apiKey) {
      if (apiKey.startsWith(KEY_PREFIXES.test)) return 'test';
      if (apiKey.startsWith(KEY_PREFIXES.live)) return 'live';
      return undefined;
    },
    rule: () => `a deposit-gateway key starts with ${KEY_PREFIXES.test} (test) or ${KEY_PREFIXES.live} (live)`,
  },
  createAdapter(_settings, logger, transport) {
    const adapter = createDepositGatewayAdapter({ logger, ...(transport ? { transport } : {}) });
    // One adapter serves every port: deposits, refunds, payouts, the card form and the payment list.
    return { deposits: adapter, refunds: adapter, payouts: adapter, cardForm: adapter, depositListing: adapter };
  },
  defaultSandboxAccount: { code: 'dg-test', apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  reference: DEPOSIT_GATEWAY_REFERENCE,
  baseUrlRule(url) {
    // Spec: "{base_url} (the path prefix /v1 is part of it)", and every path is relative to it.
    // Without the prefix the first call would answer 404 from the provider's root.
    const path = new URL(url).pathname.replace(/\/+$/, '');
    if (path.endsWith(API_VERSION_PREFIX)) return undefined;
    return `the deposit gateway's base URL ends with its version prefix ${API_VERSION_PREFIX} (e.g. https://api.provider.example${API_VERSION_PREFIX}); got a URL whose path is "${path || '/'}"`;
  },
};
