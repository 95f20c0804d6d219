// Unit spec of the inbox's decisions about withdrawal events (withdrawal-webhooks.ts), with no
// database, read as the delivery's decision the inbox records (`deliveryDecision`): the handler
// with a fake transaction and event log: the first event records the withdrawal (its row and event,
// one statement of the path), a later one applies its status, the other mode's event is an anomaly.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput, EventLog, SqlPart } from '../../kernel/events/event-log.js';
import type { JobQueue } from '../../kernel/jobs.js';
import type { ReceiveWebhookInput } from '../../kernel/inbox/webhook-handler.js';
import { deliveryDecision } from '../../kernel/inbox/report-outcome.js';
import { TransitionPath } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { MerchantAccount, WebhookEvent } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { WITHDRAWAL_CREATED, withdrawalTransitions, withdrawalWebhookHandler } from './withdrawal-webhooks.js';

const ACCOUNT: MerchantAccount = { code: 'acct-qr', provider: 'qr-gateway', livemode: false, baseUrl: 'http://qr.test', apiKey: 'sk_test_x', webhookSecrets: ['whsec'] };
type WithdrawalSubject = Extract<WebhookEvent['subject'], { kind: 'withdrawal' }>;

function delivery(livemode?: boolean): { input: ReceiveWebhookInput; subject: WithdrawalSubject } {
  const subject: WithdrawalSubject = { kind: 'withdrawal', reference: 'wd_1', status: 'PROCESSED', providerStatus: 'processed', amount: Money.fromDecimal('1500.00', 'THB') };
  return { input: { provider: 'qr-gateway', account: ACCOUNT, event: { eventId: 'wd_1:processed', name: 'withdrawal.processed', ...(livemode !== undefined ? { livemode } : {}), subject }, rawBody: Buffer.from('{}') }, subject };
}

describe('withdrawalWebhookHandler', () => {
  it('records a withdrawal at its first event: its row and its creation event, one statement the path writes; nothing else is applied', async () => {
    const written: Array<{ change: SqlPart; event: AppendEventInput }> = [];
    const events = {
      appendWith: (_tx: SqlEntityManager, change: SqlPart, event: AppendEventInput) => (written.push({ change, event }), Promise.resolve([{ id: change.params[0] }])),
    };
    const path = new TransitionPath(events as unknown as EventLog, {} as JobQueue, [withdrawalTransitions]);
    path.apply = () => Promise.reject(new Error('a first event applies nothing'));
    const tx = { create: (_entity: unknown, data: object) => Object.assign(new Withdrawal(), data) } as unknown as SqlEntityManager;
    const { input, subject } = delivery();
    const decision = deliveryDecision(await withdrawalWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }));

    expect(decision).toEqual({ outcome: 'applied', subjectType: 'withdrawal', subjectId: expect.stringMatching(/^wdr_/) });
    expect(written).toHaveLength(1);
    expect(written[0]?.change.sql).toMatch(/^insert into withdrawal \(.*\) on conflict \(provider, merchant_account, provider_reference\) do nothing returning id$/);
    // The event's mode when it says one, else the account's.
    expect(written[0]?.change.params.slice(0, 9)).toEqual([decision.subjectId, 'qr-gateway', 'acct-qr', false, 'wd_1', 'PROCESSED', 'processed', '1500.00', 'THB']);
    expect(written[0]?.event).toMatchObject({ subjectType: 'withdrawal', subjectId: decision.subjectId, clientId: null, type: WITHDRAWAL_CREATED, fromStatus: null, toStatus: 'PROCESSED', snapshot: { amount: '1500.00', currency: 'THB' } });
  });

  it('finds the row a racing first event recorded, and applies its status through the path', async () => {
    const events = { appendWith: () => Promise.resolve([]) };
    const path = new TransitionPath(events as unknown as EventLog, {} as JobQueue, [withdrawalTransitions]);
    const recorded = Object.assign(new Withdrawal(), { id: 'wdr_1', status: 'PENDING' });
    const applied: unknown[] = [];
    path.apply = ((_tx: SqlEntityManager, _kind: unknown, applying: { id: string }) => (applied.push(applying.id), Promise.resolve({ outcome: 'applied', row: recorded }))) as unknown as TransitionPath['apply'];
    const tx = { create: (_entity: unknown, data: object) => Object.assign(new Withdrawal(), data), findOneOrFail: () => Promise.resolve(recorded) } as unknown as SqlEntityManager;
    const { input, subject } = delivery();
    await expect(withdrawalWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toMatchObject({ outcome: 'applied', subjectId: 'wdr_1' });
    expect(applied).toEqual(['wdr_1']);
  });

  it('is an anomaly for an event of the other mode, and records nothing', async () => {
    const tx = { execute: () => Promise.reject(new Error('nothing is written')) } as unknown as SqlEntityManager;
    const { input, subject } = delivery(true);
    await expect(withdrawalWebhookHandler({} as TransitionPath).decide(tx, input, subject, { lookedUp: false }).then(deliveryDecision)).resolves.toEqual({
      outcome: 'anomaly',
      reason: 'LIVEMODE_MISMATCH: event livemode=true, account livemode=false',
    });
  });
});
