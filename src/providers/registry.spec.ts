import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { BUILT_IN_PROVIDERS, providerRegistry } from './index.js';
import type { DepositProvider, ProviderName } from './provider.js';
import { graphqlValueOf, providerNameOf, ProviderRegistry, type ProviderDefinition } from './registry.js';

const silent = createLogger({ level: 'silent' });
const settings = { timeoutMs: 1_000, maxRetries: 0, byProvider: {} };

/** A throwaway provider: a real one adds its name to ProviderNames in its own folder. */
function acme(overrides: Partial<ProviderDefinition> = {}): ProviderDefinition {
  return {
    name: 'acme-pay' as ProviderName,
    description: 'Acme.',
    rails: ['PIX'],
    keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key) => (key.startsWith('acme_test_') ? 'test' : undefined), rule: () => 'an acme-pay key starts with acme_test_' },
    createAdapter: () => ({ deposits: { name: 'acme-pay', rails: ['PIX'] } as unknown as DepositProvider }),
    ...overrides,
  };
}

describe('the provider registry', () => {
  it('lists the built-in providers in order, and a gateway\'s own after them', () => {
    const registry = providerRegistry([acme()]);
    expect(registry.names()).toEqual([...BUILT_IN_PROVIDERS.map((definition) => definition.name), 'acme-pay']);
    // A rail several serve goes to the first registered, unless the request names an account.
    expect(registry.forRail('PIX').at(-1)).toBe('acme-pay');
    expect(registry.forRail('PIX')[0]).not.toBe('acme-pay');
  });

  it('gives each provider with a sandbox its default sandbox accounts, in the mode their keys say', () => {
    const sandbox = { start: () => Promise.reject(new Error('not started here')) };
    const keys = { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key: string) => (key.startsWith('acme_test_') ? 'test' as const : key.startsWith('acme_live_') ? 'live' as const : undefined), rule: () => 'an acme-pay key starts with acme_test_ or acme_live_' };
    const accounts = [
      { code: 'acme-test', apiKey: 'acme_test_sandbox', webhookSecrets: ['whsec_a'] },
      { code: 'acme-live', apiKey: 'acme_live_sandbox', webhookSecrets: ['whsec_b'] },
    ];
    const registry = new ProviderRegistry([acme({ keys, sandbox, defaultSandboxAccounts: accounts })]);
    expect(registry.defaultSandboxAccounts().map(({ code, livemode, sandbox: served }) => [code, livemode, served])).toEqual([
      ['acme-test', false, true],
      ['acme-live', true, true],
    ]);
    // Without a sandbox to serve them, none: such an account would have no address to call.
    expect(new ProviderRegistry([acme({ keys, defaultSandboxAccounts: accounts })]).defaultSandboxAccounts()).toEqual([]);
    expect(() => new ProviderRegistry([acme({ keys, sandbox, defaultSandboxAccounts: [accounts[0]!, { ...accounts[1]!, code: 'acme-test' }] })])).toThrow(/has the code of one of "acme-pay"/);
    expect(() => new ProviderRegistry([acme({ keys, sandbox, defaultSandboxAccounts: [{ ...accounts[0]!, apiKey: 'nope' }] })])).toThrow(/must say test or live/);
  });

  it('has the built-in default accounts: a test one per provider first, and the deposit gateway\'s live one for hosted checkout', () => {
    expect(providerRegistry().defaultSandboxAccounts().map(({ code, provider, livemode }) => [code, provider, livemode])).toEqual([
      ['dg-test', 'deposit-gateway', false],
      ['dg-live', 'deposit-gateway', true],
      ['qr-test', 'qr-gateway', false],
    ]);
  });

  it('refuses a bad or repeated name', () => {
    expect(() => new ProviderRegistry([acme({ name: 'Acme_Pay' as ProviderName })])).toThrow(/lower-case letters, digits and single dashes/);
    expect(() => new ProviderRegistry([acme(), acme()])).toThrow(/registered twice/);
  });

  it('checks an account against its provider: unknown names list the registered ones; keys follow the provider\'s rule', () => {
    const registry = new ProviderRegistry([acme()]);
    expect(registry.checkAccount({ code: 'a', provider: 'nope', apiKey: 'x' })).toEqual({ ok: false, field: 'provider', message: 'unknown provider "nope"; the registered providers are acme-pay' });
    expect(registry.checkAccount({ code: 'a', provider: 'acme-pay', apiKey: 'x' })).toEqual({ ok: false, field: 'apiKey', message: 'an acme-pay key starts with acme_test_' });
    expect(registry.checkAccount({ code: 'a', provider: 'acme-pay', apiKey: 'acme_test_1' })).toEqual({ ok: true, mode: 'test' });
  });

  it('makes one set of ports per provider, refusing a deposit port with another name', () => {
    expect(new ProviderRegistry(BUILT_IN_PROVIDERS).createAdapters(settings, silent).names()).toEqual(BUILT_IN_PROVIDERS.map((definition) => definition.name));
    expect(() => new ProviderRegistry([acme({ createAdapter: () => ({ deposits: { name: 'other' } as unknown as DepositProvider }) })]).createAdapters(settings, silent)).toThrow(/deposit adapter named "other"/);
  });

  it('hands a service the port of an account\'s own provider, or the user error that says the provider lacks it', () => {
    const requestRefund = async () => ({ ok: false as const, error: { code: 'PROVIDER_UNAVAILABLE' as const, message: 'not in a unit test', outcomeUnknown: true } });
    const adapters = new ProviderRegistry([acme({ createAdapter: () => ({ deposits: { name: 'acme-pay' } as unknown as DepositProvider, refunds: { requestRefund } }) })]).createAdapters(settings, silent);
    const account = { code: 'acme-main', provider: 'acme-pay' as ProviderName };

    const refunds = adapters.adapterFor(account, 'refunds');
    expect(refunds).toEqual({ ok: true, port: { requestRefund } });
    expect(adapters.capabilitiesOf('acme-pay')).toEqual(['refunds']);
    expect(adapters.adapterFor(account, 'payouts')).toEqual({ ok: false, error: { code: 'CAPABILITY_NOT_SUPPORTED', message: 'Merchant account "acme-main" is at acme-pay, which offers no payouts' } });
    // Refunds keep the code clients already handle.
    expect(new ProviderRegistry([acme()]).createAdapters(settings, silent).adapterFor(account, 'refunds')).toMatchObject({ ok: false, error: { code: 'REFUND_NOT_SUPPORTED' } });
    expect(adapters.findDeposits('nope')).toBeUndefined();
  });

  it('names a provider in GraphQL by its name in upper case, and back', () => {
    for (const definition of BUILT_IN_PROVIDERS) expect(providerNameOf(graphqlValueOf(definition.name))).toBe(definition.name);
    expect(graphqlValueOf('acme-pay')).toBe('ACME_PAY');
  });
});
