// Unit spec of the inbox's decisions about payout events (payout-webhooks.ts), with no database,
// read as the delivery's decision the inbox records (`deliveryDecision`): the
// handler's wiring with a fake transaction and transition path: the payout found by our id echoed
// as merchant reference or by the provider's reference, unmatched, the other mode's event.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { SqlPart } from '../../kernel/events/event-log.js';
import type { ReceiveWebhookInput } from '../../kernel/inbox/webhook-handler.js';
import { deliveryDecision } from '../../kernel/inbox/report-outcome.js';
import type { ApplyInput, TransitionPath, TransitionResult } from '../../kernel/transitions.js';
import { newId } from '../../lib/ids.js';
import { Money } from '../../lib/money.js';
import type { MerchantAccount, WebhookEvent } from '../../providers/provider.js';
import { createPayoutWebhookHandler } from './payout-webhooks.js';

const ACCOUNT: MerchantAccount = { code: 'acct-1', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://provider.test/v1', apiKey: 'svc_test_x', webhookSecrets: ['whsec'] };
type PayoutSubject = Extract<WebhookEvent['subject'], { kind: 'payout' }>;

function delivery(subject: Partial<PayoutSubject> = {}, livemode = false): { input: ReceiveWebhookInput; subject: PayoutSubject } {
  const full: PayoutSubject = { kind: 'payout', reference: 'po_1', status: 'PAID', providerStatus: 'paid', ...subject };
  return { input: { provider: 'deposit-gateway', account: ACCOUNT, event: { eventId: 'evt_1', name: 'payout.paid', livemode, subject: full }, rawBody: Buffer.from('{}') }, subject: full };
}

/** A transaction that answers each query with the next of `answers`, and records it. */
function fakeTx(...answers: Array<Array<{ id: string }>>) {
  const executed: SqlPart[] = [];
  const tx = {
    execute: (sql: string, params: unknown[]) => {
      executed.push({ sql, params });
      return Promise.resolve(answers.shift() ?? []);
    },
  };
  return { tx: tx as unknown as SqlEntityManager, executed };
}

function fakePath(result: TransitionResult<unknown>) {
  const applied: Array<ApplyInput<unknown, unknown>> = [];
  const path = { apply: (_tx: SqlEntityManager, _kind: unknown, input: ApplyInput<unknown, unknown>) => (applied.push(input), Promise.resolve(result)) };
  return { path: path as unknown as TransitionPath, applied };
}

describe('createPayoutWebhookHandler', () => {
  it('applies the report to the payout our echoed id names, with the provider\'s reference', async () => {
    const payoutId = newId('pay');
    const { path, applied } = fakePath({ outcome: 'applied' });
    const { tx, executed } = fakeTx([{ id: payoutId }]);
    const { input, subject } = delivery({ merchantReference: payoutId, amount: Money.fromDecimal('250.00', 'PEN') });
    await expect(createPayoutWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toEqual({ outcome: 'applied', subjectType: 'payout', subjectId: payoutId });
    expect(executed).toEqual([{ sql: 'select id from payout where id = ? and provider = ? and merchant_account = ?', params: [payoutId, 'deposit-gateway', 'acct-1'] }]);
    expect(applied).toEqual([
      { id: payoutId, change: { status: 'PAID', providerStatus: 'paid', amount: Money.fromDecimal('250.00', 'PEN'), providerReference: 'po_1' }, source: 'webhook:deposit-gateway/acct-1' },
    ]);
  });

  it('falls back on the provider\'s reference when the echo names none of the account\'s payouts', async () => {
    const { path } = fakePath({ outcome: 'noop' });
    const { tx, executed } = fakeTx([], [{ id: 'pay_2' }]);
    const { input, subject } = delivery({ merchantReference: newId('pay') });
    await expect(createPayoutWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toEqual({
      outcome: 'duplicate',
      subjectType: 'payout',
      subjectId: 'pay_2',
      reason: 'STATUS_UNCHANGED: payout is already PAID',
    });
    expect(executed[1]).toEqual({ sql: 'select id from payout where provider_reference = ? and provider = ? and merchant_account = ?', params: ['po_1', 'deposit-gateway', 'acct-1'] });
  });

  it('is unmatched when the account has no such payout; nothing is applied', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const { input, subject } = delivery({ merchantReference: 'not-an-id' });
    const { tx, executed } = fakeTx([]);
    await expect(createPayoutWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toEqual({ outcome: 'unmatched', reason: 'PAYOUT_NOT_FOUND: no acct-1 payout for reference po_1' });
    expect(executed).toHaveLength(1);
    expect(applied).toEqual([]);
  });

  it('is an anomaly on the payout for an event of the other mode; nothing is applied', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const { input, subject } = delivery({}, true);
    await expect(createPayoutWebhookHandler(path).decide(fakeTx([{ id: 'pay_1' }]).tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toEqual({
      outcome: 'anomaly',
      subjectType: 'payout',
      subjectId: 'pay_1',
      reason: 'LIVEMODE_MISMATCH: event livemode=true, account livemode=false',
    });
    expect(applied).toEqual([]);
  });
});
