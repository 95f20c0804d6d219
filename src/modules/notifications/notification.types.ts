// GraphQL shapes of back-office notifications (admin only): endpoints, deliveries and their
// attempts, inputs and payloads. An endpoint's secret appears in the create and rotate payloads only.

import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { UserError } from '../../graphql/user-error.js';
import type { NotificationEndpointView } from './notification-endpoints.js';
import type { NotificationAttemptView, NotificationDeliveryView } from './notification-delivery-reads.js';

export const NotificationEndpointStateEnum = { HEALTHY: 'HEALTHY', FAILING: 'FAILING' } as const;
registerEnumType(NotificationEndpointStateEnum, {
  name: 'NotificationEndpointState',
  description: 'Whether an endpoint takes its deliveries.',
  valuesConfig: {
    HEALTHY: { description: 'Its deliveries succeed, or are still within their retry window.' },
    FAILING: { description: 'A delivery was given up after NOTIFICATION_RETRY_FOR_MS (an admin-only notification_endpoint.failing event says when); the next success makes it HEALTHY again.' },
  },
});

export const NotificationEndpointDisabledReasonEnum = { ADMIN: 'ADMIN', CLIENT_REVOKED: 'CLIENT_REVOKED' } as const;
registerEnumType(NotificationEndpointDisabledReasonEnum, {
  name: 'NotificationEndpointDisabledReason',
  description: 'Why an endpoint is disabled.',
  valuesConfig: {
    ADMIN: { description: 'An admin disabled it (updateNotificationEndpoint); enabling it again starts at the log\'s current end.' },
    CLIENT_REVOKED: { description: 'Its API client was revoked, which disables every endpoint of the client for good: it cannot be enabled again (CLIENT_REVOKED); its pending deliveries stay unsent until it is deleted.' },
  },
});

export const NotificationDeliveryStateEnum = { PENDING: 'PENDING', DELIVERED: 'DELIVERED', FAILED: 'FAILED' } as const;
registerEnumType(NotificationDeliveryStateEnum, {
  name: 'NotificationDeliveryState',
  description: 'Where one event\'s delivery to one endpoint stands.',
  valuesConfig: {
    PENDING: { description: 'Waiting for its turn in its subject\'s lane, or for its next retry.' },
    DELIVERED: { description: 'The endpoint answered 2xx within NOTIFICATION_TIMEOUT_MS.' },
    FAILED: { description: 'Given up after NOTIFICATION_RETRY_FOR_MS of failed attempts; redeliverNotification sends it again.' },
  },
});

type EndpointStateValue = (typeof NotificationEndpointStateEnum)[keyof typeof NotificationEndpointStateEnum];
type DisabledReasonValue = (typeof NotificationEndpointDisabledReasonEnum)[keyof typeof NotificationEndpointDisabledReasonEnum];
type DeliveryStateValue = (typeof NotificationDeliveryStateEnum)[keyof typeof NotificationDeliveryStateEnum];

@ObjectType('NotificationEndpoint', { description: 'A URL a back-office client\'s events are POSTed to, signed (Standard Webhooks). Never shows its secret.' })
export class NotificationEndpointNode {
  @Field(() => ID, { description: 'The endpoint\'s id (nep_…).' })
  id!: string;

  @Field(() => ID, { description: 'The API client whose events it is sent: exactly what events(after:) shows that client.' })
  clientId!: string;

  @Field({ description: 'Where the events are POSTed.' })
  url!: string;

  @Field(() => [String], { description: 'The event types it is sent; empty: every type.' })
  eventTypes!: string[];

  @Field({ description: 'False: nothing is sent to it; enabling it again starts at the log\'s current end.' })
  enabled!: boolean;

  @Field(() => NotificationEndpointDisabledReasonEnum, { nullable: true, description: 'Why it is disabled (ADMIN, or CLIENT_REVOKED for good); null while it is enabled.' })
  disabledReason!: DisabledReasonValue | null;

  @Field(() => NotificationEndpointStateEnum, { description: 'HEALTHY, or FAILING after a delivery was given up.' })
  state!: EndpointStateValue;

  @Field(() => Date, { nullable: true, description: 'Since when every attempt to it has failed (the gateway\'s clock); null once one succeeds.' })
  failedSince!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'While its receiver has failed every attempt for NOTIFICATION_PROBE_INTERVAL_MS: when the next probe goes (one delivery, the one waiting longest, every NOTIFICATION_PROBE_INTERVAL_MS); its lanes wait for it, and its first success sends them all. Null otherwise.',
  })
  nextProbeAt!: Date | null;

  @Field({ description: 'The last event position fanned out to it, as an events() cursor: replayNotificationEndpoint(after:) takes one.' })
  cursor!: string;

  @Field(() => Date, { nullable: true, description: 'Until when the previous secret still signs too, after a rotation; null when one secret signs.' })
  previousSecretExpiresAt!: Date | null;

  @Field({ description: 'When it was created.' })
  createdAt!: Date;

  @Field({ description: 'When it last changed.' })
  updatedAt!: Date;

  static from(view: NotificationEndpointView, encodeCursor: (position: string) => string): NotificationEndpointNode {
    return Object.assign(new NotificationEndpointNode(), {
      ...view,
      state: view.state === 'failing' ? NotificationEndpointStateEnum.FAILING : NotificationEndpointStateEnum.HEALTHY,
      disabledReason: view.disabledReason === null ? null : (view.disabledReason.toUpperCase() as DisabledReasonValue),
      cursor: encodeCursor(view.cursor),
    });
  }
}

@ObjectType('NotificationAttempt', { description: 'One POST of a delivery.' })
export class NotificationAttemptNode {
  @Field(() => ID, { description: 'The attempt\'s id (nat_…).' })
  id!: string;

  @Field({ description: 'When it was sent (the gateway\'s clock).' })
  attemptedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; null when there was no answer.' })
  httpStatus!: number | null;

  @Field(() => String, { nullable: true, description: 'Why there was no answer: TIMEOUT, DNS_FAILED, CONNECTION_FAILED, TLS_FAILED, RESPONSE_TOO_LARGE, PROTOCOL_ERROR, a refused destination (ADDRESS_NOT_ALLOWED, …), or SECRET_UNAVAILABLE: nothing was sent, as the endpoint\'s signing secret opens under no configured key (docs/secrets.md).' })
  errorCode!: string | null;

  @Field(() => Int, { description: 'How long it took, in milliseconds.' })
  durationMs!: number;

  @Field(() => String, { nullable: true, description: 'The start of the response body (at most 1 KiB), or the error\'s message.' })
  responseExcerpt!: string | null;

  static from(view: NotificationAttemptView): NotificationAttemptNode {
    return Object.assign(new NotificationAttemptNode(), view);
  }
}

@ObjectType('NotificationDelivery', { description: 'One event for one endpoint, and every attempt to send it.' })
export class NotificationDeliveryNode {
  @Field(() => ID, { description: 'The delivery\'s id (ndl_…): redeliverNotification takes it.' })
  id!: string;

  @Field(() => ID, { description: 'The endpoint it is for.' })
  endpointId!: string;

  @Field(() => ID, { description: 'The event\'s id: the webhook-id header of every attempt.' })
  eventId!: string;

  @Field({ description: 'The event\'s type, e.g. deposit.status_changed.' })
  eventType!: string;

  @Field({ description: 'The event\'s position as an events() cursor.' })
  eventCursor!: string;

  @Field({ description: 'The subject\'s kind: deposit, refund, payout, withdrawal or endpoint. Deliveries about one subject go out in log order.' })
  subjectType!: string;

  @Field(() => ID, { description: 'The subject\'s id (a deposit\'s dep_…, …).' })
  subjectId!: string;

  @Field(() => NotificationDeliveryStateEnum, { description: 'PENDING (to be sent or retried), DELIVERED, or FAILED (given up).' })
  state!: DeliveryStateValue;

  @Field(() => Int, { description: 'Attempts made so far.' })
  attemptCount!: number;

  @Field(() => Date, { nullable: true, description: 'When it is sent next (the gateway\'s clock), while PENDING.' })
  nextAttemptAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When a 2xx answered it; null until then.' })
  deliveredAt!: Date | null;

  @Field({ description: 'When the event was fanned out to the endpoint.' })
  createdAt!: Date;

  @Field(() => [NotificationAttemptNode], { description: 'Its attempts, oldest first: status or error, duration, the start of the response.' })
  attempts!: NotificationAttemptNode[];

  static from(view: NotificationDeliveryView, attempts: NotificationAttemptView[], encodeCursor: (position: string) => string): NotificationDeliveryNode {
    const { position, attempts: attemptCount, ...rest } = view;
    return Object.assign(new NotificationDeliveryNode(), {
      ...rest,
      attemptCount,
      eventCursor: encodeCursor(position),
      state: view.state.toUpperCase() as DeliveryStateValue,
      attempts: attempts.map((attempt) => NotificationAttemptNode.from(attempt)),
    });
  }
}

@ObjectType({ description: 'A page of notification deliveries, newest event first.' })
export class NotificationDeliveryConnection extends connectionType(NotificationDeliveryNode, 'NotificationDelivery') {}

@InputType({ description: 'A new notification endpoint.' })
export class CreateNotificationEndpointInput {
  @Field(() => ID, { description: 'The API client (a back office) whose events it is sent.' })
  clientId!: string;

  @Field({ description: 'https:// address to POST to (http:// to a loopback address outside production).' })
  url!: string;

  @Field(() => [String], { nullable: true, description: 'Event types to send (e.g. deposit.status_changed); omitted or empty: every type.' })
  eventTypes?: string[] | null;
}

@InputType({ description: 'Changes to a notification endpoint; what is omitted stays.' })
export class UpdateNotificationEndpointInput {
  @Field(() => ID, { description: 'The endpoint to change.' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'A new https:// address (http:// to a loopback address outside production).' })
  url?: string | null;

  @Field(() => [String], { nullable: true, description: 'Empty: every type.' })
  eventTypes?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: 'False stops sending; true starts again at the log\'s current end (refused with CLIENT_REVOKED for an endpoint of a revoked client).' })
  enabled?: boolean | null;
}

@InputType({ description: 'Narrows notificationDeliveries; every field given must match.' })
export class NotificationDeliveryFilter {
  @Field(() => NotificationDeliveryStateEnum, { nullable: true, description: 'Only deliveries in this state.' })
  state?: DeliveryStateValue | null;

  @Field(() => ID, { nullable: true, description: 'Only deliveries about this subject (a deposit, refund, payout, … id).' })
  subjectId?: string | null;
}

@ObjectType({ description: 'The result of creating an endpoint or rotating its secret.' })
export class NotificationEndpointSecretPayload {
  @Field(() => NotificationEndpointNode, { nullable: true, description: 'The endpoint; null on failure.' })
  endpoint!: NotificationEndpointNode | null;

  @Field(() => String, { nullable: true, description: 'The signing secret (whsec_…), shown this once: store it in the receiver. Null on failure.' })
  secret!: string | null;

  @Field(() => [UserError], { description: 'Why the input was refused; empty on success.' })
  userErrors!: UserError[];
}

@ObjectType({ description: 'The result of changing or deleting an endpoint, or replaying it.' })
export class NotificationEndpointPayload {
  @Field(() => NotificationEndpointNode, { nullable: true, description: 'The endpoint after the change (a deleted one as it was).' })
  endpoint!: NotificationEndpointNode | null;

  @Field(() => [UserError], { description: 'Why the input was refused; empty on success.' })
  userErrors!: UserError[];
}

@ObjectType({ description: 'The result of redeliverNotification.' })
export class RedeliverNotificationPayload {
  @Field(() => NotificationDeliveryNode, { nullable: true, description: 'The delivery, PENDING again.' })
  delivery!: NotificationDeliveryNode | null;

  @Field(() => [UserError], { description: 'Why the input was refused; empty on success.' })
  userErrors!: UserError[];
}
