import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, outboundPolicy, providerVariables } from './config.js';
import { positiveInt } from './lib/env-values.js';
import type { ProviderName } from './providers/provider.js';
import { QR_WIRE } from './providers/qr-gateway/assumptions.js';
import type { ProviderDefinition } from './providers/registry.js';
import { defineProviderSettings } from './providers/settings.js';

/** A key configuration production accepts (GATEWAY_SECRETS_KEY). */
const SECRETS_KEY = `k1:${randomBytes(32).toString('base64')}`;

function problems(env: Record<string, string>, providers: readonly ProviderDefinition[] = []): string[] {
  try {
    loadConfig(env, { providers });
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
      // Live mode for hosted checkout, and a sandbox account all the same: no provider address, no real money.
      ['dg-live', 'deposit-gateway', true, true],
      ['qr-test', 'qr-gateway', false, true],
    ]);
    expect(config.merchantAccounts.map((account) => account.baseUrl)).toEqual(['', '', '']);
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
        expect.stringMatching(/^GATEWAY_SECRETS_KEY: required when NODE_ENV=production, or GATEWAY_SECRETS_KEY_FILE: it seals/),
      ]),
    );
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

  it('starts production with everything real, demo clients and GraphiQL off', () => {
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/gateway',
      PUBLIC_URL: 'https://gateway.example',
      GATEWAY_SECRETS_KEY: SECRETS_KEY,
      MERCHANT_ACCOUNTS: JSON.stringify([account]),
    });
    expect(config).toMatchObject({ demoClients: false, graphql: { graphiql: false } });
    expect(config.merchantAccounts[0]).toMatchObject({ code: 'dg-live', sandbox: false });
  });

  describe('metrics', () => {
    const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/gateway', PUBLIC_URL: 'https://gateway.example', GATEWAY_SECRETS_KEY: SECRETS_KEY, MERCHANT_ACCOUNTS: JSON.stringify([account]) };
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
      expect(problems({ METRICS_PORT: '4001' })).toEqual(['METRICS_PORT: 4001 is DEPOSIT_GATEWAY_SANDBOX_PORT too; metrics need a port of their own']);
      expect(problems({ METRICS_PORT: '5002', QR_SANDBOX_PORT: '5002' })).toEqual(['METRICS_PORT: 5002 is QR_SANDBOX_PORT too; metrics need a port of their own']);
      expect(problems({ METRICS_TOKEN: 'short' })).toEqual([expect.stringMatching(/^METRICS_TOKEN: must be at least 16 characters/)]);
      expect(problems({ METRICS_PORT: 'nine' })).toEqual([expect.stringMatching(/^METRICS_PORT: /)]);
    });
  });
});

describe('retention settings', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const base = { NODE_ENV: 'test' };

  it('default to a 24-hour key window, 30 days for keys in doubt and for webhook bodies, 90 days for personal data, an hourly sweep, a day of subscription replay', () => {
    expect(loadConfig(base).retention).toEqual({
      enabled: true,
      intervalMs: HOUR,
      batchSize: 500,
      idempotencyKeyWindowMs: DAY,
      idempotencyInDoubtWindowMs: 30 * DAY,
      webhookBodyMs: 30 * DAY,
      personalDataMs: 90 * DAY,
      subscriptionResumeMs: DAY,
    });
    expect(loadConfig({ ...base, PERSONAL_DATA_RETENTION_MS: String(120 * DAY) }).retention.personalDataMs).toBe(120 * DAY);
    expect(loadConfig({ ...base, SUBSCRIPTION_RESUME_WINDOW_MS: String(2 * HOUR) }).retention.subscriptionResumeMs).toBe(2 * HOUR);
    expect(() => loadConfig({ ...base, SUBSCRIPTION_RESUME_WINDOW_MS: '60000' })).toThrow(/SUBSCRIPTION_RESUME_WINDOW_MS: must be at least 3600000 \(one hour\)/);
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
    const production = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/gateway', PUBLIC_URL: 'https://gateway.example', GATEWAY_SECRETS_KEY: SECRETS_KEY, MERCHANT_ACCOUNTS: JSON.stringify([account]) });
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

describe('the secrets key', () => {
  const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };
  const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/gateway', PUBLIC_URL: 'https://gateway.example', MERCHANT_ACCOUNTS: JSON.stringify([account]) };

  it('is none by default outside production (the data directory\'s key file is used), and the configured keys in order when set', () => {
    expect(loadConfig({}).secretsKeyring).toBeUndefined();
    const second = `k2:${randomBytes(32).toString('base64')}`;
    const keyring = loadConfig({ GATEWAY_SECRETS_KEY: `${second},${SECRETS_KEY}` }).secretsKeyring!;
    expect(keyring.keyIds).toEqual(['k2', 'k1']);
    expect(keyring.currentKeyId).toBe('k2');
  });

  it('is required in production, whose database is PostgreSQL', () => {
    expect(problems(production)).toEqual([expect.stringMatching(/^GATEWAY_SECRETS_KEY: required when NODE_ENV=production/)]);
    expect(loadConfig({ ...production, GATEWAY_SECRETS_KEY: SECRETS_KEY }).secretsKeyring?.keyIds).toEqual(['k1']);
  });

  it('refuses a key of the wrong length, a bad id or a repeated one, naming the key id and never the key', () => {
    const short = randomBytes(16).toString('base64');
    expect(problems({ GATEWAY_SECRETS_KEY: `k1:${short}` })).toEqual(['GATEWAY_SECRETS_KEY: key k1 is 16 bytes, not 32: give the base64 of 32 random bytes (openssl rand -base64 32)']);
    expect(problems({ GATEWAY_SECRETS_KEY: short })).toEqual(['GATEWAY_SECRETS_KEY: entry 1 is not keyId:base64-of-32-bytes']);
    expect(problems({ GATEWAY_SECRETS_KEY: `${SECRETS_KEY},${SECRETS_KEY}` })).toEqual(['GATEWAY_SECRETS_KEY: key id k1 is listed twice']);
    expect(problems({ GATEWAY_SECRETS_KEY: `k1:${short}` }).join()).not.toContain(short);
  });
});

describe('settings given as files (*_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  /** A file holding `content`, as a mounted secret (with its trailing newline). */
  const file = (content: string) => {
    const name = path.join(dir, `secret-${++files}`);
    writeFileSync(name, content, { mode: 0o600 });
    return name;
  };
  const account = { code: 'dg-live', provider: 'deposit-gateway', livemode: true, baseUrl: 'https://api.example/v1', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] };

  it('read DATABASE_URL, MERCHANT_ACCOUNTS, METRICS_TOKEN and GATEWAY_SECRETS_KEY from a file each, as their values would be', () => {
    const token = 'a-metrics-token-from-a-file-0123';
    const config = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://gateway.example',
      DATABASE_URL_FILE: file('postgres://gateway:pw-from-a-file@db/gateway\n'),
      MERCHANT_ACCOUNTS_FILE: file(`${JSON.stringify([account], null, 2)}\n`),
      METRICS_TOKEN_FILE: file(`${token}\n`),
      GATEWAY_SECRETS_KEY_FILE: file(`${SECRETS_KEY}\n`),
    });
    expect(config.databaseUrl).toBe('postgres://gateway:pw-from-a-file@db/gateway');
    expect(config.merchantAccounts).toEqual([expect.objectContaining({ code: 'dg-live', apiKey: 'svc_live_not_real', webhookSecrets: ['whsec_123456789'] })]);
    expect(config.metrics.token).toBe(token);
    expect(config.secretsKeyring?.keyIds).toEqual(['k1']);
  });

  it('refuse a value and a file for one setting', () => {
    expect(problems({ METRICS_TOKEN: 'a-metrics-token-0123456789', METRICS_TOKEN_FILE: file('a-metrics-token-0123456789') })).toEqual([
      'METRICS_TOKEN_FILE: METRICS_TOKEN is set too; give the value or the file, not both',
    ]);
  });

  it('name the setting and the path of a file that is missing, a directory or empty, never what a file holds', () => {
    const missing = path.join(dir, 'nowhere');
    const folder = path.join(dir, 'a-folder');
    mkdirSync(folder);
    expect(problems({ DATABASE_URL_FILE: missing })).toEqual([`DATABASE_URL_FILE: cannot read ${JSON.stringify(missing)} (no such file)`]);
    expect(problems({ GATEWAY_SECRETS_KEY_FILE: folder })).toEqual([`GATEWAY_SECRETS_KEY_FILE: ${JSON.stringify(folder)} is not a file`]);
    const empty = file('\n');
    expect(problems({ METRICS_TOKEN_FILE: empty })).toEqual([`METRICS_TOKEN_FILE: ${JSON.stringify(empty)} is empty`]);
    // A file read but refused: the problem names the file setting and keeps its content out.
    const mysql = 'mysql://user:hunter2-in-a-file@db/x';
    expect(problems({ DATABASE_URL_FILE: file(mysql) })).toEqual(['DATABASE_URL_FILE: must be a postgres:// connection string']);
    const short = randomBytes(16).toString('base64');
    expect(problems({ METRICS_TOKEN_FILE: file('short') })).toEqual([expect.stringMatching(/^METRICS_TOKEN_FILE: must be at least 16 characters/)]);
    expect(problems({ GATEWAY_SECRETS_KEY_FILE: file(`k1:${short}\n`) })).toEqual([expect.stringMatching(/^GATEWAY_SECRETS_KEY_FILE: key k1 is 16 bytes, not 32/)]);
    expect(problems({ MERCHANT_ACCOUNTS_FILE: file('[not json') })).toEqual(['MERCHANT_ACCOUNTS_FILE: must be a JSON array of merchant accounts']);
    for (const content of [mysql, short, '[not json']) expect(JSON.stringify([problems({ DATABASE_URL_FILE: file(content) })])).not.toContain(content);
  });

  it('give an account its apiKey and webhookSecrets from files (apiKeyFile, webhookSecretsFile: one secret a line, the current one first)', () => {
    const { apiKey: _key, webhookSecrets: _secrets, ...rest } = account;
    const fromFiles = { ...rest, apiKeyFile: file('svc_live_key_from_a_file\n'), webhookSecretsFile: file('whsec_current_one\n\nwhsec_older_one\n') };
    expect(loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([fromFiles]) }).merchantAccounts[0]).toMatchObject({ apiKey: 'svc_live_key_from_a_file', webhookSecrets: ['whsec_current_one', 'whsec_older_one'] });
    expect(loadConfig({ MERCHANT_ACCOUNTS: JSON.stringify([fromFiles]) }).merchantAccounts[0]).not.toHaveProperty('apiKeyFile');
    expect(problems({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...fromFiles, apiKey: 'svc_live_not_real' }]) })).toEqual([
      'MERCHANT_ACCOUNTS[dg-live].apiKeyFile: apiKey is given too; give the value or the file, not both',
    ]);
    const missing = path.join(dir, 'no-secrets');
    expect(problems({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...fromFiles, webhookSecretsFile: missing }]) })).toEqual([
      `MERCHANT_ACCOUNTS[dg-live].webhookSecretsFile: cannot read ${JSON.stringify(missing)} (no such file)`,
    ]);
    // A key read from a file meets the provider's rules as any key does, and is not echoed.
    const wrong = problems({ MERCHANT_ACCOUNTS: JSON.stringify([{ ...fromFiles, apiKeyFile: file('sk_live_wrong_provider_key') }]) });
    expect(wrong).toEqual([expect.stringMatching(/^MERCHANT_ACCOUNTS\[dg-live\]\.apiKey: /)]);
    expect(wrong.join()).not.toContain('wrong_provider_key');
  });
});

describe('notification retries', () => {
  it('back a lane off from 5 s to an hour, and probe a receiver that fails every attempt once a minute', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).notifications).toMatchObject({ backoffBaseMs: 5_000, backoffMaxMs: 3_600_000, probeIntervalMs: 60_000, retryForMs: 3 * 24 * 3_600_000 });
    expect(loadConfig({ NODE_ENV: 'test', NOTIFICATION_PROBE_INTERVAL_MS: '30000' }).notifications.probeIntervalMs).toBe(30_000);
  });

  it('refuse a probe interval longer than the back-off cap, naming both, and one that is not a whole number of milliseconds', () => {
    expect(problems({ NOTIFICATION_BACKOFF_MAX_MS: '30000' })).toEqual([
      "NOTIFICATION_PROBE_INTERVAL_MS: must be at most NOTIFICATION_BACKOFF_MAX_MS (a probe is what comes sooner than a lane's longest wait)",
    ]);
    expect(problems({ NOTIFICATION_BACKOFF_MAX_MS: '30000', NOTIFICATION_PROBE_INTERVAL_MS: '30000' })).toEqual([]);
    expect(problems({ NOTIFICATION_PROBE_INTERVAL_MS: '1m' })).toEqual([expect.stringMatching(/^NOTIFICATION_PROBE_INTERVAL_MS: /)]);
  });
});

describe("the providers' own settings", () => {
  /** A provider registered at start-up with settings of its own: one required-with-default, one optional. */
  const acme = (overrides: Partial<ProviderDefinition<{ mode: 'fast' | 'careful'; limit: number | undefined }>> = {}): ProviderDefinition<{ mode: 'fast' | 'careful'; limit: number | undefined }> => ({
    name: 'acme-pay' as ProviderName,
    description: 'Acme.',
    rails: ['PIX'],
    keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key) => (key.startsWith('acme_test_') ? 'test' : undefined), rule: () => 'an acme-pay key starts with acme_test_' },
    settings: defineProviderSettings({
      schema: z.object({ MODE: z.enum(['fast', 'careful'], { message: 'must be fast or careful' }).default('careful'), LIMIT: positiveInt(100).optional() }),
      aliases: { MODE: 'ACME_MODE' },
      fromEnv: (variables) => ({ mode: variables.MODE, limit: variables.LIMIT }),
    }),
    createAdapter: () => {
      throw new Error('not needed to load the configuration');
    },
    ...overrides,
  });

  it("are each provider's variables, <PROVIDER>_<SETTING>, parsed into its typed settings with their defaults", () => {
    expect(loadConfig({}).providers).toEqual({
      timeoutMs: 10_000,
      maxRetries: 2,
      byProvider: { 'deposit-gateway': {}, 'qr-gateway': { amountUnit: 'satang', registerWebhook: false, wire: QR_WIRE } },
    });
    const qr = loadConfig({ QR_GATEWAY_AMOUNT_UNIT: 'baht', QR_GATEWAY_REGISTER_WEBHOOK: 'yes', QR_GATEWAY_WIRE_SIGNATURE_HEADER: 'X-Signature', QR_GATEWAY_WIRE_LOOKUP_PATH: '/v1/payments/{id}' });
    expect(qr.providers.byProvider['qr-gateway']).toEqual({ amountUnit: 'baht', registerWebhook: true, wire: { ...QR_WIRE, signatureHeader: 'x-signature', lookupPath: '/v1/payments/{id}' } });
  });

  it('compose those of a provider registered at start-up, which the configuration otherwise ignores', () => {
    expect(loadConfig({ ACME_PAY_LIMIT: '7' }, { providers: [acme()] }).providers.byProvider['acme-pay']).toEqual({ mode: 'careful', limit: 7 });
    expect(loadConfig({ ACME_MODE: 'fast' }, { providers: [acme()] }).providers.byProvider['acme-pay']).toEqual({ mode: 'fast', limit: undefined });
    expect(loadConfig({ ACME_PAY_LIMIT: 'lots' }).providers.byProvider).not.toHaveProperty('acme-pay');
    expect(providerVariables({ providers: [acme()] }).map(({ provider, variable, alias }) => [provider, variable, alias])).toEqual([
      ['deposit-gateway', 'DEPOSIT_GATEWAY_SANDBOX_PORT', 'DEPOSIT_SANDBOX_PORT'],
      ['qr-gateway', 'QR_GATEWAY_AMOUNT_UNIT', 'QR_AMOUNT_UNIT'],
      ['qr-gateway', 'QR_GATEWAY_REGISTER_WEBHOOK', 'QR_REGISTER_WEBHOOK'],
      ['qr-gateway', 'QR_GATEWAY_WIRE_CODE_ID_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_PAYLOAD_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_EXPIRES_AT_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_EXPIRY_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_SIGNATURE_HEADER', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_LOOKUP_PATH', undefined],
      ['qr-gateway', 'QR_GATEWAY_SANDBOX_PORT', 'QR_SANDBOX_PORT'],
      ['acme-pay', 'ACME_PAY_MODE', 'ACME_MODE'],
      ['acme-pay', 'ACME_PAY_LIMIT', undefined],
    ]);
  });

  it('read the documented older names as aliases, and refuse an alias and its new name set to different values', () => {
    const old = loadConfig({ NODE_ENV: 'development', QR_AMOUNT_UNIT: 'baht', QR_REGISTER_WEBHOOK: 'true', DEPOSIT_SANDBOX_PORT: '5101', QR_SANDBOX_PORT: '5102' });
    expect(old.providers.byProvider['qr-gateway']).toMatchObject({ amountUnit: 'baht', registerWebhook: true });
    expect(old.sandbox.ports).toEqual({ 'deposit-gateway': { port: 5101, variable: 'DEPOSIT_SANDBOX_PORT' }, 'qr-gateway': { port: 5102, variable: 'QR_SANDBOX_PORT' } });
    expect(loadConfig({ QR_AMOUNT_UNIT: 'baht', QR_GATEWAY_AMOUNT_UNIT: 'baht' }).providers.byProvider['qr-gateway']).toMatchObject({ amountUnit: 'baht' });
    expect(problems({ QR_AMOUNT_UNIT: 'baht', QR_GATEWAY_AMOUNT_UNIT: 'satang', DEPOSIT_SANDBOX_PORT: '5101', DEPOSIT_GATEWAY_SANDBOX_PORT: '5102' })).toEqual([
      'DEPOSIT_SANDBOX_PORT: DEPOSIT_GATEWAY_SANDBOX_PORT is set too, to another value; give one of them (DEPOSIT_SANDBOX_PORT is its older name)',
      'QR_AMOUNT_UNIT: QR_GATEWAY_AMOUNT_UNIT is set too, to another value; give one of them (QR_AMOUNT_UNIT is its older name)',
    ]);
  });

  it("report each bad setting in the usual list, naming the variable as given, beside the gateway's own problems", () => {
    expect(
      problems({
        PORT: 'eighty',
        QR_AMOUNT_UNIT: 'cents',
        QR_GATEWAY_REGISTER_WEBHOOK: 'maybe',
        QR_GATEWAY_WIRE_PAYLOAD_FIELD: 'qr payload',
        QR_GATEWAY_WIRE_SIGNATURE_HEADER: 'x signature',
        QR_GATEWAY_WIRE_LOOKUP_PATH: '/v1/qr-codes',
        QR_GATEWAY_SANDBOX_PORT: 'any',
        ACME_PAY_MODE: 'reckless',
        ACME_PAY_LIMIT: '1000',
      }, [acme()]),
    ).toEqual([
      'QR_GATEWAY_SANDBOX_PORT: must be a port number',
      'QR_AMOUNT_UNIT: must be satang or baht',
      'QR_GATEWAY_REGISTER_WEBHOOK: must be true or false',
      'QR_GATEWAY_WIRE_PAYLOAD_FIELD: must be a JSON field name: letters, digits and underscores, not starting with a digit',
      'QR_GATEWAY_WIRE_SIGNATURE_HEADER: must be an HTTP header name',
      'QR_GATEWAY_WIRE_LOOKUP_PATH: must be a path starting with / that holds {id} once (e.g. /v1/qr-codes/{id})',
      'ACME_PAY_MODE: must be fast or careful',
      expect.stringMatching(/^ACME_PAY_LIMIT: Too big/),
      expect.stringMatching(/^PORT: /),
    ]);
  });

  it('give each sandbox a port of its own: fixed and distinct by default, any free one in tests or beside PORT=0, never one already named', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).sandbox.ports).toEqual({
      'deposit-gateway': { port: 4001, variable: 'DEPOSIT_GATEWAY_SANDBOX_PORT' },
      'qr-gateway': { port: 4002, variable: 'QR_GATEWAY_SANDBOX_PORT' },
    });
    for (const env of [{ NODE_ENV: 'test' }, { NODE_ENV: 'development', PORT: '0' }]) {
      expect(Object.values(loadConfig(env).sandbox.ports).map(({ port }) => port)).toEqual([0, 0]);
    }
    expect(problems({ QR_GATEWAY_SANDBOX_PORT: '4001' })).toEqual(['QR_GATEWAY_SANDBOX_PORT: 4001 is DEPOSIT_GATEWAY_SANDBOX_PORT too; the sandboxes need a port each']);
    expect(problems({ PORT: '4002' })).toEqual(["QR_GATEWAY_SANDBOX_PORT: 4002 is the gateway's PORT too"]);
    // Any free port is never another's: 0 twice is fine.
    expect(problems({ DEPOSIT_SANDBOX_PORT: '0', QR_SANDBOX_PORT: '0' })).toEqual([]);
  });

  it('refuse definitions whose variables meet, as a bug rather than a configuration problem', () => {
    const sandbox = { start: () => Promise.reject(new Error('not started')) };
    expect(loadConfig({}, { providers: [acme({ sandbox })] }).sandbox.ports['acme-pay']).toEqual({ port: 0, variable: 'ACME_PAY_SANDBOX_PORT' });
    const ownPort = acme({ sandbox, settings: defineProviderSettings({ schema: z.object({ SANDBOX_PORT: z.string().default('1') }), fromEnv: () => ({ mode: 'fast' as const, limit: undefined }) }) });
    expect(() => loadConfig({}, { providers: [ownPort] })).toThrow(/declares a SANDBOX_PORT setting: that is its sandbox's port/);
    const colliding = acme({
      settings: defineProviderSettings({ schema: z.object({ MODE: z.string().default('x') }), aliases: { MODE: 'QR_AMOUNT_UNIT' }, fromEnv: (variables) => ({ mode: 'fast' as const, limit: variables.MODE.length }) }),
    });
    expect(() => loadConfig({}, { providers: [colliding] })).toThrow(/QR_AMOUNT_UNIT would be read for two settings/);
    const named = acme({ name: 'provider' as ProviderName, settings: defineProviderSettings({ schema: z.object({ TIMEOUT_MS: z.string().default('1') }), fromEnv: () => ({ mode: 'fast' as const, limit: undefined }) }) });
    expect(() => loadConfig({}, { providers: [named] })).toThrow(/PROVIDER_TIMEOUT_MS would be read for two settings/);
  });
});
