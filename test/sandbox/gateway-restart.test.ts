// A development gateway restarted with its in-process sandboxes (as `npm start` twice on one data
// directory): the sandboxes come back on the same ports with their state, so a deposit and a QR
// payment left pending before the restart complete afterwards and reach the gateway by webhook.

import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from '../qr/operations.js';

let database: TestDatabase | undefined;
const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  await database?.drop();
});

async function start(env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway({ database: database!, env: { SANDBOX_PERSIST: 'true', SANDBOX_AUTO_COMPLETE: 'false', ...env } });
  gateways.push(gateway);
  return gateway;
}

describe('restarting a gateway that hosts the sandboxes', () => {
  it('leaves no pending payment orphaned', async () => {
    // given: a pending card deposit and a pending QR payment
    database = await createTestDatabase();
    const first = await start({});
    const card = await execute(first.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '26.00' } }, { key: first.keys.webCashier });
    expect(card.errors).toBeUndefined();
    const deposit = card.data!.createDeposit.deposit!;
    expect(deposit).toMatchObject({ status: 'PENDING' });
    // A day's lifetime: at the tests' clock scale (0.01) the default 15 minutes are 9 real seconds, less than a restart may take on a busy machine.
    const qr = await execute(first.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', expiresInSeconds: 86_400, payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } }, { key: first.keys.webCashier });
    expect(qr.errors).toBeUndefined();
    const qrDeposit = qr.data!.createQrCode.deposit!;
    const ports = {
      DEPOSIT_GATEWAY_SANDBOX_PORT: new URL(first.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).port,
      QR_GATEWAY_SANDBOX_PORT: new URL(first.gateway.sandboxes.get('qr-gateway')!.baseUrl).port,
    };

    // when: the gateway stops and starts again on the same data directory and sandbox ports
    await first.gateway.close();
    const second = await start(ports);
    expect(second.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl).toBe(first.gateway.sandboxes.get('deposit-gateway')!.checkoutUrl);

    // then: the redirect address the client got before the restart still takes the payment
    const paid = await fetch(`${deposit.redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const read = (id: string) => execute(second.gateway.graphqlUrl, DepositQuery, { id }, { key: second.keys.webCashier }).then((response) => response.data!.deposit!.status);
    await expect.poll(() => read(deposit.id)).toBe('SUCCEEDED');

    // and the QR payment made before the restart is still payable and reported
    const simulated = await execute(second.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: qrDeposit.id, outcome: 'SUCCEEDED' } }, { key: second.keys.admin });
    expect(simulated.errors).toBeUndefined();
    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([]);
    await expect.poll(() => read(qrDeposit.id)).toBe('SUCCEEDED');
  });
});
