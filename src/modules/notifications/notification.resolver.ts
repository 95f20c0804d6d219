// GraphQL entry points of back-office notifications: admin only; every mutation lands in the admin
// trail (src/graphql/audit.ts wraps every ADMIN mutation).

import { GraphQLError } from 'graphql';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, encodeCursor, FIRST_ARGUMENT, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import type { EndpointResult } from './notification-endpoints.js';
import {
  CreateNotificationEndpointInput,
  NotificationDeliveryConnection,
  NotificationDeliveryFilter,
  NotificationDeliveryNode,
  NotificationEndpointNode,
  NotificationEndpointPayload,
  NotificationEndpointSecretPayload,
  RedeliverNotificationPayload,
  UpdateNotificationEndpointInput,
} from './notification.types.js';
import type { DeliveryState, NotificationAttemptView } from './notification-delivery-reads.js';

const isPosition = (value: unknown): value is string => typeof value === 'string' && /^(0|[1-9][0-9]{0,18})$/.test(value);
const cursorOf = (position: string) => encodeCursor(position);

@Resolver()
export class NotificationResolver {
  @Authorized('ADMIN')
  @Query(() => [NotificationEndpointNode], { description: 'Back-office notification endpoints, oldest first (never their secrets). Admins only.' })
  async notificationEndpoints(
    @Ctx() ctx: GatewayContext,
    @Arg('clientId', () => ID, { nullable: true, description: 'Only this client\'s endpoints.' }) clientId?: string,
  ): Promise<NotificationEndpointNode[]> {
    const endpoints = await ctx.services.notificationEndpoints.list(ctx.em, clientId ? { clientId } : {});
    return endpoints.map((endpoint) => NotificationEndpointNode.from(endpoint, cursorOf));
  }

  @Authorized('ADMIN')
  @Query(() => NotificationDeliveryConnection, { description: 'One endpoint\'s deliveries, newest event first, each with its attempts. Admins only.' })
  async notificationDeliveries(
    @Ctx() ctx: GatewayContext,
    @Arg('endpointId', () => ID, { description: 'The endpoint whose deliveries are listed.' }) endpointId: string,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => NotificationDeliveryFilter, { nullable: true, description: 'Only deliveries that match.' }) filter?: NotificationDeliveryFilter,
  ): Promise<NotificationDeliveryConnection> {
    const size = pageSize(first);
    const before = after ? decodeCursor(after, isPosition) : undefined;
    const rows = await ctx.services.notifier.deliveries(ctx.em, {
      endpointId,
      limit: size + 1,
      ...(before ? { before } : {}),
      ...(filter?.state ? { state: filter.state.toLowerCase() as DeliveryState } : {}),
      ...(filter?.subjectId ? { subjectId: filter.subjectId } : {}),
    });
    const attempts = await ctx.services.notifier.attempts(ctx.em, rows.slice(0, size).map((row) => row.id));
    return toConnection(rows, size, (row) => row.position, (row) => NotificationDeliveryNode.from(row, attempts.get(row.id) ?? [], cursorOf), Boolean(before));
  }

  @Authorized('ADMIN')
  @Mutation(() => NotificationEndpointSecretPayload, { description: 'Registers an endpoint for an API client; it is sent the events recorded from now on. The secret is in this payload only.' })
  async createNotificationEndpoint(@Ctx() ctx: GatewayContext, @Arg('input', () => CreateNotificationEndpointInput, { description: 'The client, URL and event types.' }) input: CreateNotificationEndpointInput): Promise<NotificationEndpointSecretPayload> {
    return secretPayload(await ctx.services.notificationEndpoints.create(ctx.em, input));
  }

  @Authorized('ADMIN')
  @Mutation(() => NotificationEndpointPayload, { description: 'Changes an endpoint\'s URL, event types or whether it is enabled.' })
  async updateNotificationEndpoint(@Ctx() ctx: GatewayContext, @Arg('input', () => UpdateNotificationEndpointInput, { description: 'The endpoint and what changes.' }) input: UpdateNotificationEndpointInput): Promise<NotificationEndpointPayload> {
    return endpointPayload(await ctx.services.notificationEndpoints.update(ctx.em, input));
  }

  @Authorized('ADMIN')
  @Mutation(() => NotificationEndpointSecretPayload, { description: 'A new signing secret (in this payload only); the previous one still signs too for NOTIFICATION_SECRET_OVERLAP_MS.' })
  async rotateNotificationSecret(@Ctx() ctx: GatewayContext, @Arg('id', () => ID, { description: 'The endpoint whose secret is replaced.' }) id: string): Promise<NotificationEndpointSecretPayload> {
    return secretPayload(await ctx.services.notificationEndpoints.rotate(ctx.em, id));
  }

  @Authorized('ADMIN')
  @Mutation(() => NotificationEndpointPayload, { description: 'Deletes an endpoint with its deliveries: nothing more is sent to it.' })
  async deleteNotificationEndpoint(@Ctx() ctx: GatewayContext, @Arg('id', () => ID, { description: 'The endpoint to delete.' }) id: string): Promise<NotificationEndpointPayload> {
    return endpointPayload(await ctx.services.notificationEndpoints.delete(ctx.em, id));
  }

  @Authorized('ADMIN')
  @Mutation(() => RedeliverNotificationPayload, { description: 'Sends one event to an endpoint again, now, with the same webhook-id: by delivery id, or by event and endpoint.' })
  async redeliverNotification(
    @Ctx() ctx: GatewayContext,
    @Arg('deliveryId', () => ID, { nullable: true, description: 'The delivery to send again; or give eventId and endpointId.' }) deliveryId?: string,
    @Arg('eventId', () => ID, { nullable: true, description: 'An event to send to endpointId (with it), fanned out or not.' }) eventId?: string,
    @Arg('endpointId', () => ID, { nullable: true, description: 'The endpoint to send eventId to.' }) endpointId?: string,
  ): Promise<RedeliverNotificationPayload> {
    const target = deliveryId ? { deliveryId } : eventId && endpointId ? { eventId, endpointId } : undefined;
    if (!target) throw new GraphQLError('Give deliveryId, or eventId and endpointId', { extensions: { code: 'BAD_USER_INPUT' } });
    const result = await ctx.services.notifier.redeliver(ctx.em, target);
    const attempts = result.delivery ? await ctx.services.notifier.attempts(ctx.em, [result.delivery.id]) : new Map<string, NotificationAttemptView[]>();
    return {
      delivery: result.delivery ? NotificationDeliveryNode.from(result.delivery, attempts.get(result.delivery.id) ?? [], cursorOf) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('ADMIN')
  @Mutation(() => NotificationEndpointPayload, { description: 'Sends an endpoint every event after a cursor again (an events() cursor or an endpoint\'s or delivery\'s), delivered ones included, in order.' })
  async replayNotificationEndpoint(@Ctx() ctx: GatewayContext, @Arg('endpointId', () => ID, { description: 'The endpoint to replay.' }) endpointId: string, @Arg('after', () => String, { description: 'An events() cursor at or before the endpoint\'s own: every event after it is sent again.' }) after: string): Promise<NotificationEndpointPayload> {
    const position = decodeCursor(after, isPosition);
    const errors = await ctx.services.notifier.replay(ctx.em, endpointId, position);
    const endpoint = await ctx.services.notificationEndpoints.find(ctx.em, endpointId);
    return { endpoint: endpoint ? NotificationEndpointNode.from(endpoint, cursorOf) : null, userErrors: userErrors(errors) };
  }
}

function secretPayload(result: EndpointResult): NotificationEndpointSecretPayload {
  return result.ok
    ? { endpoint: NotificationEndpointNode.from(result.endpoint, cursorOf), secret: result.secret ?? null, userErrors: [] }
    : { endpoint: result.endpoint ? NotificationEndpointNode.from(result.endpoint, cursorOf) : null, secret: null, userErrors: userErrors(result.errors) };
}

function endpointPayload(result: EndpointResult): NotificationEndpointPayload {
  return result.ok
    ? { endpoint: NotificationEndpointNode.from(result.endpoint, cursorOf), userErrors: [] }
    : { endpoint: result.endpoint ? NotificationEndpointNode.from(result.endpoint, cursorOf) : null, userErrors: userErrors(result.errors) };
}
