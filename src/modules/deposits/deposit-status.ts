// The deposit status transition table (DESIGN.md DepositStatus) and the one decision every webhook,
// status lookup and reconciler run goes through before a deposit's status changes.

import { defineStateMachine, type TransitionDecision, type TransitionTable } from '../../lib/state-machine.js';
import type { DepositStatus } from '../../providers/provider.js';

/**
 * Promote-only: a deposit moves forward and never back.
 *
 * - AUTHORIZED (provider `approved_for_payment`) may still end DECLINED, EXPIRED, CANCELLED or FAILED.
 *   The spec says money has left the payer's account, but it is not settled and the player has not
 *   been credited (only SUCCEEDED credits); the spec leaves these moves "not shown" (assumption A27),
 *   and refusing them would strand the deposit in a non-final status that no later report could close.
 * - SUCCEEDED may only become REFUNDED. A late `declined` (or any failure word) after `approved` is
 *   an anomaly: recorded, not applied, so a credited deposit is never demoted.
 * - A move out of a terminal status is an anomaly too; a repeat of the current status is a no-op.
 */
export const DEPOSIT_TRANSITIONS: TransitionTable<DepositStatus> = {
  PENDING: ['AUTHORIZED', 'SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED'],
  AUTHORIZED: ['SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED'],
  SUCCEEDED: ['REFUNDED'],
  DECLINED: [],
  EXPIRED: [],
  CANCELLED: [],
  FAILED: [],
  REFUNDED: [],
};

/** Statuses a deposit never leaves. */
export const DEPOSIT_TERMINAL_STATUSES: readonly DepositStatus[] = ['DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED', 'REFUNDED'];

export const depositStateMachine = defineStateMachine<DepositStatus>({
  name: 'deposit',
  initial: 'PENDING',
  terminal: DEPOSIT_TERMINAL_STATUSES,
  table: DEPOSIT_TRANSITIONS,
});

/** What a reported status does to a deposit currently in `from`. */
export function decideDepositTransition(from: DepositStatus, to: DepositStatus): TransitionDecision {
  return depositStateMachine.decide(from, to);
}

export function isTerminalDepositStatus(status: DepositStatus): boolean {
  return depositStateMachine.isTerminal(status);
}

/** Start-up self-check: throws if the table above was edited into an inconsistent shape. */
export function assertDepositTransitionsConsistent(): void {
  depositStateMachine.assertConsistent();
}
