// Hosts the provider sandboxes in-process when no provider URLs are configured: each registered
// provider's sandbox, started through its definition's `sandbox` hook for its sandbox accounts,
// listens on its own loopback port and the gateway reaches it over real HTTP, exactly as a real provider.

import type { GatewayConfig, MerchantAccountConfig } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { ListenError } from '../lib/http.js';
import type { ProviderRegistry, ProviderSandboxes, RunningSandbox } from '../providers/registry.js';

export interface SandboxHost {
  /** The running sandbox of a provider, typed for those that declare theirs (`ProviderSandboxes`); undefined when none runs. */
  get<N extends keyof ProviderSandboxes>(provider: N): (ProviderSandboxes[N] & RunningSandbox) | undefined;
  get(provider: string): RunningSandbox | undefined;
  /** Every running sandbox by provider name, in registration order. */
  running(): ReadonlyMap<string, RunningSandbox>;
  /** Each running sandbox's health over HTTP: `up` or `down`. */
  health(): Promise<Record<string, 'up' | 'down'>>;
  close(): Promise<void>;
}

export interface StartSandboxesOptions {
  /** Accounts marked `sandbox`; their `baseUrl` is filled in here. */
  accounts: MerchantAccountConfig[];
  /** Where the gateway receives webhooks: `<webhookBaseUrl>/webhooks/<provider>/<account>`. */
  webhookBaseUrl: string;
  /** The sandboxes' clock, auto-completion, ports and kept state, and the providers' settings they are given. */
  config: Pick<GatewayConfig, 'sandbox' | 'providers'>;
  /** The registered providers: each that declares a sandbox gets it started for its sandbox accounts. */
  registry: ProviderRegistry;
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
  const { sandbox: settings, providers } = options.config;
  const running = new Map<string, RunningSandbox>();
  const host: SandboxHost = {
    get: (provider: string) => running.get(provider),
    running: () => running,
    async health() {
      const entries = await Promise.all([...running].map(async ([name, sandbox]) => [name, (await isUp(sandbox.healthUrl ?? `${sandbox.baseUrl}/healthz`)) ? 'up' : 'down'] as const));
      return Object.fromEntries(entries);
    },
    async close() {
      await Promise.all([...running.values()].map((sandbox) => sandbox.close()));
    },
  };

  for (const definition of options.registry.definitions()) {
    const accounts = options.accounts.filter((account) => account.provider === definition.name);
    if (!definition.sandbox || accounts.length === 0) continue;
    const { sandbox: hook } = definition;
    // A provider the configuration was loaded without has no port of its own there: any free port.
    const { port, variable } = settings.ports[definition.name] ?? { port: 0, variable: '' };
    const start = () =>
      hook.start({
        accounts,
        webhookBaseUrl: options.webhookBaseUrl,
        port,
        timeScale: settings.timeScale,
        autoComplete: settings.autoComplete,
        stateDir: settings.stateDir,
        settings: options.registry.settingsOf(definition, providers),
        logger: log.child({ provider: definition.name }),
      });
    // A sandbox that cannot start must not leave those started before it holding their ports.
    const sandbox = await onPort(variable, port, start).catch(async (error: unknown) => {
      await host.close();
      throw error;
    });
    running.set(definition.name, sandbox);
    // A sandbox account, live-mode ones included, only ever calls a sandbox on this machine: never
    // a provider's address, whatever a sandbox hook returns.
    if (!isLoopback(sandbox.baseUrl)) {
      await host.close();
      throw new Error(`The ${definition.name} sandbox listens at ${sandbox.baseUrl}, not on this machine's loopback: its sandbox accounts must never call elsewhere`);
    }
    for (const account of accounts) account.baseUrl = sandbox.baseUrl;
    log.info(
      {
        provider: definition.name,
        url: sandbox.banner?.url ?? sandbox.baseUrl,
        stateDir: settings.stateDir ?? null,
        // Every account here is simulated, a live-mode one too: no real money moves.
        accounts: accounts.map((account) => ({ code: account.code, livemode: account.livemode, sandbox: true })),
      },
      'sandbox started',
    );
  }
  return host;
}

/** Whether an address is on this machine's loopback (127.0.0.0/8, ::1 or localhost). */
export function isLoopback(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

async function isUp(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}
