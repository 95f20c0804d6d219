// Unit spec of the inbox's decisions about deposit events (deposit-webhooks.ts), with no database,
// read as the delivery's decision the inbox records (`deliveryDecision`): the handler's wiring
// with a fake transaction and transition path: the lookup it hands the inbox,
// the change it applies, the delivery's outcome written by the change's own statement (`recorded`),
// the written row kept for the detail fetch, and the events that change no status.

import { UnderscoreNamingStrategy } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { SqlPart } from '../../kernel/events/event-log.js';
import type { InboxContext, ReceiveWebhookInput } from '../../kernel/inbox/webhook-handler.js';
import { deliveryDecision, type ReportOutcome, type WebhookDecision } from '../../kernel/inbox/report-outcome.js';
import { renderLookup, type RowWrite } from '../../kernel/sql-intents.js';
import type { ApplyInput, TransitionPath, TransitionResult } from '../../kernel/transitions.js';
import { newId } from '../../lib/ids.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus, MerchantAccount, WebhookEvent } from '../../providers/provider.js';
import { TRANSITION_PROPERTIES } from './deposit-transitions.js';
import { depositWebhookHandler, type PaymentRefundedHandler } from './deposit-webhooks.js';
import { DetailsHandOff } from './written-deposits.js';

const ACCOUNT: MerchantAccount = { code: 'acct-1', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://provider.test/v1', apiKey: 'svc_test_x', webhookSecrets: ['whsec'] };
type DepositSubject = Extract<WebhookEvent['subject'], { kind: 'deposit' }>;

function delivery(subject: Partial<DepositSubject> = {}, event: Partial<WebhookEvent> = {}): { input: ReceiveWebhookInput; subject: DepositSubject } {
  const full: DepositSubject = { kind: 'deposit', reference: 'pi_1', status: 'SUCCEEDED', providerStatus: 'approved', ...subject };
  const input: ReceiveWebhookInput = {
    provider: 'deposit-gateway',
    account: ACCOUNT,
    event: { eventId: 'evt_1', name: 'payment.approved', livemode: false, subject: full, ...event },
    rawBody: Buffer.from('{}'),
  };
  return { input, subject: full };
}

/**
 * A column as the ORM names it (its default naming strategy): `columnList` keeps each list it
 * builds for the process, so a fake's columns must be the real ones.
 */
const naming = new UnderscoreNamingStrategy();
const snake = (name: string) => naming.propertyToColumnName(name);

/** A transaction whose `execute` answers `rows`; rows map to properties as they are (the driver's mapper is the identity here). */
function fakeTx(rows: Array<Record<string, unknown>> = []) {
  const executed: SqlPart[] = [];
  const properties = Object.fromEntries(TRANSITION_PROPERTIES.map((name) => [name, { fieldNames: [snake(name)] }]));
  const tx = {
    isInTransaction: () => true,
    execute: (sql: string, params: unknown[]) => {
      executed.push({ sql, params });
      return Promise.resolve(rows);
    },
    getMetadata: () => ({ get: () => ({ className: 'Deposit', properties }) }),
    getDriver: () => ({ mapResult: (row: Record<string, unknown>) => ({ ...row }) }),
  };
  return { tx: tx as unknown as SqlEntityManager, executed };
}

/** A transition path whose `apply` answers `result` and records what it was asked. */
function fakePath(result: TransitionResult<unknown>) {
  const applied: Array<ApplyInput<unknown, unknown>> = [];
  const path = {
    apply: (_tx: SqlEntityManager, _kind: unknown, input: ApplyInput<unknown, unknown>) => {
      applied.push(input);
      return Promise.resolve(result);
    },
  };
  return { path: path as unknown as TransitionPath, applied };
}

/** Refund accounting's answer, recorded. */
function fakePaymentRefunded(answer: Awaited<ReturnType<PaymentRefundedHandler>>) {
  const reports: Array<Parameters<PaymentRefundedHandler>[1]> = [];
  const handler: PaymentRefundedHandler = (_tx, report) => {
    reports.push(report);
    return Promise.resolve(answer);
  };
  return { handler, reports };
}

const outcomeStatement = (outcome: ReportOutcome): RowWrite => ({ table: 'webhook_delivery', id: 'whd_1', set: { outcome: outcome.outcome, subject_id: outcome.subject?.id ?? null } });

/** A handler's answer as the inbox records it, with whether the handler's statement wrote it. */
async function decided(answer: Promise<ReportOutcome & { recorded?: boolean }>): Promise<WebhookDecision & { recorded?: boolean }> {
  const { recorded, ...outcome } = await answer;
  return { ...deliveryDecision(outcome), ...(recorded !== undefined ? { recorded } : {}) };
}
const lockedRow = { id: 'dep_1', status: 'PENDING' as DepositStatus, amount: '10.00', currency: 'EUR', paymentReference: 'pi_1', providerReference: 'pi_1' };

describe('depositWebhookHandler.find: the lookup run with the delivery\'s insert', () => {
  const handler = depositWebhookHandler({ transitions: fakePath({ outcome: 'applied' }).path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });

  it('locks the account\'s deposit the echoed merchant reference names, else the one with the provider\'s reference', () => {
    const ownId = newId('dep');
    const { input, subject } = delivery({ merchantReference: ownId });
    const lookup = handler.find?.(fakeTx().tx, input, subject);
    expect(lookup).toMatchObject({
      table: 'deposit',
      anyOf: [['id', ownId], ['provider_reference', 'pi_1'], ['payment_reference', 'pi_1']],
      scope: { provider: 'deposit-gateway', merchant_account: 'acct-1' },
      lock: true,
    });
    const { sql, params } = renderLookup(lookup!);
    expect(sql).toMatch(/^select id, client_id, .* from deposit\s+where \(id = \? or provider_reference = \? or payment_reference = \?\) and provider = \? and merchant_account = \? order by \(id = \?\) desc nulls last, \(provider_reference = \?\) desc nulls last limit 1 for update$/);
    expect(params).toEqual([ownId, 'pi_1', 'pi_1', 'deposit-gateway', 'acct-1', ownId, 'pi_1']);
  });

  it('does not take a merchant reference that is not one of our deposit ids', () => {
    const { input, subject } = delivery({ merchantReference: 'order-1001' });
    expect(handler.find?.(fakeTx().tx, input, subject)?.anyOf[0]).toEqual(['id', null]);
  });

  it('looks nothing up for an event that changes no status: a payment-level refunded, or the other mode\'s', () => {
    const refunded = delivery({ status: 'REFUNDED' });
    expect(handler.find?.(fakeTx().tx, refunded.input, refunded.subject)).toBeUndefined();
    const live = delivery({}, { livemode: true });
    expect(handler.find?.(fakeTx().tx, live.input, live.subject)).toBeUndefined();
  });
});

describe('depositWebhookHandler.decide: a status report', () => {
  const context = (found?: Record<string, unknown>): InboxContext => ({ lookedUp: true, ...(found ? { found } : {}), outcome: outcomeStatement });

  it('is unmatched when the lookup found no deposit; nothing is applied', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const { input, subject } = delivery();
    await expect(decided(handler.decide(fakeTx().tx, input, subject, context()))).resolves.toEqual({ outcome: 'unmatched', reason: 'DEPOSIT_NOT_FOUND: no acct-1 deposit for reference pi_1' });
    expect(applied).toEqual([]);
  });

  it('applies the reported status to the deposit found, its outcome written by the change\'s own statement', async () => {
    const { path, applied } = fakePath({ outcome: 'applied', row: lockedRow });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const occurredAt = new Date('2026-01-02T03:04:05.000Z');
    const { input, subject } = delivery({ amount: Money.fromDecimal('10.00', 'EUR'), declineReason: 'none' }, { occurredAt });
    const decision = await decided(handler.decide(fakeTx().tx, input, subject, context(lockedRow)));

    expect(decision).toEqual({ outcome: 'applied', subjectType: 'deposit', subjectId: 'dep_1', recorded: true });
    expect(applied).toEqual([
      {
        id: 'dep_1',
        locked: lockedRow,
        change: { status: 'SUCCEEDED', providerStatus: 'approved', declineReason: 'none', amount: Money.fromDecimal('10.00', 'EUR'), approvedAt: occurredAt, providerReference: 'pi_1' },
        source: 'webhook:deposit-gateway/acct-1',
        alongside: [outcomeStatement({ outcome: 'applied', subject: { type: 'deposit', id: 'dep_1' } })],
      },
    ]);
  });

  it('takes no approval time from an event that is not a success', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const { input, subject } = delivery({ status: 'DECLINED' }, { occurredAt: new Date() });
    await handler.decide(fakeTx().tx, input, subject, context(lockedRow));
    expect(applied[0]?.change).toEqual({ status: 'DECLINED', providerStatus: 'approved', providerReference: 'pi_1' });
  });

  it('keeps the row the change returned, with its version, for the detail fetch this instance may run', async () => {
    const returned = { ...lockedRow, status: 'SUCCEEDED', row_version: '1234' };
    const written = new DetailsHandOff();
    const handler = depositWebhookHandler({ transitions: fakePath({ outcome: 'applied', returned }).path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler, written });
    const { input, subject } = delivery();
    await handler.decide(fakeTx().tx, input, subject, context(lockedRow));
    expect(written.take('dep_1')).toEqual({ row: { ...lockedRow, status: 'SUCCEEDED' }, version: '1234' });
  });

  it('leaves the outcome to the inbox when it gives no statement for it (a stored delivery decided again)', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const { input, subject } = delivery();
    await expect(decided(handler.decide(fakeTx().tx, input, subject, { lookedUp: true, found: lockedRow }))).resolves.toEqual({ outcome: 'applied', subjectType: 'deposit', subjectId: 'dep_1', recorded: false });
    expect(applied[0]?.alongside).toBeUndefined();
  });

  it.each([
    [{ outcome: 'noop' }, { outcome: 'duplicate', subjectType: 'deposit', subjectId: 'dep_1', reason: 'STATUS_UNCHANGED: deposit is already SUCCEEDED' }],
    [{ outcome: 'anomaly', reason: 'TRANSITION_NOT_ALLOWED: x' }, { outcome: 'anomaly', subjectType: 'deposit', subjectId: 'dep_1', reason: 'TRANSITION_NOT_ALLOWED: x' }],
  ] as const)('answers %o without `recorded`: the inbox writes the outcome', async (result: TransitionResult<unknown>, decision: WebhookDecision) => {
    const handler = depositWebhookHandler({ transitions: fakePath(result).path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const { input, subject } = delivery();
    await expect(decided(handler.decide(fakeTx().tx, input, subject, context(lockedRow)))).resolves.toEqual(decision);
  });

  it('locks the deposit itself when the inbox did not look it up', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: fakePaymentRefunded({ outcome: 'noop' }).handler });
    const { tx, executed } = fakeTx([lockedRow]);
    const { input, subject } = delivery();
    await handler.decide(tx, input, subject, { lookedUp: false });
    expect(executed[0]?.sql).toMatch(/for update$/);
    expect(applied[0]?.locked).toEqual(lockedRow);
  });
});

describe('depositWebhookHandler.decide: events that change no status', () => {
  it('hands a payment-level refunded to refund accounting, which decides it', async () => {
    const { path, applied } = fakePath({ outcome: 'applied' });
    const accounting = fakePaymentRefunded({ outcome: 'in_progress', reason: 'REFUNDS_OPEN: rfd_1' });
    const handler = depositWebhookHandler({ transitions: path, paymentRefunded: accounting.handler });
    const { input, subject } = delivery({ status: 'REFUNDED', providerStatus: 'refunded', amount: Money.fromDecimal('10.00', 'EUR') });
    const decision = await decided(handler.decide(fakeTx([{ id: 'dep_1' }]).tx, input, subject, { lookedUp: false }));
    expect(decision).toEqual({ outcome: 'ignored', subjectType: 'deposit', subjectId: 'dep_1', reason: 'REFUNDS_OPEN: rfd_1' });
    // "In full or in part": the event alone never says the payment is reversed in full.
    expect(accounting.reports).toEqual([{ depositId: 'dep_1', amount: Money.fromDecimal('10.00', 'EUR'), reversedInFull: false, providerStatus: 'refunded', source: 'webhook:deposit-gateway/acct-1' }]);
    expect(applied).toEqual([]);
  });

  it('is an anomaly for an event of the other mode, about a deposit of ours; refund accounting is not asked', async () => {
    const accounting = fakePaymentRefunded({ outcome: 'applied' });
    const handler = depositWebhookHandler({ transitions: fakePath({ outcome: 'applied' }).path, paymentRefunded: accounting.handler });
    const { input, subject } = delivery({}, { livemode: true });
    await expect(decided(handler.decide(fakeTx([{ id: 'dep_1' }]).tx, input, subject, { lookedUp: false }))).resolves.toEqual({
      outcome: 'anomaly',
      subjectType: 'deposit',
      subjectId: 'dep_1',
      reason: 'LIVEMODE_MISMATCH: event livemode=true, account livemode=false',
    });
    expect(accounting.reports).toEqual([]);
  });

  it('is unmatched when no deposit of the account has the reference', async () => {
    const handler = depositWebhookHandler({ transitions: fakePath({ outcome: 'applied' }).path, paymentRefunded: fakePaymentRefunded({ outcome: 'applied' }).handler });
    const { input, subject } = delivery({ status: 'REFUNDED', reference: 'pi_404' });
    await expect(decided(handler.decide(fakeTx([]).tx, input, subject, { lookedUp: false }))).resolves.toEqual({ outcome: 'unmatched', reason: 'DEPOSIT_NOT_FOUND: no acct-1 deposit for reference pi_404' });
  });
});
