// Applies verified chargeback.opened webhooks from the inbox: marks a succeeded deposit disputed,
// once, with an event; a chargeback no deposit of ours can have is kept as an anomaly.

import { LockMode } from '@mikro-orm/core';
import { Deposit } from '../deposits/deposit.entity.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { livemodeMismatch, type WebhookSubjectHandler } from '../../kernel/inbox/webhook-handler.js';
import { findEventDeposit } from '../deposits/deposit-webhooks.js';
import { depositTransitions } from '../deposits/deposit-transitions.js';
import type { Rail } from '../../providers/provider.js';

export const DEPOSIT_DISPUTED = 'deposit.disputed';

/**
 * Rails whose payments cannot be disputed. Spec (deposit gateway, UPI and PIX): "These are push
 * payments: no card, no 3-D Secure, no chargeback."
 */
export const RAILS_WITHOUT_CHARGEBACKS: ReadonlySet<Rail> = new Set<Rail>(['UPI', 'PIX']);

/**
 * The inbox handler for chargeback events (spec: chargeback.opened; payload A4). The status does
 * not change: a disputed deposit stays SUCCEEDED and carries `disputed: true`.
 *
 * A chargeback that cannot be true of the deposit is an anomaly, kept on the delivery for admins
 * (its reason code counted in the webhook metrics) and applied to nothing: one on a rail without
 * chargebacks, or on a deposit that is not SUCCEEDED (no money was taken, or it went back already).
 * Once the deposit has succeeded, an admin can replay the delivery (`replayWebhookDelivery`).
 */
export function chargebackWebhookHandler(transitions: TransitionPath): WebhookSubjectHandler<'chargeback'> {
  return { decide: async (tx, input, subject) => {
    const depositId = await findEventDeposit(tx, input, subject);
    if (!depositId) {
      return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
    }
    const found = { subject: { type: 'deposit', id: depositId } } as const;
    const mismatch = livemodeMismatch(input);
    if (mismatch) return { ...found, outcome: 'anomaly', reason: mismatch };
    const deposit = await tx.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (RAILS_WITHOUT_CHARGEBACKS.has(deposit.rail)) {
      return { ...found, outcome: 'anomaly', reason: `CHARGEBACK_NOT_POSSIBLE: ${deposit.rail} payments are push payments and have no chargebacks` };
    }
    if (deposit.disputed) return { ...found, outcome: 'noop', reason: 'ALREADY_DISPUTED: the deposit is already marked disputed' };
    if (deposit.status !== 'SUCCEEDED') {
      return { ...found, outcome: 'anomaly', reason: `DEPOSIT_NOT_DISPUTABLE: a chargeback of a ${deposit.status} deposit; only a SUCCEEDED one can be disputed` };
    }
    // The mark and its event, one statement on the path; the entity then takes the row as written,
    // so nothing is left for a flush.
    const updatedAt = new Date();
    const { returned } = await transitions.record(tx, depositTransitions, {
      event: DEPOSIT_DISPUTED,
      row: deposit,
      next: Object.assign(deposit, { disputed: true, updatedAt }),
      update: { set: { disputed: true, updated_at: updatedAt }, returning: '*' },
    });
    if (!returned) throw new Error(`deposit ${deposit.id} vanished under its row lock`);
    tx.map(Deposit, returned);
    return { ...found, outcome: 'applied' };
  } };
}
