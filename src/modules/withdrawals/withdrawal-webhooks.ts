// Applies verified withdrawal.* webhooks from the inbox: the first event of a withdrawal records
// it, later ones move it through the kernel's transition path; each change is an event row.

import { LockMode } from '@mikro-orm/core';
import { livemodeMismatch, type WebhookSubjectHandler } from '../../kernel/inbox/webhook-handler.js';
import { transitionReport } from '../../kernel/inbox/report-outcome.js';
import type { SubjectKind, TransitionPath } from '../../kernel/transitions.js';
import { newId } from '../../lib/ids.js';
import type { Money } from '../../lib/money.js';
import type { WithdrawalStatus } from '../../providers/provider.js';
import { Withdrawal } from './withdrawal.entity.js';
import { toWithdrawalSnapshot } from './withdrawal-snapshot.js';
import { withdrawalStateMachine } from './withdrawal-status.js';

export const WITHDRAWAL_CREATED = 'withdrawal.created';
export const WITHDRAWAL_STATUS_CHANGED = 'withdrawal.status_changed';

/** What a provider reported about a withdrawal, in domain terms. */
export interface WithdrawalChange {
  status: WithdrawalStatus;
  providerStatus: string;
  /** Checked against the withdrawal's amount when it has one; kept when it has none yet. */
  amount?: Money;
}

/**
 * The withdrawal subject kind (src/kernel/transitions.ts). Deliveries overtake each other, and a
 * withdrawal's earlier steps are harmless, so an earlier status after a later one is old news.
 * Withdrawals belong to no client: admins alone see them.
 */
export const withdrawalTransitions: SubjectKind<Withdrawal, WithdrawalStatus, WithdrawalChange> = {
  type: 'withdrawal',
  table: 'withdrawal',
  machine: withdrawalStateMachine,
  changedEvent: WITHDRAWAL_STATUS_CHANGED,
  pastStatusIsStale: true,
  lock: async (tx, id) => (await tx.findOne(Withdrawal, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })) ?? undefined,
  statusOf: (withdrawal) => withdrawal.status,
  idOf: (withdrawal) => withdrawal.id,
  owner: (withdrawal) => ({ clientId: null, merchantAccount: withdrawal.merchantAccount }),
  snapshot: toWithdrawalSnapshot,
  check: ({ row: withdrawal, change }) => {
    const known = withdrawal.amountMoney();
    return change.amount && known && !change.amount.equals(known) ? `AMOUNT_MISMATCH: reported ${change.amount.toString()}, withdrawal is ${known.toString()}` : undefined;
  },
  write: ({ tx, row: withdrawal, change }) => {
    // The first amount a report carries is kept; a later one never writes over it.
    const reported = change.amount && !withdrawal.amountMoney() ? { amount: change.amount.toDecimal(), currency: change.amount.currency } : {};
    const next = { status: change.status, providerStatus: change.providerStatus, ...reported, updatedAt: new Date() };
    return {
      // One statement writes the change with its event; the managed withdrawal is then taken from
      // the row it returns, so no dirty state is left for a later flush.
      next: Object.assign(withdrawal, next),
      update: { set: { status: next.status, provider_status: next.providerStatus, ...reported, updated_at: next.updatedAt }, returning: '*' },
      merge: (returned) => tx.map(Withdrawal, returned),
    };
  },
};

/** The inbox handler for withdrawal events (QR gateway spec: withdrawal.*; payload Q7). */
export function withdrawalWebhookHandler(transitions: TransitionPath): WebhookSubjectHandler<'withdrawal'> {
  return {
    decide: async (tx, input, subject) => {
      const mismatch = livemodeMismatch(input);
      if (mismatch) return { outcome: 'anomaly', reason: mismatch };

      // Its first event records it: the row and its creation event, one statement. Two first
      // events of one withdrawal (pending and succeeded, racing) make one row (`ifAbsent`); the
      // second finds it below and applies its status.
      const now = new Date();
      const facts = {
        id: newId('wdr'),
        provider: input.provider,
        merchantAccount: input.account.code,
        livemode: input.event.livemode ?? input.account.livemode,
        providerReference: subject.reference,
        status: subject.status,
        providerStatus: subject.providerStatus,
        amount: subject.amount?.toDecimal() ?? null,
        currency: subject.amount?.currency ?? null,
        createdAt: now,
        updatedAt: now,
      };
      const created = await transitions.create<Withdrawal>(tx, withdrawalTransitions, {
        event: WITHDRAWAL_CREATED,
        row: tx.create(Withdrawal, facts, { persist: false }),
        insert: {
          values: {
            id: facts.id,
            provider: facts.provider,
            merchant_account: facts.merchantAccount,
            livemode: facts.livemode,
            provider_reference: facts.providerReference,
            status: facts.status,
            provider_status: facts.providerStatus,
            amount: facts.amount,
            currency: facts.currency,
            created_at: facts.createdAt,
            updated_at: facts.updatedAt,
          },
          ifAbsent: ['provider', 'merchant_account', 'provider_reference'],
          returning: ['id'],
        },
      });
      if (created) return { outcome: 'applied', subject: { type: 'withdrawal', id: facts.id } };

      const withdrawal = await tx.findOneOrFail(
        Withdrawal,
        { provider: input.provider, merchantAccount: input.account.code, providerReference: subject.reference },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const result = await transitions.apply(tx, withdrawalTransitions, {
        id: withdrawal.id,
        locked: withdrawal,
        change: { status: subject.status, providerStatus: subject.providerStatus, ...(subject.amount ? { amount: subject.amount } : {}) },
        source: `webhook:${input.provider}/${input.account.code}`,
      });
      return transitionReport(result, { type: 'withdrawal', id: withdrawal.id }, subject.status);
    },
  };
}
