// Which payment the work in progress is for: a scope the services open around the provider calls
// they make for one deposit, refund or payout (creation, submission and resubmission, status
// lookups, the card form, reconciliation), read by the provider transport so that each attempt is
// recorded on that payment's timeline. A call outside any scope (a payment list, a webhook
// registration) is about no one payment, and is not recorded.

import { AsyncLocalStorage } from 'node:async_hooks';

/** The kind of payment a timeline is kept for, as its module names it. */
export type PaymentSubjectKind = string;

export interface PaymentScope {
  readonly subjectType: PaymentSubjectKind;
  readonly subjectId: string;
}

const storage = new AsyncLocalStorage<PaymentScope>();

/**
 * Runs `work` for one payment: every provider call it makes, however deep, is that payment's. An
 * inner scope wins over an outer one (a reconciliation check of a refund that looks up its deposit
 * is still the refund's).
 *
 * @example
 * const answer = await forPayment('deposit', deposit.id, () => provider.getDeposit(account, reference));
 */
export function forPayment<T>(subjectType: PaymentSubjectKind, subjectId: string, work: () => T): T {
  return storage.run({ subjectType, subjectId }, work);
}

/** The payment of the work in progress, or undefined outside any scope. */
export function currentPayment(): PaymentScope | undefined {
  return storage.getStore();
}
