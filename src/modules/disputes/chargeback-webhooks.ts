// Applies verified chargeback.opened webhooks from the inbox: marks the deposit disputed, once, with an event.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { isId } from '../../lib/ids.js';
import type { WebhookEvent } from '../../providers/provider.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { EventService } from '../events/event.service.js';
import type { ReceiveWebhookInput, WebhookDecision, WebhookSubjectHandler } from '../webhooks/webhook.service.js';

type ChargebackSubject = Extract<WebhookEvent['subject'], { kind: 'chargeback' }>;

export const DEPOSIT_DISPUTED = 'deposit.disputed';

/**
 * The inbox handler for chargeback events (spec: chargeback.opened; payload A4). The status does
 * not change: a disputed deposit stays SUCCEEDED (or REFUNDED) and carries `disputed: true`.
 */
export function chargebackWebhookHandler(events: EventService): WebhookSubjectHandler<'chargeback'> {
  return async (tx, input, subject) => {
    const depositId = await findDeposit(tx, input, subject);
    if (!depositId) {
      return { outcome: 'unmatched', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
    }
    const found: WebhookDecision = { outcome: 'unmatched', subjectType: 'deposit', subjectId: depositId };
    if (input.event.livemode !== undefined && input.event.livemode !== input.account.livemode) {
      return { ...found, outcome: 'anomaly', reason: `LIVEMODE_MISMATCH: event livemode=${input.event.livemode}, account livemode=${input.account.livemode}` };
    }
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
      deposit,
    });
    return { ...found, outcome: 'applied' };
  };
}

/** Our deposit, only among this account's: by the echoed merchant reference (our id), else by the payment reference. */
async function findDeposit(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: ChargebackSubject): Promise<string | undefined> {
  const scope = [input.provider, input.account.code];
  if (subject.merchantReference && isId(subject.merchantReference, 'dep')) {
    const rows = await tx.execute<Array<{ id: string }>>('select id from deposit where id = ? and provider = ? and merchant_account = ?', [subject.merchantReference, ...scope]);
    if (rows[0]) return rows[0].id;
  }
  const rows = await tx.execute<Array<{ id: string }>>('select id from deposit where provider_reference = ? and provider = ? and merchant_account = ?', [subject.reference, ...scope]);
  return rows[0]?.id;
}
