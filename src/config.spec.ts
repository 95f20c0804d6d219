// The configuration as a whole: its defaults, a bad variable named in the error, what production
// refuses and requires, and the settings of metrics, retention and notifications. Merchant
// accounts, secrets and the providers' own settings have their specs in src/config/.

import { describe, expect, it } from 'vitest';
import { loadConfig, outboundPolicy } from './config.js';
import { problems, SECRETS_KEY } from './config/config.fixture.js';

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
});

describe('metrics settings', () => {
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
