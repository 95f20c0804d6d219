// The keyring a gateway (or a command beside it) seals and opens secrets with: the configured one
// (GATEWAY_SECRETS_KEY or its _FILE), or, when none is configured outside production, the data
// directory's own key file, generated on the first start and reused after (docs/secrets.md).

import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GatewayConfig } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { SecretsKeyring } from '../lib/sealed-secrets.js';

/** The data directory's key file: one `keyId:base64` line, a valid GATEWAY_SECRETS_KEY value. */
export const KEY_FILE_NAME = 'secrets.key';
/** The id of a key the gateway generates for itself. */
export const GENERATED_KEY_ID = 'local';

/** The data directory's key file cannot be used: one line naming it and what to do (never its content). */
export class SecretsKeyFileInvalid extends Error {
  override name = 'SecretsKeyFileInvalid';
  constructor(
    readonly file: string,
    problems: readonly string[],
  ) {
    super(`The secrets key file ${file}: ${problems.join('; ')}. Restore it from a backup of the data directory, or set GATEWAY_SECRETS_KEY.`);
  }
}

/**
 * The keyring to use. With no configured key (never in production: configuration refuses that),
 * `<dataDir>/secrets.key`, created with mode 0600 if missing. Every instance that shares a
 * PostgreSQL database must use the same keys, so there a generated key is worth a warning.
 */
export function secretsKeyring(config: Pick<GatewayConfig, 'secretsKeyring' | 'dataDir' | 'databaseUrl'>, logger: Logger): SecretsKeyring {
  if (config.secretsKeyring) return config.secretsKeyring;
  const { keyring, file, created, exposed } = dataDirKeyring(config.dataDir);
  const log = logger.child({ component: 'secrets' });
  if (exposed) log.warn({ file }, 'the key file that seals secrets in the database can be read by other users of this machine: chmod 600 it');
  if (created) log.info({ file, keyId: keyring.currentKeyId }, 'generated the key that seals secrets in the database; back it up with the database');
  if (config.databaseUrl) {
    log.warn({ file }, 'GATEWAY_SECRETS_KEY is not set: secrets in PostgreSQL are sealed under the data directory\'s key; every instance sharing the database needs it (GATEWAY_SECRETS_KEY_FILE)');
  }
  return keyring;
}

function dataDirKeyring(dataDir: string): { keyring: SecretsKeyring; file: string; created: boolean; exposed: boolean } {
  const file = path.join(dataDir, KEY_FILE_NAME);
  mkdirSync(dataDir, { recursive: true });
  const created = createOnce(file);
  let text: string;
  let exposed: boolean;
  try {
    exposed = process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SecretsKeyFileInvalid(file, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`]);
  }
  const parsed = SecretsKeyring.parse(text);
  if (!parsed.ok) throw new SecretsKeyFileInvalid(file, parsed.problems);
  return { keyring: parsed.keyring, file, created, exposed };
}

/**
 * Writes a new key to `file` unless one is there: to a file of its own first, then linked into
 * place, which fails if another process got there first; so a reader never sees half a key, and
 * two first starts at once end with one key.
 */
function createOnce(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${SecretsKeyring.newEntry(GENERATED_KEY_ID)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}
