// Unit spec of the inbox's decisions about withdrawal events (withdrawal-webhooks.ts), with no
// database: what each transition outcome makes of a report about a recorded withdrawal
// (`withdrawalReportDecision`: an earlier step after a later one is a duplicate, not an anomaly),
// and the handler with a fake transaction: the first event records the withdrawal, the other
// mode's event is an anomaly.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput } from '../../kernel/events/event-log.js';
import type { ReceiveWebhookInput, WebhookDecision } from '../../kernel/inbox/inbox.js';
import type { TransitionPath, TransitionResult } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { MerchantAccount, WebhookEvent } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { WITHDRAWAL_CREATED, withdrawalReportDecision, withdrawalWebhookHandler } from './withdrawal-webhooks.js';

describe('withdrawalReportDecision: a report about a recorded withdrawal, as the delivery\'s outcome', () => {
  const found = { subjectType: 'withdrawal', subjectId: 'wdr_1' } as const;
  it.each([
    [{ outcome: 'applied' }, { ...found, outcome: 'applied' }],
    [{ outcome: 'noop' }, { ...found, outcome: 'duplicate', reason: 'STATUS_UNCHANGED: withdrawal is already SUCCEEDED' }],
    [{ outcome: 'stale', reason: 'STALE_STATUS: withdrawal is already SUCCEEDED, past PROCESSED' }, { ...found, outcome: 'duplicate', reason: 'STALE_STATUS: withdrawal is already SUCCEEDED, past PROCESSED' }],
    [{ outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }, { ...found, outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }],
    // Its row was found (or inserted) under lock just before: one missing now is an anomaly on it.
    [{ outcome: 'not_found', reason: 'WITHDRAWAL_NOT_FOUND: no withdrawal wdr_1' }, { ...found, outcome: 'anomaly', reason: 'WITHDRAWAL_NOT_FOUND: no withdrawal wdr_1' }],
  ] as const)('%o is %o', (result: Pick<TransitionResult<unknown>, 'outcome' | 'reason'>, decision: WebhookDecision) => {
    expect(withdrawalReportDecision(result, 'wdr_1', 'SUCCEEDED')).toEqual(decision);
  });
});

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
    const decision = await withdrawalWebhookHandler(path).decide(tx, input, subject, { lookedUp: false });

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
    await expect(withdrawalWebhookHandler({} as TransitionPath).decide(tx, input, subject, { lookedUp: false })).resolves.toEqual({
      outcome: 'anomaly',
      reason: 'LIVEMODE_MISMATCH: event livemode=true, account livemode=false',
    });
  });
});
