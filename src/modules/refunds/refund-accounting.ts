// Refund accounting: only refund rows decide a deposit's refunded amount and its move to REFUNDED.
// A payment-level "refunded" report (a payment.refunded webhook, a status lookup) is reconciled
// against the deposit's refunds here, never applied as a bare status change.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

import type { Money } from '../../lib/money.js';
import { Deposit } from '../deposits/deposit.entity.js';
import { Refund } from './refund.entity.js';
import { recordProviderRefund, refundTransitions } from './refund-transitions.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import type { ReportOutcome } from '../../kernel/inbox/report-outcome.js';

/** What a provider said about a payment as a whole being refunded. */
export interface PaymentRefundedReport {
  depositId: string;
  /** The payment's amount as reported, checked against the deposit (a payment event's amount is the payment's, not a refund's). */
  amount?: Money;
  /**
   * True when the provider says the payment is reversed in full (deposit gateway A25:
   * `refund_status: refunded` on a lookup). Otherwise how much went back is not known.
   */
  reversedInFull: boolean;
  /** The provider's raw word (`refunded`). */
  providerStatus: string;
  /** Who reports it, for the record (`webhook:…`, `reconciler:…`). */
  source: string;
}

/**
 * In the inbox's terms (`ReportOutcome`), so a webhook's delivery records it as it is:
 * - `applied`: nothing of ours explained it and the amount was known: a PROVIDER refund of the rest
 *   of the payment was recorded and executed (the deposit moved to REFUNDED through the refund code).
 * - `noop`: the deposit's refunds already explain it, in full, or in part when the report does not
 *   say the payment is reversed in full (`refunded` is "in full or in part"): a duplicate.
 * - `in_progress`: refunds of ours are open; their own events decide, nothing changed.
 * - `anomaly`: not explained and not recordable (the amount is unknown, the deposit is not SUCCEEDED,
 *   other money); nothing changed, `reason` starts with a stable code such as `REFUND_NOT_RECORDED`.
 * - `not_found`: no such deposit.
 */
export interface PaymentRefundedResult {
  outcome: Extract<ReportOutcome['outcome'], 'applied' | 'noop' | 'in_progress' | 'anomaly' | 'not_found'>;
  reason?: string;
  refundId?: string;
}

/**
 * The provider reference given to a refund recorded from a payment-level report, which names no
 * refund id. One per deposit (the refund table's unique index): a second report finds the deposit
 * REFUNDED and is a duplicate.
 */
export const reversalReference = (paymentReference: string): string => `reversal:${paymentReference}`;

/**
 * Reconciles a payment-level "refunded" report with the deposit's refund rows, inside the caller's
 * transaction (the deposit row is locked first, as every refund writer does).
 */
export async function applyPaymentRefunded(em: SqlEntityManager, report: PaymentRefundedReport, transitions: TransitionPath): Promise<PaymentRefundedResult> {
  if (!em.isInTransaction()) throw new Error('applyPaymentRefunded must run inside a transaction: its row locks last until commit');
  const deposit = await em.findOne(Deposit, { id: report.depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!deposit) return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no deposit ${report.depositId}` };
  if (report.amount && !report.amount.equals(deposit.amountMoney())) {
    return { outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${report.amount.toString()}, deposit is ${deposit.amountMoney().toString()}` };
  }
  if (deposit.status === 'REFUNDED') return { outcome: 'noop', reason: 'REFUND_ALREADY_RECORDED: the deposit\'s refunds refunded it in full' };

  const refunds = await em.find(Refund, { depositId: deposit.id });
  const open = refunds.filter((refund) => refund.status === 'REQUESTED');
  if (open.length > 0) {
    return { outcome: 'in_progress', reason: `REFUND_IN_PROGRESS: ${open.length} refund(s) of this deposit are open; their own events decide` };
  }
  if (deposit.status !== 'SUCCEEDED') {
    return { outcome: 'anomaly', reason: `REFUND_NOT_RECORDED: the provider reports the payment refunded while the deposit is ${deposit.status}` };
  }
  if (!report.reversedInFull && deposit.refundedMoney().isPositive()) {
    // Status `refunded` means "returned, in full or in part": executed refunds of ours explain it.
    return { outcome: 'noop', reason: `REFUND_ALREADY_RECORDED: the payment is refunded in part; ${deposit.refundedMoney().toString()} of it by this deposit's refunds` };
  }
  if (!report.reversedInFull) {
    return {
      outcome: 'anomaly',
      reason: 'REFUND_NOT_RECORDED: the provider reports the payment refunded, no refund of this deposit explains it, and the report does not say how much went back',
    };
  }
  const remaining = deposit.amountMoney().subtract(deposit.refundedMoney());
  const paymentReference = deposit.providerPaymentReference();
  if (!remaining.isPositive() || !paymentReference) {
    return { outcome: 'anomaly', reason: `REFUND_NOT_RECORDED: reversed in full, but ${deposit.refundedMoney().toString()} of ${deposit.amountMoney().toString()} is already refunded` };
  }

  // Made outside the gateway (the provider's dashboard): recorded like a refund event of one, with
  // the rest of the payment as its amount, then executed through the one refund transition.
  const refund = await recordProviderRefund(em, deposit, { amount: remaining, reference: reversalReference(paymentReference), providerStatus: report.providerStatus }, transitions);
  const applied = await transitions.apply(em, refundTransitions, { id: refund.id, change: { status: 'APPROVED', providerStatus: report.providerStatus }, source: report.source });
  if (applied.outcome !== 'applied') throw new Error(`a refund recorded from a payment report did not apply: ${applied.reason ?? applied.outcome}`);
  return { outcome: 'applied', refundId: refund.id, reason: `REFUND_RECORDED: ${remaining.toString()} reversed outside the gateway` };
}
