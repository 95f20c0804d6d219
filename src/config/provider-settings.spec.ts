// The providers' own settings (`<PROVIDER>_<SETTING>` and their older names), composed for every
// registered provider, and each sandbox's port.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, providerVariables } from '../config.js';
import { positiveInt } from '../lib/env-values.js';
import type { ProviderName } from '../providers/provider.js';
import { QR_WIRE } from '../providers/qr-gateway/assumptions.js';
import type { ProviderDefinition } from '../providers/registry.js';
import { defineProviderSettings } from '../providers/settings.js';
import { problems } from './config.fixture.js';

describe("the providers' own settings", () => {
  /** A provider registered at start-up with settings of its own: one required-with-default, one optional. */
  const acme = (overrides: Partial<ProviderDefinition<{ mode: 'fast' | 'careful'; limit: number | undefined }>> = {}): ProviderDefinition<{ mode: 'fast' | 'careful'; limit: number | undefined }> => ({
    name: 'acme-pay' as ProviderName,
    description: 'Acme.',
    rails: ['PIX'],
    keys: { prefixes: { test: 'acme_test_', live: 'acme_live_' }, mode: (key) => (key.startsWith('acme_test_') ? 'test' : undefined), rule: () => 'an acme-pay key starts with acme_test_' },
    settings: defineProviderSettings({
      schema: z.object({ MODE: z.enum(['fast', 'careful'], { message: 'must be fast or careful' }).default('careful'), LIMIT: positiveInt(100).optional() }),
      aliases: { MODE: 'ACME_MODE' },
      fromEnv: (variables) => ({ mode: variables.MODE, limit: variables.LIMIT }),
    }),
    createAdapter: () => {
      throw new Error('not needed to load the configuration');
    },
    ...overrides,
  });

  it("are each provider's variables, <PROVIDER>_<SETTING>, parsed into its typed settings with their defaults", () => {
    expect(loadConfig({}).providers).toEqual({
      timeoutMs: 10_000,
      maxRetries: 2,
      byProvider: { 'deposit-gateway': {}, 'qr-gateway': { amountUnit: 'satang', registerWebhook: false, wire: QR_WIRE } },
    });
    const qr = loadConfig({ QR_GATEWAY_AMOUNT_UNIT: 'baht', QR_GATEWAY_REGISTER_WEBHOOK: 'yes', QR_GATEWAY_WIRE_SIGNATURE_HEADER: 'X-Signature', QR_GATEWAY_WIRE_LOOKUP_PATH: '/v1/payments/{id}' });
    expect(qr.providers.byProvider['qr-gateway']).toEqual({ amountUnit: 'baht', registerWebhook: true, wire: { ...QR_WIRE, signatureHeader: 'x-signature', lookupPath: '/v1/payments/{id}' } });
  });

  it('compose those of a provider registered at start-up, which the configuration otherwise ignores', () => {
    expect(loadConfig({ ACME_PAY_LIMIT: '7' }, { providers: [acme()] }).providers.byProvider['acme-pay']).toEqual({ mode: 'careful', limit: 7 });
    expect(loadConfig({ ACME_MODE: 'fast' }, { providers: [acme()] }).providers.byProvider['acme-pay']).toEqual({ mode: 'fast', limit: undefined });
    expect(loadConfig({ ACME_PAY_LIMIT: 'lots' }).providers.byProvider).not.toHaveProperty('acme-pay');
    expect(providerVariables({ providers: [acme()] }).map(({ provider, variable, alias }) => [provider, variable, alias])).toEqual([
      ['deposit-gateway', 'DEPOSIT_GATEWAY_SANDBOX_PORT', 'DEPOSIT_SANDBOX_PORT'],
      ['qr-gateway', 'QR_GATEWAY_AMOUNT_UNIT', 'QR_AMOUNT_UNIT'],
      ['qr-gateway', 'QR_GATEWAY_REGISTER_WEBHOOK', 'QR_REGISTER_WEBHOOK'],
      ['qr-gateway', 'QR_GATEWAY_WIRE_CODE_ID_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_PAYLOAD_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_EXPIRES_AT_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_EXPIRY_FIELD', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_SIGNATURE_HEADER', undefined],
      ['qr-gateway', 'QR_GATEWAY_WIRE_LOOKUP_PATH', undefined],
      ['qr-gateway', 'QR_GATEWAY_SANDBOX_PORT', 'QR_SANDBOX_PORT'],
      ['acme-pay', 'ACME_PAY_MODE', 'ACME_MODE'],
      ['acme-pay', 'ACME_PAY_LIMIT', undefined],
    ]);
  });

  it('read the documented older names as aliases, and refuse an alias and its new name set to different values', () => {
    const old = loadConfig({ NODE_ENV: 'development', QR_AMOUNT_UNIT: 'baht', QR_REGISTER_WEBHOOK: 'true', DEPOSIT_SANDBOX_PORT: '5101', QR_SANDBOX_PORT: '5102' });
    expect(old.providers.byProvider['qr-gateway']).toMatchObject({ amountUnit: 'baht', registerWebhook: true });
    expect(old.sandbox.ports).toEqual({ 'deposit-gateway': { port: 5101, variable: 'DEPOSIT_SANDBOX_PORT' }, 'qr-gateway': { port: 5102, variable: 'QR_SANDBOX_PORT' } });
    expect(loadConfig({ QR_AMOUNT_UNIT: 'baht', QR_GATEWAY_AMOUNT_UNIT: 'baht' }).providers.byProvider['qr-gateway']).toMatchObject({ amountUnit: 'baht' });
    expect(problems({ QR_AMOUNT_UNIT: 'baht', QR_GATEWAY_AMOUNT_UNIT: 'satang', DEPOSIT_SANDBOX_PORT: '5101', DEPOSIT_GATEWAY_SANDBOX_PORT: '5102' })).toEqual([
      'DEPOSIT_SANDBOX_PORT: DEPOSIT_GATEWAY_SANDBOX_PORT is set too, to another value; give one of them (DEPOSIT_SANDBOX_PORT is its older name)',
      'QR_AMOUNT_UNIT: QR_GATEWAY_AMOUNT_UNIT is set too, to another value; give one of them (QR_AMOUNT_UNIT is its older name)',
    ]);
  });

  it("report each bad setting in the usual list, naming the variable as given, beside the gateway's own problems", () => {
    expect(
      problems({
        PORT: 'eighty',
        QR_AMOUNT_UNIT: 'cents',
        QR_GATEWAY_REGISTER_WEBHOOK: 'maybe',
        QR_GATEWAY_WIRE_PAYLOAD_FIELD: 'qr payload',
        QR_GATEWAY_WIRE_SIGNATURE_HEADER: 'x signature',
        QR_GATEWAY_WIRE_LOOKUP_PATH: '/v1/qr-codes',
        QR_GATEWAY_SANDBOX_PORT: 'any',
        ACME_PAY_MODE: 'reckless',
        ACME_PAY_LIMIT: '1000',
      }, [acme()]),
    ).toEqual([
      'QR_GATEWAY_SANDBOX_PORT: must be a port number',
      'QR_AMOUNT_UNIT: must be satang or baht',
      'QR_GATEWAY_REGISTER_WEBHOOK: must be true or false',
      'QR_GATEWAY_WIRE_PAYLOAD_FIELD: must be a JSON field name: letters, digits and underscores, not starting with a digit',
      'QR_GATEWAY_WIRE_SIGNATURE_HEADER: must be an HTTP header name',
      'QR_GATEWAY_WIRE_LOOKUP_PATH: must be a path starting with / that holds {id} once (e.g. /v1/qr-codes/{id})',
      'ACME_PAY_MODE: must be fast or careful',
      expect.stringMatching(/^ACME_PAY_LIMIT: Too big/),
      expect.stringMatching(/^PORT: /),
    ]);
  });

  it('give each sandbox a port of its own: fixed and distinct by default, any free one in tests or beside PORT=0, never one already named', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).sandbox.ports).toEqual({
      'deposit-gateway': { port: 4001, variable: 'DEPOSIT_GATEWAY_SANDBOX_PORT' },
      'qr-gateway': { port: 4002, variable: 'QR_GATEWAY_SANDBOX_PORT' },
    });
    for (const env of [{ NODE_ENV: 'test' }, { NODE_ENV: 'development', PORT: '0' }]) {
      expect(Object.values(loadConfig(env).sandbox.ports).map(({ port }) => port)).toEqual([0, 0]);
    }
    expect(problems({ QR_GATEWAY_SANDBOX_PORT: '4001' })).toEqual(['QR_GATEWAY_SANDBOX_PORT: 4001 is DEPOSIT_GATEWAY_SANDBOX_PORT too; the sandboxes need a port each']);
    expect(problems({ PORT: '4002' })).toEqual(["QR_GATEWAY_SANDBOX_PORT: 4002 is the gateway's PORT too"]);
    // Any free port is never another's: 0 twice is fine.
    expect(problems({ DEPOSIT_SANDBOX_PORT: '0', QR_SANDBOX_PORT: '0' })).toEqual([]);
  });

  it('refuse definitions whose variables meet, as a bug rather than a configuration problem', () => {
    const sandbox = { start: () => Promise.reject(new Error('not started')) };
    expect(loadConfig({}, { providers: [acme({ sandbox })] }).sandbox.ports['acme-pay']).toEqual({ port: 0, variable: 'ACME_PAY_SANDBOX_PORT' });
    const ownPort = acme({ sandbox, settings: defineProviderSettings({ schema: z.object({ SANDBOX_PORT: z.string().default('1') }), fromEnv: () => ({ mode: 'fast' as const, limit: undefined }) }) });
    expect(() => loadConfig({}, { providers: [ownPort] })).toThrow(/declares a SANDBOX_PORT setting: that is its sandbox's port/);
    const colliding = acme({
      settings: defineProviderSettings({ schema: z.object({ MODE: z.string().default('x') }), aliases: { MODE: 'QR_AMOUNT_UNIT' }, fromEnv: (variables) => ({ mode: 'fast' as const, limit: variables.MODE.length }) }),
    });
    expect(() => loadConfig({}, { providers: [colliding] })).toThrow(/QR_AMOUNT_UNIT would be read for two settings/);
    const named = acme({ name: 'provider' as ProviderName, settings: defineProviderSettings({ schema: z.object({ TIMEOUT_MS: z.string().default('1') }), fromEnv: () => ({ mode: 'fast' as const, limit: undefined }) }) });
    expect(() => loadConfig({}, { providers: [named] })).toThrow(/PROVIDER_TIMEOUT_MS would be read for two settings/);
  });
});
