// A QR account configured the way the QR spec authenticates (Authentication 1-2, assumption Q20):
// the backend secret key `sk_test_…` is the bearer, and test mode is read from its prefix (no
// livemode in the configuration). A QR code is created, paid in the sandbox and credited, end to end.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from './operations.js';

const SECRET_KEY = 'sk_test_secret_key_suite';
const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'qr-test', provider: 'qr-gateway', sandbox: true, apiKey: SECRET_KEY, webhookSecrets: ['whsec_sandbox_qr_gateway'] },
];

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
});
afterAll(() => t?.close());

describe('a QR account with an sk_test_ secret key', () => {
  it('is a test-mode account', () => {
    expect(t.gateway.config.merchantAccounts.find((account) => account.code === 'qr-test')).toMatchObject({ apiKey: SECRET_KEY, livemode: false });
  });

  it('creates a QR code, and a simulated payment makes the deposit SUCCEEDED', async () => {
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateQrCodeMutation,
      { input: { amount: '99.50', payer: { name: 'Somchai Jaidee' } } },
      { key: t.keys.webCashier },
    );
    expect(created.data!.createQrCode.userErrors).toEqual([]);
    const deposit = created.data!.createQrCode.deposit!;
    expect(deposit).toMatchObject({ status: 'PENDING', rail: 'THAI_QR', amount: { amount: '99.50', currency: 'THB' } });
    expect(deposit.qrCode!.payload).toContain('540599.50');

    const simulated = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: deposit.id, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([]);
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: deposit.id }, { key: t.keys.webCashier })).data!.deposit, { timeout: 10_000 })
      .toMatchObject({ status: 'SUCCEEDED', livemode: false, merchantAccount: 'qr-test' });
  });

  it('the sandbox refuses the publishable key as a bearer, as the spec authenticates with the secret key', async () => {
    const response = await fetch(`${t.gateway.sandboxes.qrGateway!.baseUrl}/v1/qr-codes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET_KEY.replace(/^sk_/, 'pk_')}` },
      body: JSON.stringify({ amount: 1000, currency: 'THB', reference: 'ref-1', client_name: 'A' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized', type: 'authentication_error' } });
  });
});
