// What the deposit gateway declares to the provider registry: its rails, key rules and ports.

import type { ProviderDefinition } from '../registry.js';
import { createDepositGatewayAdapter, DEPOSIT_GATEWAY_RAILS } from './index.js';
import { DEPOSIT_GATEWAY_REFERENCE, LIVE_ACCOUNT_EXAMPLE } from './reference.js';

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
  defaultSandboxAccounts: [
    // First: the account a request that names none uses.
    {
      code: 'dg-test',
      apiKey: `${KEY_PREFIXES.test}sandbox_deposit_gateway`,
      webhookSecrets: ['whsec_sandbox_deposit_gateway'],
      note: 'Every rail but hosted checkout, refunds and payouts; the account a deposit gateway request that names none gets.',
    },
    // Live mode, served by the local sandbox all the same: hosted checkout is refused on test
    // accounts (a test-key session makes a real charge at the provider), so without it hosted
    // checkout could not be tried. Its key is a made-up live-shaped one only the sandbox knows.
    {
      code: LIVE_ACCOUNT_EXAMPLE,
      apiKey: `${KEY_PREFIXES.live}sandbox_deposit_gateway`,
      webhookSecrets: ['whsec_sandbox_deposit_gateway_live'],
      note: 'Hosted checkout, which test-mode accounts refuse (name it as merchantAccount); the other rails too. Live mode simulated by the sandbox: no real money moves.',
    },
  ],
  reference: DEPOSIT_GATEWAY_REFERENCE,
  baseUrlRule(url) {
    // Spec: "{base_url} (the path prefix /v1 is part of it)", and every path is relative to it.
    // Without the prefix the first call would answer 404 from the provider's root.
    const path = new URL(url).pathname.replace(/\/+$/, '');
    if (path.endsWith(API_VERSION_PREFIX)) return undefined;
    return `the deposit gateway's base URL ends with its version prefix ${API_VERSION_PREFIX} (e.g. https://api.provider.example${API_VERSION_PREFIX}); got a URL whose path is "${path || '/'}"`;
  },
};
