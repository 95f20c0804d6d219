// Applies verified refund.* webhooks from the inbox: finds our refund (or records one made outside
// the gateway) and moves it through the refund transition function.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

import type { Money } from '../../lib/money.js';
import type { WebhookEvent } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { findEventDeposit } from '../deposits/deposit-webhooks.js';
import { WebhookRetryLater, livemodeMismatch, type ReceiveWebhookInput, type WebhookSubjectHandler } from '../../kernel/inbox/webhook-handler.js';
import { transitionReport, type ReportOutcome } from '../../kernel/inbox/report-outcome.js';
import { Refund } from './refund.entity.js';
import { refundTransitions, attachProviderReference, recordProviderRefund as recordProviderRefundRow } from './refund-transitions.js';

/** A refund event's subject, as the provider's adapter reads it. */
export type RefundSubject = Extract<WebhookEvent['subject'], { kind: 'refund' }>;

/**
 * Thrown when an event names a provider refund that one of several of our in-flight refunds
 * will turn out to be: the inbox answers 503, stores nothing, and the provider's retry finds it
 * by reference once our own answer from the provider is recorded. Only the deposit gateway has
 * in-flight refunds, and its spec retries every non-2xx delivery for 24 hours, within which our
 * answers are recorded (or the refunds are resubmitted under their ids).
 */
export class RefundNotYetRecorded extends WebhookRetryLater {}

/** The inbox handler for refund events (spec: refund.requested / refund.approved / refund.rejected; payload A4). */
export function refundWebhookHandler(transitions: TransitionPath): WebhookSubjectHandler<'refund'> {
  return { decide: async (tx, input, subject) => {
    let refundId = await findByReference(tx, input, subject.reference);
    if (!refundId && livemodeMismatch(input)) return { outcome: 'anomaly', reason: livemodeMismatch(input)! };
    /** Why a report of the status the refund already has still counts as applied. */
    let firstSight: string | undefined;
    if (!refundId) {
      const deposit = await lockEventPayment(tx, input, subject);
      refundId = deposit && (await claimInFlight(tx, input, subject, deposit, transitions));
      if (refundId) firstSight = 'REFERENCE_RECORDED: the provider refund id arrived before its answer';
      else {
        const recorded = await recordProviderRefund(tx, input, subject, deposit, transitions);
        if (recorded.kind === 'refused') return recorded.decision;
        refundId = recorded.refundId;
        firstSight = 'REFUND_RECORDED: made outside the gateway';
      }
    }
    const mismatch = livemodeMismatch(input);
    const found = { type: 'refund', id: refundId } as const;
    if (mismatch) return { outcome: 'anomaly', subject: found, reason: mismatch };
    const result = await transitions.apply(tx, refundTransitions, {
        id: refundId,
        change: { status: subject.status, providerStatus: subject.providerStatus, ...(subject.amount ? { amount: subject.amount } : {}) },
        source: `webhook:${input.provider}/${input.account.code}`,
      });
    return transitionReport(result, found, subject.status, firstSight);
  } };
}

/**
 * Our refund with this provider reference, only among this account's deposits. The deposit
 * gateway echoes no idempotency key on refund events (A4), so the reference is the only name.
 */
async function findByReference(tx: SqlEntityManager, input: ReceiveWebhookInput, reference: string): Promise<string | undefined> {
  const rows = await tx.execute<Array<{ id: string }>>(
    `select r.id from refund r join deposit d on d.id = r.deposit_id
     where r.provider_reference = ? and d.provider = ? and d.merchant_account = ?`,
    [reference, input.provider, input.account.code],
  );
  return rows[0]?.id;
}

/**
 * The provider emits refund.requested while it answers POST /refunds, so its webhook can arrive
 * before we have stored the refund id from that answer. The refund row exists already (it is
 * committed before the call): the one refund of that payment, for that amount, still waiting for
 * its reference, is this one.
 */
async function claimInFlight(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: RefundSubject, deposit: Deposit, transitions: TransitionPath): Promise<string | undefined> {
  // The answer (or another event about the same refund) may have been recorded while this
  // transaction waited for the deposit lock; every writer of a deposit's refunds takes that lock first.
  const recorded = await findByReference(tx, input, subject.reference);
  if (recorded) return recorded;
  const depositId = deposit.id;
  const waiting = (await tx.find(Refund, { depositId, status: 'REQUESTED', providerReference: null }, { orderBy: { createdAt: 'asc' } })).filter(
    (refund) => !subject.amount || subject.amount.equals(refund.amountMoney()),
  );
  if (waiting.length === 0) return undefined;
  if (waiting.length > 1) {
    throw new RefundNotYetRecorded(`refund ${subject.reference} matches ${waiting.length} in-flight refunds of deposit ${depositId}; retry after their answers are recorded`);
  }
  const refund = await tx.findOneOrFail(Refund, { id: waiting[0]!.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  await attachProviderReference(tx, { refund, deposit }, { reference: subject.reference, providerStatus: subject.providerStatus }, transitions);
  return refund.id;
}

/**
 * The deposit whose payment the refund event names, locked: refund work on one deposit serializes
 * (the refund request takes the same lock). Undefined when the event names none of our payments.
 */
async function lockEventPayment(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: RefundSubject): Promise<Deposit | undefined> {
  if (!subject.depositReference) return undefined;
  const depositId = await findEventDeposit(tx, input, { reference: subject.depositReference });
  return depositId ? tx.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : undefined;
}

type Recorded = { kind: 'recorded'; refundId: string } | { kind: 'refused'; decision: ReportOutcome };

/**
 * A refund the provider reports for one of our deposits that matches no refund of ours was made
 * outside the gateway (the provider's dashboard; the QR gateway has no refund API at all, Q7). It is
 * recorded as a PROVIDER refund, so the deposit's refunded amount stays true and no request
 * through the gateway can refund the same money again; the caller then applies the reported status.
 */
async function recordProviderRefund(
  tx: SqlEntityManager,
  input: ReceiveWebhookInput,
  subject: RefundSubject,
  deposit: Deposit | undefined,
  transitions: TransitionPath,
): Promise<Recorded> {
  const checked = checkProviderRefund(input.account.code, subject, deposit);
  if (!checked.ok) return { kind: 'refused', decision: checked.decision };
  const refund = await recordProviderRefundRow(tx, checked.deposit, { amount: checked.amount, reference: subject.reference, providerStatus: subject.providerStatus }, transitions);
  return { kind: 'recorded', refundId: refund.id };
}

/** A refund made outside the gateway that may be recorded (its deposit and amount), or the decision that refuses it. */
export type ProviderRefundCheck = { ok: true; deposit: Deposit; amount: Money } | { ok: false; decision: ReportOutcome };

/**
 * Whether a refund the provider reports, matching no refund of ours, can be recorded as made
 * outside the gateway: `deposit` is the locked deposit of the payment the event names, if any.
 * Refused when it names no payment of ours, carries no amount or one in another currency, or
 * one that is not positive; deferred while the payment is not settled; refused for a deposit that
 * is not refundable, or an approval beyond what is left of the deposit.
 */
export function checkProviderRefund(accountCode: string, subject: RefundSubject, deposit: Deposit | undefined): ProviderRefundCheck {
  const notFound = (why: string): ProviderRefundCheck => ({
    ok: false,
    decision: { outcome: 'not_found', reason: `REFUND_NOT_FOUND: no ${accountCode} refund for reference ${subject.reference}${why}` },
  });
  if (!subject.depositReference) return notFound(' and the event names no payment');
  if (!deposit) return notFound(` of an unknown payment ${subject.depositReference}`);
  const refused = (outcome: ReportOutcome['outcome'], reason: string): ProviderRefundCheck => ({
    ok: false,
    decision: { outcome, reason, subject: { type: 'deposit', id: deposit.id } },
  });

  if (!subject.amount) return refused('anomaly', `REFUND_AMOUNT_MISSING: refund ${subject.reference} was made outside the gateway and its event carries no amount`);
  if (subject.amount.currency !== deposit.currency) {
    return refused('anomaly', `CURRENCY_MISMATCH: refund in ${subject.amount.currency}, deposit in ${deposit.currency}`);
  }
  if (!subject.amount.isPositive()) return refused('anomaly', `AMOUNT_MISMATCH: refund of ${subject.amount.toString()}`);
  if (deposit.status === 'PENDING' || deposit.status === 'AUTHORIZED') {
    // The provider's events overtook each other: kept, and decided again in the transaction that
    // settles the payment (webhook, reconciler or card settle alike).
    return refused('deferred', `PAYMENT_NOT_SETTLED: refund ${subject.reference} arrived while the deposit is ${deposit.status}`);
  }
  if (deposit.status !== 'SUCCEEDED' && deposit.status !== 'REFUNDED') {
    return refused('anomaly', `DEPOSIT_NOT_REFUNDABLE: refund ${subject.reference} of a ${deposit.status} deposit`);
  }
  if (subject.status === 'APPROVED' && deposit.refundedMoney().add(subject.amount).compare(deposit.amountMoney()) > 0) {
    return refused('anomaly', `REFUND_EXCEEDS_DEPOSIT: ${subject.amount.toString()} on top of ${deposit.refundedMoney().toString()} refunded of ${deposit.amountMoney().toString()}`);
  }
  return { ok: true, deposit, amount: subject.amount };
}
