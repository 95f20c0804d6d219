// The webhook inbox's handler of deposit events (payment.*, qr payments): finds our deposit and
// applies the reported status through the kernel's transition path; a payment-level "refunded"
// goes to refund accounting, which the composition point hands in.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { columnList, plainRow } from '../../db/plain-rows.js';
import { livemodeMismatch, type ReceiveWebhookInput, type WebhookSubjectHandler } from '../../kernel/inbox/webhook-handler.js';
import { transitionReport, type ReportOutcome } from '../../kernel/inbox/report-outcome.js';
import { renderLookup, type RowLookup } from '../../kernel/sql-intents.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { isId } from '../../lib/ids.js';
import type { Money } from '../../lib/money.js';
import type { WebhookEvent } from '../../providers/provider.js';
import { Deposit } from './deposit.entity.js';
import { depositTransitions, TRANSITION_PROPERTIES, type TransitionProperty } from './deposit-transitions.js';
import { versionedDeposit, type DetailsHandOff } from './written-deposits.js';

type DepositSubject = Extract<WebhookEvent['subject'], { kind: 'deposit' }>;

/**
 * Reconciles a payment-level "refunded" report with the deposit's refund rows (refund accounting:
 * only refund rows decide REFUNDED), inside the inbox's transaction.
 */
export type PaymentRefundedHandler = (
  tx: SqlEntityManager,
  report: { depositId: string; amount?: Money; reversedInFull: boolean; providerStatus: string; source: string },
) => Promise<{ outcome: Extract<ReportOutcome['outcome'], 'applied' | 'noop' | 'in_progress' | 'anomaly' | 'not_found'>; reason?: string }>;

export interface DepositWebhookDependencies {
  transitions: TransitionPath;
  paymentRefunded: PaymentRefundedHandler;
  /** Where an applied change's row is kept for the detail fetch it schedules (written-deposits.ts). */
  written?: DetailsHandOff;
}

export function depositWebhookHandler(deps: DepositWebhookDependencies): WebhookSubjectHandler<'deposit'> {
  return {
    // A status report: the deposit is found and locked by the statement that stores the delivery
    // (the inbox adds its trace context to the lookup while tracing is on, for the delivery's span).
    find: (tx, input, subject) =>
      isStatusReport(input, subject) ? eventDepositLookup(input, subject, lockedColumns(tx), true) : undefined,

    decide: async (tx, input, subject, context) => {
      if (!isStatusReport(input, subject)) return applyOther(tx, input, subject, deps.paymentRefunded);
      const deposit = context.lookedUp ? context.found && plainRow<Pick<Deposit, TransitionProperty>>(tx, Deposit, context.found) : await lockEventDeposit(tx, input, subject);
      if (!deposit) return depositNotFound(input, subject);
      const found = { type: 'deposit', id: deposit.id } as const;
      const result = await deps.transitions.apply(tx, depositTransitions, {
        id: deposit.id,
        locked: deposit,
        change: {
          status: subject.status,
          providerStatus: subject.providerStatus,
          ...(subject.declineReason !== undefined ? { declineReason: subject.declineReason } : {}),
          ...(subject.amount !== undefined ? { amount: subject.amount } : {}),
          ...(input.event.occurredAt !== undefined && subject.status === 'SUCCEEDED' ? { approvedAt: input.event.occurredAt } : {}),
          providerReference: subject.reference,
        },
        source: `webhook:${input.provider}/${input.account.code}`,
        // The delivery's outcome is written by the status change's own statement.
        ...(context.outcome ? { alongside: [context.outcome({ outcome: 'applied', subject: found })] } : {}),
      });
      const outcome = transitionReport(result, found, subject.status);
      if (result.outcome !== 'applied') return outcome;
      // The change is this transaction's last write to the deposit (the inbox then commits): its
      // row as returned is what the detail fetch would read, until anything changes it.
      if (deps.written && result.returned) {
        const written = versionedDeposit(tx, result.returned);
        if (written) deps.written.remember(written);
      }
      return { ...outcome, recorded: context.outcome !== undefined };
    },
  };
}

/** A report of a status to apply: not of the other mode's account, and not a payment-level `refunded`. */
function isStatusReport(input: ReceiveWebhookInput, subject: DepositSubject): boolean {
  return subject.status !== 'REFUNDED' && !livemodeMismatch(input);
}

/** A deposit event that changes no status: a test-mode event for a live account (or the reverse), or `payment.refunded`. */
async function applyOther(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: DepositSubject, paymentRefunded: PaymentRefundedHandler): Promise<ReportOutcome> {
  const depositId = await findEventDeposit(tx, input, subject);
  if (!depositId) return depositNotFound(input, subject);
  const mismatch = livemodeMismatch(input);
  const found = { type: 'deposit', id: depositId } as const;
  if (mismatch) return { outcome: 'anomaly', subject: found, reason: mismatch };
  // payment.refunded: the refund rows decide, never a bare status change. The event does not say
  // how much went back ("in full or in part", A25), so nothing is recorded from it alone.
  const refunded = await paymentRefunded(tx, {
    depositId,
    ...(subject.amount ? { amount: subject.amount } : {}),
    reversedInFull: false,
    providerStatus: subject.providerStatus,
    source: `webhook:${input.provider}/${input.account.code}`,
  });
  return { ...refunded, subject: found };
}

let lockedColumnNames: readonly string[] | undefined;

/** The columns a status report's locked read selects (`TRANSITION_PROPERTIES`), by name. */
function lockedColumns(tx: SqlEntityManager): readonly string[] {
  lockedColumnNames ??= columnList(tx, Deposit, TRANSITION_PROPERTIES).split(', ');
  return lockedColumnNames;
}

function depositNotFound(input: ReceiveWebhookInput, subject: { reference: string }): ReportOutcome {
  return { outcome: 'not_found', reason: `DEPOSIT_NOT_FOUND: no ${input.account.code} deposit for reference ${subject.reference}` };
}

/**
 * Our deposit the event is about, only among this account's deposits. We send our deposit id as
 * the provider's merchant reference, so the echo names it directly (deposit gateway:
 * `merchant_reference`; QR gateway: `reference`); otherwise the provider's own reference is
 * looked up.
 */
export async function findEventDeposit(
  tx: SqlEntityManager,
  input: ReceiveWebhookInput,
  subject: { reference: string; merchantReference?: string },
): Promise<string | undefined> {
  const lookup = renderLookup(eventDepositLookup(input, subject, ['id'], false));
  const rows = await tx.execute<Array<{ id: string }>>(lookup.sql, lookup.params);
  return rows[0]?.id;
}

/**
 * The deposit a status report is about, read with its row lock in the same statement (the lookup
 * of `findEventDeposit`): concurrent reports about one deposit serialize here.
 */
async function lockEventDeposit(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: { reference: string; merchantReference?: string }): Promise<Pick<Deposit, TransitionProperty> | undefined> {
  const lookup = renderLookup(eventDepositLookup(input, subject, lockedColumns(tx), true));
  const row = (await tx.execute<Array<Record<string, unknown>>>(lookup.sql, lookup.params))[0];
  return row ? plainRow<Pick<Deposit, TransitionProperty>>(tx, Deposit, row) : undefined;
}

/**
 * Among the account's deposits, the one whose id is the echoed merchant reference if there is
 * one, else the one whose provider reference (or payment reference: a hosted checkout deposit's
 * own reference is its session id) is the event's; `columns` selected, with the row lock when `lock`.
 */
function eventDepositLookup(input: ReceiveWebhookInput, subject: { reference: string; merchantReference?: string }, columns: readonly string[], lock: boolean): RowLookup {
  const ownId = subject.merchantReference && isId(subject.merchantReference, 'dep') ? subject.merchantReference : null;
  return {
    table: 'deposit',
    columns,
    anyOf: [['id', ownId], ['provider_reference', subject.reference], ['payment_reference', subject.reference]],
    scope: { provider: input.provider, merchant_account: input.account.code },
    lock,
  };
}
