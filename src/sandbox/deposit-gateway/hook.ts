// The deposit gateway sandbox as its provider definition's `sandbox` hook: how the sandbox host
// starts it for the deposit gateway's sandbox accounts, and the commands a test in another process
// drives it with (`npm run sandboxes`, forked).

import type { ProviderSandbox, RunningSandbox } from '../../providers/registry.js';
import { startDepositGatewaySandbox, type DepositGatewaySandbox, type DepositGatewaySandboxControls, type FailNextOptions } from './index.js';

/** The deposit gateway sandbox as the sandbox host runs it: its controls, and what the host asks of every sandbox. */
export type HostedDepositGatewaySandbox = DepositGatewaySandbox & RunningSandbox;

declare module '../../providers/registry.js' {
  interface ProviderSandboxes {
    'deposit-gateway': HostedDepositGatewaySandbox;
  }
}

export const depositGatewaySandbox: ProviderSandbox<object, HostedDepositGatewaySandbox> = {
  // Beside the gateway's default 4000: its redirect addresses, kept in payments, outlive a restart.
  defaultPort: 4001,
  // The port's name before every provider setting carried its provider's prefix.
  portAlias: 'DEPOSIT_SANDBOX_PORT',
  async start({ accounts, webhookBaseUrl, port, timeScale, autoComplete, stateDir, logger }) {
    const sandbox = await startDepositGatewaySandbox({
      host: '127.0.0.1',
      port,
      ...(stateDir !== undefined ? { stateDir } : {}),
      timeScale,
      autoComplete,
      logger,
      accounts: accounts.map((account) => ({
        apiKey: account.apiKey,
        webhookSecret: account.webhookSecrets[0]!,
        webhookUrl: `${webhookBaseUrl}/webhooks/deposit-gateway/${account.code}`,
      })),
    });
    return {
      ...sandbox,
      // Its API is under /v1; the hosted pages and the health check are at the root.
      healthUrl: `${sandbox.checkoutUrl}/healthz`,
      banner: { url: sandbox.checkoutUrl },
      command: (name, args) => command(sandbox.controls, name, args),
    };
  },
};

/** `records`, `failNext` (args: FailNextOptions), `clearFailures`, `requestCount` (args: `[pathPrefix, method]`), `deliveries`, `idle`. */
async function command(controls: DepositGatewaySandboxControls, name: string, args: readonly unknown[]): Promise<unknown> {
  switch (name) {
    case 'records':
      return controls.records();
    case 'failNext':
      controls.failNext(args[0] as FailNextOptions | undefined);
      return null;
    case 'clearFailures':
      controls.clearFailures();
      return null;
    case 'requestCount':
      return controls.requestCount(args[0] as string | undefined, args[1] as string | undefined);
    case 'deliveries':
      return controls.deliveries();
    case 'idle':
      await controls.idle();
      return null;
    default:
      throw new Error(`unknown command ${JSON.stringify(name)}`);
  }
}
