// Unit spec of the withdrawal subject kind (withdrawal-webhooks.ts), with no database: its guard
// (`check`: a report for another amount, once the withdrawal has one), its write (one update of its
// row; the first amount reported is kept), and how the transition path decides withdrawal reports
// with it: deliveries overtake each other and earlier steps are harmless, so a past status is
// `stale`, not an anomaly.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput, EventLog, SqlPart } from '../../kernel/events/event-log.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { TransitionPath, type Transition } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { WithdrawalStatus } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { WITHDRAWAL_STATUS_CHANGED, withdrawalTransitions, type WithdrawalChange } from './withdrawal-webhooks.js';

const CREATED = new Date('2026-01-02T03:04:05.000Z');

function withdrawal(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return Object.assign(new Withdrawal(), {
    id: 'wdr_1',
    provider: 'qr-gateway',
    merchantAccount: 'acct-qr',
    livemode: false,
    providerReference: 'wd_1',
    status: 'PENDING',
    providerStatus: 'pending',
    amount: '1500.00',
    currency: 'THB',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  } satisfies Partial<Withdrawal>);
}

function fakeTx() {
  const calls: string[] = [];
  const tx = {
    isInTransaction: () => true,
    flush: () => (calls.push('flush'), Promise.resolve()),
    map: (entity: unknown, returned: Record<string, unknown>) => (calls.push(`map ${entity === Withdrawal ? 'Withdrawal' : '?'} ${JSON.stringify(returned)}`), returned),
  };
  return { tx: tx as unknown as SqlEntityManager, calls };
}

const change = (status: WithdrawalStatus, amount?: Money): WithdrawalChange => ({ status, providerStatus: status.toLowerCase(), ...(amount ? { amount } : {}) });
const thb = (amount: string) => Money.fromDecimal(amount, 'THB');

function transition(row: Withdrawal, reported: WithdrawalChange, tx: SqlEntityManager = fakeTx().tx): Transition<Withdrawal, WithdrawalStatus, WithdrawalChange> {
  return { tx, row, change: reported, from: row.status, source: 'test' };
}

describe('withdrawalTransitions: what it publishes', () => {
  it('belongs to no client (admins alone see withdrawals), and says past statuses are stale', () => {
    expect(withdrawalTransitions.owner(withdrawal())).toEqual({ clientId: null, merchantAccount: 'acct-qr' });
    expect(withdrawalTransitions.pastStatusIsStale).toBe(true);
    expect(withdrawalTransitions.snapshot(withdrawal())).toMatchObject({ id: 'wdr_1', providerReference: 'wd_1', amount: '1500.00', currency: 'THB', createdAt: CREATED.toISOString() });
  });
});

describe('withdrawalTransitions.check: a report for another amount', () => {
  it.each([
    ['no amount', withdrawal(), change('SUCCEEDED'), undefined],
    ['its amount', withdrawal(), change('SUCCEEDED', thb('1500')), undefined],
    ['any amount, while it has none', withdrawal({ amount: null, currency: null }), change('SUCCEEDED', thb('1')), undefined],
    ['another amount', withdrawal(), change('SUCCEEDED', thb('1499.99')), 'AMOUNT_MISMATCH: reported THB 1499.99, withdrawal is THB 1500.00'],
    ['another currency', withdrawal(), change('FAILED', Money.fromDecimal('1500.00', 'USD')), 'AMOUNT_MISMATCH: reported USD 1500.00, withdrawal is THB 1500.00'],
  ])('a report with %s', (_case, row, reported, reason) => {
    expect(withdrawalTransitions.check?.(transition(row, reported))).toBe(reason);
  });
});

describe('withdrawalTransitions.write', () => {
  it('writes the status and the provider\'s word as one update of its row', async () => {
    const { tx, calls } = fakeTx();
    const row = withdrawal();
    const written = await withdrawalTransitions.write(transition(row, change('PROCESSED'), tx));
    expect(written.next).toBe(row);
    expect(row).toMatchObject({ status: 'PROCESSED', providerStatus: 'processed', amount: '1500.00', currency: 'THB' });
    expect(written.update).toEqual({ set: { status: 'PROCESSED', provider_status: 'processed', updated_at: expect.any(Date) }, returning: '*' });
    expect(row.updatedAt).toBe(written.update?.set.updated_at);
    expect(calls).toEqual([]);
  });

  it('keeps the first amount a report carries, and never writes over it', async () => {
    const row = withdrawal({ amount: null, currency: null });
    const first = await withdrawalTransitions.write(transition(row, change('PROCESSED', thb('1500'))));
    expect(row).toMatchObject({ amount: '1500.00', currency: 'THB' });
    expect(first.update?.set).toMatchObject({ amount: '1500.00', currency: 'THB' });
    const later = await withdrawalTransitions.write(transition(row, change('SUCCEEDED', thb('1500.00'))));
    expect(row.amountMoney()?.toString()).toBe('THB 1500.00');
    expect(later.update?.set).not.toHaveProperty('amount');
    expect(later.update?.set).not.toHaveProperty('currency');
  });

  it('maps the returned row back into the managed withdrawal, so no dirty state is left for a later flush', async () => {
    const { tx, calls } = fakeTx();
    const written = await withdrawalTransitions.write(transition(withdrawal(), change('SUCCEEDED'), tx));
    written.merge?.({ id: 'wdr_1', status: 'SUCCEEDED' });
    expect(calls).toEqual(['map Withdrawal {"id":"wdr_1","status":"SUCCEEDED"}']);
  });
});

describe('withdrawalTransitions through the transition path', () => {
  function setup(row: Withdrawal) {
    // The change's statement returns the row as written; `map` refreshes the managed withdrawal from it.
    const appended: AppendEventInput[] = [];
    const events = {
      appendWith: (_tx: SqlEntityManager, _change: SqlPart, event: AppendEventInput) => (appended.push(event), Promise.resolve([{ id: row.id, status: event.toStatus }])),
    };
    const path = new TransitionPath(events as unknown as EventLog, {} as JobQueue);
    path.register(withdrawalTransitions);
    const tx = { ...fakeTx().tx, map: (_entity: unknown, returned: Record<string, unknown>) => Object.assign(row, returned) } as unknown as SqlEntityManager;
    const apply = (reported: WithdrawalChange) => path.apply(tx, withdrawalTransitions, { id: row.id, locked: row, change: reported, source: 'webhook:qr-gateway/acct-qr' });
    return { apply, appended };
  }

  it.each([
    ['PROCESSED', 'SUCCEEDED'],
    ['PENDING', 'SUCCEEDED'],
    ['PENDING', 'PROCESSED'],
    ['PROCESSED', 'FAILED'],
  ] as const)('is stale for %s reported after %s, and changes nothing', async (reported, status) => {
    const row = withdrawal({ status });
    const { apply, appended } = setup(row);
    await expect(apply(change(reported))).resolves.toEqual({ outcome: 'stale', reason: `STALE_STATUS: withdrawal is already ${status}, past ${reported}`, row });
    expect(row.status).toBe(status);
    expect(appended).toEqual([]);
  });

  it('is an anomaly for one final status after the other', async () => {
    const row = withdrawal({ status: 'SUCCEEDED' });
    await expect(setup(row).apply(change('FAILED'))).resolves.toMatchObject({ outcome: 'anomaly', reason: 'TRANSITION_NOT_ALLOWED: withdrawal SUCCEEDED is final and cannot move to FAILED' });
  });

  it('applies a step forward, skipping PROCESSED, with its event', async () => {
    const row = withdrawal();
    const { apply, appended } = setup(row);
    await expect(apply(change('SUCCEEDED'))).resolves.toEqual({ outcome: 'applied', row, returned: { id: 'wdr_1', status: 'SUCCEEDED' } });
    expect(appended).toMatchObject([{ subjectType: 'withdrawal', subjectId: 'wdr_1', clientId: null, type: WITHDRAWAL_STATUS_CHANGED, fromStatus: 'PENDING', toStatus: 'SUCCEEDED' }]);
  });
});
