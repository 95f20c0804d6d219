// GraphQL entry point of the admin audit trail.

import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { AdminActionConnection, AdminActionFilter, AdminActionNode } from './admin-action.types.js';

@Resolver()
export class AdminActionResolver {
  @Authorized('ADMIN')
  @Query(() => AdminActionConnection, { description: 'Actions taken with ADMIN keys (creating and revoking clients, replays, reconciliations, simulations), newest first. Admins only.' })
  async adminActions(
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => AdminActionFilter, { nullable: true, description: 'Only actions that match.' }) filter?: AdminActionFilter,
  ): Promise<AdminActionConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await ctx.services.adminActions.page(ctx.em, {
      limit: size + 1,
      ...(cursor ? { after: { startedAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      filter: {
        ...(filter?.action ? { action: filter.action } : {}),
        ...(filter?.clientId ? { clientId: filter.clientId } : {}),
        ...(filter?.objectId ? { objectId: filter.objectId } : {}),
      },
    });
    return toConnection(rows, size, (row) => [row.startedAt.toISOString(), row.id], (row) => AdminActionNode.from(row), Boolean(cursor));
  }
}
