// GraphQL entry points of the admin webhook views: the delivery list and replay.

import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import {
  OUTCOME_VALUE,
  outcomeOf,
  providerOf,
  ReplayWebhookDeliveryPayload,
  WebhookDeliveryConnection,
  WebhookDeliveryFilter,
  WebhookDeliveryNode,
} from './webhook-admin.types.js';

@Resolver()
export class WebhookAdminResolver {
  @Authorized('ADMIN')
  @Query(() => WebhookDeliveryConnection, { description: 'Webhook deliveries, newest first: received, duplicate, ignored, anomalous, unmatched and rejected ones.' })
  async webhookDeliveries(
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => WebhookDeliveryFilter, { nullable: true, description: 'Only deliveries that match.' }) filter?: WebhookDeliveryFilter,
  ): Promise<WebhookDeliveryConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await ctx.services.webhookAdmin.page(ctx.em, {
      limit: size + 1,
      ...(cursor ? { after: { receivedAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      filter: {
        ...(filter?.outcome ? { outcome: outcomeOf(filter.outcome) } : {}),
        ...(filter?.provider ? { provider: providerOf(filter.provider) } : {}),
        ...(filter?.merchantAccount ? { merchantAccount: filter.merchantAccount } : {}),
        ...(filter?.subjectId ? { subjectId: filter.subjectId } : {}),
      },
    });
    return toConnection(rows, size, (row) => [row.receivedAt.toISOString(), row.id], (row) => WebhookDeliveryNode.from(row), Boolean(cursor));
  }

  @Authorized('ADMIN')
  @Mutation(() => ReplayWebhookDeliveryPayload, {
    description: 'Applies a stored, verified delivery again through the same code as a fresh one (e.g. an UNMATCHED event once its deposit exists). Rejected deliveries cannot be replayed.',
  })
  async replayWebhookDelivery(@Ctx() ctx: GatewayContext, @Arg('id', () => ID, { description: 'The stored delivery to apply again.' }) id: string): Promise<ReplayWebhookDeliveryPayload> {
    const result = await ctx.services.webhookAdmin.replay(ctx.em, id);
    return {
      delivery: result.delivery ? WebhookDeliveryNode.from(result.delivery) : null,
      outcome: result.decision ? OUTCOME_VALUE[result.decision.outcome] : null,
      reason: result.decision?.reason ?? null,
      userErrors: userErrors(result.errors),
    };
  }
}
