// Applies verified withdrawal.* webhooks from the inbox: the first event of a withdrawal records
// it, later ones move it through the withdrawal transition table; each change is an event row.

import { LockMode } from '@mikro-orm/core';
import { newId } from '../../lib/ids.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import { livemodeMismatch, type WebhookDecision, type WebhookSubjectHandler } from '../webhooks/webhook.service.js';
import { Withdrawal } from './withdrawal.entity.js';
import { withdrawalStateMachine } from './withdrawal-status.js';
import { toWithdrawalSnapshot } from './withdrawal-snapshot.js';

export const WITHDRAWAL_CREATED = 'withdrawal.created';
export const WITHDRAWAL_STATUS_CHANGED = 'withdrawal.status_changed';

/** The inbox handler for withdrawal events (QR gateway spec: withdrawal.*; payload Q7). */
export function withdrawalWebhookHandler(events: EventLog): WebhookSubjectHandler<'withdrawal'> {
  return async (tx, input, subject) => {
    const mismatch = livemodeMismatch(input);
    if (mismatch) return { outcome: 'anomaly', reason: mismatch };

    // ON CONFLICT: two first events of one withdrawal (pending and succeeded, racing) make one row.
    const id = newId('wdr');
    const now = new Date();
    const inserted = await tx.execute<Array<{ id: string }>>(
      `insert into withdrawal (id, provider, merchant_account, livemode, provider_reference, status, provider_status, amount, currency, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (provider, merchant_account, provider_reference) do nothing
       returning id`,
      [
        id,
        input.provider,
        input.account.code,
        input.event.livemode ?? input.account.livemode,
        subject.reference,
        subject.status,
        subject.providerStatus,
        subject.amount?.toDecimal() ?? null,
        subject.amount?.currency ?? null,
        now,
        now,
      ],
    );
    if (inserted.length > 0) {
      const withdrawal = await tx.findOneOrFail(Withdrawal, { id }, { refresh: true });
      await events.append(tx, { subjectType: 'withdrawal', subjectId: id, clientId: null, type: WITHDRAWAL_CREATED, fromStatus: null, toStatus: withdrawal.status, merchantAccount: withdrawal.merchantAccount, snapshot: toWithdrawalSnapshot(withdrawal) });
      return { outcome: 'applied', subjectType: 'withdrawal', subjectId: id };
    }

    const withdrawal = await tx.findOneOrFail(
      Withdrawal,
      { provider: input.provider, merchantAccount: input.account.code, providerReference: subject.reference },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const found: WebhookDecision = { outcome: 'applied', subjectType: 'withdrawal', subjectId: withdrawal.id };
    const known = withdrawal.amountMoney();
    if (subject.amount && known && !subject.amount.equals(known)) {
      return { ...found, outcome: 'anomaly', reason: `AMOUNT_MISMATCH: reported ${subject.amount.toString()}, withdrawal is ${known.toString()}` };
    }
    const from = withdrawal.status;
    const decision = withdrawalStateMachine.decide(from, subject.status);
    if (decision.kind === 'noop') return { ...found, outcome: 'duplicate', reason: `STATUS_UNCHANGED: withdrawal is already ${from}` };
    if (decision.kind === 'anomaly') {
      // An earlier step arriving after a later one (deliveries overtake each other) is old news.
      return withdrawalStateMachine.canTransition(subject.status, from)
        ? { ...found, outcome: 'duplicate', reason: `STALE_STATUS: withdrawal is already ${from}, past ${subject.status}` }
        : { ...found, outcome: 'anomaly', reason: `TRANSITION_NOT_ALLOWED: ${decision.reason}` };
    }
    withdrawal.status = subject.status;
    withdrawal.providerStatus = subject.providerStatus;
    if (subject.amount && !known) {
      withdrawal.amount = subject.amount.toDecimal();
      withdrawal.currency = subject.amount.currency;
    }
    await tx.flush();
    await events.append(tx, { subjectType: 'withdrawal', subjectId: withdrawal.id, clientId: null, type: WITHDRAWAL_STATUS_CHANGED, fromStatus: from, toStatus: withdrawal.status, merchantAccount: withdrawal.merchantAccount, snapshot: toWithdrawalSnapshot(withdrawal) });
    return found;
  };
}
