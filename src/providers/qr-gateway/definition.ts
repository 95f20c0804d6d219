// What the QR gateway declares to the provider registry: its rail, key rules and capabilities.

import type { ProviderDefinition } from '../registry.js';
import { DEFAULT_AMOUNT_UNIT, PUBLISHABLE_KEY_PREFIX, SECRET_KEY_PREFIX, secretKeyMode, type AmountUnit } from './assumptions.js';
import { createQrGatewayAdapter } from './qr-gateway.adapter.js';
import { QR_GATEWAY_REFERENCE } from './reference.js';

declare module '../provider.js' {
  interface ProviderNames {
    'qr-gateway': true;
  }
}

export const qrGatewayProvider: ProviderDefinition = {
  name: 'qr-gateway',
  description: 'The QR gateway: Thai QR codes.',
  rails: ['THAI_QR'],
  keys: {
    prefixes: SECRET_KEY_PREFIX,
    // The backend secret key is the bearer (Authentication 1-2, assumption Q20).
    mode: secretKeyMode,
    rule(apiKey) {
      const { test, live } = SECRET_KEY_PREFIX;
      if (apiKey.startsWith(PUBLISHABLE_KEY_PREFIX)) {
        return `a pk_ key is the QR gateway's publishable (client-side) key and cannot call its API; configure the secret key, which starts with ${test} (test) or ${live} (live)`;
      }
      return `a qr-gateway key starts with ${test} (test) or ${live} (live)`;
    },
  },
  capabilities: { webhookRegistration: true },
  createAdapter: (settings, logger) =>
    createQrGatewayAdapter({
      amountUnit: (settings.qrAmountUnit as AmountUnit | undefined) ?? DEFAULT_AMOUNT_UNIT,
      timeoutMs: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      logger,
    }),
  defaultSandboxAccount: { code: 'qr-test', apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'] },
  reference: QR_GATEWAY_REFERENCE,
};
