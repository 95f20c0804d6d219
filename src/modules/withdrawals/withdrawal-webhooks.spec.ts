// Unit spec of the inbox's decisions about withdrawal events (withdrawal-webhooks.ts), with no
// database, read as the delivery's decision the inbox records (`deliveryDecision`): the handler
// with a fake transaction: the first event records the withdrawal, the other
// mode's event is an anomaly.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput } from '../../kernel/events/event-log.js';
import type { ReceiveWebhookInput } from '../../kernel/inbox/webhook-handler.js';
import { deliveryDecision } from '../../kernel/inbox/report-outcome.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { MerchantAccount, WebhookEvent } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { WITHDRAWAL_CREATED, withdrawalWebhookHandler } from './withdrawal-webhooks.js';

const ACCOUNT: MerchantAccount = { code: 'acct-qr', provider: 'qr-gateway', livemode: false, baseUrl: 'http://qr.test', apiKey: 'sk_test_x', webhookSecrets: ['whsec'] };
type WithdrawalSubject = Extract<WebhookEvent['subject'], { kind: 'withdrawal' }>;

function delivery(livemode?: boolean): { input: ReceiveWebhookInput; subject: WithdrawalSubject } {
  const subject: WithdrawalSubject = { kind: 'withdrawal', reference: 'wd_1', status: 'PROCESSED', providerStatus: 'processed', amount: Money.fromDecimal('1500.00', 'THB') };
  return { input: { provider: 'qr-gateway', account: ACCOUNT, event: { eventId: 'wd_1:processed', name: 'withdrawal.processed', ...(livemode !== undefined ? { livemode } : {}), subject }, rawBody: Buffer.from('{}') }, subject };
}

describe('withdrawalWebhookHandler', () => {
  it('records a withdrawal at its first event, with its creation event; nothing else is applied', async () => {
    const executed: unknown[][] = [];
    const appended: AppendEventInput[] = [];
    const created = Object.assign(new Withdrawal(), {
      id: 'wdr_row', provider: 'qr-gateway', merchantAccount: 'acct-qr', livemode: false, providerReference: 'wd_1', status: 'PROCESSED', providerStatus: 'processed',
      amount: '1500.00', currency: 'THB', createdAt: new Date(), updatedAt: new Date(),
    } satisfies Partial<Withdrawal>);
    const tx = {
      execute: (sql: string, params: unknown[]) => (executed.push([sql, params]), Promise.resolve([{ id: params[0] }])),
      findOneOrFail: () => Promise.resolve(created),
    } as unknown as SqlEntityManager;
    const path = {
      events: { append: (_tx: SqlEntityManager, event: AppendEventInput) => (appended.push(event), Promise.resolve({})) },
      apply: () => Promise.reject(new Error('a first event applies nothing')),
    } as unknown as TransitionPath;
    const { input, subject } = delivery();
    const decision = deliveryDecision(await withdrawalWebhookHandler(path).decide(tx, input, subject, { lookedUp: false }));

    expect(decision).toEqual({ outcome: 'applied', subjectType: 'withdrawal', subjectId: expect.stringMatching(/^wdr_/) });
    expect(executed[0]?.[0]).toMatch(/on conflict \(provider, merchant_account, provider_reference\) do nothing/);
    // The event's mode when it says one, else the account's.
    expect((executed[0]?.[1] as unknown[]).slice(1, 9)).toEqual(['qr-gateway', 'acct-qr', false, 'wd_1', 'PROCESSED', 'processed', '1500.00', 'THB']);
    // The new row's id: the one the insert was given.
    expect(appended).toMatchObject([{ subjectType: 'withdrawal', subjectId: decision.subjectId, clientId: null, type: WITHDRAWAL_CREATED, fromStatus: null, toStatus: 'PROCESSED' }]);
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
