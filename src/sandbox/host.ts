// Hosts the provider sandboxes in-process when no provider URLs are configured: each listens on
// its own loopback port and the gateway reaches it over real HTTP, exactly as a real provider.

import type { MerchantAccountConfig } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { ListenError } from '../lib/http.js';
import type { ProviderDefinition, RunningSandbox } from '../providers/registry.js';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from './deposit-gateway/index.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from './qr-gateway/index.js';

export interface SandboxHost {
  depositGateway?: DepositGatewaySandbox;
  qrGateway?: QrGatewaySandbox;
  /** The sandboxes of providers registered at start-up that declare one, by provider name. */
  registered: Map<string, RunningSandbox>;
  /** Each running sandbox's health over HTTP: `up` or `down`. */
  health(): Promise<Record<string, 'up' | 'down'>>;
  close(): Promise<void>;
}

export interface StartSandboxesOptions {
  /** Accounts marked `sandbox`; their `baseUrl` is filled in here. */
  accounts: MerchantAccountConfig[];
  /** Where the gateway receives webhooks: `<webhookBaseUrl>/webhooks/<provider>/<account>`. */
  webhookBaseUrl: string;
  timeScale: number;
  autoComplete: boolean;
  qrAmountUnit: 'satang' | 'baht';
  /** Fixed ports (0: any free port): a restarted sandbox answers at the addresses it gave out before. */
  ports?: { deposit: number; qr: number };
  /** Where the sandboxes keep their state across restarts; undefined: memory only. */
  stateDir?: string;
  /** The registered providers: those that declare a sandbox get it started for their sandbox accounts. */
  providers?: readonly ProviderDefinition[];
  logger: Logger;
}

/** A fixed port already taken is a configuration problem: say which variable to change. */
async function onPort<T>(variable: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ListenError(`${variable}=${port}: port ${port} is already in use (another gateway or sandbox running?); stop it, or set ${variable} to a free port (0: any free port)`, 'EADDRINUSE');
    }
    throw error;
  }
}

export async function startSandboxes(options: StartSandboxesOptions): Promise<SandboxHost> {
  const log = options.logger.child({ component: 'sandbox' });
  const depositAccounts = options.accounts.filter((account) => account.provider === 'deposit-gateway');
  const qrAccounts = options.accounts.filter((account) => account.provider === 'qr-gateway');
  const host: SandboxHost = {
    registered: new Map(),
    async health() {
      const entries = await Promise.all(
        [
          ...Object.entries({ 'deposit-gateway': host.depositGateway?.checkoutUrl, 'qr-gateway': host.qrGateway?.baseUrl }).map(([name, base]) => [name, base && `${base}/healthz`] as const),
          ...[...host.registered].map(([name, sandbox]) => [name, sandbox.healthUrl ?? `${sandbox.baseUrl}/healthz`] as const),
        ]
          .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
          .map(async ([name, url]) => [name, (await isUp(url)) ? 'up' : 'down'] as const),
      );
      return Object.fromEntries(entries);
    },
    async close() {
      await Promise.all([host.depositGateway?.close(), host.qrGateway?.close(), ...[...host.registered.values()].map((sandbox) => sandbox.close())]);
    },
  };

  if (depositAccounts.length > 0) {
    const port = options.ports?.deposit ?? 0;
    host.depositGateway = await onPort('DEPOSIT_SANDBOX_PORT', port, () => startDepositGatewaySandbox({
      host: '127.0.0.1',
      port,
      ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
      timeScale: options.timeScale,
      autoComplete: options.autoComplete,
      logger: log.child({ provider: 'deposit-gateway' }),
      accounts: depositAccounts.map((account) => ({
        apiKey: account.apiKey,
        webhookSecret: account.webhookSecrets[0]!,
        webhookUrl: `${options.webhookBaseUrl}/webhooks/deposit-gateway/${account.code}`,
      })),
    }));
    for (const account of depositAccounts) account.baseUrl = host.depositGateway.baseUrl;
    log.info({ provider: 'deposit-gateway', url: host.depositGateway.checkoutUrl, stateDir: options.stateDir ?? null }, 'sandbox started');
  }

  if (qrAccounts.length > 0) {
    const port = options.ports?.qr ?? 0;
    // A QR sandbox that cannot start must not leave the deposit sandbox holding its port.
    host.qrGateway = await startQr(port).catch(async (error: unknown) => {
      await host.close();
      throw error;
    });
    for (const account of qrAccounts) account.baseUrl = host.qrGateway.baseUrl;
    log.info({ provider: 'qr-gateway', url: host.qrGateway.baseUrl, stateDir: options.stateDir ?? null }, 'sandbox started');
  }

  for (const definition of options.providers ?? []) {
    const accounts = options.accounts.filter((account) => account.provider === definition.name);
    if (!definition.sandbox || accounts.length === 0) continue;
    const sandbox = await definition.sandbox.start({ accounts, webhookBaseUrl: options.webhookBaseUrl, logger: log.child({ provider: definition.name }) }).catch(async (error: unknown) => {
      await host.close();
      throw error;
    });
    host.registered.set(definition.name, sandbox);
    for (const account of accounts) account.baseUrl = sandbox.baseUrl;
    log.info({ provider: definition.name, url: sandbox.baseUrl }, 'sandbox started');
  }
  return host;

  function startQr(port: number): Promise<QrGatewaySandbox> {
    return onPort('QR_SANDBOX_PORT', port, () => startQrGatewaySandbox({
      host: '127.0.0.1',
      port,
      ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
      timeScale: options.timeScale,
      amountUnit: options.qrAmountUnit,
      logger: log.child({ provider: 'qr-gateway' }),
      accounts: qrAccounts.map((account) => ({ apiKey: account.apiKey, livemode: account.livemode })),
    }));
  }
}

async function isUp(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}
