// Configuration defaults that keep a gateway safe when started with nothing set, merchant accounts
// checked against their providers, and the providers' own settings as an operator sets them.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, providerVariables, type ConfigError } from '../../src/config.js';

describe('configuration defaults', () => {
  it('listens on loopback only unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('caps money-moving fields per operation, query length and kept rejected webhooks', () => {
    const config = loadConfig({});
    expect(config.graphql.maxMoneyFields).toBe(1);
    expect(config.graphql.maxQueryChars).toBe(20_000);
    expect(config.http.webhookRejectedKeep).toBe(1000);
    expect(() => loadConfig({ GRAPHQL_MAX_MONEY_FIELDS: '0' })).toThrow(/GRAPHQL_MAX_MONEY_FIELDS/);
  });
});

describe('merchant account keys', () => {
  const qr = (fields: Record<string, unknown>) =>
    JSON.stringify([{ code: 'qr-main', provider: 'qr-gateway', baseUrl: 'https://qr.example', webhookSecrets: ['whsec_example_secret'], ...fields }]);
  const dg = (fields: Record<string, unknown>) =>
    JSON.stringify([{ code: 'dg-main', provider: 'deposit-gateway', baseUrl: 'https://dg.example/v1', webhookSecrets: ['whsec_example_secret'], ...fields }]);
  const problemsOf = (accounts: string): string[] => {
    try {
      loadConfig({ MERCHANT_ACCOUNTS: accounts });
    } catch (error) {
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('takes the QR secret key (sk_test_, sk_live_) as the bearer and reads test or live from its prefix', () => {
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_test_not_a_real_key' }) }).merchantAccounts[0]).toMatchObject({ apiKey: 'sk_test_not_a_real_key', livemode: false });
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_live_not_a_real_key' }) }).merchantAccounts[0]).toMatchObject({ livemode: true });
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_live_not_a_real_key', livemode: true }) }).merchantAccounts[0]).toMatchObject({ livemode: true });
    expect(loadConfig({ MERCHANT_ACCOUNTS: dg({ apiKey: 'svc_live_not_a_real_key' }) }).merchantAccounts[0]).toMatchObject({ livemode: true });
    // With nothing configured, the sandbox QR account is a secret test key too.
    expect(loadConfig({}).merchantAccounts.find((account) => account.provider === 'qr-gateway')?.apiKey).toMatch(/^sk_test_/);
  });

  it('refuses a publishable pk_ key, saying which key to configure, without printing the key', () => {
    for (const apiKey of ['pk_test_not_a_real_key', 'pk_live_not_a_real_key']) {
      const problems = problemsOf(qr({ apiKey }));
      expect(problems).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[qr-main\]\.apiKey: .*publishable.*starts with sk_.*publishableKey/)]);
      expect(problems.join()).not.toContain('not_a_real_key');
    }
  });

  it('refuses a key of neither prefix, and a deposit gateway key on a QR account', () => {
    expect(problemsOf(qr({ apiKey: 'svc_test_not_a_real_key' }))).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[qr-main\]\.apiKey: a qr-gateway secret key starts with sk_$/)]);
    expect(problemsOf(dg({ apiKey: 'sk_test_not_a_real_key' }))).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[dg-main\]\.apiKey: .*svc_test_.*svc_live_/)]);
  });

  it('accepts any sk_ secret key, taking test or live from the publishable key or livemode (the spec marks the mode on pk_ keys)', () => {
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_not_a_real_key', publishableKey: 'pk_live_not_a_real_key' }) }).merchantAccounts[0]).toMatchObject({ livemode: true });
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_not_a_real_key', publishableKey: 'pk_test_not_a_real_key' }) }).merchantAccounts[0]).toMatchObject({ livemode: false });
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_not_a_real_key', livemode: true }) }).merchantAccounts[0]).toMatchObject({ livemode: true });
    // The publishable key is read for its mode and kept out of the account the adapter is given.
    expect(loadConfig({ MERCHANT_ACCOUNTS: qr({ apiKey: 'sk_not_a_real_key', publishableKey: 'pk_test_not_a_real_key' }) }).merchantAccounts[0]).not.toHaveProperty('publishableKey');
  });

  it('refuses a plain sk_ key that nothing says is test or live, and sources that disagree, without printing a key', () => {
    expect(problemsOf(qr({ apiKey: 'sk_not_a_real_key' }))).toEqual([
      'MERCHANT_ACCOUNTS[qr-main].apiKey: does not say test or live: give the account its publishableKey (pk_test_… or pk_live_…) or livemode',
    ]);
    expect(problemsOf(qr({ apiKey: 'sk_not_a_real_key', publishableKey: 'pk_live_not_a_real_key', livemode: false }))).toEqual([
      "MERCHANT_ACCOUNTS[qr-main].livemode: is false but the publishableKey is a live key (pk_live_); the key's prefix decides, so correct or drop livemode",
    ]);
    expect(problemsOf(qr({ apiKey: 'sk_test_not_a_real_key', publishableKey: 'pk_live_not_a_real_key' }))).toEqual([
      'MERCHANT_ACCOUNTS[qr-main].publishableKey: says live but the apiKey is a test key (sk_test_); they must be the same account\'s keys',
    ]);
    expect(problemsOf(qr({ apiKey: 'sk_not_a_real_key', publishableKey: 'sk_not_a_real_key' }))).toEqual([
      'MERCHANT_ACCOUNTS[qr-main].publishableKey: a qr-gateway publishable key starts with pk_test_ (test) or pk_live_ (live)',
    ]);
    expect(problemsOf(dg({ apiKey: 'svc_test_not_a_real_key', publishableKey: 'pk_test_not_a_real_key' }))).toEqual(['MERCHANT_ACCOUNTS[dg-main].publishableKey: deposit-gateway accounts have no publishable key; remove it']);
    expect(JSON.stringify(problemsOf(qr({ apiKey: 'sk_not_a_real_key' })))).not.toContain('not_a_real_key');
  });

  it('refuses a livemode that contradicts the key, naming the account and the field', () => {
    expect(problemsOf(qr({ apiKey: 'sk_test_not_a_real_key', livemode: true }))).toEqual([
      expect.stringMatching(/^MERCHANT_ACCOUNTS\[qr-main\]\.livemode: is true but the apiKey is a test key \(sk_test_\)/),
    ]);
    expect(problemsOf(qr({ apiKey: 'sk_live_not_a_real_key', livemode: false }))).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[qr-main\]\.livemode: is false .* live key \(sk_live_\)/)]);
    expect(problemsOf(dg({ apiKey: 'svc_test_not_a_real_key', livemode: true }))).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[dg-main\]\.livemode: /)]);
  });

  it('refuses a QR gateway base URL with a version on it, as its paths carry their versions (Q16)', () => {
    for (const baseUrl of ['https://qr.example/v1', 'https://qr.example/Thai/v1/']) {
      expect(problemsOf(qr({ apiKey: 'sk_test_not_a_real_key', baseUrl }))).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[qr-main\]\.baseUrl: the QR gateway's base URL is its bare address/)]);
    }
    for (const baseUrl of ['https://qr.example', 'https://qr.example/', 'https://qr.example/gateway']) {
      expect(problemsOf(qr({ apiKey: 'sk_test_not_a_real_key', baseUrl })), baseUrl).toEqual([]);
    }
  });

  it('refuses a deposit gateway base URL without the /v1 prefix its paths live under, at start rather than on the first call', () => {
    for (const baseUrl of ['https://dg.example', 'https://dg.example/', 'https://dg.example/api', 'https://dg.example/v1/payments']) {
      expect(problemsOf(dg({ apiKey: 'svc_test_not_a_real_key', baseUrl }))).toEqual([
        expect.stringMatching(/^MERCHANT_ACCOUNTS\[dg-main\]\.baseUrl: .*\/v1/),
      ]);
    }
    for (const baseUrl of ['https://dg.example/v1', 'https://dg.example/v1/', 'https://dg.example/gateway/v1']) {
      expect(problemsOf(dg({ apiKey: 'svc_test_not_a_real_key', baseUrl })), baseUrl).toEqual([]);
    }
    // The rule is the deposit gateway's own: a QR account's base URL has no such prefix.
    expect(problemsOf(qr({ apiKey: 'sk_test_not_a_real_key', baseUrl: 'https://qr.example' }))).toEqual([]);
  });
});

describe("the providers' own settings", () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('are documented in the configuration table of docs/configuration.md, each under its name and its older one', () => {
    const page = readFileSync(path.resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
    const rows = page.split('\n').filter((line) => line.startsWith('| `'));
    for (const { variable, alias } of providerVariables()) {
      const row = rows.find((line) => line.startsWith(`| \`${variable}\``));
      expect(row, `docs/configuration.md has no row for ${variable}`).toBeDefined();
      if (alias) expect(row, `docs/configuration.md's row for ${variable} does not name ${alias}`).toContain(`\`${alias}\``);
    }
  });

  it('switch the QR gateway as before under their older names, and each bad one is a problem of its own', () => {
    const qr = (env: Record<string, string>) => loadConfig(env).providers.byProvider['qr-gateway'];
    expect(qr({ QR_AMOUNT_UNIT: 'baht', QR_REGISTER_WEBHOOK: '1' })).toMatchObject({ amountUnit: 'baht', registerWebhook: true });
    expect(qr({ QR_GATEWAY_AMOUNT_UNIT: 'baht', QR_GATEWAY_REGISTER_WEBHOOK: 'true' })).toMatchObject({ amountUnit: 'baht', registerWebhook: true });
    expect(qr({ QR_GATEWAY_WIRE_EXPIRY_FIELD: 'expiry', QR_GATEWAY_WIRE_CODE_ID_FIELD: 'payment_id' })).toMatchObject({ wire: { expiryField: 'expiry', codeIdField: 'payment_id', payloadField: 'qr_payload' } });
    expect(problemsOf({ QR_AMOUNT_UNIT: 'cents', QR_GATEWAY_WIRE_EXPIRY_FIELD: '9lives', DEPOSIT_GATEWAY_SANDBOX_PORT: '-1' })).toEqual([
      'DEPOSIT_GATEWAY_SANDBOX_PORT: must be a port number',
      'QR_AMOUNT_UNIT: must be satang or baht',
      'QR_GATEWAY_WIRE_EXPIRY_FIELD: must be a JSON field name: letters, digits and underscores, not starting with a digit',
    ]);
  });
});
