// Valid createPayout inputs for every payout country (assumption A5), the merchant accounts the payout tests run with, and a PAYOUTS client.

import { expect } from 'vitest';
import type { CreatePayoutInput } from '../__generated__/graphql.js';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { execute, type TestGateway } from '../support/gateway.js';

/** A test account and a sandbox-served live account (live payouts off until a test turns them on). */
export const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-live-sim', provider: 'deposit-gateway', livemode: true, sandbox: true, apiKey: 'svc_live_sandbox_simulated_live', webhookSecrets: ['whsec_sandbox_simulated_live'] },
];
export const LIVE_API_KEY = ACCOUNTS[1]!.apiKey;

const bank = { bankCode: '001', accountType: 'checking' };

/** Country, a valid input (account numbers avoid the A11 trigger endings 13 and 31), and its currency. */
export const VALID_PAYOUTS: Array<[string, CreatePayoutInput, string]> = [
  ['ECUADOR', { country: 'ECUADOR', amount: '25.50', beneficiary: { name: 'Ana Mora', documentType: 'CI', documentNumber: '1710034065', accountNumber: '2200112233', ...bank } }, 'USD'],
  ['CHILE', { country: 'CHILE', amount: '150000', beneficiary: { name: 'Ana Silva', documentType: 'RUT', documentNumber: '12345678-5', accountNumber: '0012345678', ...bank } }, 'CLP'],
  ['PERU', { country: 'PERU', amount: '300.00', beneficiary: { name: 'Ana Quispe', documentType: 'DNI', documentNumber: '12345678', accountNumber: '19312345678090', cci: '00219300123456780959', ...bank } }, 'PEN'],
  ['MEXICO', { country: 'MEXICO', amount: '1200.00', beneficiary: { name: 'Ana López', documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04', accountNumber: '002180000118359710' } }, 'MXN'],
  ['COLOMBIA', { country: 'COLOMBIA', amount: '200000', beneficiary: { name: 'Ana Gómez', documentType: 'CC', documentNumber: '1020304050', accountNumber: '4567890122', ...bank } }, 'COP'],
];

export const CHILE_INPUT: CreatePayoutInput = VALID_PAYOUTS[1]![1];

/** Creates an API client with the PAYOUTS role (optionally limited to some merchant accounts) and returns its key. */
export async function payoutsClient(t: TestGateway, name: string, merchantAccounts?: string[]): Promise<string> {
  const created = await execute(
    t.gateway.graphqlUrl,
    CreateApiClientMutation,
    { input: { name, roles: ['PAYOUTS'], ...(merchantAccounts ? { merchantAccounts } : {}) } },
    { key: t.keys.admin },
  );
  expect(created.errors).toBeUndefined();
  return created.data!.createApiClient.key!;
}
