// The payout status transition table (deposit gateway spec: Payout status values).

import { defineStateMachine, type TransitionDecision, type TransitionTable } from '../../lib/state-machine.js';
import type { PayoutStatus } from '../../providers/provider.js';

/**
 * BOUNCED and REVERTED are final per the spec. FAILED (our call or the provider errored before the
 * payout existed) is final too: a retry is a new payout. PAID may only be reverted; a late `bounced`
 * after `paid` is an anomaly, not applied.
 */
export const PAYOUT_TRANSITIONS: TransitionTable<PayoutStatus> = {
  PENDING: ['PAID', 'BOUNCED', 'FAILED'],
  PAID: ['REVERTED'],
  BOUNCED: [],
  REVERTED: [],
  FAILED: [],
};

export const PAYOUT_TERMINAL_STATUSES: readonly PayoutStatus[] = ['BOUNCED', 'REVERTED', 'FAILED'];

export const payoutStateMachine = defineStateMachine<PayoutStatus>({
  name: 'payout',
  initial: 'PENDING',
  terminal: PAYOUT_TERMINAL_STATUSES,
  table: PAYOUT_TRANSITIONS,
});

export function decidePayoutTransition(from: PayoutStatus, to: PayoutStatus): TransitionDecision {
  return payoutStateMachine.decide(from, to);
}

export function isTerminalPayoutStatus(status: PayoutStatus): boolean {
  return payoutStateMachine.isTerminal(status);
}

export function assertPayoutTransitionsConsistent(): void {
  payoutStateMachine.assertConsistent();
}
