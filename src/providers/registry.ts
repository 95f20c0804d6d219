// The provider registry: what each provider adapter declares about itself (name, rails, key rules,
// the factory of its ports, its sandbox's default account), and the lookups the rest
// of the gateway asks instead of naming a provider. The built-in providers are listed in one
// composition point (src/providers/index.ts); a gateway may register more at start-up.

import type { Logger } from '../lib/logger.js';
import type { ProviderReference } from './reference.js';
import { ProviderAdapters, type ProviderPorts } from './ports.js';
import type { MerchantAccount, ProviderName, Rail } from './provider.js';
import type { ProviderTransport } from './transport.js';
import type { ProviderSettingsDefinition } from './settings.js';

/** Test or live, as a key says it; `unstated` for a usable key that does not say. */
export type KeyMode = 'test' | 'live';

/** How a provider's API keys look: which say test, which say live. */
export interface ProviderKeyRules {
  /** The prefix of a test key and of a live key, as the provider documents them. */
  prefixes: { test: string; live: string };
  /**
   * `test` or `live` from the key; `unstated` for a usable key that does not say (its account's
   * mode then comes from its publishable key or its `livemode`); undefined when it is not a usable
   * key of this provider.
   */
  mode(apiKey: string): KeyMode | 'unstated' | undefined;
  /** Why a key is refused: names prefixes only, never the key. */
  rule(apiKey: string): string;
  /**
   * A provider whose accounts also have a publishable (client-side) key marking test or live: an
   * account may name it (`publishableKey`) so its mode is read from what the provider documents.
   */
  publishable?: {
    prefixes: { test: string; live: string };
    mode(key: string): KeyMode | undefined;
    rule(key: string): string;
  };
}

/** What an account's configuration says about its provider, keys and address, for `ProviderRegistry.checkAccount`. */
export interface AccountSettings {
  code: string;
  provider: string;
  apiKey: string;
  /** Checked against the provider's `baseUrlRule`; absent for an account the in-process sandbox serves. */
  baseUrl?: string | undefined;
  sandbox?: boolean | undefined;
  publishableKey?: string | undefined;
  livemode?: boolean | undefined;
}

export type AccountCheck = { ok: true; mode: KeyMode } | { ok: false; field: 'provider' | 'apiKey' | 'publishableKey' | 'livemode' | 'baseUrl'; message: string };

/** The settings common to every provider (`PROVIDER_TIMEOUT_MS`, `PROVIDER_MAX_RETRIES`), which every adapter factory is given besides its own. */
export interface ProviderSettings {
  timeoutMs: number;
  maxRetries: number;
}

/** The provider settings of the configuration: the common ones, and each registered provider's own as its definition parsed them. */
export interface ConfiguredProviderSettings extends ProviderSettings {
  /** By provider name: the value of its definition's `settings` (`{}` for a provider with none). */
  readonly byProvider: Readonly<Record<string, object>>;
}

/**
 * An account the provider's in-process sandbox serves when no MERCHANT_ACCOUNTS are configured. Its
 * key says test or live, as the provider's key rules read it; either way it is a sandbox account,
 * which only ever calls the local sandbox, so a live-mode one moves no real money.
 */
export interface DefaultSandboxAccount {
  code: string;
  /** A fixed key that only the local sandbox accepts. */
  apiKey: string;
  webhookSecrets: string[];
  /** What it is there for, in a sentence of the sandbox cheat sheet (docs/sandbox.md). */
  note?: string;
}

/** A running provider sandbox, as the sandbox host keeps it. */
export interface RunningSandbox {
  /** What the accounts it serves call: their `baseUrl`. */
  baseUrl: string;
  /** Answers 2xx while the sandbox is up (readiness); default `<baseUrl>/healthz`. */
  healthUrl?: string;
  /** What the start banner shows: where a person opens it (default `baseUrl`), and what else is there. */
  banner?: { url: string; note?: string };
  /** Whether it still holds a webhook registration of `url` for the key (one kept across a restart), for a provider with webhook registration. */
  hasWebhook?(apiKey: string, url: string): boolean;
  /** A command of a test driving it from another process (`npm run sandboxes` forked): its answer, or a throw for an unknown one. */
  command?(name: string, args: readonly unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** What a provider's sandbox is started with. */
export interface SandboxStartOptions<S extends object = object> {
  /** Its provider's `sandbox: true` accounts: they call it once it listens. */
  accounts: readonly MerchantAccount[];
  /** Where the gateway receives webhooks: `<webhookBaseUrl>/webhooks/<provider>/<account>`. */
  webhookBaseUrl: string;
  /** The port to listen on, on loopback (`<PROVIDER>_SANDBOX_PORT`; 0: any free port). */
  port: number;
  /** Multiplier of its clock (expiries, webhook retries); 1 = real time. */
  timeScale: number;
  /** Test payments complete by themselves rather than wait for a click, where it has such payments. */
  autoComplete: boolean;
  /** Where it keeps its state across restarts (a file of its own in it); undefined: memory only. */
  stateDir: string | undefined;
  /** Its provider's settings, the common ones and its own: the same its adapter is given. */
  settings: ProviderSettings & S;
  logger: Logger;
}

/**
 * A provider's test-mode simulator, started in-process for its `sandbox: true` accounts when the
 * gateway hosts sandboxes (src/sandbox/host.ts starts every registered one the same way). It is
 * reached over real HTTP, like the provider, and reports to `<webhookBaseUrl>/webhooks/<provider>/<account>`.
 */
export interface ProviderSandbox<S extends object = object, R extends RunningSandbox = RunningSandbox> {
  /**
   * Its port when `<PROVIDER>_SANDBOX_PORT` is not set, outside tests: fixed, so the addresses it gave
   * out (redirects, stored in payments) still answer after a restart. Absent: any free port.
   */
  readonly defaultPort?: number;
  /** An older name of its port variable, still read. */
  readonly portAlias?: string;
  start(options: SandboxStartOptions<S>): Promise<R>;
}

/**
 * The running sandbox of each provider, by name, for `SandboxHost.get`: empty here, each provider's
 * sandbox adds its own type (`declare module '…/providers/registry.js' { interface ProviderSandboxes { 'acme-pay': AcmeSandbox } }`).
 */
// Empty on purpose, filled by declaration merging (above).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProviderSandboxes {}

/**
 * Everything the gateway needs to know about one provider. Registering one is the only step to add
 * a provider: nothing else names it.
 *
 * @example
 * const definition: ProviderDefinition = {
 *   name: 'acme-pay', description: 'Acme Pay: PIX.', rails: ['PIX'],
 *   keys: { mode: (key) => (key.startsWith('acme_test_') ? 'test' : undefined), rule: () => 'an acme-pay key starts with acme_test_' },
 *   createAdapter: (settings, logger, transport) => {
 *     const acme = createAcmeAdapter({ transport, logger });
 *     return { deposits: acme, refunds: acme };
 *   },
 * };
 */
export interface ProviderDefinition<S extends object = object> {
  /** The name in configuration, webhook paths (`/webhooks/<name>/<account>`) and the database: lower-case letters, digits and dashes. */
  readonly name: ProviderName;
  /** The description of its `PaymentProvider` enum value. */
  readonly description: string;
  /** Rails it serves. A rail served by several providers goes to the first registered, unless the request names an account. */
  readonly rails: readonly Rail[];
  readonly keys: ProviderKeyRules;
  /** Its own settings, parsed from its variables at start-up (absent: none, and `S` is empty). */
  readonly settings?: ProviderSettingsDefinition<S>;
  /**
   * Its ports, created once per gateway: deposits always (whose `name` must be the definition's),
   * and each capability it offers (src/providers/ports.ts). What it leaves out, it does not offer.
   * `transport` sends its provider calls (src/providers/transport.ts); absent where no call is made
   * (the docs' validation).
   */
  createAdapter(settings: ProviderSettings & S, logger: Logger, transport?: ProviderTransport): ProviderPorts;
  /**
   * The accounts its in-process sandbox serves when no MERCHANT_ACCOUNTS are configured, in the
   * order a request that names no account picks them (the first is the one used by default, so put
   * the test-mode one first). Only a provider with a `sandbox` gets them.
   */
  readonly defaultSandboxAccounts?: readonly DefaultSandboxAccount[];
  /** Its pages of the API reference (docs/reference/), one per rail. */
  readonly reference?: ProviderReference;
  /**
   * The guesses in force that a person starting the gateway should see (a unit the spec does not
   * state, say), one line each, naming the setting that switches it. Shown in the start banner
   * when an account of this provider is configured.
   */
  assumptionsInForce?(settings: ProviderSettings & S): string[];
  /**
   * Its sandbox, which src/sandbox/host.ts starts for its `sandbox: true` accounts. The built-in
   * providers' sandboxes (src/sandbox/<name>/) are joined to their definitions in src/providers/index.ts.
   */
  readonly sandbox?: ProviderSandbox<S>;
  /**
   * For a provider with webhook registration: whether its accounts at the real provider register
   * this gateway's webhook at start, as its settings say (sandbox accounts always do).
   */
  registerWebhookAtStart?(settings: ProviderSettings & S): boolean;
  /**
   * What is wrong with a configured account's `baseUrl` for this provider (said in a sentence that
   * can follow the field name), or undefined when it is fine. Checked at start-up, so a base URL
   * the provider's paths cannot work under fails before the first call does.
   */
  baseUrlRule?(url: string): string | undefined;
}

const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** `provider` columns are varchar(32). */
const NAME_MAX = 32;

/**
 * The `PaymentProvider` GraphQL enum value of a provider: its name in upper case, dashes as
 * underscores (`deposit-gateway` -> `DEPOSIT_GATEWAY`). Derived, so the API layer needs no table.
 */
export function graphqlValueOf(name: string): string {
  return name.toUpperCase().replace(/-/g, '_');
}

/** The provider name of a `PaymentProvider` enum value (the inverse of `graphqlValueOf`). */
export function providerNameOf(value: string): string {
  return value.toLowerCase().replace(/_/g, '-');
}

export class ProviderRegistry {
  private readonly byName = new Map<ProviderName, ProviderDefinition>();

  constructor(definitions: readonly ProviderDefinition[]) {
    for (const definition of definitions) {
      if (!NAME_PATTERN.test(definition.name) || definition.name.length > NAME_MAX) {
        throw new Error(`Provider name "${definition.name}" must be lower-case letters, digits and single dashes, at most ${NAME_MAX} characters`);
      }
      if (this.byName.has(definition.name)) throw new Error(`Provider "${definition.name}" is registered twice`);
      this.byName.set(definition.name, definition);
    }
    this.checkDefaultSandboxAccounts();
  }

  /** Each provider's default sandbox accounts have codes of their own and keys its rules read as test or live. */
  private checkDefaultSandboxAccounts(): void {
    const codes = new Map<string, string>();
    for (const definition of this.byName.values()) {
      for (const account of definition.defaultSandboxAccounts ?? []) {
        const other = codes.get(account.code);
        if (other) throw new Error(`Default sandbox account "${account.code}" of provider "${definition.name}" has the code of one of "${other}"`);
        codes.set(account.code, definition.name);
        const mode = definition.keys.mode(account.apiKey);
        if (mode !== 'test' && mode !== 'live') throw new Error(`Default sandbox account "${account.code}" of provider "${definition.name}": its key must say test or live (${definition.keys.rule(account.apiKey)})`);
      }
    }
  }

  /**
   * The accounts to use when no MERCHANT_ACCOUNTS are configured: each provider's default sandbox
   * accounts, for a provider with a sandbox to serve them, in registration order. Each is a sandbox
   * account (its `baseUrl` is the local sandbox's, filled in once it listens), in the mode its key says.
   */
  defaultSandboxAccounts(): Array<DefaultSandboxAccount & { provider: ProviderName; livemode: boolean; sandbox: true }> {
    return this.definitions().flatMap((definition) =>
      definition.sandbox
        ? (definition.defaultSandboxAccounts ?? []).map((account) => ({
            code: account.code,
            apiKey: account.apiKey,
            webhookSecrets: [...account.webhookSecrets],
            provider: definition.name,
            livemode: definition.keys.mode(account.apiKey) === 'live',
            sandbox: true as const,
          }))
        : [],
    );
  }

  /** This registry and more definitions after it (a gateway's own providers after the built-in ones). */
  with(definitions: readonly ProviderDefinition[]): ProviderRegistry {
    return definitions.length === 0 ? this : new ProviderRegistry([...this.byName.values(), ...definitions]);
  }

  names(): ProviderName[] {
    return [...this.byName.keys()];
  }

  definitions(): ProviderDefinition[] {
    return [...this.byName.values()];
  }

  get(name: string): ProviderDefinition | undefined {
    return this.byName.get(name as ProviderName);
  }

  has(name: string): name is ProviderName {
    return this.byName.has(name as ProviderName);
  }

  /** Whether the provider serves the rail. */
  serves(name: string, rail: Rail): boolean {
    return this.byName.get(name as ProviderName)?.rails.includes(rail) ?? false;
  }

  /** Providers that serve the rail, in registration order. */
  forRail(rail: Rail): ProviderName[] {
    return this.definitions().filter((definition) => definition.rails.includes(rail)).map((definition) => definition.name);
  }

  /** Why an account's provider, keys or base URL are refused; or the account's mode when all are fine. */
  checkAccount(account: AccountSettings): AccountCheck {
    const definition = this.byName.get(account.provider as ProviderName);
    if (!definition) return { ok: false, field: 'provider', message: `unknown provider "${account.provider}"; the registered providers are ${this.names().join(', ')}` };
    const { keys } = definition;
    const keyMode = keys.mode(account.apiKey);
    if (!keyMode) return { ok: false, field: 'apiKey', message: keys.rule(account.apiKey) };

    // Every source that says a mode must agree; messages name prefixes, never a key.
    const said: Array<{ field: 'apiKey' | 'publishableKey'; mode: KeyMode; what: string }> = [];
    if (keyMode !== 'unstated') said.push({ field: 'apiKey', mode: keyMode, what: `the apiKey is a ${keyMode} key (${keys.prefixes[keyMode]})` });
    if (account.publishableKey !== undefined) {
      if (!keys.publishable) return { ok: false, field: 'publishableKey', message: `${definition.name} accounts have no publishable key; remove it` };
      const publishableMode = keys.publishable.mode(account.publishableKey);
      if (!publishableMode) return { ok: false, field: 'publishableKey', message: keys.publishable.rule(account.publishableKey) };
      said.push({ field: 'publishableKey', mode: publishableMode, what: `the publishableKey is a ${publishableMode} key (${keys.publishable.prefixes[publishableMode]})` });
    }
    const [first, second] = said;
    if (first && second && first.mode !== second.mode) {
      return { ok: false, field: second.field, message: `says ${second.mode} but ${first.what}; they must be the same account's keys` };
    }
    if (first && account.livemode !== undefined && account.livemode !== (first.mode === 'live')) {
      return { ok: false, field: 'livemode', message: `is ${account.livemode} but ${first.what}; the key's prefix decides, so correct or drop livemode` };
    }
    const mode = first?.mode ?? (account.livemode === undefined ? undefined : account.livemode ? 'live' : 'test');
    if (!mode) {
      const publishable = keys.publishable && `its publishableKey (${keys.publishable.prefixes.test}… or ${keys.publishable.prefixes.live}…) or `;
      return { ok: false, field: 'apiKey', message: `does not say test or live: give the account ${publishable ?? ''}livemode` };
    }
    // The provider's own rule for its base URL (a path prefix its endpoints live under, say).
    const baseUrlProblem = !account.sandbox && account.baseUrl ? definition.baseUrlRule?.(account.baseUrl) : undefined;
    if (baseUrlProblem) return { ok: false, field: 'baseUrl', message: baseUrlProblem };
    return { ok: true, mode };
  }

  /**
   * A provider's settings as its factory, sandbox and hooks are given them: the common ones and its
   * own, or its own defaults when the configuration has none of them (it was loaded without this provider).
   */
  settingsOf<S extends object>(definition: ProviderDefinition<S>, configured: ConfiguredProviderSettings): ProviderSettings & S {
    const common = { timeoutMs: configured.timeoutMs, maxRetries: configured.maxRetries };
    // Parsed by this same definition's `settings` when the configuration was loaded.
    const own = configured.byProvider[definition.name] as S | undefined;
    if (own) return { ...own, ...common };
    if (!definition.settings) return common as ProviderSettings & S;
    const defaults = definition.settings.parse({});
    if (!defaults.ok) throw new Error(`Provider "${definition.name}" has settings without defaults: load the configuration with it (loadConfig(env, { providers }))`);
    return { ...defaults.settings, ...common };
  }

  /** Each provider's ports, its deposit port checked to carry its definition's name. */
  createAdapters(settings: ConfiguredProviderSettings, logger: Logger, transport?: ProviderTransport): ProviderAdapters {
    const ports = new Map<ProviderName, ProviderPorts>();
    for (const definition of this.byName.values()) {
      const created = definition.createAdapter(this.settingsOf(definition, settings), logger.child({ provider: definition.name }), transport);
      if (created.deposits.name !== definition.name) throw new Error(`Provider "${definition.name}" created a deposit adapter named "${created.deposits.name}"`);
      ports.set(definition.name, created);
    }
    return new ProviderAdapters(ports);
  }
}
