// The refund status transition table (deposit gateway spec: Refund lifecycle).

import { defineStateMachine, type TransitionDecision, type TransitionTable } from '../../lib/state-machine.js';
import type { RefundStatus } from '../../providers/provider.js';

/** A refund request is decided once: `refund.approved` or `refund.rejected`; either is final. */
export const REFUND_TRANSITIONS: TransitionTable<RefundStatus> = {
  REQUESTED: ['APPROVED', 'REJECTED'],
  APPROVED: [],
  REJECTED: [],
};

export const REFUND_TERMINAL_STATUSES: readonly RefundStatus[] = ['APPROVED', 'REJECTED'];

export const refundStateMachine = defineStateMachine<RefundStatus>({
  name: 'refund',
  initial: 'REQUESTED',
  terminal: REFUND_TERMINAL_STATUSES,
  table: REFUND_TRANSITIONS,
});

export function decideRefundTransition(from: RefundStatus, to: RefundStatus): TransitionDecision {
  return refundStateMachine.decide(from, to);
}

export function isTerminalRefundStatus(status: RefundStatus): boolean {
  return refundStateMachine.isTerminal(status);
}

export function assertRefundTransitionsConsistent(): void {
  refundStateMachine.assertConsistent();
}
