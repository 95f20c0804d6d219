// The webhook inbox's handler of `payout.*` events: finds our payout and applies the reported status through the kernel's transition path.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { isId } from '../../lib/ids.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { livemodeMismatch, type ReceiveWebhookInput, type WebhookSubjectHandler } from '../../kernel/inbox/webhook-handler.js';
import { transitionReport, type ReportOutcome } from '../../kernel/inbox/report-outcome.js';
import { payoutTransitions } from './payout-transitions.js';

/**
 * Runs inside the inbox transaction: the delivery row, the status change and its event row commit
 * together. Promote-only through the payout state machine; a mismatched amount, an impossible move
 * or an event of the other mode is an anomaly, kept and acknowledged.
 */
export function createPayoutWebhookHandler(transitions: TransitionPath): WebhookSubjectHandler<'payout'> {
  return { decide: async (tx, input, subject): Promise<ReportOutcome> => {
    const payoutId = await findPayout(tx, input, subject.reference, subject.merchantReference);
    if (!payoutId) {
      return { outcome: 'not_found', reason: `PAYOUT_NOT_FOUND: no ${input.account.code} payout for reference ${subject.reference}` };
    }
    const mismatch = livemodeMismatch(input);
    const found = { type: 'payout', id: payoutId } as const;
    if (mismatch) return { outcome: 'anomaly', subject: found, reason: mismatch };
    const result = await transitions.apply(tx, payoutTransitions, {
        id: payoutId,
        change: {
          status: subject.status,
          providerStatus: subject.providerStatus,
          ...(subject.amount !== undefined ? { amount: subject.amount } : {}),
          providerReference: subject.reference,
        },
        source: `webhook:${input.provider}/${input.account.code}`,
      });
    return transitionReport(result, found, subject.status);
  } };
}

/**
 * Our payout the event is about, only among this account's payouts. Our payout id is the
 * provider's merchant reference, so the echo names it directly; otherwise the provider's own
 * reference, stored from the creation answer, is looked up.
 */
async function findPayout(tx: SqlEntityManager, input: ReceiveWebhookInput, reference: string, merchantReference: string | undefined): Promise<string | undefined> {
  const scope = [input.provider, input.account.code];
  if (merchantReference && isId(merchantReference, 'pay')) {
    const rows = await tx.execute<Array<{ id: string }>>('select id from payout where id = ? and provider = ? and merchant_account = ?', [merchantReference, ...scope]);
    if (rows[0]) return rows[0].id;
  }
  const rows = await tx.execute<Array<{ id: string }>>('select id from payout where provider_reference = ? and provider = ? and merchant_account = ?', [reference, ...scope]);
  return rows[0]?.id;
}
