// GraphQL root fields of withdrawals (admins only); Withdrawal.events is the events module's.

import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { toWithdrawalSnapshot } from './withdrawal-snapshot.js';
import { WithdrawalConnection, WithdrawalFilter, WithdrawalNode } from './withdrawal.types.js';

@Resolver(() => WithdrawalNode)
export class WithdrawalResolver {
  @Authorized('ADMIN')
  @Query(() => WithdrawalConnection, { description: 'Withdrawals from merchant balances that providers reported, newest first. Admins only.' })
  async withdrawals(
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => WithdrawalFilter, { nullable: true, description: 'Only withdrawals that match.' }) filter?: WithdrawalFilter,
  ): Promise<WithdrawalConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await ctx.services.withdrawals.page(ctx.em, {
      limit: size + 1,
      ...(cursor ? { after: { createdAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      filter: {
        ...(filter?.merchantAccount != null ? { merchantAccount: filter.merchantAccount } : {}),
        ...(filter?.status != null ? { status: filter.status } : {}),
        ...(filter?.livemode != null ? { livemode: filter.livemode } : {}),
      },
    });
    return toConnection(rows, size, (row) => [row.createdAt.toISOString(), row.id], (row) => WithdrawalNode.from(toWithdrawalSnapshot(row)), Boolean(cursor));
  }
}
