// Merchant accounts as configured (`MERCHANT_ACCOUNTS`, or each provider's sandbox accounts when it
// is unset): parsed, their key files read, and each checked against its provider's rules through
// the registry. Problems name the account and the field, never a key or a secret.

import { z } from 'zod';
import type { ProviderName } from '../providers/provider.js';
import type { ProviderRegistry } from '../providers/registry.js';
import { httpUrl } from './env-schema.js';
import type { MerchantAccountConfig } from './gateway-config.js';
import { readSecretFile } from './secret-settings.js';

const merchantAccountSchema = z.object({
  code: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'code must be lower-case letters, digits and dashes'),
  /** A registered provider's name (src/providers/index.ts); checked against the registry below. */
  provider: z.string().min(1, 'provider is required'),
  /**
   * Test or live. Optional where a key says it (its prefix), and then it must agree; needed for a
   * key that does not say, unless the publishable key does.
   */
  livemode: z.boolean().optional(),
  /** The account's publishable (client-side) key, for providers that mark test or live on it alone: read for its mode, never sent. */
  publishableKey: z.string().min(8, 'publishableKey is too short').optional(),
  /** Served by the in-process sandbox (development and tests only); then `baseUrl` is not given. */
  sandbox: z.boolean().default(false),
  baseUrl: httpUrl.optional(),
  apiKey: z.string().min(8, 'apiKey is too short'),
  webhookSecrets: z.array(z.string().min(8, 'webhook secrets need at least 8 characters')).min(1),
  /** Players go to the provider's own checkout host, not the acquirer's page, where the provider offers it. */
  whiteLabel: z.boolean().optional(),
});

/**
 * The accounts `MERCHANT_ACCOUNTS` lists (`name`: the variable it was read from), each checked
 * against its provider; none when any is refused, with a problem for each.
 */
export function parseMerchantAccounts(json: string, name: string, registry: ProviderRegistry, problems: string[]): MerchantAccountConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    problems.push(`${name}: must be a JSON array of merchant accounts`);
    return [];
  }
  if (Array.isArray(raw)) {
    const before = problems.length;
    raw = raw.map((entry: unknown, index) => readAccountFiles(entry, index, problems));
    if (problems.length > before) return [];
  }
  const parsed = z.array(merchantAccountSchema).min(1, 'must list at least one account').safeParse(raw);
  if (!parsed.success) {
    // Messages name the account index and field, never the value: it may be a secret.
    problems.push(...parsed.error.issues.map((issue) => `MERCHANT_ACCOUNTS[${issue.path.join('.')}]: ${issue.message}`));
    return [];
  }
  const codes = new Set<string>();
  const accounts: MerchantAccountConfig[] = [];
  for (const account of parsed.data) {
    if (!account.sandbox && !account.baseUrl) problems.push(`MERCHANT_ACCOUNTS[${account.code}].baseUrl: required unless the account is a sandbox account`);
    if (codes.has(account.code)) problems.push(`MERCHANT_ACCOUNTS: duplicate account code ${account.code}`);
    codes.add(account.code);
    const checked = registry.checkAccount(account);
    if (!checked.ok) {
      problems.push(`MERCHANT_ACCOUNTS[${account.code}].${checked.field}: ${checked.message}`);
      continue;
    }
    const { publishableKey: _publishable, ...rest } = account;
    accounts.push({
      ...rest,
      provider: account.provider as ProviderName,
      livemode: checked.mode === 'live',
      baseUrl: account.sandbox ? '' : (account.baseUrl ?? '').replace(/\/+$/, ''),
    });
  }
  return accounts;
}

/**
 * An account's `apiKeyFile` (the key) and `webhookSecretsFile` (one secret a line, the current
 * one first) read into `apiKey` and `webhookSecrets`: each given as a value or as a file, not both.
 */
function readAccountFiles(entry: unknown, index: number, problems: string[]): unknown {
  if (typeof entry !== 'object' || entry === null) return entry;
  const { apiKeyFile, webhookSecretsFile, ...account } = entry as Record<string, unknown>;
  const label = `MERCHANT_ACCOUNTS[${typeof account.code === 'string' ? account.code : index}]`;
  const read = (field: string, file: unknown, valueField: string): string | undefined => {
    if (file === undefined) return undefined;
    if (typeof file !== 'string' || file === '') {
      problems.push(`${label}.${field}: must be a file path`);
      return undefined;
    }
    if (account[valueField] !== undefined) {
      problems.push(`${label}.${field}: ${valueField} is given too; give the value or the file, not both`);
      return undefined;
    }
    return readSecretFile(file, `${label}.${field}`, problems);
  };
  const apiKey = read('apiKeyFile', apiKeyFile, 'apiKey');
  const secrets = read('webhookSecretsFile', webhookSecretsFile, 'webhookSecrets');
  return {
    ...account,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(secrets !== undefined ? { webhookSecrets: secrets.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '') } : {}),
  };
}

/**
 * With no MERCHANT_ACCOUNTS, the accounts each provider's sandbox declares (a test-mode one, and
 * for the deposit gateway a live-mode one too, so that hosted checkout can be tried), all served by
 * the in-process sandboxes: `sandbox: true`, so their `baseUrl` is the local sandbox's and never a
 * provider's. Their keys and secrets are fixed values that only the local sandbox accepts.
 */
export function defaultSandboxAccounts(registry: ProviderRegistry): MerchantAccountConfig[] {
  return registry.defaultSandboxAccounts().map((account) => ({ ...account, baseUrl: '' }));
}
