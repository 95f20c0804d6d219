// Unit spec of the deposit subject kind (deposit-transitions.ts), with no database: its guards
// (`check`: a report for other money; `checkMove`: a REFUNDED no refund row explains, before the
// machine, and a provider reference another deposit holds, after it), the payment reference it
// records whatever the decision (`recordUnchanged`), the row and statement a change writes, and
// its reactions (the detail fetch, the release of deferred refund deliveries). The transaction is
// a fake that records what the kind asks of it.

import { UnderscoreNamingStrategy } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { EventLog } from '../../kernel/events/event-log.js';
import { RELEASE_DEFERRED_DELIVERIES } from '../../kernel/inbox/deferred.js';
import type { JobQueue } from '../../kernel/jobs.js';
import { TransitionPath, type Transition } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus } from '../../providers/provider.js';
import { Deposit } from './deposit.entity.js';
import { depositFields } from './deposit.fixture.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES } from './deposit-snapshot.js';
import { depositTransitions, FETCH_DEPOSIT_DETAILS, TRANSITION_PROPERTIES, type DepositChange, type TransitionProperty } from './deposit-transitions.js';

/**
 * A column as the ORM names it (its default naming strategy): `columnList` keeps each list it
 * builds for the process, so a fake's columns must be the real ones.
 */
const naming = new UnderscoreNamingStrategy();
const snake = (name: string) => naming.propertyToColumnName(name);

/** What the kind asks of its transaction, recorded; `count` answers how many other deposits hold a reference. */
function fakeTx(taken = 0) {
  const calls: Array<{ call: string; args: unknown[] }> = [];
  // The deposit's columns as the ORM's metadata names them (`columnList`).
  const properties = Object.fromEntries(TRANSITION_PROPERTIES.map((name) => [name, { fieldNames: [snake(name)] }]));
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
    execute: (...args: unknown[]) => {
      calls.push({ call: 'execute', args });
      return Promise.resolve([]);
    },
    map: (entity: unknown, row: Record<string, unknown>) => {
      calls.push({ call: 'map', args: [entity, row] });
      return row;
    },
    getMetadata: () => ({ get: () => ({ className: 'Deposit', properties }) }),
  };
  return { tx: tx as unknown as SqlEntityManager, calls };
}


/** A deposit read under its lock without an entity (a webhook's row), EUR 10.00, PENDING. */
function lockedDeposit(overrides: Partial<Deposit> = {}): Pick<Deposit, TransitionProperty> {
  return depositFields(overrides);
}

/** The same deposit as a managed entity (the card settle call, reconciliation). */
function managedDeposit(overrides: Partial<Deposit> = {}): Deposit {
  return Object.assign(new Deposit(), lockedDeposit(overrides));
}

const change = (status: DepositStatus, more: Partial<DepositChange> = {}): DepositChange => ({ status, providerStatus: status.toLowerCase(), ...more });

function transition(row: Pick<Deposit, TransitionProperty>, reported: DepositChange, tx: SqlEntityManager = fakeTx().tx): Transition<Pick<Deposit, TransitionProperty>, DepositStatus, DepositChange> {
  return { tx, row, change: reported, from: row.status, source: 'test' };
}

const eur = (amount: string) => Money.fromDecimal(amount, 'EUR');

describe('depositTransitions.check: a report for other money never moves a deposit', () => {
  it.each([
    ['no amount', {}],
    ['the same amount', { amount: eur('10.00') }],
    ['the same amount written differently', { amount: eur('10') }],
    ['fee and net in the deposit\'s currency', { fee: eur('0.30'), net: eur('9.70') }],
  ])('accepts a report with %s', (_case, more: Partial<DepositChange>) => {
    expect(depositTransitions.check?.(transition(lockedDeposit(), change('SUCCEEDED', more)))).toBeUndefined();
  });

  it.each([
    ['another amount', { amount: eur('9.99') }, 'AMOUNT_MISMATCH: reported EUR 9.99, deposit is EUR 10.00'],
    ['another currency', { amount: Money.fromDecimal('10.00', 'USD') }, 'AMOUNT_MISMATCH: reported USD 10.00, deposit is EUR 10.00'],
    ['a fee in another currency', { fee: Money.fromDecimal('0.30', 'USD') }, 'AMOUNT_MISMATCH: fee reported in USD, deposit is in EUR'],
    ['a net in another currency', { net: Money.fromDecimal('9.70', 'GBP') }, 'AMOUNT_MISMATCH: net reported in GBP, deposit is in EUR'],
  ])('refuses a report with %s, whatever its status', (_case, more: Partial<DepositChange>, reason) => {
    for (const status of ['SUCCEEDED', 'PENDING', 'DECLINED'] as const) {
      expect(depositTransitions.check?.(transition(lockedDeposit(), change(status, more)))).toBe(reason);
    }
  });
});

describe('depositTransitions.checkMove before the machine: only refund rows decide REFUNDED', () => {
  it.each([
    ['nothing', '0.00', 'REFUND_NOT_RECORDED: EUR 0.00 of EUR 10.00 is refunded by refund rows'],
    ['part of it', '4.00', 'REFUND_NOT_RECORDED: EUR 4.00 of EUR 10.00 is refunded by refund rows'],
  ])('refuses a REFUNDED report when refund rows cover %s', async (_case, refundedAmount, reason) => {
    await expect(depositTransitions.checkMove?.(transition(lockedDeposit({ status: 'SUCCEEDED', refundedAmount }), change('REFUNDED')), 'beforeMachine')).resolves.toBe(reason);
  });

  it('reads a row without a refunded amount as nothing refunded', async () => {
    const row = lockedDeposit({ status: 'SUCCEEDED', refundedAmount: undefined as unknown as string });
    await expect(depositTransitions.checkMove?.(transition(row, change('REFUNDED')), 'beforeMachine')).resolves.toBe('REFUND_NOT_RECORDED: EUR 0.00 of EUR 10.00 is refunded by refund rows');
  });

  it('lets REFUNDED through once refund rows cover the whole amount, and any other status whatever is refunded', async () => {
    const { tx, calls } = fakeTx();
    await expect(depositTransitions.checkMove?.(transition(lockedDeposit({ status: 'SUCCEEDED', refundedAmount: '10.00' }), change('REFUNDED'), tx), 'beforeMachine')).resolves.toBeUndefined();
    await expect(depositTransitions.checkMove?.(transition(lockedDeposit({ refundedAmount: '4.00' }), change('SUCCEEDED'), tx), 'beforeMachine')).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('depositTransitions.checkMove after the machine: a provider reference another deposit holds', () => {
  it('refuses the reference as data, so the unique index never aborts a webhook\'s transaction', async () => {
    const { tx, calls } = fakeTx(1);
    const reason = await depositTransitions.checkMove?.(transition(lockedDeposit({ providerReference: null }), change('SUCCEEDED', { providerReference: 'pi_2' }), tx), 'afterMachine');
    expect(reason).toBe('PROVIDER_REFERENCE_CONFLICT: pi_2 belongs to another deposit');
    expect(calls).toEqual([{ call: 'count', args: [Deposit, { provider: 'deposit-gateway', providerReference: 'pi_2', id: { $ne: 'dep_1' } }] }]);
  });

  it('accepts a reference no other deposit holds', async () => {
    const { tx } = fakeTx(0);
    await expect(depositTransitions.checkMove?.(transition(lockedDeposit({ providerReference: null }), change('SUCCEEDED', { providerReference: 'pi_2' }), tx), 'afterMachine')).resolves.toBeUndefined();
  });

  it.each([
    ['names no reference', lockedDeposit({ providerReference: null }), change('SUCCEEDED')],
    ['is about a deposit that has its reference already', lockedDeposit(), change('SUCCEEDED', { providerReference: 'pi_2' })],
  ])('costs no query when the report %s', async (_case, row, reported) => {
    const { tx, calls } = fakeTx(1);
    await expect(depositTransitions.checkMove?.(transition(row, reported, tx), 'afterMachine')).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('depositTransitions.recordUnchanged: the payment reference a report names, whatever its status decision', () => {
  it('writes it on a plain row that has none yet', async () => {
    const { tx, calls } = fakeTx();
    await depositTransitions.recordUnchanged?.(transition(lockedDeposit({ paymentReference: null }), change('SUCCEEDED', { providerReference: 'pi_1' }), tx));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0]).toBe('update deposit set payment_reference = ?, updated_at = ? where id = ?');
    expect(calls[0]?.args[1]).toEqual(['pi_1', expect.any(Date), 'dep_1']);
  });

  it('sets it on a managed entity and flushes it', async () => {
    const { tx, calls } = fakeTx();
    const deposit = managedDeposit({ paymentReference: null });
    await depositTransitions.recordUnchanged?.(transition(deposit, change('SUCCEEDED', { providerReference: 'pi_1' }), tx));
    expect(deposit.paymentReference).toBe('pi_1');
    expect(calls).toEqual([{ call: 'flush', args: [] }]);
  });

  it('takes a hosted checkout\'s payment id, not its session id again', async () => {
    const hosted = { rail: 'HOSTED_CHECKOUT' as const, providerReference: 'cs_1', paymentReference: null };
    const { tx, calls } = fakeTx();
    await depositTransitions.recordUnchanged?.(transition(lockedDeposit(hosted), change('PENDING', { providerReference: 'cs_1' }), tx));
    expect(calls).toEqual([]);
    await depositTransitions.recordUnchanged?.(transition(lockedDeposit(hosted), change('PENDING', { providerReference: 'pi_9' }), tx));
    expect(calls[0]?.args[1]).toEqual(['pi_9', expect.any(Date), 'dep_1']);
  });

  it.each([
    ['the deposit has one already', lockedDeposit({ paymentReference: 'pi_1' }), change('SUCCEEDED', { providerReference: 'pi_other' })],
    ['the report names none', lockedDeposit({ paymentReference: null }), change('SUCCEEDED')],
  ])('writes nothing when %s', async (_case, row, reported) => {
    const { tx, calls } = fakeTx();
    await depositTransitions.recordUnchanged?.(transition(row, reported, tx));
    expect(calls).toEqual([]);
  });
});

describe('depositTransitions.write: one statement for the row, its event and its jobs', () => {
  it('writes a plain row\'s new status and details, keeps what the report leaves out, and returns the snapshot\'s columns with the row version', async () => {
    const { tx } = fakeTx();
    const row = lockedDeposit({ status: 'AUTHORIZED', declineReason: 'kept', statusReason: 'kept too', fee: '0.20', providerReference: null, paymentReference: null });
    const approvedAt = new Date('2026-01-02T04:00:00.000Z');
    const written = await depositTransitions.write(transition(row, change('SUCCEEDED', { approvedAt, net: eur('9.70'), providerReference: 'pi_7' }), tx));

    expect(written.merge).toBeUndefined();
    expect(written.next).toMatchObject({
      status: 'SUCCEEDED',
      providerStatus: 'succeeded',
      declineReason: 'kept',
      statusReason: 'kept too',
      fee: '0.20',
      net: '9.70',
      approvedAt,
      providerReference: 'pi_7',
      paymentReference: 'pi_7',
    });
    expect(written.update).toEqual({
      set: {
        status: 'SUCCEEDED',
        provider_status: 'succeeded',
        decline_reason: 'kept',
        status_reason: 'kept too',
        fee: '0.20',
        net: '9.70',
        approved_at: approvedAt,
        provider_reference: 'pi_7',
        payment_reference: 'pi_7',
        updated_at: expect.any(Date),
      },
      // The snapshot's columns and the row's version: a webhook hands the row to the detail fetch.
      returning: { columns: DEPOSIT_SNAPSHOT_PROPERTIES.map(snake), version: true },
    });
  });

  it('takes the decline reason and status reason a report gives, and stamps SUCCEEDED now when the report has no time', async () => {
    const before = Date.now();
    const declined = await depositTransitions.write(transition(lockedDeposit(), change('DECLINED', { declineReason: 'INSUFFICIENT_FUNDS', statusReason: '51' })));
    expect(declined.next).toMatchObject({ declineReason: 'INSUFFICIENT_FUNDS', statusReason: '51', approvedAt: null, providerReference: 'pi_1', paymentReference: 'pi_1' });
    const succeeded = await depositTransitions.write(transition(lockedDeposit(), change('SUCCEEDED')));
    expect((succeeded.next.approvedAt as Date).getTime()).toBeGreaterThanOrEqual(before);
  });

  it('returns a managed entity\'s whole row, which `merge` maps back into the entity', async () => {
    const { tx, calls } = fakeTx();
    const deposit = managedDeposit();
    const written = await depositTransitions.write(transition(deposit, change('EXPIRED'), tx));
    expect(written.next).toBe(deposit);
    expect(deposit.status).toBe('EXPIRED');
    expect(written.update?.returning).toBe('*');
    written.merge?.({ id: 'dep_1', status: 'EXPIRED' });
    expect(calls).toEqual([{ call: 'map', args: [Deposit, { id: 'dep_1', status: 'EXPIRED' }] }]);
  });
});

describe('depositTransitions.reactions: the detail fetch and the release of deferred refund deliveries', () => {
  const applied = (next: Partial<Deposit>, reported: DepositChange) => ({ ...transition(lockedDeposit(), reported), next: lockedDeposit(next) });
  const release = { kind: RELEASE_DEFERRED_DELIVERIES, payload: { subjectType: 'deposit', subjectId: 'dep_1' }, dedupeKey: 'deposit:dep_1' };
  const fetch = (reference: string) => ({
    kind: FETCH_DEPOSIT_DETAILS,
    payload: { depositId: 'dep_1', reference, provider: 'deposit-gateway', merchantAccount: 'acct-1' },
    dedupeKey: 'dep_1',
  });

  it.each([
    ['the report\'s reference first', {}, { providerReference: 'pi_report' }, 'pi_report'],
    ['then the payment reference', { paymentReference: 'pi_pay', providerReference: 'cs_1' }, {}, 'pi_pay'],
    ['then the provider reference', { paymentReference: null, providerReference: 'pi_prov' }, {}, 'pi_prov'],
  ])('fetches the details by %s, one pending fetch per deposit', (_case, next: Partial<Deposit>, more: Partial<DepositChange>, reference) => {
    expect(depositTransitions.reactions?.(applied(next, change('SUCCEEDED', more)))).toMatchObject([fetch(reference), release]);
  });

  it('fetches nothing when the report was the whole record, or names no payment', () => {
    expect(depositTransitions.reactions?.(applied({}, change('REFUNDED', { detailsIncluded: true, providerReference: 'pi_1' })))).toMatchObject([release]);
    expect(depositTransitions.reactions?.(applied({ paymentReference: null, providerReference: null }, change('FAILED')))).toMatchObject([release]);
  });

  it('releases deferred deliveries only when some wait for this deposit (the condition the insert reads)', () => {
    const [only] = depositTransitions.reactions?.(applied({}, change('SUCCEEDED', { detailsIncluded: true }))) ?? [];
    expect(only?.onlyIf).toEqual([{ exists: { table: 'webhook_delivery', where: { subject_type: 'deposit', subject_id: 'dep_1', outcome: 'deferred' } } }]);
  });
});

describe('depositTransitions through the transition path', () => {
  const setup = () => {
    const path = new TransitionPath({} as EventLog, {} as JobQueue);
    path.register(depositTransitions);
    return path;
  };

  it('registers: its state machine is consistent', () => {
    expect(setup().types()).toEqual(['deposit']);
  });

  it.each([
    ['a REFUNDED report of a PENDING deposit', 'PENDING', change('REFUNDED'), 'REFUND_NOT_RECORDED: EUR 0.00 of EUR 10.00 is refunded by refund rows'],
    ['a SUCCEEDED report for other money of a PENDING deposit', 'PENDING', change('SUCCEEDED', { amount: eur('1.00') }), 'AMOUNT_MISMATCH: reported EUR 1.00, deposit is EUR 10.00'],
    ['a DECLINED report of a SUCCEEDED deposit', 'SUCCEEDED', change('DECLINED'), 'TRANSITION_NOT_ALLOWED: deposit SUCCEEDED cannot move to DECLINED'],
    ['a PENDING report of a SUCCEEDED deposit (no past status is old news here)', 'SUCCEEDED', change('PENDING'), 'TRANSITION_NOT_ALLOWED: deposit SUCCEEDED cannot move to PENDING'],
  ] as const)('refuses %s', async (_case, status, reported, reason) => {
    const { tx, calls } = fakeTx();
    const locked = lockedDeposit({ status, paymentReference: 'pi_1' });
    await expect(setup().apply(tx, depositTransitions, { id: 'dep_1', locked, change: reported, source: 'test' })).resolves.toEqual({ outcome: 'anomaly', reason, row: locked });
    expect(calls).toEqual([]);
  });
});
