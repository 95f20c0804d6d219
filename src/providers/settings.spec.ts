import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { booleanString, positiveInt } from '../lib/env-values.js';
import { createLogger } from '../lib/logger.js';
import type { DepositProvider, ProviderName } from './provider.js';
import { ProviderRegistry, type ProviderDefinition } from './registry.js';
import { defineProviderSettings, settingVariable } from './settings.js';

const settings = defineProviderSettings({
  schema: z.object({ FAST: booleanString.default(false), LIMIT: positiveInt(100).default(10), REGION: z.enum(['eu', 'us']).optional() }),
  aliases: { LIMIT: 'ACME_LIMIT' },
  fromEnv: (variables) => ({ fast: variables.FAST, limit: variables.LIMIT, region: variables.REGION }),
});

/** A throwaway provider whose adapter factory keeps what it was given. */
function acme<S extends object>(own: Partial<ProviderDefinition<S>> = {}): ProviderDefinition<S> & { given: Array<object> } {
  const given: object[] = [];
  return {
    name: 'acme-pay' as ProviderName,
    description: 'Acme.',
    rails: ['PIX'],
    keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: () => 'test', rule: () => 'any key' },
    createAdapter: (received) => {
      given.push(received);
      return { deposits: { name: 'acme-pay', rails: ['PIX'] } as unknown as DepositProvider };
    },
    given,
    ...own,
  };
}

describe('a provider settings definition', () => {
  it('lists its keys and older names, and parses text into the typed value, defaults filled in', () => {
    expect(settings.keys).toEqual(['FAST', 'LIMIT', 'REGION']);
    expect(settings.aliases).toEqual({ LIMIT: 'ACME_LIMIT' });
    expect(settings.parse({})).toEqual({ ok: true, settings: { fast: false, limit: 10, region: undefined } });
    expect(settings.parse({ FAST: 'yes', LIMIT: '25', REGION: 'eu' })).toEqual({ ok: true, settings: { fast: true, limit: 25, region: 'eu' } });
  });

  it('reports every problem by its key, the configuration naming the variable', () => {
    const parsed = settings.parse({ FAST: 'maybe', LIMIT: 'ten', REGION: 'mars' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((problem) => problem.key)).toEqual(['FAST', 'LIMIT', 'REGION']);
    expect(parsed.problems[0]).toEqual({ key: 'FAST', message: 'must be true or false' });
  });

  it('names its variables after the provider: upper case, dashes as underscores', () => {
    expect(settingVariable('acme-pay', 'LIMIT')).toBe('ACME_PAY_LIMIT');
    expect(settingVariable('qr-gateway', 'SANDBOX_PORT')).toBe('QR_GATEWAY_SANDBOX_PORT');
  });
});

describe("the registry's settings of a provider", () => {
  const common = { timeoutMs: 1_000, maxRetries: 1 };

  it('are the common ones and its own as configured, which its adapter factory is given', () => {
    const definition = acme({ settings });
    const configured = { ...common, byProvider: { 'acme-pay': { fast: true, limit: 3, region: 'us' } } };
    const registry = new ProviderRegistry([definition]);
    expect(registry.settingsOf(definition, configured)).toEqual({ timeoutMs: 1_000, maxRetries: 1, fast: true, limit: 3, region: 'us' });
    registry.createAdapters(configured, createLogger({ level: 'silent' }));
    expect(definition.given).toEqual([{ timeoutMs: 1_000, maxRetries: 1, fast: true, limit: 3, region: 'us' }]);
  });

  it('are its defaults when the configuration was loaded without it, and the common ones alone for a provider with none', () => {
    const registry = new ProviderRegistry([acme({ settings })]);
    expect(registry.settingsOf(acme({ settings }), { ...common, byProvider: {} })).toEqual({ ...common, fast: false, limit: 10, region: undefined });
    expect(registry.settingsOf(acme(), { ...common, byProvider: {} })).toEqual(common);
    const required = defineProviderSettings({ schema: z.object({ TOKEN: z.string() }), fromEnv: (variables) => ({ token: variables.TOKEN }) });
    expect(() => registry.settingsOf(acme({ settings: required }), { ...common, byProvider: {} })).toThrow(/settings without defaults: load the configuration with it/);
  });
});

