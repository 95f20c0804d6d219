// The QR gateway sandbox as its provider definition's `sandbox` hook: how the sandbox host starts
// it for the QR gateway's sandbox accounts, with the unit and wire names its adapter is given too.

import type { AmountUnit, QrWire } from '../../providers/qr-gateway/assumptions.js';
import type { ProviderSandbox, RunningSandbox } from '../../providers/registry.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from './server.js';

/** The QR gateway sandbox as the sandbox host runs it: its controls, and what the host asks of every sandbox. */
export type HostedQrGatewaySandbox = QrGatewaySandbox & RunningSandbox;

declare module '../../providers/registry.js' {
  interface ProviderSandboxes {
    'qr-gateway': HostedQrGatewaySandbox;
  }
}

/** What the sandbox reads of its provider's settings: the guesses it must make as the adapter does (Q2, and the wire names). */
export interface QrSandboxSettings {
  amountUnit: AmountUnit;
  wire: QrWire;
}

export const qrGatewaySandbox: ProviderSandbox<QrSandboxSettings, HostedQrGatewaySandbox> = {
  defaultPort: 4002,
  // The port's name before every provider setting carried its provider's prefix.
  portAlias: 'QR_SANDBOX_PORT',
  async start({ accounts, port, timeScale, stateDir, settings, logger }) {
    const sandbox = await startQrGatewaySandbox({
      host: '127.0.0.1',
      port,
      ...(stateDir !== undefined ? { stateDir } : {}),
      timeScale,
      amountUnit: settings.amountUnit,
      wire: settings.wire,
      logger,
      accounts: accounts.map((account) => ({ apiKey: account.apiKey, livemode: account.livemode })),
    });
    return {
      ...sandbox,
      banner: { url: sandbox.baseUrl, note: `dashboard ${sandbox.baseUrl}/dashboard` },
      // A sandbox that kept its state across a restart still has the gateway's registration.
      hasWebhook: (apiKey, url) => sandbox.controls.webhooks().some((registration) => registration.apiKey === apiKey && registration.url === url),
    };
  },
};
