// The withdrawal status transition table (QR gateway spec: withdrawal events; order assumed in Q7).

import { defineStateMachine, type TransitionTable } from '../../lib/state-machine.js';
import type { WithdrawalStatus } from '../../providers/provider.js';

/** `pending` → `processed` (sent to the bank) → `succeeded` | `failed`; `processed` may be skipped. */
export const WITHDRAWAL_TRANSITIONS: TransitionTable<WithdrawalStatus> = {
  PENDING: ['PROCESSED', 'SUCCEEDED', 'FAILED'],
  PROCESSED: ['SUCCEEDED', 'FAILED'],
  SUCCEEDED: [],
  FAILED: [],
};

export const withdrawalStateMachine = defineStateMachine<WithdrawalStatus>({
  name: 'withdrawal',
  initial: 'PENDING',
  terminal: ['SUCCEEDED', 'FAILED'],
  table: WITHDRAWAL_TRANSITIONS,
});

export function assertWithdrawalTransitionsConsistent(): void {
  withdrawalStateMachine.assertConsistent();
}
