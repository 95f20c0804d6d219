// The event-visibility migration gives every existing event its subject's merchant account (a
// refund's: its deposit's), read from the subject tables, so back offices limited to some accounts
// see the events written before the column existed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261123110000_event_visibility } from '../../src/db/migrations/Migration20261123110000_event_visibility.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { CHILE_INPUT } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';

const ACCOUNTS = [
  { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_deposit_gateway', webhookSecrets: ['whsec_sandbox_deposit_gateway'] },
  { code: 'dg-other', provider: 'deposit-gateway', livemode: false, sandbox: true, apiKey: 'svc_test_sandbox_other_account', webhookSecrets: ['whsec_sandbox_other_account'] },
];

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ env: { MERCHANT_ACCOUNTS: JSON.stringify(ACCOUNTS) } });
});
afterAll(() => t?.close());

/** Runs the migration's `down` or `up` SQL on the gateway's database. */
async function run(direction: 'up' | 'down'): Promise<void> {
  const em = t.gateway.db.fork();
  const migration = new Migration20261123110000_event_visibility(em.getDriver(), em.config);
  migration[direction]();
  for (const query of migration.getQueries()) await em.execute(query);
}

describe('Migration20261123110000_event_visibility', () => {
  it("backfills each event's merchant account from its deposit, refund (its deposit's) or payout", async () => {
    // given: a deposit on dg-other with a refund, and a payout on dg-test, with their events
    const depositId = (await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, merchantAccount: 'dg-other' } }, { key: t.keys.webCashier })).data!.createDeposit.deposit!.id;
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id: depositId }, { key: t.keys.admin })).data!.deposit!.status).toBe('SUCCEEDED');
    const refundId = (await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId, amount: '5.00' } }, { key: t.keys.admin })).data!.requestRefund.refund!.id;
    await expect.poll(async () => (await execute(t.gateway.graphqlUrl, RefundQuery, { id: refundId }, { key: t.keys.admin })).data!.refund!.status).toBe('APPROVED');
    const payoutId = (await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: { ...CHILE_INPUT, merchantAccount: 'dg-test' } }, { key: t.keys.admin })).data!.createPayout.payout!.id;
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await jobsSettled(t);

    // when: the log as it was before the migration, migrated
    await run('down');
    await run('up');

    // then
    const rows = await t.gateway.db.fork().execute<Array<{ subject_id: string; merchant_account: string }>>('select subject_id, merchant_account from payment_event order by position');
    const expected: Record<string, string> = { [depositId]: 'dg-other', [refundId]: 'dg-other', [payoutId]: 'dg-test' };
    expect(new Set(rows.map((row) => row.subject_id))).toEqual(new Set(Object.keys(expected)));
    for (const row of rows) expect(row.merchant_account, row.subject_id).toBe(expected[row.subject_id]);
  });
});
