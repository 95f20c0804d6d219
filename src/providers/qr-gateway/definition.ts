// What the QR gateway declares to the provider registry: its rail, key rules, ports and settings.

import type { ProviderDefinition } from '../registry.js';
import { settingVariable } from '../settings.js';
import { PUBLISHABLE_KEY_MODE_PREFIX, PUBLISHABLE_KEY_PREFIX, SECRET_KEY_MODE_PREFIX, SECRET_KEY_PREFIX, publishableKeyMode, secretKeyMode } from './assumptions.js';
import { createQrGatewayAdapter } from './qr-gateway.adapter.js';
import { QR_GATEWAY_REFERENCE } from './reference.js';
import { QR_GATEWAY_SETTINGS, type QrGatewaySettings } from './settings.js';

declare module '../provider.js' {
  interface ProviderNames {
    'qr-gateway': true;
  }
}

export const qrGatewayProvider: ProviderDefinition<QrGatewaySettings> = {
  name: 'qr-gateway',
  description: 'The QR gateway: Thai QR codes.',
  rails: ['THAI_QR'],
  keys: {
    prefixes: SECRET_KEY_MODE_PREFIX,
    // The backend secret key is the bearer; test or live is stated on the publishable key (Authentication 1-2, assumption Q20).
    mode: secretKeyMode,
    rule(apiKey) {
      if (apiKey.startsWith(PUBLISHABLE_KEY_PREFIX)) {
        return `a pk_ key is the QR gateway's publishable (client-side) key and cannot call its API; configure the secret key, which starts with ${SECRET_KEY_PREFIX}, and give the pk_ key as publishableKey`;
      }
      return `a qr-gateway secret key starts with ${SECRET_KEY_PREFIX}`;
    },
    publishable: {
      prefixes: PUBLISHABLE_KEY_MODE_PREFIX,
      mode: publishableKeyMode,
      rule: () => `a qr-gateway publishable key starts with ${PUBLISHABLE_KEY_MODE_PREFIX.test} (test) or ${PUBLISHABLE_KEY_MODE_PREFIX.live} (live)`,
    },
  },
  settings: QR_GATEWAY_SETTINGS,
  createAdapter(settings, logger, transport) {
    const adapter = createQrGatewayAdapter({
      amountUnit: settings.amountUnit,
      wire: settings.wire,
      ...(transport ? { transport } : {}),
      logger,
    });
    // No refunds, payouts or payment list in its API (refunds are made on its dashboard and reach us as events).
    return { deposits: adapter, webhookRegistration: adapter, simulation: adapter };
  },
  defaultSandboxAccounts: [{ code: 'qr-test', apiKey: 'sk_test_sandbox_qr_gateway', webhookSecrets: ['whsec_sandbox_qr_gateway'], note: 'Thai QR codes, paid, failed or expired as the cheat sheet says.' }],
  reference: QR_GATEWAY_REFERENCE,
  baseUrlRule(url) {
    // Q16: the paths carry their versions (/v1/qr-codes, /Thai/v1/webhooks), so the base address is
    // bare; with a version on it, every call would go to /v1/v1/… and answer 404.
    const path = new URL(url).pathname.replace(/\/+$/, '');
    if (!/\/v\d+$/i.test(path)) return undefined;
    return `the QR gateway's base URL is its bare address, without a version: its paths carry theirs (/v1/qr-codes, /Thai/v1/webhooks); got a URL whose path is "${path}"`;
  },
  assumptionsInForce(settings) {
    const unit = settings.amountUnit;
    const meaning = unit === 'satang' ? '100 = THB 1.00' : 'whole baht only';
    return [`QR amounts are sent as integer ${unit} (${meaning}): the QR spec does not state the unit (${settingVariable('qr-gateway', 'AMOUNT_UNIT')}, assumption Q2)`];
  },
  registerWebhookAtStart: (settings) => settings.registerWebhook,
};
