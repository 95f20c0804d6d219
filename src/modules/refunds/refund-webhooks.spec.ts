// Unit spec of the inbox's decisions about refund events (refund-webhooks.ts), with no database:
// what each transition outcome makes of a refund report's delivery (`refundReportDecision`, a first
// sight of the refund counting as applied), and when a refund the provider reports, matching no
// refund of ours, may be recorded as made outside the gateway (`checkProviderRefund`): refused
// (unmatched or anomaly), deferred while its payment is not settled, or recorded.

import { describe, expect, it } from 'vitest';
import type { WebhookDecision } from '../../kernel/inbox/inbox.js';
import type { TransitionResult } from '../../kernel/transitions.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { checkProviderRefund, refundReportDecision, type RefundSubject } from './refund-webhooks.js';

describe('refundReportDecision: a refund report\'s transition outcome, as the delivery\'s outcome', () => {
  const found = { subjectType: 'refund', subjectId: 'rfd_1' } as const;
  it.each([
    [{ outcome: 'applied' }, undefined, { ...found, outcome: 'applied' }],
    [{ outcome: 'noop' }, undefined, { ...found, outcome: 'duplicate', reason: 'STATUS_UNCHANGED: refund is already APPROVED' }],
    [{ outcome: 'stale', reason: 'STALE_STATUS: x' }, undefined, { ...found, outcome: 'duplicate', reason: 'STATUS_UNCHANGED: refund is already APPROVED' }],
    // The event named the refund for the first time (its reference, or the refund itself, recorded from it): applied.
    [{ outcome: 'noop' }, 'REFERENCE_RECORDED: the provider refund id arrived before its answer', { ...found, outcome: 'applied', reason: 'REFERENCE_RECORDED: the provider refund id arrived before its answer' }],
    [{ outcome: 'stale' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'applied', reason: 'REFUND_RECORDED: made outside the gateway' }],
    [{ outcome: 'applied' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'applied' }],
    [{ outcome: 'anomaly', reason: 'REFUND_EXCEEDS_DEPOSIT: x' }, undefined, { ...found, outcome: 'anomaly', reason: 'REFUND_EXCEEDS_DEPOSIT: x' }],
    [{ outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }],
    [{ outcome: 'not_found', reason: 'REFUND_NOT_FOUND: no refund rfd_1' }, undefined, { outcome: 'unmatched', reason: 'REFUND_NOT_FOUND: no refund rfd_1' }],
  ] as const)('%o (first sight: %s) is %o', (result: Pick<TransitionResult<unknown>, 'outcome' | 'reason'>, firstSight: string | undefined, decision: WebhookDecision) => {
    expect(refundReportDecision(result, 'rfd_1', 'APPROVED', firstSight)).toEqual(decision);
  });
});

/** A SUCCEEDED EUR 10.00 deposit with EUR 4.00 refunded. */
function deposit(status: DepositStatus = 'SUCCEEDED', refundedAmount = '4.00'): Deposit {
  return Object.assign(new Deposit(), { id: 'dep_1', status, amount: '10.00', currency: 'EUR', refundedAmount });
}

const subject = (more: Partial<RefundSubject> = {}): RefundSubject => ({
  kind: 'refund',
  reference: 'rf_9',
  depositReference: 'pi_1',
  status: 'APPROVED',
  providerStatus: 'approved',
  amount: Money.fromDecimal('6.00', 'EUR'),
  ...more,
});

describe('checkProviderRefund: a refund made outside the gateway', () => {
  it('may be recorded with its deposit and amount: a positive amount in the deposit\'s currency, within what is left', () => {
    const paid = deposit();
    expect(checkProviderRefund('acct-1', subject(), paid)).toEqual({ ok: true, deposit: paid, amount: Money.fromDecimal('6.00', 'EUR') });
  });

  it.each([
    ['of a REFUNDED deposit (it may still be requested)', subject({ status: 'REQUESTED' }), deposit('REFUNDED', '10.00')],
    ['rejected, whatever it would exceed', subject({ status: 'REJECTED', amount: Money.fromDecimal('9.00', 'EUR') }), deposit()],
    ['requested beyond what is left (only an approval moves money)', subject({ status: 'REQUESTED', amount: Money.fromDecimal('9.00', 'EUR') }), deposit()],
  ])('may be recorded %s', (_case, reported, paid) => {
    expect(checkProviderRefund('acct-1', reported, paid).ok).toBe(true);
  });

  it.each([
    ['names no payment', subject({ depositReference: undefined }), undefined, { outcome: 'unmatched', reason: 'REFUND_NOT_FOUND: no acct-1 refund for reference rf_9 and the event names no payment' }],
    ['names a payment that is not ours', subject(), undefined, { outcome: 'unmatched', reason: 'REFUND_NOT_FOUND: no acct-1 refund for reference rf_9 of an unknown payment pi_1' }],
  ])('is unmatched when the event %s', (_case, reported, paid, decision) => {
    expect(checkProviderRefund('acct-1', reported, paid)).toEqual({ ok: false, decision });
  });

  const onDeposit = (outcome: WebhookDecision['outcome'], reason: string) => ({ ok: false, decision: { outcome, reason, subjectType: 'deposit', subjectId: 'dep_1' } });

  it.each([
    ['carries no amount', subject({ amount: undefined }), deposit(), onDeposit('anomaly', 'REFUND_AMOUNT_MISSING: refund rf_9 was made outside the gateway and its event carries no amount')],
    ['is in another currency', subject({ amount: Money.fromDecimal('6.00', 'USD') }), deposit(), onDeposit('anomaly', 'CURRENCY_MISMATCH: refund in USD, deposit in EUR')],
    ['is of nothing', subject({ amount: Money.fromDecimal('0', 'EUR') }), deposit(), onDeposit('anomaly', 'AMOUNT_MISMATCH: refund of EUR 0.00')],
    ['is negative', subject({ amount: Money.fromDecimal('-1.00', 'EUR') }), deposit(), onDeposit('anomaly', 'AMOUNT_MISMATCH: refund of EUR -1.00')],
    ['is of a failed deposit', subject(), deposit('FAILED'), onDeposit('anomaly', 'DEPOSIT_NOT_REFUNDABLE: refund rf_9 of a FAILED deposit')],
    ['is of a declined deposit', subject(), deposit('DECLINED'), onDeposit('anomaly', 'DEPOSIT_NOT_REFUNDABLE: refund rf_9 of a DECLINED deposit')],
    ['approves more than is left', subject({ amount: Money.fromDecimal('6.01', 'EUR') }), deposit(), onDeposit('anomaly', 'REFUND_EXCEEDS_DEPOSIT: EUR 6.01 on top of EUR 4.00 refunded of EUR 10.00')],
  ])('is an anomaly on the deposit when it %s', (_case, reported, paid, refused) => {
    expect(checkProviderRefund('acct-1', reported, paid)).toEqual(refused);
  });

  it.each(['PENDING', 'AUTHORIZED'] as const)('is deferred while the deposit is %s: decided again once the payment settles', (status) => {
    expect(checkProviderRefund('acct-1', subject(), deposit(status, '0.00'))).toEqual(
      onDeposit('deferred', `PAYMENT_NOT_SETTLED: refund rf_9 arrived while the deposit is ${status}`),
    );
  });

  it('checks the amount before the deposit\'s status: an unsettled payment\'s refund in another currency is an anomaly, not deferred', () => {
    expect(checkProviderRefund('acct-1', subject({ amount: Money.fromDecimal('6.00', 'USD') }), deposit('PENDING'))).toMatchObject({ decision: { outcome: 'anomaly' } });
  });
});
