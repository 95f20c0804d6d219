// What travels from a committed status change to every instance's live subscribers: the event
// row's identity plus a snapshot of its subject, so a subscriber needs no query to answer.

import type { DepositStatus, PayoutStatus, Rail, RefundStatus, ProviderName, WithdrawalStatus } from '../../providers/provider.js';

/** Wake-up channel: a committed append tells every instance's event bus to read the log (no payload). */
export const PAYMENT_EVENTS_CHANNEL = 'payment_events';

/** Local pub/sub topic on which each instance republishes the notifications it receives. */
export const PAYMENT_EVENTS_TOPIC = 'payment-events';

/**
 * A deposit as it stood right after a change: every field clients may read, in JSON form
 * (amounts as decimal strings, dates as ISO strings). Admin-only fields are included and are
 * filtered by the API layer, never by the producer.
 */
export interface DepositSnapshot {
  id: string;
  clientId: string;
  merchantAccount: string;
  provider: ProviderName;
  rail: Rail;
  livemode: boolean;
  status: DepositStatus;
  providerStatus: string | null;
  statusReason: string | null;
  amount: string;
  currency: string;
  fee: string | null;
  net: string | null;
  refundedAmount: string;
  refundStatus: RefundStatus | null;
  disputed: boolean;
  redirectUrl: string | null;
  merchantReference: string | null;
  declineReason: string | null;
  qrPayload: string | null;
  qrExpiresAt: string | null;
  /** Crypto quote terms (crypto rail only). */
  crypto: { quoteTtlMinutes: number; underpayTolerancePct: string } | null;
  approvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A refund as it stood right after a change, in JSON form (amount as a decimal string in the
 * deposit's currency, dates as ISO strings).
 */
export interface RefundSnapshot {
  id: string;
  depositId: string;
  /** The client that requested the refund; null for a refund made outside the gateway. */
  clientId: string | null;
  /** Absent in snapshots written before refunds could come from the provider: read it as GATEWAY. */
  origin?: 'GATEWAY' | 'PROVIDER';
  status: RefundStatus;
  providerStatus: string | null;
  amount: string;
  currency: string;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A payout as it stood right after a change, in JSON form. Beneficiary identifiers are masked to
 * their last four characters here, for every reader: full account numbers never enter the event
 * log or a notification (admins read them from the payout row).
 */
export interface PayoutSnapshot {
  id: string;
  clientId: string;
  merchantAccount: string;
  provider: ProviderName;
  livemode: boolean;
  country: string;
  status: PayoutStatus;
  providerStatus: string | null;
  /** Admin only; filtered by the API layer. */
  statusReason: string | null;
  amount: string;
  currency: string;
  beneficiary: {
    name: string | null;
    documentType: string | null;
    documentNumber: string | null;
    accountNumber: string | null;
    bankCode: string | null;
    accountType: string | null;
    cci: string | null;
  };
  merchantReference: string | null;
  /** Stable code of a refused or unanswered submission. */
  failureCode: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A withdrawal as it stood right after a change, in JSON form. Admins only. */
export interface WithdrawalSnapshot {
  id: string;
  provider: ProviderName;
  merchantAccount: string;
  livemode: boolean;
  providerReference: string;
  status: WithdrawalStatus;
  providerStatus: string;
  amount: string | null;
  currency: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One appended event, as each instance's event bus publishes it to its own subscribers (read from the log). */
export interface EventNotification {
  /** The event's position in the global log, as a decimal string (bigint). */
  position: string;
  id: string;
  type: string;
  subjectType: 'deposit' | 'refund' | 'payout' | 'withdrawal';
  subjectId: string;
  /** Owner of the subject (a refund: its deposit's creator), as the visibility policy reads it; null for none. */
  clientId: string | null;
  /**
   * Merchant account of the subject (a refund: its deposit's), as the visibility policy reads it.
   * Null only in a notification from an instance older than this field (then back offices limited
   * to some accounts do not see it live; the catch-up log has it).
   */
  merchantAccount: string | null;
  /** For admins only (an anomaly the gateway raised about the subject); absent: false. */
  adminOnly?: boolean;
  fromStatus: string | null;
  toStatus: string | null;
  createdAt: string;
  /** The subject after the change. */
  deposit?: DepositSnapshot;
  /** The refund after the change (refund events). */
  refund?: RefundSnapshot;
  /** The payout after the change (payout events). */
  payout?: PayoutSnapshot;
  /** The withdrawal after the change (withdrawal events). */
  withdrawal?: WithdrawalSnapshot;
}
