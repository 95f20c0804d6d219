// Settings that hold secrets: each may be given as a file instead of a value (`<NAME>_FILE`, as
// Docker and Kubernetes mount secrets), and the keyring that seals the secrets the database holds.
// A problem names the variable and the path, never what a file or a key holds.

import { readFileSync, statSync } from 'node:fs';
import { SecretsKeyring } from '../lib/sealed-secrets.js';
import type { Env } from './env-schema.js';

/**
 * Settings that hold secrets and may be given as a file instead (`<NAME>_FILE`, as Docker and
 * Kubernetes secrets are mounted): one or the other, never both.
 */
export const FILE_SETTINGS = ['DATABASE_URL', 'MERCHANT_ACCOUNTS', 'METRICS_TOKEN', 'GATEWAY_SECRETS_KEY'] as const;

/** Largest file a `*_FILE` setting reads: a secret, or a JSON list of accounts, is far smaller. */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/**
 * Reads each `<NAME>_FILE` setting into `env[NAME]` (`env` is the caller's own copy), refusing a
 * value and a file for one setting. Returns how a problem names a setting: by its `*_FILE`
 * variable when it was read from one.
 */
export function readFileSettings(env: Env, problems: string[]): (name: string) => string {
  const fromFile = new Set<string>();
  for (const name of FILE_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (file === undefined) continue;
    if (env[name] !== undefined) {
      problems.push(`${name}_FILE: ${name} is set too; give the value or the file, not both`);
      continue;
    }
    const content = readSecretFile(file, `${name}_FILE`, problems);
    if (content !== undefined) {
      env[name] = content;
      fromFile.add(name);
    }
  }
  return (name) => (fromFile.has(name) ? `${name}_FILE` : name);
}

/** The configured keyring, or undefined when none is configured; a bad entry is a problem naming it (never its key). */
export function parseSecretsKey(setting: string | undefined, name: string, problems: string[]): SecretsKeyring | undefined {
  if (setting === undefined) return undefined;
  const parsed = SecretsKeyring.parse(setting);
  if (parsed.ok) return parsed.keyring;
  problems.push(...parsed.problems.map((problem) => `${name}: ${problem}`));
  return undefined;
}

/**
 * The content of a file that holds a secret, trimmed (a mounted secret often ends in a newline),
 * or undefined after a problem naming `name` and the path. Never the content in a problem.
 */
export function readSecretFile(file: string, name: string, problems: string[]): string | undefined {
  let content: string;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) {
      problems.push(`${name}: ${JSON.stringify(file)} is not a file`);
      return undefined;
    }
    if (stat.size > MAX_SECRET_FILE_BYTES) {
      problems.push(`${name}: ${JSON.stringify(file)} is larger than ${MAX_SECRET_FILE_BYTES} bytes`);
      return undefined;
    }
    content = readFileSync(file, 'utf8').trim();
  } catch (error) {
    problems.push(`${name}: cannot read ${JSON.stringify(file)} (${fileErrorReason(error)})`);
    return undefined;
  }
  if (content === '') {
    problems.push(`${name}: ${JSON.stringify(file)} is empty`);
    return undefined;
  }
  return content;
}

/** Why a file could not be read, in a few words from its system error code (the message could name more than the path). */
function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'a directory', ENOTDIR: 'a part of the path is not a directory', ELOOP: 'too many symbolic links' };
  return (code && reasons[code]) ?? code ?? 'unreadable';
}
