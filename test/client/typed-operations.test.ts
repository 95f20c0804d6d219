// The typed operations cashiers and back-office services import (client/generated/, from
// client/operations/*.graphql) work against a running gateway as they are: a deposit followed live
// to SUCCEEDED, a QR code, a refund and a payout.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CashierContextDocument,
  CreateDepositDocument,
  CreatePayoutDocument,
  CreateQrCodeDocument,
  DepositDocument,
  DepositUpdatedDocument,
  PayoutUpdatedDocument,
  RequestRefundDocument,
} from '../../client/generated/graphql.js';
import { collect, subscribed } from '../deposits/support.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { payoutsClient, VALID_PAYOUTS } from '../payouts/fixtures.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('typed client operations', () => {
  it('take a card deposit and follow it live to SUCCEEDED', async () => {
    const context = await execute(t.gateway.graphqlUrl, CashierContextDocument, {}, { key: t.keys.webCashier });
    expect(context.data!.viewer.roles).toEqual(['CASHIER']);
    expect(context.data!.merchantAccounts.map((account) => account.code)).toContain('dg-test');

    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      const updates = await subscribed(t, () => collect(ws, DepositUpdatedDocument, {}));
      const created = await execute(t.gateway.graphqlUrl, CreateDepositDocument, { input: CARD_INPUT }, { key: t.keys.webCashier });
      expect(created.data!.createDeposit.userErrors).toEqual([]);
      const deposit = created.data!.createDeposit.deposit!;
      expect(deposit).toMatchObject({ rail: 'CARD', amount: { amount: '25.00', currency: 'EUR' }, redirectUrl: expect.stringMatching(/^http/) });

      const succeeded = await updates.until((update) => update.id === deposit.id && update.status === 'SUCCEEDED');
      expect(succeeded.amount).toEqual({ amount: '25.00', currency: 'EUR' });
      const read = await execute(t.gateway.graphqlUrl, DepositDocument, { id: deposit.id }, { key: t.keys.webCashier });
      expect(read.data!.deposit!.status).toBe('SUCCEEDED');
    } finally {
      await ws.dispose();
    }
  });

  it('show a Thai QR code', async () => {
    const created = await execute(
      t.gateway.graphqlUrl,
      CreateQrCodeDocument,
      { input: { amount: '150.00', payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } },
      { key: t.keys.webCashier },
    );
    expect(created.data!.createQrCode.userErrors).toEqual([]);
    expect(created.data!.createQrCode.deposit!.qrCode).toMatchObject({ payload: expect.stringMatching(/^0002/), svg: expect.stringContaining('<svg') });
  });

  it('refund a deposit and pay a player out, followed live', async () => {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositDocument, { input: CARD_INPUT }, { key: t.keys.webCashier });
    const depositId = created.data!.createDeposit.deposit!.id;
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositDocument, { id: depositId }, { key: t.keys.webCashier })).data!.deposit!.status).toBe('SUCCEEDED');
    const refund = await execute(t.gateway.graphqlUrl, RequestRefundDocument, { input: { depositId, amount: '5.00', reason: 'goodwill' } }, { key: t.keys.admin });
    expect(refund.data!.requestRefund.userErrors).toEqual([]);
    expect(refund.data!.requestRefund.refund).toMatchObject({ amount: { amount: '5.00', currency: 'EUR' }, reason: 'goodwill' });

    const payoutsKey = await payoutsClient(t, 'typed-client-payouts');
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${payoutsKey}` });
    try {
      const updates = await subscribed(t, () => collect(ws, PayoutUpdatedDocument, {}));
      const payout = await execute(t.gateway.graphqlUrl, CreatePayoutDocument, { input: VALID_PAYOUTS[0]![1] }, { key: payoutsKey });
      expect(payout.data!.createPayout.userErrors).toEqual([]);
      const id = payout.data!.createPayout.payout!.id;
      const paid = await updates.until((update) => update.id === id && update.status === 'PAID');
      expect(paid.beneficiary.accountNumber).toBe('****2233');
    } finally {
      await ws.dispose();
    }
  });
});
