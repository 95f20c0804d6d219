// The provider's own 422 `missing` array becomes one FIELD_REQUIRED userError per field path.
// The sandbox requires exactly the fields the gateway validates (both read assumption A5), so no
// input passes our validation and fails its check; here a provider whose rules differ from ours
// (an HTTP server answering like the spec's 422) stands in for the real one changing its rules.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { ACCOUNTS, CHILE_INPUT, payoutsClient } from './fixtures.js';
import { CreatePayoutMutation } from './operations.js';

let t: TestGateway;
let provider: http.Server;
let payoutsKey: string;
const received: string[] = [];

beforeAll(async () => {
  provider = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      response.writeHead(422, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error: 'Missing beneficiary fields for CHILE: beneficiary.email, account_type', missing: ['beneficiary.email', 'account_type'] }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  const accounts = [
    ...ACCOUNTS,
    { code: 'dg-stricter', provider: 'deposit-gateway', livemode: false, baseUrl, apiKey: 'svc_test_stricter', webhookSecrets: ['whsec_stricter'] },
  ];
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(accounts) } });
  payoutsKey = await payoutsClient(t, 'payout-service');
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

describe('the provider refuses with a missing array', () => {
  it('gives one FIELD_REQUIRED userError per missing field path, and a FAILED payout', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount: 'dg-stricter' } }, { key: payoutsKey });
    expect(created.errors).toBeUndefined();
    expect(received).toEqual(['POST /v1/payouts']);
    expect(created.data!.createPayout.userErrors).toMatchObject([
      { field: ['beneficiary', 'email'], code: 'FIELD_REQUIRED' },
      { field: ['beneficiary', 'accountType'], code: 'FIELD_REQUIRED' },
    ]);
    expect(created.data!.createPayout.payout).toMatchObject({ status: 'FAILED', failureCode: 'BENEFICIARY_FIELDS_MISSING' });
  });
});
