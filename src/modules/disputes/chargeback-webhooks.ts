// Applies verified chargeback.opened webhooks from the inbox: marks the deposit disputed, once, with an event.

import { LockMode } from '@mikro-orm/core';
import { Deposit } from '../deposits/deposit.entity.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import { livemodeMismatch, type WebhookDecision, type WebhookSubjectHandler } from '../../kernel/inbox/inbox.js';
import { findEventDeposit } from '../deposits/deposit-webhooks.js';
import { toDepositSnapshot } from '../deposits/deposit-snapshot.js';

export const DEPOSIT_DISPUTED = 'deposit.disputed';

/**
 * The inbox handler for chargeback events (spec: chargeback.opened; payload A4). The status does
 * not change: a disputed deposit stays SUCCEEDED (or REFUNDED) and carries `disputed: true`.
 */
export function chargebackWebhookHandler(events: EventLog): WebhookSubjectHandler<'chargeback'> {
  return { decide: async (tx, input, subject) => {
    const depositId = await findEventDeposit(tx, input, subject);
    if (!depositId) {
      return { outcome: 'unmatched', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
    }
    const found: WebhookDecision = { outcome: 'unmatched', subjectType: 'deposit', subjectId: depositId };
    const mismatch = livemodeMismatch(input);
    if (mismatch) return { ...found, outcome: 'anomaly', reason: mismatch };
    const deposit = await tx.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (deposit.disputed) return { ...found, outcome: 'duplicate', reason: 'ALREADY_DISPUTED: the deposit is already marked disputed' };
    deposit.disputed = true;
    await tx.flush();
    await events.append(tx, {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      type: DEPOSIT_DISPUTED,
      fromStatus: deposit.status,
      toStatus: deposit.status,
      merchantAccount: deposit.merchantAccount,
      snapshot: toDepositSnapshot(deposit),
    });
    return { ...found, outcome: 'applied' };
  } };
}
