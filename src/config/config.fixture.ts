// What the configuration's unit specs share (not built into dist/: tsconfig.build.json leaves
// *.fixture.ts out): a secrets key production accepts, and the problems an environment is refused with.

import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../config.js';
import type { ProviderDefinition } from '../providers/registry.js';

/** A key configuration production accepts (GATEWAY_SECRETS_KEY). */
export const SECRETS_KEY = `k1:${randomBytes(32).toString('base64')}`;

/** The problems `loadConfig` refuses `env` with, in its order; none when it loads. */
export function problems(env: Record<string, string>, providers: readonly ProviderDefinition[] = []): string[] {
  try {
    loadConfig(env, { providers });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
