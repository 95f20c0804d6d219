// Settings that hold secrets: the secrets keyring, and values given as files (`*_FILE`, and an
// account's apiKeyFile and webhookSecretsFile), whose problems name the path, never the content.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { problems, SECRETS_KEY } from './config.fixture.js';

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
