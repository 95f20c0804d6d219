// Unit spec of the refund subject kind (refund-transitions.ts), with no database: its guards
// (`check`: a report for another amount; `checkMove` after the machine: an approval that would
// refund more than the deposit), its write, and what it `entails` for the deposit: the refund
// position and refunded amount, and the move to REFUNDED once refunds cover the deposit, through
// the same transition path. The transaction and the event log are fakes that record; the path is
// the real one, but for a faked `apply`.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { AppendEventInput, EventLog, SqlPart } from '../../kernel/events/event-log.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { TransitionPath, type ApplyInput, type AppliedTransition, type SubjectKind, type Transition, type TransitionResult } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus, RefundStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { depositTransitions } from '../deposits/deposit-transitions.js';
import { depositFields, FIXTURE_CREATED } from '../deposits/deposit.fixture.js';
import { Refund } from './refund.entity.js';
import { DEPOSIT_REFUND_UPDATED, refundTransitions, type LockedRefund, type RefundChange } from './refund-transitions.js';

const CREATED = FIXTURE_CREATED;

/** A SUCCEEDED EUR 10.00 deposit, nothing refunded yet. */
function deposit(overrides: Partial<Deposit> = {}): Deposit {
  return Object.assign(new Deposit(), depositFields({ status: 'SUCCEEDED', providerStatus: 'succeeded', approvedAt: CREATED }), overrides);
}

/** A EUR 5.00 refund of dep_1 the provider knows (it has a reference), REQUESTED. */
function refund(overrides: Partial<Refund> = {}): Refund {
  return Object.assign(new Refund(), {
    id: 'rfd_1',
    depositId: 'dep_1',
    clientId: 'cli_1',
    origin: 'GATEWAY',
    amount: '5.00',
    currency: 'EUR',
    reason: null,
    status: 'REQUESTED',
    providerReference: 'rf_1',
    providerStatus: 'requested',
    submissionError: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  } satisfies Partial<Refund>);
}

/** What the kind asks of its transaction: `find` answers the deposit's refunds. */
function fakeTx(refunds: Refund[] = []) {
  const calls: string[] = [];
  const tx = {
    isInTransaction: () => true,
    flush: () => {
      calls.push('flush');
      return Promise.resolve();
    },
    find: (entity: unknown, where: unknown) => {
      calls.push(`find ${entity === Refund ? 'Refund' : '?'} ${JSON.stringify(where)}`);
      return Promise.resolve(refunds);
    },
    // The ORM's `map` refreshes the managed entity of the returned row's id: here, the refund the test holds.
    map: (entity: unknown, returned: Record<string, unknown>) => {
      calls.push(`map ${entity === Refund ? 'Refund' : entity === Deposit ? 'Deposit' : '?'} ${JSON.stringify(returned)}`);
      return Object.assign(refunds.find((one) => one.id === returned.id) ?? new Refund(), returned);
    },
  };
  return { tx: tx as unknown as SqlEntityManager, calls };
}

/**
 * A transition path over a fake event log that records the events and statements asked of it;
 * `apply` is faked too, and answers `outcome`.
 */
function fakePath(outcome: TransitionResult<unknown>['outcome'] = 'applied') {
  const applied: Array<{ kind: string; input: ApplyInput<unknown, unknown> }> = [];
  const appended: AppendEventInput[] = [];
  const written: SqlPart[] = [];
  const events = {
    append: (_tx: SqlEntityManager, event: AppendEventInput) => {
      appended.push(event);
      return Promise.resolve({});
    },
    appendWith: (_tx: SqlEntityManager, statement: SqlPart, event: AppendEventInput) => {
      written.push(statement);
      appended.push(event);
      return Promise.resolve([{ id: event.subjectId }]);
    },
  };
  const path = new TransitionPath(events as unknown as EventLog, {} as JobQueue, [depositTransitions, refundTransitions]);
  path.apply = ((_tx: SqlEntityManager, kind: SubjectKind<unknown, string, never>, input: ApplyInput<unknown, unknown>) => {
    applied.push({ kind: kind.type, input });
    return Promise.resolve({ outcome });
  }) as unknown as TransitionPath['apply'];
  return { path, applied, appended, written };
}

const change = (status: RefundStatus, amount?: string): RefundChange => ({ status, providerStatus: status.toLowerCase(), ...(amount ? { amount: Money.fromDecimal(amount, 'EUR') } : {}) });

function transition(row: LockedRefund, reported: RefundChange, tx: SqlEntityManager = fakeTx().tx): Transition<LockedRefund, RefundStatus, RefundChange> {
  return { tx, row, change: reported, from: row.refund.status, source: 'webhook:deposit-gateway/acct-1' };
}

const applied = (row: LockedRefund, reported: RefundChange, tx: SqlEntityManager): AppliedTransition<LockedRefund, RefundStatus, RefundChange> => ({ ...transition(row, reported, tx), next: row });

describe('refundTransitions: the rows it reads, and what it publishes', () => {
  it('is owned by its deposit\'s client and account, and snapshots the refund', () => {
    const row = { refund: refund(), deposit: deposit({ clientId: 'cli_9', merchantAccount: 'acct-9' }) };
    expect(refundTransitions.owner(row)).toEqual({ clientId: 'cli_9', merchantAccount: 'acct-9' });
    expect(refundTransitions.statusOf(row)).toBe('REQUESTED');
    expect(refundTransitions.idOf(row)).toBe('rfd_1');
    expect(refundTransitions.snapshot(row)).toMatchObject({ id: 'rfd_1', depositId: 'dep_1', status: 'REQUESTED', amount: '5.00', currency: 'EUR', createdAt: CREATED.toISOString() });
  });
});

describe('refundTransitions.check: a report for another amount never moves a refund', () => {
  it.each([
    ['no amount', change('APPROVED'), undefined],
    ['the refund\'s amount', change('APPROVED', '5'), undefined],
    ['another amount', change('APPROVED', '4.99'), 'AMOUNT_MISMATCH: reported EUR 4.99, refund is EUR 5.00'],
    ['another amount, even to reject it', change('REJECTED', '50.00'), 'AMOUNT_MISMATCH: reported EUR 50.00, refund is EUR 5.00'],
  ])('a report with %s', (_case, reported, reason) => {
    expect(refundTransitions.check?.(transition({ refund: refund(), deposit: deposit() }, reported))).toBe(reason);
  });
});

describe('refundTransitions.checkMove: an approval never refunds more than the deposit', () => {
  it.each([
    ['within what is left', '4.00', undefined],
    ['exactly what is left', '5.00', undefined],
    ['beyond what is left', '5.01', 'REFUND_EXCEEDS_DEPOSIT: EUR 10.01 refunded of EUR 10.00'],
  ])('approves a refund %s (after the machine)', (_case, refundedAlready, reason) => {
    const row = { refund: refund(), deposit: deposit({ refundedAmount: refundedAlready }) };
    expect(refundTransitions.checkMove?.(transition(row, change('APPROVED')), 'afterMachine')).toBe(reason);
  });

  it('refuses nothing before the machine, nor any other status', () => {
    const row = { refund: refund(), deposit: deposit({ refundedAmount: '9.00' }) };
    expect(refundTransitions.checkMove?.(transition(row, change('APPROVED')), 'beforeMachine')).toBeUndefined();
    expect(refundTransitions.checkMove?.(transition(row, change('REJECTED')), 'afterMachine')).toBeUndefined();
  });
});

describe('refundTransitions.write', () => {
  it('writes the refund\'s status and the provider\'s word as one update of its row; the deposit is left to entails', async () => {
    const { tx, calls } = fakeTx();
    const row = { refund: refund(), deposit: deposit() };
    const written = await refundTransitions.write(transition(row, { status: 'APPROVED', providerStatus: 'approved_by_bank' }, tx));
    expect(written.next).toEqual(row);
    expect(written.next.refund).toBe(row.refund);
    expect(row.refund).toMatchObject({ status: 'APPROVED', providerStatus: 'approved_by_bank' });
    expect(written.update).toEqual({ set: { status: 'APPROVED', provider_status: 'approved_by_bank', updated_at: expect.any(Date) }, returning: '*' });
    expect(row.refund.updatedAt).toBe(written.update?.set.updated_at);
    expect(row.deposit.refundedAmount).toBe('0.00');
    expect(calls).toEqual([]);
  });

  it('maps the returned row back into the managed refund (no dirty state left for a later flush), and keeps the locked deposit', async () => {
    const row = { refund: refund(), deposit: deposit() };
    const { tx, calls } = fakeTx([row.refund]);
    const written = await refundTransitions.write(transition(row, change('REJECTED'), tx));
    const merged = written.merge?.({ id: 'rfd_1', status: 'REJECTED' });
    expect(calls).toEqual(['map Refund {"id":"rfd_1","status":"REJECTED"}']);
    expect(merged?.refund).toBe(row.refund);
    expect(merged?.deposit).toBe(row.deposit);
  });
});

describe('refundTransitions.entails: the deposit\'s refund position', () => {
  it('adds an approved refund to the deposit\'s refunded amount and announces the deposit\'s refund update, one statement', async () => {
    const approved = refund({ status: 'APPROVED' });
    const { tx, calls } = fakeTx([approved]);
    const { path, applied: changes, appended, written } = fakePath();
    const row = { refund: approved, deposit: deposit() };
    await refundTransitions.entails?.(applied(row, change('APPROVED'), tx), path);

    expect(row.deposit).toMatchObject({ refundedAmount: '5.00', refundStatus: 'APPROVED', status: 'SUCCEEDED' });
    // Written with its event by the path, then taken back into the managed deposit: nothing left to flush.
    expect(calls).toEqual(['find Refund {"depositId":"dep_1"}', 'map Deposit {"id":"dep_1"}']);
    expect(written).toEqual([{ sql: 'update deposit set refund_status = ?, refunded_amount = ?, updated_at = ? where id = ? returning *', params: ['APPROVED', '5.00', row.deposit.updatedAt, 'dep_1'] }]);
    expect(changes).toEqual([]);
    expect(appended).toHaveLength(1);
    expect(appended[0]).toMatchObject({
      subjectType: 'deposit',
      subjectId: 'dep_1',
      clientId: 'cli_1',
      merchantAccount: 'acct-1',
      type: DEPOSIT_REFUND_UPDATED,
      fromStatus: 'SUCCEEDED',
      toStatus: 'SUCCEEDED',
      snapshot: { id: 'dep_1', refundedAmount: '5.00', refundStatus: 'APPROVED' },
    });
  });

  it('moves a deposit its refunds now cover in full to REFUNDED through the path (no details to fetch), and announces nothing more', async () => {
    const approved = refund({ status: 'APPROVED' });
    const { tx, calls } = fakeTx([approved, refund({ id: 'rfd_0', status: 'APPROVED' })]);
    const { path, applied: changes, appended } = fakePath('applied');
    const row = { refund: approved, deposit: deposit({ refundedAmount: '5.00' }) };
    await refundTransitions.entails?.(applied(row, change('APPROVED'), tx), path);

    expect(row.deposit.refundedAmount).toBe('10.00');
    // The change reads the deposit again under its lock: the position is flushed before it.
    expect(calls).toEqual(['find Refund {"depositId":"dep_1"}', 'flush']);
    expect(changes).toEqual([
      {
        kind: 'deposit',
        input: { id: 'dep_1', change: { status: 'REFUNDED', providerStatus: 'refunded', detailsIncluded: true }, source: 'webhook:deposit-gateway/acct-1' },
      },
    ]);
    expect(appended).toEqual([]);
  });

  it('announces the refund update itself when the deposit\'s move to REFUNDED is not applied', async () => {
    const approved = refund({ status: 'APPROVED', amount: '10.00' });
    const { tx } = fakeTx([approved]);
    const { path, applied: changes, appended } = fakePath('anomaly');
    await refundTransitions.entails?.(applied({ refund: approved, deposit: deposit() }, change('APPROVED'), tx), path);
    expect(changes).toHaveLength(1);
    expect(appended.map((event) => event.type)).toEqual([DEPOSIT_REFUND_UPDATED]);
  });

  it.each(['PENDING', 'REFUNDED'] as const)('does not move a %s deposit to REFUNDED, whatever its refunds cover', async (status: DepositStatus) => {
    const approved = refund({ status: 'APPROVED', amount: '10.00' });
    const { tx } = fakeTx([approved]);
    const { path, applied: changes, appended } = fakePath();
    await refundTransitions.entails?.(applied({ refund: approved, deposit: deposit({ status }) }, change('APPROVED'), tx), path);
    expect(changes).toEqual([]);
    expect(appended.map((event) => event.type)).toEqual([DEPOSIT_REFUND_UPDATED]);
  });

  it('keeps the refunded amount for a rejection, and still announces the deposit\'s new refund position', async () => {
    const rejected = refund({ status: 'REJECTED' });
    const { tx, calls } = fakeTx([rejected]);
    const { path, appended } = fakePath();
    const row = { refund: rejected, deposit: deposit({ refundStatus: 'REQUESTED' }) };
    await refundTransitions.entails?.(applied(row, change('REJECTED'), tx), path);
    expect(row.deposit).toMatchObject({ refundedAmount: '0.00', refundStatus: 'REJECTED' });
    expect(calls).toContain('map Deposit {"id":"dep_1"}');
    expect(calls).not.toContain('flush');
    expect(appended).toHaveLength(1);
  });

  it('writes and announces nothing when the deposit\'s position does not change', async () => {
    const rejected = refund({ status: 'REJECTED' });
    const { tx, calls } = fakeTx([rejected, refund({ id: 'rfd_0', status: 'REQUESTED' })]);
    const { path, appended, applied: changes } = fakePath();
    const row = { refund: rejected, deposit: deposit({ refundStatus: 'REQUESTED', refundedAmount: '0.00' }) };
    await refundTransitions.entails?.(applied(row, change('REJECTED'), tx), path);
    expect(calls).toEqual(['find Refund {"depositId":"dep_1"}']);
    expect(appended).toEqual([]);
    expect(changes).toEqual([]);
  });
});

describe('refundTransitions through the transition path', () => {
  /** A real path over fake events; the transaction answers the deposit's lock and its refunds. */
  function setup(refunds: Refund[], lockedDeposit: Deposit) {
    const appended: AppendEventInput[] = [];
    const appendedWith: Array<{ change: SqlPart; event: AppendEventInput }> = [];
    const events = {
      append: (_tx: SqlEntityManager, event: AppendEventInput) => {
        appended.push(event);
        return Promise.resolve({});
      },
      appendWith: (_tx: SqlEntityManager, statement: SqlPart, event: AppendEventInput) => {
        appendedWith.push({ change: statement, event });
        return Promise.resolve([{ id: event.subjectId, status: event.toStatus }]);
      },
    };
    const jobs = { enqueueStatement: (_tx: SqlEntityManager, kind: string) => ({ sql: `insert job ${kind}`, params: [] }) };
    const path = new TransitionPath(events as unknown as EventLog, jobs as unknown as JobQueue);
    path.register(depositTransitions);
    path.register(refundTransitions);
    const tx = {
      isInTransaction: () => true,
      flush: () => Promise.resolve(),
      find: () => Promise.resolve(refunds),
      findOne: () => Promise.resolve(lockedDeposit),
      // The ORM's `map` refreshes the managed entity of the returned row's id.
      map: (entity: unknown, returned: Record<string, unknown>) => Object.assign(entity === Deposit ? lockedDeposit : refunds.find((one) => one.id === returned.id)!, returned),
    } as unknown as SqlEntityManager;
    return { path, tx, appended, appendedWith };
  }

  it('approves the refund that covers the deposit: the refund\'s change with its event by one statement, then the deposit\'s move to REFUNDED by another', async () => {
    const requested = refund({ amount: '10.00' });
    const paid = deposit();
    const { path, tx, appended, appendedWith } = setup([requested], paid);
    const result = await path.apply(tx, refundTransitions, { id: 'rfd_1', locked: { refund: requested, deposit: paid }, change: change('APPROVED', '10.00'), source: 'reconciler' });

    expect(result.outcome).toBe('applied');
    expect(result.row?.refund).toBe(requested);
    expect(appended).toEqual([]);
    expect(appendedWith.map(({ change: written, event }) => [written.sql.split(' set ')[0], event.type, event.fromStatus, event.toStatus])).toEqual([
      ['update refund', 'refund.status_changed', 'REQUESTED', 'APPROVED'],
      ['update deposit', 'deposit.status_changed', 'SUCCEEDED', 'REFUNDED'],
    ]);
    expect(requested.status).toBe('APPROVED');
    expect(paid).toMatchObject({ status: 'REFUNDED', refundedAmount: '10.00', refundStatus: 'APPROVED' });
  });

  it('refuses an approval beyond the deposit after the machine, and changes nothing', async () => {
    const requested = refund({ amount: '5.00' });
    const paid = deposit({ refundedAmount: '6.00' });
    const { path, tx, appended, appendedWith } = setup([requested], paid);
    const result = await path.apply(tx, refundTransitions, { id: 'rfd_1', locked: { refund: requested, deposit: paid }, change: change('APPROVED'), source: 'reconciler' });
    expect(result).toMatchObject({ outcome: 'anomaly', reason: 'REFUND_EXCEEDS_DEPOSIT: EUR 11.00 refunded of EUR 10.00' });
    expect(requested.status).toBe('REQUESTED');
    expect([...appended, ...appendedWith]).toEqual([]);
  });

  it('refuses a second decision: a refund is decided once', async () => {
    const approved = refund({ status: 'APPROVED' });
    const { path, tx } = setup([approved], deposit());
    await expect(path.apply(tx, refundTransitions, { id: 'rfd_1', locked: { refund: approved, deposit: deposit() }, change: change('REJECTED'), source: 'reconciler' })).resolves.toMatchObject({
      outcome: 'anomaly',
      reason: 'TRANSITION_NOT_ALLOWED: refund APPROVED is final and cannot move to REJECTED',
    });
  });
});
