// Test helpers for refunds: a gateway with a refunds back-office client, and deposits that have
// really succeeded at the sandbox (created through the API, approved by its signed webhook).

import { expect } from 'vitest';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type StartTestGatewayOptions, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';

export type RefundTestGateway = TestGateway & { database: TestDatabase; refundsKey: string };

/** A gateway and the key of a client with the REFUNDS role. */
export async function startRefundGateway(options: StartTestGatewayOptions = {}): Promise<RefundTestGateway> {
  const t = await startTestGateway(options);
  const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: `refunds-${Date.now()}`, roles: ['REFUNDS'] } }, { key: t.keys.admin });
  expect(created.errors).toBeUndefined();
  return Object.assign(t, { refundsKey: created.data!.createApiClient.key! });
}

/**
 * A card deposit of the web cashier that the sandbox approved; resolves once it is SUCCEEDED here
 * and its fee and net are in (the approval's follow-up has run), so no later change of the deposit
 * in a test races with that follow-up's own update.
 */
export async function succeededDeposit(t: TestGateway, amount = '25.00'): Promise<{ id: string; reference: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount } }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  const id = created.data!.createDeposit.deposit!.id;
  await expect
    .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data?.deposit?.status, { interval: 20 })
    .toBe('SUCCEEDED');
  const settled = async () => (await t.gateway.db.fork().execute<Array<{ provider_reference: string; fee: string | null }>>('select provider_reference, fee from deposit where id = ?', [id]))[0]!;
  await expect.poll(async () => (await settled()).fee, { interval: 20 }).not.toBeNull();
  return { id, reference: (await settled()).provider_reference };
}

/** POST /refunds calls the sandbox has received so far. */
export function refundCalls(t: TestGateway): number {
  return t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/refunds', 'POST');
}
