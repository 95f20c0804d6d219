import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, outboundPolicy } from './config.js';
import type { ProviderName } from './providers/provider.js';
import type { ProviderDefinition } from './providers/registry.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has working defaults: embedded database, sandboxes, demo clients, port 4000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', port: 4000, databaseUrl: undefined, demoClients: true });
    expect(config.merchantAccounts.map((account) => [account.code, account.provider, account.livemode, account.sandbox])).toEqual([
      ['dg-test', 'deposit-gateway', false, true],
      ['qr-test', 'qr-gateway', false, true],
    ]);
    expect(config.graphql.graphiql).toBe(true);
    expect(config.jobs).toEqual({ enabled: true, pollIntervalMs: 1_000, wakeDelayMs: 20, concurrency: 4, backoffBaseMs: 1_000, backoffMaxMs: 300_000, maxAttempts: 10 });
    expect(config.database).toEqual({ connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 30_000 });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: .*postgres/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ SANDBOX_TIME_SCALE: '-1' }, /^SANDBOX_TIME_SCALE: /],
    [{ DEMO_CLIENTS: 'maybe' }, /^DEMO_CLIENTS: must be true or false/],
    [{ QR_AMOUNT_UNIT: 'cents' }, /^QR_AMOUNT_UNIT: /],
    [{ MERCHANT_ACCOUNTS: 'not json' }, /^MERCHANT_ACCOUNTS: must be a JSON array/],
    [{ MERCHANT_ACCOUNTS: '[{"code":"a"}]' }, /^MERCHANT_ACCOUNTS\[0\.provider\]/],
    [{ JOBS_POLL_INTERVAL_MS: '0' }, /^JOBS_POLL_INTERVAL_MS: /],
    [{ JOBS_WAKE_DELAY_MS: '-1' }, /^JOBS_WAKE_DELAY_MS: /],
    [{ JOBS_WAKE_DELAY_MS: '60000' }, /^JOBS_WAKE_DELAY_MS: /],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, /^DATABASE_CONNECT_TIMEOUT_MS: /],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '5s' }, /^DATABASE_STATEMENT_TIMEOUT_MS: must be a whole number/],
    [{ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '-1' }, /^DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: /],
    [{ JOBS_ENABLED: 'sometimes' }, /^JOBS_ENABLED: must be true or false/],
    [{ JOBS_BACKOFF_BASE_MS: '5000', JOBS_BACKOFF_MAX_MS: '1000' }, /^JOBS_BACKOFF_MAX_MS: must be at least JOBS_BACKOFF_BASE_MS/],
  ])('names the variable in error for %j', (env, pattern) => {
    expect(problems(env).some((problem) => pattern.test(problem))).toBe(true);
  });

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
      capabilities: {},
      createAdapter: () => {
        throw new Error('not needed to load the configuration');
      },
    };
    const config = loadConfig(env, { providers: [acme] });
    expect(config.merchantAccounts).toEqual([expect.objectContaining({ code: 'acme-main', provider: 'acme-pay', livemode: false })]);
    expect(() => loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...account, apiKey: 'wrong_key_1234' }]) }, { providers: [acme] })).toThrow(/acme-pay key starts with acme_test_/);
  });

  it('refuses production without a database, real accounts and a public URL, and refuses demo clients', () => {
    const found = problems({ NODE_ENV: 'production', DEMO_CLIENTS: 'true' });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DATABASE_URL: required/),
        expect.stringMatching(/^MERCHANT_ACCOUNTS: required/),
        expect.stringMatching(/^DEMO_CLIENTS: demo clients are refused/),
        expect.stringMatching(/^PUBLIC_URL: required/),
      ]),
    );
  });

  it('accepts sandbox accounts without a base URL outside production, and refuses them in production', () => {
    const sandbox = { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    expect(loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([sandbox]) }).merchantAccounts[0]).toMatchObject({ code: 'dg-live-sim', sandbox: true, baseUrl: '' });
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', PUBLIC_URL: 'https://gw.example', MERCHANT_ACCOUNTS: JSON.stringify([sandbox]) })).toEqual([
      'MERCHANT_ACCOUNTS[dg-live-sim].sandbox: sandbox accounts are refused when NODE_ENV=production',
    ]);
    const { sandbox: _flag, ...real } = sandbox;
    expect(problems({ MERCHANT_ACCOUNTS: JSON.stringify([real]) })).toEqual(['MERCHANT_ACCOUNTS[dg-live-sim].baseUrl: required unless the account is a sandbox account']);
  });

  it('starts production with everything real, demo clients and GraphiQL off', () => {
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/gateway',
      PUBLIC_URL: 'https://gateway.example',
      MERCHANT_ACCOUNTS: JSON.stringify([account]),
    });
    expect(config).toMatchObject({ demoClients: false, graphql: { graphiql: false } });
    expect(config.merchantAccounts[0]).toMatchObject({ code: 'dg-live', sandbox: false });
  });

  describe('metrics', () => {
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/gateway', PUBLIC_URL: 'https://gateway.example', MERCHANT_ACCOUNTS: JSON.stringify([account]) };
    const token = 'a-metrics-token-0123456789';

    it('in production, are on a loopback listener of their own unless told otherwise', () => {
      expect(loadConfig(production).metrics).toEqual({ listener: { host: '127.0.0.1', port: 9464 }, token: undefined });
      expect(loadConfig({ ...production, METRICS_HOST: '0.0.0.0', METRICS_PORT: '9100', METRICS_TOKEN: token }).metrics).toEqual({ listener: { host: '0.0.0.0', port: 9100 }, token });
    });

    it('share the API port outside production, and in production only behind a token', () => {
      expect(loadConfig({}).metrics).toEqual({ listener: undefined, token: undefined });
      expect(loadConfig({ METRICS_PORT: '0' }).metrics.listener).toEqual({ host: '127.0.0.1', port: 0 });
      expect(problems({ ...production, METRICS_PORT: 'shared' })).toEqual([expect.stringMatching(/^METRICS_PORT: "shared" serves \/metrics on the API's port.*METRICS_TOKEN/)]);
      expect(loadConfig({ ...production, METRICS_PORT: 'shared', METRICS_TOKEN: token }).metrics).toEqual({ listener: undefined, token });
    });

    it('refuse a port another listener has, a short token and a bad port', () => {
      expect(problems({ PORT: '4000', METRICS_PORT: '4000' })).toEqual(['METRICS_PORT: 4000 is PORT too; metrics need a port of their own']);
      expect(problems({ METRICS_PORT: '4001' })).toEqual(['METRICS_PORT: 4001 is DEPOSIT_SANDBOX_PORT too; metrics need a port of their own']);
      expect(problems({ METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN: must be at least 16 characters/)]);
      expect(problems({ METRICS_PORT: 'nine' })).toEqual([expect.stringMatching(/^METRICS_PORT: /)]);
    });
  });
});

describe('retention settings', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const base = { NODE_ENV: 'test' };

  it('default to a 24-hour key window, 30 days for keys in doubt and for webhook bodies, 90 days for personal data, an hourly sweep', () => {
    expect(loadConfig(base).retention).toEqual({
      enabled: true,
      intervalMs: HOUR,
      batchSize: 500,
      idempotencyKeyWindowMs: DAY,
      idempotencyInDoubtWindowMs: 30 * DAY,
      webhookBodyMs: 30 * DAY,
      personalDataMs: 90 * DAY,
    });
    expect(loadConfig({ ...base, PERSONAL_DATA_RETENTION_MS: String(120 * DAY) }).retention.personalDataMs).toBe(120 * DAY);
  });

  it('refuse a bad value with a message naming the variable', () => {
    expect(problems({ ...base, IDEMPOTENCY_KEY_WINDOW_MS: '1000' })).toEqual([expect.stringMatching(/^IDEMPOTENCY_KEY_WINDOW_MS: must be at least 3600000/)]);
    expect(problems({ ...base, IDEMPOTENCY_KEY_WINDOW_MS: '0' })).toEqual([expect.stringMatching(/^IDEMPOTENCY_KEY_WINDOW_MS: /)]);
    expect(problems({ ...base, WEBHOOK_BODY_RETENTION_MS: '30d' })).toEqual([expect.stringMatching(/^WEBHOOK_BODY_RETENTION_MS: must be a whole number/)]);
    expect(problems({ ...base, WEBHOOK_BODY_RETENTION_MS: '99999999999999' })).toEqual([expect.stringMatching(/^WEBHOOK_BODY_RETENTION_MS: must be at most/)]);
    expect(problems({ ...base, RETENTION_BATCH_SIZE: '0' })).toEqual([expect.stringMatching(/^RETENTION_BATCH_SIZE:/)]);
    expect(problems({ ...base, RETENTION_INTERVAL_MS: '-5' })).toEqual([expect.stringMatching(/^RETENTION_INTERVAL_MS:/)]);
    expect(problems({ ...base, RETENTION_ENABLED: 'maybe' })).toEqual(['RETENTION_ENABLED: must be true or false']);
    expect(problems({ ...base, PERSONAL_DATA_RETENTION_MS: '90 days' })).toEqual([expect.stringMatching(/^PERSONAL_DATA_RETENTION_MS: must be a whole number/)]);
    expect(problems({ ...base, PERSONAL_DATA_RETENTION_MS: String(366 * DAY) })).toEqual([expect.stringMatching(/^PERSONAL_DATA_RETENTION_MS: must be at most 31536000000/)]);
  });

  it('refuse an in-doubt window shorter than the key window', () => {
    expect(problems({ ...base, IDEMPOTENCY_KEY_WINDOW_MS: String(2 * DAY), IDEMPOTENCY_IN_DOUBT_WINDOW_MS: String(DAY) })).toEqual([
      expect.stringMatching(/^IDEMPOTENCY_IN_DOUBT_WINDOW_MS: must be at least IDEMPOTENCY_KEY_WINDOW_MS/),
    ]);
    expect(loadConfig({ ...base, IDEMPOTENCY_KEY_WINDOW_MS: String(2 * DAY), IDEMPOTENCY_IN_DOUBT_WINDOW_MS: String(2 * DAY) }).retention.idempotencyInDoubtWindowMs).toBe(2 * DAY);
  });

  it('refuse a personal data window shorter than an idempotency key may still answer or resume its payment', () => {
    // The in-doubt window (30 days by default) is the longer of the two.
    expect(problems({ ...base, PERSONAL_DATA_RETENTION_MS: String(29 * DAY) })).toEqual([
      expect.stringMatching(/^PERSONAL_DATA_RETENTION_MS: must be at least IDEMPOTENCY_IN_DOUBT_WINDOW_MS/),
    ]);
    expect(problems({ ...base, IDEMPOTENCY_IN_DOUBT_WINDOW_MS: String(100 * DAY) })).toEqual([
      expect.stringMatching(/^PERSONAL_DATA_RETENTION_MS: must be at least IDEMPOTENCY_IN_DOUBT_WINDOW_MS/),
    ]);
    // Equal is enough: a key expires at its window's end, when the data may go.
    expect(loadConfig({ ...base, PERSONAL_DATA_RETENTION_MS: String(30 * DAY) }).retention.personalDataMs).toBe(30 * DAY);
    expect(loadConfig({ ...base, IDEMPOTENCY_IN_DOUBT_WINDOW_MS: String(2 * DAY), PERSONAL_DATA_RETENTION_MS: String(2 * DAY) }).retention.personalDataMs).toBe(2 * DAY);
  });
});

describe('notification destinations', () => {
  it('allow nothing special by default, and loopback outside production only', () => {
    expect(outboundPolicy(loadConfig({ NODE_ENV: 'test' }))).toEqual({ production: false, allow: [] });
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    const production = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/gateway', PUBLIC_URL: 'https://gateway.example', MERCHANT_ACCOUNTS: JSON.stringify([account]) });
    expect(outboundPolicy(production)).toEqual({ production: true, allow: [] });
  });

  it('take CIDRs, addresses and host names, comma separated', () => {
    const config = loadConfig({ NODE_ENV: 'test', NOTIFICATION_ALLOWED_DESTINATIONS: ' 10.0.0.0/8, fd00::/8,crm.internal ,192.168.1.20,' });
    expect(config.notifications.allowedDestinations).toEqual(['10.0.0.0/8', 'fd00::/8', 'crm.internal', '192.168.1.20']);
    expect(outboundPolicy(config).allow).toEqual(['10.0.0.0/8', 'fd00::/8', 'crm.internal', '192.168.1.20']);
  });

  it('refuse a bad entry at start, naming it', () => {
    expect(problems({ NOTIFICATION_ALLOWED_DESTINATIONS: '10.0.0.1/8,*.internal,10.0.0.0/8' })).toEqual([
      'NOTIFICATION_ALLOWED_DESTINATIONS: "10.0.0.1/8" has bits set after its prefix length (write the first address of the range)',
      'NOTIFICATION_ALLOWED_DESTINATIONS: "*.internal" is neither a CIDR range (10.0.0.0/8, fd00::/8), an IP address nor a host name',
    ]);
    expect(problems({ NOTIFICATION_ALLOWED_DESTINATIONS: '10.0.0.0/33' })).toEqual([expect.stringMatching(/^NOTIFICATION_ALLOWED_DESTINATIONS: "10\.0\.0\.0\/33" has a prefix length above 32/)]);
  });
});
