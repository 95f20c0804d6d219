// Configuration defaults that keep a gateway safe when started with nothing set.

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('configuration defaults', () => {
  it('listens on loopback only unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('caps money-moving fields per operation, query length and kept rejected webhooks', () => {
    const config = loadConfig({});
    expect(config.graphql.maxMoneyFields).toBe(1);
    expect(config.graphql.maxQueryChars).toBe(20_000);
    expect(config.http.webhookRejectedKeep).toBe(1000);
    expect(() => loadConfig({ GRAPHQL_MAX_MONEY_FIELDS: '0' })).toThrow(/GRAPHQL_MAX_MONEY_FIELDS/);
  });
});
