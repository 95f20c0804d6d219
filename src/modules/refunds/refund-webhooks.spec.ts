// Unit spec of the inbox's decisions about refund events (refund-webhooks.ts), with no database:
// when a refund the provider reports, matching no refund of ours, may be recorded as made outside
// the gateway (`checkProviderRefund`): refused (not found or anomaly), deferred while its payment
// is not settled, or recorded.

import { describe, expect, it } from 'vitest';
import type { ReportOutcome } from '../../kernel/inbox/report-outcome.js';
import { Money } from '../../lib/money.js';
import type { DepositStatus } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { checkProviderRefund, type RefundSubject } from './refund-webhooks.js';

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
    ['names no payment', subject({ depositReference: undefined }), undefined, { outcome: 'not_found', reason: 'REFUND_NOT_FOUND: no acct-1 refund for reference rf_9 and the event names no payment' }],
    ['names a payment that is not ours', subject(), undefined, { outcome: 'not_found', reason: 'REFUND_NOT_FOUND: no acct-1 refund for reference rf_9 of an unknown payment pi_1' }],
  ])('is not found when the event %s', (_case, reported, paid, decision) => {
    expect(checkProviderRefund('acct-1', reported, paid)).toEqual({ ok: false, decision });
  });

  const onDeposit = (outcome: ReportOutcome['outcome'], reason: string) => ({ ok: false, decision: { outcome, reason, subject: { type: 'deposit', id: 'dep_1' } } });

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
