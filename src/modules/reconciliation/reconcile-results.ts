// What one reconciliation check of a deposit or a refund found, as the reconciler reports it to its
// listeners (metrics), to the GraphQL API (reconcileDeposit) and in its logs.

import type { DepositStatus } from '../../providers/provider.js';
import type { Deposit } from '../deposits/deposit.entity.js';

/**
 * - `applied`: the provider's status differed and was applied (a missed webhook, corrected).
 * - `noop`: the deposit already has the provider's status.
 * - `anomaly`: the provider's report was refused (impossible transition, other money, another order).
 * - `provider_error`: the provider could not be asked; the deposit is checked again later.
 * - `not_found`, `not_submitted`, `account_missing`: nothing to ask the provider about.
 */
export type ReconcileOutcome = 'applied' | 'noop' | 'anomaly' | 'provider_error' | 'not_found' | 'not_submitted' | 'account_missing';

export interface ReconcileResult {
  outcome: ReconcileOutcome;
  /** Starts with a stable code, e.g. `TRANSITION_NOT_ALLOWED: …`, `PROVIDER_UNAVAILABLE: …`. */
  reason?: string;
  deposit?: Deposit;
  /** Status before and after, when `applied`. */
  from?: DepositStatus;
  to?: DepositStatus;
}

/**
 * What checking one REQUESTED refund did:
 * - `applied`: its decision was read from the payment's `refund_status` and applied (or a
 *   resubmission was refused, which rejects it).
 * - `resubmitted`: it had no provider reference and was resubmitted under its own id.
 * - `noop`: nothing to decide yet (still pending, or no refund status).
 * - `ambiguous`: the payment has several refunds, so its one `refund_status` decides none of them.
 * - `anomaly`, `provider_error`, `not_found`: as for deposits.
 */
export type RefundReconcileOutcome = 'applied' | 'resubmitted' | 'noop' | 'ambiguous' | 'anomaly' | 'provider_error' | 'not_found';

export interface RefundReconcileResult {
  outcome: RefundReconcileOutcome;
  reason?: string;
  refundId: string;
}
