// events(after:): the durable catch-up log, filtered in SQL by the one visibility policy.

import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isEventPosition, pageSize, toConnection } from '../../graphql/relay.js';
import { PaymentEventConnection, PaymentEventNode } from './payment-event.node.js';

@Resolver()
export class EventResolver {
  @Authorized()
  @Query(() => PaymentEventConnection, {
    description:
      'The durable, ordered log of changes to what the caller may see (the same records its queries and subscriptions show; admins: all), oldest first. Keep the last cursor; after a disconnect, events(after: cursor) returns everything missed.',
  })
  async events(
    @Ctx() ctx: RequestContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
  ): Promise<PaymentEventConnection> {
    const size = pageSize(first);
    const position = after ? decodeCursor(after, isEventPosition) : undefined;
    const rows = await ctx.services.events.page(ctx.em, {
      limit: size + 1,
      ...(position ? { after: position } : {}),
      viewer: ctx.client!,
    });
    return toConnection(rows, size, (row) => String(row.position), (row) => PaymentEventNode.from(row), Boolean(position));
  }
}
