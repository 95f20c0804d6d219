// A provider's own settings: the environment variables it reads, declared by its definition as a
// zod schema, named `<PROVIDER>_<SETTING>` by the configuration that composes them (src/config.ts),
// and parsed into the typed value its adapter factory, its sandbox and its hooks are given.

import type { z } from 'zod';

/** A setting's problem, by its key in the definition's schema (the configuration names the variable). */
export interface SettingProblem {
  key: string;
  message: string;
}

/** What a definition's `settings` member holds: its variables, their older names, and how to read them. */
export interface ProviderSettingsDefinition<S> {
  /** Its settings' keys, without the `<PROVIDER>_` prefix (`AMOUNT_UNIT` for `QR_GATEWAY_AMOUNT_UNIT`). */
  readonly keys: readonly string[];
  /** Older names still read, by key: the variables documented before the prefix was the rule. */
  readonly aliases: Readonly<Record<string, string>>;
  /** The typed settings from the given values by key (an absent key takes its default), or every problem. */
  parse(values: Readonly<Record<string, string>>): { ok: true; settings: S } | { ok: false; problems: SettingProblem[] };
}

/** A setting's schema: it reads the variable's text, or nothing when the variable is not set. */
export type SettingSchema = z.ZodType<unknown, string | undefined>;

/**
 * A provider's settings, from the schema of its variables (each keyed without the provider's prefix,
 * read from text: give a default where the provider works without it) and `fromEnv`, which makes the
 * typed value the definition's `createAdapter` and `sandbox.start` receive from the parsed variables.
 *
 * @example
 * const settings = defineProviderSettings({
 *   schema: z.object({ FRESHNESS_SECONDS: positiveInt(3600).default(300) }),
 *   aliases: { FRESHNESS_SECONDS: 'ACME_FRESHNESS' },
 *   fromEnv: (variables) => ({ freshnessSeconds: variables.FRESHNESS_SECONDS }),
 * });
 * // ACME_PAY_FRESHNESS_SECONDS=120 (or ACME_FRESHNESS=120): createAdapter gets { timeoutMs, maxRetries, freshnessSeconds: 120 }
 */
export function defineProviderSettings<Shape extends Record<string, SettingSchema>, S extends object>(definition: {
  schema: z.ZodObject<Shape>;
  aliases?: { readonly [K in keyof Shape]?: string };
  fromEnv(variables: z.output<z.ZodObject<Shape>>): S;
}): ProviderSettingsDefinition<S> {
  const aliases: Record<string, string> = {};
  for (const [key, alias] of Object.entries(definition.aliases ?? {})) if (typeof alias === 'string') aliases[key] = alias;
  return {
    keys: Object.keys(definition.schema.shape),
    aliases,
    parse(values) {
      const parsed = definition.schema.safeParse(values);
      if (parsed.success) return { ok: true, settings: definition.fromEnv(parsed.data) };
      return { ok: false, problems: parsed.error.issues.map((issue) => ({ key: String(issue.path[0] ?? ''), message: issue.message })) };
    },
  };
}

/**
 * The environment variable of a provider's setting: the provider's name in upper case with dashes
 * as underscores (as its `PaymentProvider` value), then the key (`qr-gateway`, `AMOUNT_UNIT`:
 * `QR_GATEWAY_AMOUNT_UNIT`). One rule, so no two providers' variables meet.
 */
export function settingVariable(provider: string, key: string): string {
  return `${provider.toUpperCase().replace(/-/g, '_')}_${key}`;
}

/** The key of every hosted sandbox's port setting (`<PROVIDER>_SANDBOX_PORT`), which the configuration adds for each provider that has a sandbox. */
export const SANDBOX_PORT_KEY = 'SANDBOX_PORT';
