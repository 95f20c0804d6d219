// Which payment the work in progress is for: a scope the services open around the provider calls
// they make for one deposit, refund or payout (creation, submission and resubmission, status
// lookups, the card form, reconciliation), read by the provider transport so that each attempt is
// recorded on that payment's timeline. A call outside any scope (a payment list, a webhook
// registration) is about no one payment, and is not recorded.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

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

/**
 * The payment kinds whose rows keep the trace context of the request that made them (a
 * `trace_context` column in the table named after the kind, docs/tracing.md), declared by the
 * composition as it builds the modules (the kernel names no kind).
 */
const tracedPayments = new Set<PaymentSubjectKind>();

/** Declares that `kind`'s table keeps its creating request's trace context. */
export function declareTracedPayment(kind: PaymentSubjectKind): void {
  tracedPayments.add(kind);
}

/** Whether `kind`'s table keeps a trace context (`declareTracedPayment`). */
export function isTracedPayment(kind: PaymentSubjectKind): boolean {
  return tracedPayments.has(kind);
}

/**
 * SQL of the trace context stored with the payment that two SQL expressions name, its kind and its
 * id; null for any other kind. For a statement that reads what names a payment anyway (a job's
 * claim), so that a span links to the payment's trace with no statement more.
 */
export function paymentTraceContextSql(kind: string, id: string): string {
  if (tracedPayments.size === 0) return 'null';
  return `case ${kind} ${[...tracedPayments].map((table) => `when '${table}' then (select trace_context from ${table} where id = ${id})`).join(' ')} end`;
}

/**
 * The trace context stored with one payment, read on its own: for a span about a payment whose
 * row no statement of its work read anyway. Undefined for a kind that keeps none.
 */
export async function readPaymentTraceContext(em: SqlEntityManager, kind: PaymentSubjectKind, id: string): Promise<string | null | undefined> {
  if (!tracedPayments.has(kind)) return undefined;
  const [row] = await em.execute<Array<{ trace_context: string | null }>>(`select trace_context from ${kind} where id = ?`, [id]);
  return row?.trace_context ?? null;
}
