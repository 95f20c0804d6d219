// QR accounts configured the way the QR spec authenticates (Authentication 1-2, assumption Q20):
// the backend secret key, any `sk_…` key, is the bearer, and test or live is read from what the
// spec marks it on, the account's publishable key. A QR code is created, paid in the sandbox and
// credited, end to end. Payments are simulated through the API only on the built-in sandbox: the
// real provider's test environment simulates them from its merchant dashboard (spec: What the
// service does, 4), so an account served elsewhere is refused.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';
import { DepositQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from './operations.js';

/** A secret key with no test or live marker: the publishable key says test. */
const SECRET_KEY = 'sk_3f9a2c7e41d8b6059e1f';
const PUBLISHABLE_KEY = 'pk_test_51c0d9e8f7a6';
/** The account of a QR gateway this gateway does not host (a provider's own test environment). */
const REMOTE_KEY = 'sk_8d1e5b7c2a904f63e0b1';

let remote: QrGatewaySandbox;
let t: TestGateway;
beforeAll(async () => {
  remote = await startQrGatewaySandbox({ accounts: [{ apiKey: REMOTE_KEY, livemode: false }], amountUnit: 'satang' });
  const accounts = [
    { code: 'dg-test', provider: 'deposit-gateway', sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
    { code: 'qr-test', provider: 'qr-gateway', sandbox: true, apiKey: SECRET_KEY, publishableKey: PUBLISHABLE_KEY, webhookSecrets: ['whsec_sandbox_qr_gateway'] },
    { code: 'qr-remote', provider: 'qr-gateway', baseUrl: remote.baseUrl, apiKey: REMOTE_KEY, livemode: false, webhookSecrets: ['whsec_remote_qr_gateway'] },
  ];
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(accounts) } });
});
afterAll(async () => {
  await t?.close();
  await remote?.close();
});

const createQrCode = async (merchantAccount: string) => {
  const created = await execute(
    t.gateway.graphqlUrl,
    CreateQrCodeMutation,
    { input: { amount: '99.50', payer: { name: 'Somchai Jaidee' }, merchantAccount } },
    { key: t.keys.admin },
  );
  expect(created.data!.createQrCode.userErrors).toEqual([]);
  return created.data!.createQrCode.deposit!;
};

describe('a QR account with a plain sk_ secret key and a pk_test_ publishable key', () => {
  it('is a test-mode account, and the publishable key is not kept on it', () => {
    const account = t.gateway.config.merchantAccounts.find((candidate) => candidate.code === 'qr-test');
    expect(account).toMatchObject({ apiKey: SECRET_KEY, livemode: false });
    expect(JSON.stringify(account)).not.toContain(PUBLISHABLE_KEY);
  });

  it('creates a QR code, and a simulated payment makes the deposit SUCCEEDED', async () => {
    const deposit = await createQrCode('qr-test');
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'THAI_QR', amount: { amount: '99.50', currency: 'THB' } });
    expect(deposit.qrCode!.payload).toContain('540599.50');

    const simulated = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: deposit.id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([]);
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.admin })).data!.deposit)
      .toMatchObject({ status: 'SUCCEEDED', livemode: false, merchantAccount: 'qr-test' });
  });

  it('the sandbox refuses the publishable key as a bearer, as the spec authenticates with the secret key', async () => {
    const response = await fetch(`${t.gateway.sandboxes.get('qr-gateway')!.baseUrl}/v1/qr-codes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PUBLISHABLE_KEY}` },
      body: JSON.stringify({ amount: 1000, currency: 'THB', reference: 'ref-1', client_name: 'A' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized', type: 'authentication_error' } });
  });
});

describe('a QR account of a provider this gateway does not host', () => {
  it('creates codes, but simulateQrPayment is refused with the way to simulate, and nothing is paid', async () => {
    const deposit = await createQrCode('qr-remote');
    expect(remote.controls.requestCount('/v1/qr-codes')).toBe(1);

    const simulated = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: deposit.id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });

    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([{ field: ['depositId'], code: 'SIMULATION_NOT_AVAILABLE', message: expect.stringContaining('merchant dashboard') }]);
    // The provider was not asked to simulate anything: the only call is the create.
    expect(remote.controls.requestCount('/v1/qr-codes')).toBe(1);
    const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.admin });
    expect(read.data!.deposit).toMatchObject({ status: 'PENDING' });
  });
});
