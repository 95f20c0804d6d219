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

/**
 * The deposit's `refundStatus`: where its refunds stand together, over the refunds the provider
 * knows of (those it refused at once never opened there). An open request wins, then an executed
 * one; null while there is none.
 */
export function depositRefundStatus(refunds: ReadonlyArray<{ status: RefundStatus; providerReference?: string | null }>): RefundStatus | null {
  const known = refunds.filter((refund) => refund.providerReference);
  for (const status of ['REQUESTED', 'APPROVED', 'REJECTED'] as const) {
    if (known.some((refund) => refund.status === status)) return status;
  }
  return null;
}
