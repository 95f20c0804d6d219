// What a module writes to handle one kind of webhook event: its handler (`find` and `decide`), the
// report it is handed, and the answers it may give. The inbox (inbox.ts) stores, dispatches and
// records; the handler finds its subject and applies the report through the transition path.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { MerchantAccount, ProviderName, WebhookEvent } from '../../providers/provider.js';
import type { PaymentSubjectType } from '../events/payment-event.entity.js';
import type { RowLookup, RowWrite } from '../sql-intents.js';
import type { ReportOutcome } from './report-outcome.js';
import type { WebhookOutcome } from './webhook-delivery.entity.js';

export interface ReceiveWebhookInput {
  provider: ProviderName;
  account: MerchantAccount;
  /** Already verified on the exact bytes by the account's adapter. */
  event: WebhookEvent;
  /** The body exactly as received, kept for inspection and replay. */
  rawBody: Buffer;
}

export interface ReceiveWebhookResult {
  outcome: WebhookOutcome;
  reason?: string;
  /** The inbox row; absent for a redelivery of an event already stored. */
  deliveryId?: string;
  subjectType?: PaymentSubjectType;
  subjectId?: string;
  /**
   * The trace context stored with the payment the handler's `find` locked, selected with it while
   * tracing is on: what the delivery's span links to (docs/tracing.md).
   */
  paymentTraceContext?: string | null;
}


type Subject = WebhookEvent['subject'];
export type WebhookSubjectKind = Subject['kind'];

/** What a handler is told besides the report itself. */
export interface InboxContext {
  /** Whether the handler's `find` ran with the delivery's insert; `found` is its row, when it has an `id`. */
  lookedUp: boolean;
  found?: Record<string, unknown>;
  /**
   * A fresh delivery's outcome as a row write, for a handler whose change is written by one
   * statement: passed on as it is (`ApplyInput.alongside` of the transition path), it is written
   * there, the handler returns `recorded: true` and the inbox writes nothing more. Absent when a
   * stored delivery is decided again.
   */
  outcome?: (outcome: ReportOutcome) => RowWrite;
}

/**
 * Applies one kind of event inside the inbox's transaction (after the delivery row is inserted,
 * before it commits). Returns what became of the report's subject, which the inbox records as the
 * delivery's decision (`deliveryDecision`); throws only on infrastructure failure.
 */
export interface WebhookSubjectHandler<K extends WebhookSubjectKind = WebhookSubjectKind> {
  /**
   * The row (with its lock) a report is about, selecting its `id`, as data: the inbox reads it in
   * the statement that inserts the delivery, and only once it is inserted, so a duplicate locks
   * nothing. Undefined when this report needs no lookup there.
   */
  find?(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: Extract<Subject, { kind: K }>): RowLookup | undefined;
  decide(tx: SqlEntityManager, input: ReceiveWebhookInput, subject: Extract<Subject, { kind: K }>, context: InboxContext): Promise<ReportOutcome & { recorded?: boolean }>;
}

/**
 * Thrown by a handler when an event cannot be decided yet but will be once something else lands
 * (another event, our own record of a provider answer). The whole transaction rolls back, the
 * delivery is answered 503 and nothing is stored, so the provider's retry is a first delivery.
 */
export class WebhookRetryLater extends Error {}

/** The anomaly reason when a test-mode event would touch a live account (or the reverse), else undefined. */
export function livemodeMismatch(input: ReceiveWebhookInput): string | undefined {
  if (input.event.livemode === undefined || input.event.livemode === input.account.livemode) return undefined;
  return `LIVEMODE_MISMATCH: event livemode=${input.event.livemode}, account livemode=${input.account.livemode}`;
}
