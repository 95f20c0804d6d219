// Unit spec of the payout subject kind (payout-transitions.ts), with no database: its guards
// (`check`: a report for other money; `checkMove` after the machine: a provider reference another
// payout holds), its write, and how the transition path decides payout reports with it (a late
// `bounced` after `paid` is an anomaly, never old news). The transaction is a fake that records.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput, EventLog, SqlPart } from '../../kernel/events/event-log.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { TransitionPath, type Transition } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { PayoutStatus } from '../../providers/provider.js';
import { Payout } from './payout.entity.js';
import { PAYOUT_STATUS_CHANGED, payoutTransitions, type PayoutChange } from './payout-transitions.js';

const CREATED = new Date('2026-01-02T03:04:05.000Z');

/** A PENDING PEN 250.00 payout the provider has not named yet. */
function payout(overrides: Partial<Payout> = {}): Payout {
  return Object.assign(new Payout(), {
    id: 'pay_1',
    clientId: 'cli_1',
    merchantAccount: 'acct-1',
    provider: 'deposit-gateway',
    livemode: false,
    country: 'PE',
    status: 'PENDING',
    providerStatus: null,
    statusReason: null,
    amount: '250.00',
    currency: 'PEN',
    beneficiary: { name: 'A. Player', documentType: 'DNI', documentNumber: '****5678', accountNumber: '****9710', bankCode: '002', accountType: 'SAVINGS', cci: null },
    beneficiaryAccountNumber: null,
    beneficiaryCci: null,
    beneficiaryDocumentNumber: null,
    providerReference: null,
    merchantReference: null,
    submissionError: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  } satisfies Partial<Payout>);
}

/** What the kind asks of its transaction; `count` answers how many other payouts hold a reference. */
function fakeTx(taken = 0) {
  const calls: Array<{ call: string; args: unknown[] }> = [];
  const tx = {
    isInTransaction: () => true,
    count: (...args: unknown[]) => {
      calls.push({ call: 'count', args });
      return Promise.resolve(taken);
    },
    flush: () => {
      calls.push({ call: 'flush', args: [] });
      return Promise.resolve();
    },
    map: (entity: unknown, returned: Record<string, unknown>) => {
      calls.push({ call: 'map', args: [entity, returned] });
      return returned;
    },
  };
  return { tx: tx as unknown as SqlEntityManager, calls };
}

const change = (status: PayoutStatus, more: Partial<PayoutChange> = {}): PayoutChange => ({ status, providerStatus: status.toLowerCase(), ...more });
const pen = (amount: string) => Money.fromDecimal(amount, 'PEN');

function transition(row: Payout, reported: PayoutChange, tx: SqlEntityManager = fakeTx().tx): Transition<Payout, PayoutStatus, PayoutChange> {
  return { tx, row, change: reported, from: row.status, source: 'test' };
}

describe('payoutTransitions.check: a report for other money never marks a payout PAID', () => {
  it.each([
    ['no amount', {}, undefined],
    ['the payout\'s amount', { amount: pen('250') }, undefined],
    ['another amount', { amount: pen('249.99') }, 'AMOUNT_MISMATCH: reported PEN 249.99, payout is PEN 250.00'],
    ['another currency', { amount: Money.fromDecimal('250.00', 'USD') }, 'AMOUNT_MISMATCH: reported USD 250.00, payout is PEN 250.00'],
  ])('a report with %s', (_case, more: Partial<PayoutChange>, reason) => {
    expect(payoutTransitions.check?.(transition(payout(), change('PAID', more)))).toBe(reason);
  });
});

describe('payoutTransitions.checkMove: a provider reference another payout holds', () => {
  it('refuses it as data after the machine, so the unique index never aborts a webhook\'s transaction', async () => {
    const { tx, calls } = fakeTx(1);
    await expect(payoutTransitions.checkMove?.(transition(payout(), change('PAID', { providerReference: 'po_2' }), tx), 'afterMachine')).resolves.toBe(
      'PROVIDER_REFERENCE_CONFLICT: po_2 belongs to another payout',
    );
    expect(calls).toEqual([{ call: 'count', args: [Payout, { provider: 'deposit-gateway', providerReference: 'po_2', id: { $ne: 'pay_1' } }] }]);
  });

  it('accepts a reference no other payout holds', async () => {
    await expect(payoutTransitions.checkMove?.(transition(payout(), change('PAID', { providerReference: 'po_2' }), fakeTx(0).tx), 'afterMachine')).resolves.toBeUndefined();
  });

  it.each([
    ['before the machine', payout(), change('PAID', { providerReference: 'po_2' }), 'beforeMachine'],
    ['for a report that names no reference', payout(), change('PAID'), 'afterMachine'],
    ['for a payout that has its reference already', payout({ providerReference: 'po_1' }), change('PAID', { providerReference: 'po_2' }), 'afterMachine'],
  ] as const)('costs no query %s', async (_case, row, reported, phase) => {
    const { tx, calls } = fakeTx(1);
    await expect(payoutTransitions.checkMove?.(transition(row, reported, tx), phase)).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('payoutTransitions.write', () => {
  it('writes status, provider word and reason as one update of its row, keeping a reference it has', async () => {
    const { tx, calls } = fakeTx();
    const row = payout({ providerReference: 'po_1' });
    const written = await payoutTransitions.write(transition(row, change('BOUNCED', { providerReference: 'po_2', statusReason: 'account closed' }), tx));
    expect(written.next).toBe(row);
    expect(row).toMatchObject({ status: 'BOUNCED', providerStatus: 'bounced', statusReason: 'account closed', providerReference: 'po_1' });
    expect(written.update).toEqual({
      set: { provider_reference: 'po_1', status: 'BOUNCED', provider_status: 'bounced', status_reason: 'account closed', updated_at: expect.any(Date) },
      returning: '*',
    });
    expect(row.updatedAt).toBe(written.update?.set.updated_at);
    expect(calls).toEqual([]);
  });

  it('takes the report\'s reference when it has none, cuts a long reason to its column and keeps the old one when the report has none', async () => {
    const row = payout({ statusReason: 'earlier' });
    const paid = await payoutTransitions.write(transition(row, change('PAID', { providerReference: 'po_2' })));
    expect(row).toMatchObject({ providerReference: 'po_2', statusReason: 'earlier' });
    expect(paid.update?.set).toMatchObject({ provider_reference: 'po_2', status_reason: 'earlier' });
    const reverted = await payoutTransitions.write(transition(row, change('REVERTED', { statusReason: 'x'.repeat(300) })));
    expect(row.statusReason).toBe('x'.repeat(255));
    expect(reverted.update?.set.status_reason).toBe('x'.repeat(255));
  });

  it('maps the returned row back into the managed payout, so no dirty state is left for a later flush', async () => {
    const { tx, calls } = fakeTx();
    const written = await payoutTransitions.write(transition(payout(), change('PAID'), tx));
    written.merge?.({ id: 'pay_1', status: 'PAID' });
    expect(calls).toEqual([{ call: 'map', args: [Payout, { id: 'pay_1', status: 'PAID' }] }]);
  });
});

describe('payoutTransitions through the transition path', () => {
  function setup(row: Payout) {
    // The change's statement returns the row as written; `map` refreshes the managed payout from it.
    const appended: Array<{ change: SqlPart; event: AppendEventInput }> = [];
    const events = {
      appendWith: (_tx: SqlEntityManager, change: SqlPart, event: AppendEventInput) => (appended.push({ change, event }), Promise.resolve([{ id: row.id, status: event.toStatus }])),
    };
    const path = new TransitionPath(events as unknown as EventLog, {} as JobQueue);
    path.register(payoutTransitions);
    const tx = { ...fakeTx(0).tx, map: (_entity: unknown, returned: Record<string, unknown>) => Object.assign(row, returned) } as unknown as SqlEntityManager;
    const apply = (reported: PayoutChange) => path.apply(tx, payoutTransitions, { id: row.id, locked: row, change: reported, source: 'webhook:deposit-gateway/acct-1' });
    return { apply, appended };
  }

  it('applies PAID with its event: owner, statuses and snapshot', async () => {
    const row = payout();
    const { apply, appended } = setup(row);
    await expect(apply(change('PAID', { amount: pen('250.00'), providerReference: 'po_1' }))).resolves.toEqual({ outcome: 'applied', row, returned: { id: 'pay_1', status: 'PAID' } });
    expect(appended.map(({ change: written }) => written.sql)).toEqual([
      'update payout set provider_reference = ?, status = ?, provider_status = ?, status_reason = ?, updated_at = ? where id = ? returning *',
    ]);
    expect(appended.map(({ event }) => event)).toMatchObject([
      {
        subjectType: 'payout',
        subjectId: 'pay_1',
        clientId: 'cli_1',
        merchantAccount: 'acct-1',
        type: PAYOUT_STATUS_CHANGED,
        fromStatus: 'PENDING',
        toStatus: 'PAID',
        snapshot: { id: 'pay_1', status: 'PAID', amount: '250.00', currency: 'PEN' },
      },
    ]);
  });

  it.each([
    ['a late bounced after paid', 'PAID', 'BOUNCED', 'TRANSITION_NOT_ALLOWED: payout PAID cannot move to BOUNCED'],
    ['pending after paid: past statuses are not old news for payouts', 'PAID', 'PENDING', 'TRANSITION_NOT_ALLOWED: payout PAID cannot move to PENDING'],
    ['a move out of a final status', 'FAILED', 'PAID', 'TRANSITION_NOT_ALLOWED: payout FAILED is final and cannot move to PAID'],
  ] as const)('refuses %s', async (_case, status, reported, reason) => {
    const row = payout({ status });
    const { apply, appended } = setup(row);
    await expect(apply(change(reported))).resolves.toEqual({ outcome: 'anomaly', reason, row });
    expect(row.status).toBe(status);
    expect(appended).toEqual([]);
  });
});
