// GraphQL shape of a payment's timeline: an interface, TimelineEntry (kind, time, trace id), with
// one object type per kind, so a client selects each kind's own fields with an inline fragment and
// every field that a kind always has is non-null. Admin-only detail (what was sent to and answered
// by the provider, error texts, reasons, endpoint addresses) answers null to every other reader,
// through the same schema-wide redaction as the subject types' own admin-only fields.

import { Field, ID, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import type { RedactedType } from '../../graphql/redaction.js';
import type { RedactionPolicy } from '../../kernel/redaction.js';
import type { PaymentEventRecord } from '../../kernel/events/event-log.js';
import type { ProviderName } from '../../providers/provider.js';
import { PaymentProviderEnum, paymentProviderOf, type PaymentProvider } from '../deposits/deposit.types.js';
import { PaymentEventNode } from '../events/payment-event.node.js';
import { WebhookOutcomeEnum, type WebhookOutcomeValue } from '../webhooks/webhook-admin.types.js';
import type { TimelineKind, TimelineRow } from './timeline-reader.js';

export const TimelineEntryKindEnum = {
  EVENT: 'EVENT',
  CREDIT_CLAIM: 'CREDIT_CLAIM',
  PROVIDER_CALL: 'PROVIDER_CALL',
  WEBHOOK_DELIVERY: 'WEBHOOK_DELIVERY',
  JOB: 'JOB',
  RECONCILIATION_CHECK: 'RECONCILIATION_CHECK',
  NOTIFICATION_ATTEMPT: 'NOTIFICATION_ATTEMPT',
} as const satisfies Record<TimelineKind, TimelineKind>;

registerEnumType(TimelineEntryKindEnum, {
  name: 'TimelineEntryKind',
  description: 'What a timeline entry records; each kind is its own type (e.g. PROVIDER_CALL is a ProviderCallEntry).',
  valuesConfig: {
    EVENT: { description: 'A change of the payment, as the event log has it (EventEntry).' },
    CREDIT_CLAIM: { description: 'The deposit\'s credit claimed by its client (CreditClaimEntry).' },
    PROVIDER_CALL: { description: 'One attempt of a call to the provider made for the payment (ProviderCallEntry).' },
    WEBHOOK_DELIVERY: { description: 'A provider webhook that matched the payment (WebhookDeliveryEntry).' },
    JOB: { description: 'Follow-up work about the payment: a detail fetch, a reconciliation check, a release of deferred deliveries (JobEntry).' },
    RECONCILIATION_CHECK: { description: 'The reconciler asked the provider about the payment (ReconciliationCheckEntry).' },
    NOTIFICATION_ATTEMPT: { description: 'One attempt to send one of the payment\'s events to a back-office notification endpoint (NotificationAttemptEntry).' },
  },
});

export const ProviderCallOutcomeEnum = {
  SUCCESS: 'SUCCESS',
  CLIENT_ERROR: 'CLIENT_ERROR',
  SERVER_ERROR: 'SERVER_ERROR',
  UNEXPECTED_STATUS: 'UNEXPECTED_STATUS',
  TIMEOUT: 'TIMEOUT',
  NETWORK_ERROR: 'NETWORK_ERROR',
} as const;
export type ProviderCallOutcomeValue = keyof typeof ProviderCallOutcomeEnum;

registerEnumType(ProviderCallOutcomeEnum, {
  name: 'ProviderCallOutcome',
  description: 'How one attempt of a provider call ended.',
  valuesConfig: {
    SUCCESS: { description: 'Answered 2xx.' },
    CLIENT_ERROR: { description: 'Answered 4xx.' },
    SERVER_ERROR: { description: 'Answered 5xx.' },
    UNEXPECTED_STATUS: { description: 'Answered another status (1xx, 3xx).' },
    TIMEOUT: { description: 'No answer within PROVIDER_TIMEOUT_MS.' },
    NETWORK_ERROR: { description: 'The connection failed (refused, reset, name not found).' },
  },
});

@InterfaceType('TimelineEntry', {
  // Each entry is an instance of its kind's class (toEntry), which is how its type is resolved.
  description: 'One entry of a payment\'s timeline. Select each kind\'s fields with `... on ProviderCallEntry { … }` and the like.',
})
export class TimelineEntry {
  @Field(() => TimelineEntryKindEnum, { description: 'What the entry records.' })
  kind!: TimelineKind;

  @Field({ description: 'When it happened: a call\'s attempt when it was sent, a delivery when it was received, a job when it was enqueued.' })
  at!: Date;

  @Field(() => String, {
    nullable: true,
    description:
      'The id (32 hex digits) of the OpenTelemetry trace that wrote the entry: the request, webhook delivery, job run or notification attempt it happened in (docs/tracing.md). Null when tracing was off or the trace not sampled.',
  })
  traceId!: string | null;
}

@ObjectType('EventEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'A change of the payment, as the event log has it. Events raised for admins alone are not listed to other readers.' })
export class EventEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The event\'s id.' })
  eventId!: string;

  @Field({ description: 'What happened, e.g. deposit.created, deposit.status_changed, deposit.credit_claimed.' })
  type!: string;

  @Field(() => String, { nullable: true, description: 'The status before the change; null when the payment was created.' })
  fromStatus!: string | null;

  @Field(() => String, { nullable: true, description: 'The status after the change.' })
  toStatus!: string | null;

  @Field(() => PaymentEventNode, { description: 'The whole event, as events(after:) shows it, with the payment as it stood right after it (deposits).' })
  event!: PaymentEventNode;
}

@ObjectType('CreditClaimEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'The deposit\'s credit, claimed by its client once (claimDepositCredit).' })
export class CreditClaimEntry extends TimelineEntry {
  @Field(() => ID, { nullable: true, description: 'The client that claimed it.' })
  claimedBy!: string | null;
}

@ObjectType('ProviderCallEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'One attempt of a call to the provider made for the payment; a retried call has one entry per attempt.' })
export class ProviderCallEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The record\'s id.' })
  id!: string;

  @Field(() => PaymentProviderEnum, { description: 'The provider called.' })
  provider!: PaymentProvider;

  @Field(() => String, { nullable: true, description: 'Code of the merchant account the call was made with.' })
  merchantAccount!: string | null;

  @Field({ description: 'What was asked, e.g. createDeposit, getDeposit, settleCard, requestRefund, createPayout.' })
  operation!: string;

  @Field(() => Int, { description: '1 for the first attempt of the call, 2 for its first retry, and so on.' })
  attempt!: number;

  @Field(() => ProviderCallOutcomeEnum, { description: 'How the attempt ended. (Each kind names its outcome apart, so one selection can read them all.)' })
  callOutcome!: ProviderCallOutcomeValue;

  @Field(() => Int, { nullable: true, description: 'The answer\'s HTTP status; null when no answer came.' })
  httpStatus!: number | null;

  @Field(() => String, { nullable: true, description: 'Why no answer came (a time-out, a network error). Admins only (null for other callers).' })
  error!: string | null;

  @Field(() => Int, { description: 'How long the attempt took, in milliseconds.' })
  durationMs!: number;

  @Field(() => String, { nullable: true, description: 'What was sent, masked: field names, and values only of the provider\'s status and reference fields. Admins only (null for other callers).' })
  requestSummary!: string | null;

  @Field(() => String, { nullable: true, description: 'What was answered, masked as requestSummary. Admins only (null for other callers).' })
  responseSummary!: string | null;
}

@ObjectType('WebhookDeliveryEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'A provider webhook that matched the payment, and what the gateway did with it.' })
export class WebhookDeliveryEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The delivery\'s id (webhookDeliveries, replayWebhookDelivery).' })
  id!: string;

  @Field(() => PaymentProviderEnum, { description: 'The provider that sent it.' })
  provider!: PaymentProvider;

  @Field(() => String, { nullable: true, description: 'The provider\'s event name.' })
  eventName!: string | null;

  @Field(() => String, { nullable: true, description: 'The provider\'s event id. Admins only (null for other callers).' })
  providerEventId!: string | null;

  @Field(() => WebhookOutcomeEnum, { description: 'What the gateway did with it.' })
  deliveryOutcome!: WebhookOutcomeValue;

  @Field(() => String, { nullable: true, description: 'Why, starting with a stable code (e.g. TRANSITION_NOT_ALLOWED). Admins only (null for other callers).' })
  reason!: string | null;
}

@ObjectType('JobEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'Follow-up work about the payment, as the job queue keeps it (succeeded jobs are kept for a week).' })
export class JobEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The job\'s id.' })
  id!: string;

  @Field({ description: 'What the job does, e.g. deposit.fetch_details, reconcile.deposit.' })
  jobKind!: string;

  @Field({ description: 'PENDING, RUNNING, SUCCEEDED, FAILED (its attempts ran out) or SUPERSEDED (a newer job of the same kind and payment did the work).' })
  status!: string;

  @Field(() => Int, { description: 'Runs so far.' })
  attempts!: number;

  @Field(() => Int, { description: 'Runs before it is kept as FAILED.' })
  maxAttempts!: number;

  @Field(() => String, { nullable: true, description: 'The error of its last failed run. Admins only (null for other callers).' })
  lastError!: string | null;

  @Field(() => Date, { nullable: true, description: 'When it finished; null while it waits or runs.' })
  finishedAt!: Date | null;
}

@ObjectType('ReconciliationCheckEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'The reconciler asked the provider about the payment (at when the check ended).' })
export class ReconciliationCheckEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The record\'s id.' })
  id!: string;

  @Field({ description: 'What the check did, in the reconciler\'s words: applied, noop, anomaly, provider_error, resubmitted, ambiguous, not_found, not_submitted, account_missing.' })
  checkOutcome!: string;

  @Field(() => String, { nullable: true, description: 'Why, starting with a stable code (e.g. PROVIDER_UNAVAILABLE). Admins only (null for other callers).' })
  reason!: string | null;
}

@ObjectType('NotificationAttemptEntry', { implements: TimelineEntry, simpleResolvers: true, description: 'One attempt to send one of the payment\'s events to a back-office notification endpoint.' })
export class NotificationAttemptEntry extends TimelineEntry {
  @Field(() => ID, { description: 'The attempt\'s id.' })
  id!: string;

  @Field(() => ID, { description: 'The event sent.' })
  eventId!: string;

  @Field(() => ID, { nullable: true, description: 'The endpoint it was sent to. Admins only (null for other callers).' })
  endpointId!: string | null;

  @Field(() => String, { nullable: true, description: 'The endpoint\'s URL. Admins only (null for other callers).' })
  endpointUrl!: string | null;

  @Field(() => Int, { nullable: true, description: 'The endpoint\'s HTTP status; null when it did not answer.' })
  httpStatus!: number | null;

  @Field(() => String, { nullable: true, description: 'Why it did not answer (e.g. TIMEOUT, CONNECTION_REFUSED); null when it did.' })
  errorCode!: string | null;

  @Field(() => Int, { description: 'How long the attempt took, in milliseconds.' })
  durationMs!: number;
}

@ObjectType({ description: 'A page of a payment\'s timeline, oldest entry first.' })
export class TimelineConnection extends connectionType(TimelineEntry, 'Timeline', 'timeline entry') {}

/** Every kind's type: listed to the schema build, which reaches them through the interface alone. */
export const TIMELINE_ENTRY_TYPES = [EventEntry, CreditClaimEntry, ProviderCallEntry, WebhookDeliveryEntry, JobEntry, ReconciliationCheckEntry, NotificationAttemptEntry];

/**
 * The timeline's admin-only fields, withheld from every other reader by the schema-wide redaction
 * (src/graphql/redaction.ts). One rule for the timeline of every payment kind: the policy names the
 * deposit kind for the redaction's start-up checks' messages alone.
 */
function timelinePolicy(adminOnly: readonly string[]): RedactionPolicy {
  return Object.freeze({ subjectType: 'deposit', adminOnly: Object.freeze([...adminOnly]), unmaskedForAdmins: Object.freeze([]) });
}

export const TIMELINE_REDACTED_TYPES: readonly RedactedType[] = [
  { type: 'ProviderCallEntry', policy: timelinePolicy(['error', 'requestSummary', 'responseSummary']) },
  { type: 'WebhookDeliveryEntry', policy: timelinePolicy(['providerEventId', 'reason']) },
  { type: 'JobEntry', policy: timelinePolicy(['lastError']) },
  { type: 'ReconciliationCheckEntry', policy: timelinePolicy(['reason']) },
  { type: 'NotificationAttemptEntry', policy: timelinePolicy(['endpointId', 'endpointUrl']) },
];

const text = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
const int = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string | Date));

/** An entry as read (timeline-reader.ts) as its GraphQL object. */
export function toEntry(entry: TimelineRow): TimelineEntry {
  const { row } = entry;
  const common = { kind: entry.kind, at: new Date(entry.position[0]), traceId: text(row.trace_id) };
  switch (entry.kind) {
    case 'EVENT': {
      const record: PaymentEventRecord = {
        position: String(row.position),
        id: String(row.id),
        type: String(row.type),
        subjectType: row.subject_type as PaymentEventRecord['subjectType'],
        subjectId: String(row.subject_id),
        clientId: text(row.client_id),
        merchantAccount: text(row.merchant_account),
        adminOnly: Boolean(row.admin_only),
        fromStatus: text(row.from_status),
        toStatus: text(row.to_status),
        createdAt: date(row.created_at)!.toISOString(),
        data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as PaymentEventRecord['data'],
      } as PaymentEventRecord;
      return Object.assign(new EventEntry(), common, { eventId: record.id, type: record.type, fromStatus: record.fromStatus, toStatus: record.toStatus, event: PaymentEventNode.from(record) });
    }
    case 'CREDIT_CLAIM':
      return Object.assign(new CreditClaimEntry(), common, { claimedBy: text(row.credit_claimed_by) });
    case 'PROVIDER_CALL':
      return Object.assign(new ProviderCallEntry(), common, {
        id: String(row.id),
        provider: paymentProviderOf(row.provider as ProviderName),
        merchantAccount: text(row.merchant_account),
        operation: String(row.operation),
        attempt: Number(row.attempt),
        callOutcome: String(row.outcome).toUpperCase() as ProviderCallOutcomeValue,
        httpStatus: int(row.http_status),
        error: text(row.error),
        durationMs: Number(row.duration_ms),
        requestSummary: text(row.request_summary),
        responseSummary: text(row.response_summary),
      });
    case 'WEBHOOK_DELIVERY':
      return Object.assign(new WebhookDeliveryEntry(), common, {
        id: String(row.id),
        provider: paymentProviderOf(row.provider as ProviderName),
        eventName: text(row.event_name),
        providerEventId: text(row.event_id),
        deliveryOutcome: String(row.outcome).toUpperCase() as WebhookOutcomeValue,
        reason: text(row.reason),
      });
    case 'JOB':
      return Object.assign(new JobEntry(), common, {
        id: String(row.id),
        jobKind: String(row.job_kind),
        status: String(row.status).toUpperCase(),
        attempts: Number(row.attempts),
        maxAttempts: Number(row.max_attempts),
        lastError: text(row.last_error),
        finishedAt: date(row.finished_at),
      });
    case 'RECONCILIATION_CHECK':
      return Object.assign(new ReconciliationCheckEntry(), common, { id: String(row.id), checkOutcome: String(row.outcome), reason: text(row.reason) });
    case 'NOTIFICATION_ATTEMPT':
      return Object.assign(new NotificationAttemptEntry(), common, {
        id: String(row.id),
        eventId: String(row.event_id),
        endpointId: text(row.endpoint_id),
        endpointUrl: text(row.url),
        httpStatus: int(row.http_status),
        errorCode: text(row.error_code),
        durationMs: Number(row.duration_ms),
      });
  }
}
