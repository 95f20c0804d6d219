// Merchant accounts as configured: each checked against its provider's key rules and mode through
// the registry, without echoing a key, and sandbox accounts refused in production.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { ProviderName } from '../providers/provider.js';
import type { ProviderDefinition } from '../providers/registry.js';
import { problems, SECRETS_KEY } from './config.fixture.js';

describe('merchant accounts', () => {
  it('checks merchant account keys against the provider and mode, without echoing them', () => {
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_test_not_a_real_key', webhookSecrets: ['whsec_123456789'] };
    const found = problems({ MERCHANT_ACCOUNTS: JSON.stringify([account]) });
    // The key's prefix decides the mode: a livemode that contradicts it is named, the key is not echoed.
    expect(found).toEqual([
      "MERCHANT_ACCOUNTS[dg-live].livemode: is true but the apiKey is a test key (svc_test_); the key's prefix decides, so correct or drop livemode",
    ]);
    expect(found.join()).not.toContain('not_a_real_key');
    const foreign = problems({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...account, apiKey: 'sk_live_not_a_real_key' }]) });
    expect(foreign).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[dg-live\]\.apiKey: /)]);
    expect(foreign.join()).not.toContain('not_a_real_key');
  });

  it('takes providers from the registry: an unknown one is refused with the registered names, a registered one is accepted', () => {
    const account = { code: 'acme-main', provider: 'acme-pay', baseUrl: 'https://acme.example', apiKey: 'acme_test_not_a_real_key', webhookSecrets: ['whsec_123456789'] };
    const env = { MERCHANT_ACCOUNTS: JSON.stringify([account]) };
    expect(problems(env)).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[acme-main\]\.provider: unknown provider "acme-pay"; the registered providers are [a-z-]+(, [a-z-]+)+$/)]);
    const acme: ProviderDefinition = {
      // A provider's folder adds its name to ProviderNames; this throwaway one only borrows the type.
      name: 'acme-pay' as ProviderName,
      description: 'Acme.',
      rails: ['PIX'],
      keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key) => (key.startsWith('acme_test_') ? 'test' : undefined), rule: () => 'an acme-pay key starts with acme_test_' },
      createAdapter: () => {
        throw new Error('not needed to load the configuration');
      },
    };
    const config = loadConfig(env, { providers: [acme] });
    expect(config.merchantAccounts).toEqual([expect.objectContaining({ code: 'acme-main', provider: 'acme-pay', livemode: false })]);
    expect(() => loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...account, apiKey: 'wrong_key_1234' }]) }, { providers: [acme] })).toThrow(/acme-pay key starts with acme_test_/);
  });

  it('accepts sandbox accounts without a base URL outside production, and refuses them in production', () => {
    const sandbox = { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    expect(loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([sandbox]) }).merchantAccounts[0]).toMatchObject({ code: 'dg-live-sim', sandbox: true, baseUrl: '' });
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', PUBLIC_URL: 'https://gw.example', GATEWAY_SECRETS_KEY: SECRETS_KEY, MERCHANT_ACCOUNTS: JSON.stringify([sandbox]) })).toEqual([
      'MERCHANT_ACCOUNTS[dg-live-sim].sandbox: sandbox accounts are refused when NODE_ENV=production',
    ]);
    const { sandbox: _flag, ...real } = sandbox;
    expect(problems({ MERCHANT_ACCOUNTS: JSON.stringify([real]) })).toEqual(['MERCHANT_ACCOUNTS[dg-live-sim].baseUrl: required unless the account is a sandbox account']);
  });
});
