// What the deposit gateway declares to the provider registry: its rails, key rules and capabilities.

import type { ProviderDefinition } from '../registry.js';
import { createDepositGatewayAdapter, DEPOSIT_GATEWAY_RAILS } from './index.js';
import { DEPOSIT_GATEWAY_REFERENCE } from './reference.js';

/** Key prefixes of the spec (Authentication 2), which also tell test from live. */
const KEY_PREFIXES = { test: 'svc_test_', live: 'svc_live_' } as const;

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
  capabilities: { refunds: true, payouts: true, cardForm: true },
  createAdapter: (settings, logger) => createDepositGatewayAdapter({ timeoutMs: settings.timeoutMs, maxRetries: settings.maxRetries, logger }),
  defaultSandboxAccount: { code: 'dg-test', apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  reference: DEPOSIT_GATEWAY_REFERENCE,
};
