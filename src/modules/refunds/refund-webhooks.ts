// Applies verified refund.* webhooks from the inbox: finds our refund and moves it through the refund transition function.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { WebhookEvent } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { EventService } from '../events/event.service.js';
import { livemodeMismatch, type ReceiveWebhookInput, type WebhookDecision, type WebhookSubjectHandler } from '../webhooks/webhook.service.js';
import { Refund } from './refund.entity.js';
import { applyRefundChange, attachProviderReference } from './refund-transitions.js';

type RefundSubject = Extract<WebhookEvent['subject'], { kind: 'refund' }>;

/**
 * Thrown when an event names a provider refund that one of several of our in-flight refunds
 * will turn out to be: the inbox answers 5xx, stores nothing, and the provider's retry finds it
 * by reference once our own answer from the provider is recorded.
 */
export class RefundNotYetRecorded extends Error {}

/** The inbox handler for refund events (spec: refund.requested / refund.approved / refund.rejected; payload A4). */
export function refundWebhookHandler(events: EventService): WebhookSubjectHandler<'refund'> {
  return async (tx, input, subject) => {
    let refundId = await findByReference(tx, input, subject.reference);
    if (!refundId && livemodeMismatch(input)) return { outcome: 'anomaly', reason: livemodeMismatch(input)! };
    let claimed = false;
    if (!refundId) {
      refundId = await claimInFlight(tx, input, subject, events);
      claimed = Boolean(refundId);
    }
    if (!refundId) {
      return { outcome: 'unmatched', reason: `REFUND_NOT_FOUND: no ${input.account.code} refund for reference ${subject.reference}` };
    }
    const found: WebhookDecision = { outcome: 'unmatched', subjectType: 'refund', subjectId: refundId };
    const mismatch = livemodeMismatch(input);
    if (mismatch) return { ...found, outcome: 'anomaly', reason: mismatch };
    const result = await applyRefundChange(
      tx,
      {
        refundId,
        change: { status: subject.status, providerStatus: subject.providerStatus, ...(subject.amount ? { amount: subject.amount } : {}) },
        source: `webhook:${input.provider}/${input.account.code}`,
      },
      events,
    );
    switch (result.outcome) {
      case 'applied':
        return { ...found, outcome: 'applied' };
      case 'noop':
        return claimed
          ? { ...found, outcome: 'applied', reason: 'REFERENCE_RECORDED: the provider refund id arrived before its answer' }
          : { ...found, outcome: 'duplicate', reason: `STATUS_UNCHANGED: refund is already ${subject.status}` };
      case 'anomaly':
        return { ...found, outcome: 'anomaly', ...(result.reason !== undefined ? { reason: result.reason } : {}) };
      case 'not_found':
        return { outcome: 'unmatched', ...(result.reason !== undefined ? { reason: result.reason } : {}) };
    }
  };
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
async function claimInFlight(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: RefundSubject, events: EventService): Promise<string | undefined> {
  if (!subject.depositReference) return undefined;
  const rows = await tx.execute<Array<{ id: string }>>('select id from deposit where provider_reference = ? and provider = ? and merchant_account = ?', [
    subject.depositReference,
    input.provider,
    input.account.code,
  ]);
  const depositId = rows[0]?.id;
  if (!depositId) return undefined;
  const deposit = await tx.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  // The answer may have been recorded while this transaction waited for the deposit lock.
  const recorded = await findByReference(tx, input, subject.reference);
  if (recorded) return recorded;
  const waiting = (await tx.find(Refund, { depositId, status: 'REQUESTED', providerReference: null }, { orderBy: { createdAt: 'asc' } })).filter(
    (refund) => !subject.amount || subject.amount.equals(refund.amountMoney()),
  );
  if (waiting.length === 0) return undefined;
  if (waiting.length > 1) {
    throw new RefundNotYetRecorded(`refund ${subject.reference} matches ${waiting.length} in-flight refunds of deposit ${depositId}; retry after their answers are recorded`);
  }
  const refund = await tx.findOneOrFail(Refund, { id: waiting[0]!.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  await attachProviderReference(tx, { refund, deposit }, { reference: subject.reference, providerStatus: subject.providerStatus }, events);
  return refund.id;
}
