// GraphQL shapes of the admin webhook views: a delivery (never its body), the outcome enum, the list filter and connection, and the replay payload.

import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { UserError } from '../../graphql/user-error.js';
import type { ProviderName } from '../../providers/provider.js';
import { PaymentProviderEnum, paymentProviderOf, type PaymentProvider } from '../deposits/deposit.types.js';
import { providerNameOf } from '../../providers/registry.js';
import type { DeliveryListing } from './webhook-admin.service.js';
import type { WebhookOutcome } from '../../kernel/inbox/webhook-delivery.entity.js';

export const WebhookOutcomeEnum = {
  APPLIED: 'APPLIED',
  DUPLICATE: 'DUPLICATE',
  IGNORED: 'IGNORED',
  ANOMALY: 'ANOMALY',
  UNMATCHED: 'UNMATCHED',
  REJECTED: 'REJECTED',
  DEFERRED: 'DEFERRED',
} as const;
export type WebhookOutcomeValue = keyof typeof WebhookOutcomeEnum;

registerEnumType(WebhookOutcomeEnum, {
  name: 'WebhookOutcome',
  description: 'What became of a webhook delivery.',
  valuesConfig: {
    APPLIED: { description: 'Changed its subject (one status change, one event).' },
    DUPLICATE: { description: 'Reported a status the subject already had.' },
    IGNORED: { description: 'An event type the gateway does not act on.' },
    ANOMALY: { description: 'Refused: an impossible transition or mismatched money; see reason.' },
    UNMATCHED: { description: 'No subject with that reference (yet): replay it once the subject exists.' },
    REJECTED: { description: 'Failed verification (signature, freshness, shape); answered 4xx, kept without its body.' },
    DEFERRED: { description: 'Waits for its deposit to settle (a refund that overtook its payment); applied automatically when the deposit\'s status changes.' },
  },
});

const OUTCOME_VALUE: Record<WebhookOutcome, WebhookOutcomeValue> = {
  applied: 'APPLIED',
  duplicate: 'DUPLICATE',
  ignored: 'IGNORED',
  anomaly: 'ANOMALY',
  unmatched: 'UNMATCHED',
  rejected: 'REJECTED',
  deferred: 'DEFERRED',
};

export function outcomeOf(value: WebhookOutcomeValue): WebhookOutcome {
  return value.toLowerCase() as WebhookOutcome;
}

/** The provider name of a PaymentProvider value; the enum holds registered providers only. */
export function providerOf(value: PaymentProvider): ProviderName {
  return providerNameOf(value) as ProviderName;
}

@ObjectType({ description: 'One webhook delivery as received, with what became of it. The body is never shown.' })
export class WebhookDeliveryNode {
  @Field(() => ID, { description: 'The delivery\'s id: pass it to replayWebhookDelivery.' })
  id!: string;

  @Field(() => PaymentProviderEnum, { description: 'The provider that sent it.' })
  provider!: PaymentProvider;

  @Field({ description: 'Code of the merchant account whose webhook address received it.' })
  merchantAccount!: string;

  @Field({ description: 'The provider\'s event id; `rejected:<id>` for a rejected delivery.' })
  eventId!: string;

  @Field(() => String, { nullable: true, description: 'The provider\'s event name; null for a rejected delivery (its body was not read).' })
  eventName!: string | null;

  @Field(() => WebhookOutcomeEnum, { description: 'What the gateway did with it.' })
  outcome!: WebhookOutcomeValue;

  @Field(() => String, { nullable: true, description: 'Why, starting with a stable code (e.g. TRANSITION_NOT_ALLOWED, SIGNATURE_MISMATCH).' })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'What the event is about: deposit, refund, payout or withdrawal.' })
  subjectType!: string | null;

  @Field(() => String, { nullable: true, description: 'Id of the deposit, refund, payout or withdrawal it was applied to; null when none matched.' })
  subjectId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'SHA-256 (hex) of the bytes received, to match the delivery with the sender\'s logs; kept when the body is not (rejected, or erased by retention). Null only for a verified delivery received before the gateway kept it, until retention erases its body.',
  })
  bodySha256!: string | null;

  @Field(() => Date, { nullable: true, description: 'When retention erased the body and the personal data in it (WEBHOOK_BODY_RETENTION_MS); null while the body is kept. An erased delivery cannot be replayed.' })
  bodyErasedAt!: Date | null;

  @Field({ description: 'When the gateway received it.' })
  receivedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When an admin last replayed it.' })
  replayedAt!: Date | null;

  static from(row: DeliveryListing): WebhookDeliveryNode {
    return Object.assign(new WebhookDeliveryNode(), {
      id: row.id,
      provider: paymentProviderOf(row.provider),
      merchantAccount: row.merchantAccount,
      eventId: row.eventId,
      eventName: row.outcome === 'rejected' || !row.eventName ? null : row.eventName,
      outcome: OUTCOME_VALUE[row.outcome],
      reason: row.reason ?? null,
      subjectType: row.subjectType ?? null,
      subjectId: row.subjectId ?? null,
      bodySha256: row.bodySha256 ?? null,
      bodyErasedAt: row.bodyErasedAt ?? null,
      receivedAt: row.receivedAt,
      replayedAt: row.replayedAt ?? null,
    });
  }
}

@ObjectType({ description: 'A page of webhook deliveries, newest first.' })
export class WebhookDeliveryConnection extends connectionType(WebhookDeliveryNode, 'WebhookDelivery') {}

@InputType({ description: 'Narrows `webhookDeliveries`. All given conditions must hold.' })
export class WebhookDeliveryFilter {
  @Field(() => WebhookOutcomeEnum, { nullable: true, description: 'Only deliveries with this outcome.' })
  outcome?: WebhookOutcomeValue;

  @Field(() => PaymentProviderEnum, { nullable: true, description: 'Only deliveries from this provider.' })
  provider?: PaymentProvider;

  @Field({ nullable: true, description: 'Only deliveries to this merchant account\'s webhook address.' })
  merchantAccount?: string;

  @Field({ nullable: true, description: 'A deposit, refund, payout or withdrawal id.' })
  subjectId?: string;
}

@ObjectType({ description: 'The answer to replayWebhookDelivery: the delivery and what the replay decided, or what stopped it.' })
export class ReplayWebhookDeliveryPayload {
  @Field(() => WebhookDeliveryNode, { nullable: true, description: 'The delivery after the replay (an applied one keeps its outcome).' })
  delivery!: WebhookDeliveryNode | null;

  @Field(() => WebhookOutcomeEnum, { nullable: true, description: 'What the replay itself decided.' })
  outcome!: WebhookOutcomeValue | null;

  @Field(() => String, { nullable: true, description: 'Why, starting with a stable code (e.g. DEPOSIT_NOT_FOUND).' })
  reason!: string | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

export { OUTCOME_VALUE };
