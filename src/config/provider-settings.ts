// The providers' own variables: each registered provider's settings (`<PROVIDER>_<SETTING>`, or an
// older name), parsed by its definition's schema, and the port of each one's sandbox. The gateway's
// own variables are src/config/env-schema.ts's; a name read for two settings is a bug.

import { portNumber } from '../lib/env-values.js';
import type { ProviderRegistry } from '../providers/registry.js';
import { SANDBOX_PORT_KEY, settingVariable } from '../providers/settings.js';
import { envSchema, type Env } from './env-schema.js';
import { FILE_SETTINGS } from './secret-settings.js';

/** One variable of a provider's own settings. */
export interface ProviderVariable {
  provider: string;
  /** Its key in the provider's settings; `SANDBOX_PORT` for the port of its sandbox. */
  key: string;
  /** `<PROVIDER>_<KEY>`. */
  variable: string;
  /** An older name still read, when it has one. */
  alias: string | undefined;
}

/** Every variable the registered providers read, in registration order; throws when two settings would read one name. */
export function variablesOf(registry: ProviderRegistry): ProviderVariable[] {
  const variables = registry.definitions().flatMap((definition) => {
    const keys = [...(definition.settings?.keys ?? [])];
    if (definition.sandbox) {
      if (keys.includes(SANDBOX_PORT_KEY)) throw new Error(`Provider "${definition.name}" declares a ${SANDBOX_PORT_KEY} setting: that is its sandbox's port, which the configuration reads itself`);
      keys.push(SANDBOX_PORT_KEY);
    }
    return keys.map((key) => ({
      provider: definition.name,
      key,
      variable: settingVariable(definition.name, key),
      alias: key === SANDBOX_PORT_KEY ? definition.sandbox?.portAlias : definition.settings?.aliases[key],
    }));
  });
  // A name read twice is a bug of the definitions: two providers whose names meet (`acme` with
  // `PAY_MODE`, `acme-pay` with `MODE`), or a provider's variable that is one of the gateway's own.
  const seen = new Set<string>([...Object.keys(envSchema.shape), ...FILE_SETTINGS.map((name) => `${name}_FILE`)]);
  for (const name of variables.flatMap(({ variable, alias }) => (alias === undefined ? [variable] : [variable, alias]))) {
    if (seen.has(name)) throw new Error(`${name} would be read for two settings: rename a provider's setting or its alias`);
    seen.add(name);
  }
  return variables;
}

/** The provider settings read before the gateway's own are parsed: each provider's own, and its sandbox's port when set. */
export interface ReadProviderSettings {
  byProvider: Record<string, object>;
  sandboxes: Array<{ provider: string; port: number | undefined; defaultPort: number; variable: string }>;
}

/**
 * Each registered provider's variables read and parsed by its definition's schema: a variable under
 * its older name counts as under its own (not both, unless alike), and each problem names the
 * variable as it was given.
 */
export function readProviderSettings(registry: ProviderRegistry, env: Env, problems: string[]): ReadProviderSettings {
  const read: ReadProviderSettings = { byProvider: {}, sandboxes: [] };
  const variables = variablesOf(registry);
  for (const definition of registry.definitions()) {
    const given: Record<string, string> = {};
    const names: Record<string, string> = {};
    for (const { key, variable, alias } of variables.filter((candidate) => candidate.provider === definition.name)) {
      names[key] = variable;
      const value = env[variable];
      const older = alias === undefined ? undefined : env[alias];
      if (value !== undefined && older !== undefined && value !== older) {
        problems.push(`${alias}: ${variable} is set too, to another value; give one of them (${alias} is its older name)`);
      } else if (value !== undefined) {
        given[key] = value;
      } else if (older !== undefined) {
        given[key] = older;
        names[key] = alias!;
      }
    }
    const { [SANDBOX_PORT_KEY]: portText, ...values } = given;
    if (definition.sandbox) {
      const port = portText === undefined ? undefined : portNumber.safeParse(portText);
      if (port?.success === false) problems.push(...port.error.issues.map((issue) => `${names[SANDBOX_PORT_KEY]}: ${issue.message}`));
      read.sandboxes.push({ provider: definition.name, port: port?.data, defaultPort: definition.sandbox.defaultPort ?? 0, variable: names[SANDBOX_PORT_KEY]! });
    }
    if (!definition.settings) {
      read.byProvider[definition.name] = {};
      continue;
    }
    const parsed = definition.settings.parse(values);
    if (parsed.ok) read.byProvider[definition.name] = parsed.settings;
    else problems.push(...parsed.problems.map((problem) => `${names[problem.key] ?? settingVariable(definition.name, problem.key)}: ${problem.message}`));
  }
  return read;
}
