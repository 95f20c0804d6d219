import { describe, expect, it } from 'vitest';
import type { MerchantAccountConfig } from '../config.js';
import { createLogger } from '../lib/logger.js';
import type { DepositProvider, ProviderName } from '../providers/provider.js';
import { ProviderRegistry, type ProviderDefinition, type RunningSandbox } from '../providers/registry.js';
import { isLoopback, startSandboxes } from './host.js';

/** A provider whose sandbox says it listens at `baseUrl`, and records whether it was closed. */
function providerWithSandbox(baseUrl: string): { definition: ProviderDefinition; closed: () => boolean } {
  let closed = false;
  const running: RunningSandbox = {
    baseUrl,
    close: () => {
      closed = true;
      return Promise.resolve();
    },
  };
  const definition: ProviderDefinition = {
    name: 'acme-pay' as ProviderName,
    description: 'Acme.',
    rails: ['PIX'],
    keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key) => (key.startsWith('acme_live_') ? 'live' : 'test'), rule: () => 'an acme-pay key starts with acme_test_ or acme_live_' },
    createAdapter: () => ({ deposits: { name: 'acme-pay', rails: ['PIX'] } as unknown as DepositProvider }),
    sandbox: { start: () => Promise.resolve(running) },
  };
  return { definition, closed: () => closed };
}

const liveAccount = (): MerchantAccountConfig => ({ code: 'acme-live', provider: 'acme-pay' as ProviderName, livemode: true, sandbox: true, baseUrl: '', apiKey: 'acme_live_sandbox', webhookSecrets: ['whsec_a'] });

function start(definition: ProviderDefinition, accounts: MerchantAccountConfig[]) {
  return startSandboxes({
    accounts,
    webhookBaseUrl: 'http://127.0.0.1:4000',
    config: { sandbox: { timeScale: 1, autoComplete: true, ports: {}, stateDir: undefined }, providers: { timeoutMs: 1_000, maxRetries: 0, byProvider: {} } },
    registry: new ProviderRegistry([definition]),
    logger: createLogger({ level: 'silent' }),
  });
}

describe('the sandbox host', () => {
  it('gives a sandbox account, live mode too, the address of its sandbox on loopback', async () => {
    const { definition } = providerWithSandbox('http://127.0.0.1:4101/v1');
    const account = liveAccount();
    const host = await start(definition, [account]);
    expect(account.baseUrl).toBe('http://127.0.0.1:4101/v1');
    await host.close();
  });

  it('refuses to start when a sandbox says it listens anywhere but on this machine: a sandbox account never calls out', async () => {
    const { definition, closed } = providerWithSandbox('https://api.acme.example/v1');
    const account = liveAccount();
    await expect(start(definition, [account])).rejects.toThrow(/not on this machine's loopback/);
    expect(account.baseUrl).toBe('');
    expect(closed()).toBe(true);
  });

  it('knows loopback addresses', () => {
    expect(['http://127.0.0.1:4001/v1', 'http://127.3.4.5', 'http://localhost:4002', 'http://[::1]:4001'].filter(isLoopback)).toHaveLength(4);
    expect(['https://api.provider.example/v1', 'http://10.0.0.1', 'http://127.0.0.1.example.com', 'not a url', ''].filter(isLoopback)).toEqual([]);
  });
});
