// What a refund, payout or withdrawal webhook costs the database, counted rather than timed: each
// kind writes its status change as the deposit does, the row with its event in one statement
// (src/kernel/transitions.ts), where it used to flush its entity and append the event after it.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Payout } from '../../src/modules/payouts/payout.entity.js';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { CHILE_INPUT, payoutsClient } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { RequestRefundMutation } from '../refunds/operations.js';
import { succeededDeposit } from '../refunds/support.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { statementsIssued } from '../support/statements.js';
import { sendWebhook, type Envelope } from '../webhooks/support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/**
 * Left out: the job worker's own statements (its claims and sweeps begin with `update job` or read
 * from `job`), the event bus's reads, the relay, the instances' sharing of client limits and the
 * provider call records. A statement that only names `job` inside (the notifier's fan-out
 * condition in an event append) is the webhook's and is counted.
 */
const UNRELATED = /^\s*(update\s+"?(job|api_client)"?\b|select\b[^(]*?\bfrom\s+"?(job|api_client)"?\b)|\/\* (event-bus|relay|client-limits|call-records) \*\//i;

/** The statements `action` issues while the job worker is stopped (follow-up work is not the webhook's). */
async function counted(action: () => Promise<void>): Promise<string[]> {
  await t.gateway.services.jobs.stop();
  try {
    return await statementsIssued(t, action, UNRELATED);
  } finally {
    await t.gateway.services.jobs.start();
  }
}

/** The statement that writes the subject's row and its event together. */
const changeWithEvent = (table: string) => (sql: string) => new RegExp(`\\bupdate ${table} set\\b`).test(sql) && /\binsert into payment_event\b/.test(sql);

const envelope = (event: string, data: Record<string, unknown>): Envelope => ({
  id: `evt_${randomBytes(10).toString('hex')}`,
  event,
  livemode: false,
  created_at: new Date().toISOString(),
  data,
});

/** The statements of one deposit-gateway webhook about a subject of `table`, which it must apply. */
async function appliedWebhook(event: string, data: Record<string, unknown>, table: string): Promise<string[]> {
  const statements = await counted(async () => {
    expect((await sendWebhook(t, envelope(event, data))).body.outcome).toBe('applied');
  });
  expect(statements.filter(changeWithEvent(table)), statements.join('\n---\n')).toHaveLength(1);
  return statements;
}

describe(`a subject's webhook (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a payout.paid: at most 7 statements, BEGIN and COMMIT included (it used to cost 8)', async () => {
    // given: a payout the provider took, whose own webhook is lost
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const payoutsKey = await payoutsClient(t, `payouts-${Date.now()}`);
    sandbox.webhooks({ dropNext: 10 });
    const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: CHILE_INPUT }, { key: payoutsKey });
    await sandbox.idle();
    sandbox.webhooks({ dropNext: 0 });
    const payout = await t.gateway.db.fork().findOneOrFail(Payout, { id: created.data!.createPayout.payout!.id });
    const paid = { reference: payout.providerReference, merchant_reference: payout.id, status: 'paid', amount: payout.amountMoney().toDecimal(), currency: payout.currency };

    // when: its payout.paid comes
    const statements = await appliedWebhook('payout.paid', paid, 'payout');

    // then: BEGIN, the inbox row, the payout found, locked, its status with its event, the inbox outcome, COMMIT
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(7);
  });

  it('a refund.approved: at most 11 statements, BEGIN and COMMIT included (it used to cost 13, then 12)', async () => {
    // given: a refund the provider took, whose own webhooks are lost
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const refundsClient = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: `refunds-${Date.now()}`, roles: ['REFUNDS'] } }, { key: t.keys.admin });
    const deposit = await succeededDeposit(t, '25.00');
    sandbox.webhooks({ dropNext: 10 });
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: deposit.id, amount: '5.00' } }, { key: refundsClient.data!.createApiClient.key! });
    await sandbox.idle();
    sandbox.webhooks({ dropNext: 0 });
    const id = requested.data!.requestRefund.refund!.id;
    const [refund] = await t.gateway.db.fork().execute<Array<{ provider_reference: string }>>('select provider_reference from refund where id = ?', [id]);
    const approved = { reference: refund!.provider_reference, payment_reference: deposit.reference, status: 'approved', amount: '5.00', currency: 'EUR' };

    // when: its refund.approved comes
    const statements = await appliedWebhook('refund.approved', approved, 'refund');

    // then: BEGIN, the inbox row, the refund found, its deposit and it locked, its status with its
    // event, the deposit's refunds read, its refunded amount with its refund event, the inbox outcome, COMMIT
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(11);
  });

  it('a withdrawal\'s first event: at most 5 statements, BEGIN and COMMIT included (it used to cost 7)', async () => {
    const qr = t.gateway.sandboxes.get('qr-gateway')!.controls;
    const apiKey = t.gateway.config.merchantAccounts.find((account) => account.code === 'qr-test')!.apiKey;

    // when: the QR gateway reports a withdrawal the gateway has not seen
    const statements = await counted(async () => {
      qr.emit(apiKey, 'withdrawal.pending', { withdrawal_id: `wd_${randomBytes(6).toString('hex')}`, status: 'pending', amount: 1_000_000n, currency: 'THB' });
      await qr.idle();
    });

    // then: BEGIN, the inbox row, the withdrawal's row with its creation event (kept if a racing
    // first event inserted it), the inbox outcome, COMMIT
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(5);
    expect(statements.filter((sql) => /\binsert into withdrawal\b/.test(sql) && /\binsert into payment_event\b/.test(sql))).toHaveLength(1);
  });

  it('a withdrawal.succeeded: at most 7 statements, BEGIN and COMMIT included (it used to cost 8)', async () => {
    // given: a withdrawal the QR gateway reported pending
    const qr = t.gateway.sandboxes.get('qr-gateway')!.controls;
    const apiKey = t.gateway.config.merchantAccounts.find((account) => account.code === 'qr-test')!.apiKey;
    const data = (status: string) => ({ withdrawal_id: `wd_${randomBytes(6).toString('hex')}`, status, amount: 1_000_000n, currency: 'THB' });
    const pending = data('pending');
    qr.emit(apiKey, 'withdrawal.pending', pending);
    await qr.idle();

    // when: its withdrawal.succeeded comes
    const statements = await counted(async () => {
      qr.emit(apiKey, 'withdrawal.succeeded', { ...pending, status: 'succeeded' });
      await qr.idle();
    });

    // then: BEGIN, the inbox row, the withdrawal's insert (a first event records it), found and
    // locked, its status with its event, the inbox outcome, COMMIT
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(7);
    expect(statements.filter(changeWithEvent('withdrawal'))).toHaveLength(1);
  });
});
