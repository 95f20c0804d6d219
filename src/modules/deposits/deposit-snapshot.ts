// Turns a Deposit entity, or the same columns read without one (a Pick of the entity), into the JSON snapshot that event
// rows, live notifications and the API's Deposit objects are made from.

import type { SubjectVisibility } from '../../kernel/visibility.js';
import type { DepositStatus, ProviderName, Rail, RefundStatus } from '../../providers/provider.js';
import { redactionPolicy } from '../../kernel/redaction.js';
import { isoText, type WithIsoDates } from '../../lib/iso-time.js';
import { canonicalDecimal } from '../../lib/money.js';
import type { Deposit } from './deposit.entity.js';

/**
 * A deposit as it stood right after a change: every field clients may read, in JSON form
 * (amounts as decimal strings, dates as ISO strings). Admin-only fields are included, and are
 * withheld per reader by `DEPOSIT_REDACTION` on every path that shows the snapshot, never by the producer.
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
  /** The client's own key/value pairs; absent from snapshots written before metadata existed. */
  metadata?: Record<string, string> | null;
  approvedAt: string | null;
  /**
   * When its credit was claimed (claimDepositCredit); null while unclaimed. Carried by every later
   * event of the deposit (a refund, a chargeback, a reversal), so a ledger knows to debit.
   */
  creditClaimedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What of a deposit only admins may read, on every path (queries, `events(after:)`, subscriptions,
 * notifications): the processor's own code, never to be shown to players. Adding a field here is
 * all it takes to withhold it everywhere.
 */
export const DEPOSIT_REDACTION = redactionPolicy<DepositSnapshot>('deposit', { adminOnly: ['statusReason'] });

/** Who sees deposits besides admins: a cashier its own, a refunds back office every one of its merchant accounts. */
export const DEPOSIT_VISIBILITY: SubjectVisibility = { subjectType: 'deposit', owned: ['CASHIER'], inAccounts: ['REFUNDS'] };

/**
 * The properties a snapshot is made of: what a read that skips the entity selects (the request,
 * submission and provider-reference columns stay in the table).
 */
export const DEPOSIT_SNAPSHOT_PROPERTIES = [
  'id', 'clientId', 'merchantAccount', 'provider', 'rail', 'livemode', 'status', 'providerStatus', 'statusReason',
  'amount', 'currency', 'fee', 'net', 'refundedAmount', 'refundStatus', 'disputed', 'redirectUrl', 'merchantReference',
  'declineReason', 'qrPayload', 'qrExpiresAt', 'crypto', 'metadata', 'approvedAt', 'creditClaimedAt', 'createdAt', 'updatedAt',
] as const satisfies ReadonlyArray<keyof Deposit>;

/** The names of `DEPOSIT_SNAPSHOT_PROPERTIES`: a read that skips the entity is a `Pick<Deposit, DepositSnapshotProperty>`. */
export type DepositSnapshotProperty = (typeof DEPOSIT_SNAPSHOT_PROPERTIES)[number];

/**
 * The deposit as it stands now, in the shape of `DepositSnapshot`: amounts as canonical decimal
 * strings in the deposit's currency (`"10.50"`, `"1000"` for CLP), dates as ISO strings. Admin-only
 * fields (`DEPOSIT_REDACTION`) are included; each path withholds them per reader.
 */
export function toDepositSnapshot(deposit: WithIsoDates<Pick<Deposit, DepositSnapshotProperty>>): DepositSnapshot {
  return {
    id: deposit.id,
    clientId: deposit.clientId,
    merchantAccount: deposit.merchantAccount,
    provider: deposit.provider,
    rail: deposit.rail,
    livemode: deposit.livemode,
    status: deposit.status,
    providerStatus: deposit.providerStatus ?? null,
    statusReason: deposit.statusReason ?? null,
    amount: canonicalDecimal(deposit.amount, deposit.currency),
    currency: deposit.currency,
    fee: deposit.fee == null ? null : canonicalDecimal(deposit.fee, deposit.currency),
    net: deposit.net == null ? null : canonicalDecimal(deposit.net, deposit.currency),
    refundedAmount: canonicalDecimal(deposit.refundedAmount ?? '0', deposit.currency),
    refundStatus: deposit.refundStatus ?? null,
    disputed: deposit.disputed ?? false,
    redirectUrl: deposit.redirectUrl ?? null,
    merchantReference: deposit.merchantReference ?? null,
    declineReason: deposit.declineReason ?? null,
    qrPayload: deposit.qrPayload ?? null,
    qrExpiresAt: iso(deposit.qrExpiresAt),
    crypto: deposit.crypto ? { quoteTtlMinutes: deposit.crypto.quoteTtlMinutes, underpayTolerancePct: deposit.crypto.underpayTolerancePct } : null,
    metadata: deposit.metadata ? { ...deposit.metadata } : null,
    approvedAt: iso(deposit.approvedAt),
    creditClaimedAt: iso(deposit.creditClaimedAt),
    createdAt: isoText(deposit.createdAt),
    updatedAt: isoText(deposit.updatedAt),
  };
}

function iso(value: Date | string | null | undefined): string | null {
  return value ? isoText(value) : null;
}
