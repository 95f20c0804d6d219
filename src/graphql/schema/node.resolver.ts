// node(id): any object by its prefixed id, through the same visibility as the object's own query.

import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
import { isId } from '../../lib/ids.js';
import { ApiClientNode } from '../../modules/clients/api-client.types.js';
import { toDepositSnapshot } from '../../modules/deposits/deposit-snapshot.js';
import { DepositNode } from '../../modules/deposits/deposit.types.js';
import { toPayoutSnapshot } from '../../modules/payouts/payout-snapshot.js';
import { PayoutNode } from '../../modules/payouts/payout.types.js';
import { RefundNode } from '../../modules/refunds/refund.types.js';
import { toWithdrawalSnapshot } from '../../modules/withdrawals/withdrawal-snapshot.js';
import { WithdrawalNode } from '../../modules/withdrawals/withdrawal.types.js';
import type { RequestContext } from '../context.js';
import { Node } from '../node.js';

@Resolver()
export class NodeResolver {
  @Authorized()
  @Query(() => Node, { nullable: true, description: 'Any object by its global id, if it exists and the caller may see it.' })
  async node(@Ctx() { em, client, services }: RequestContext, @Arg('id', () => ID, { description: 'The id of a deposit (dep_…), refund (rfd_…), payout (pay_…), withdrawal (wdr_…) or API client (cli_…).' }) id: string): Promise<Node | null> {
    if (isId(id, 'cli')) {
      // A client sees itself; admins see every client.
      if (!client!.isAdmin() && client!.id !== id) return null;
      const found = await services.clients.findById(em, id);
      return found ? ApiClientNode.from(found) : null;
    }
    if (isId(id, 'dep')) {
      const deposit = await services.deposits.findVisible(em, client!, id);
      return deposit ? DepositNode.from(toDepositSnapshot(deposit)) : null;
    }
    if (isId(id, 'rfd')) {
      const refund = await services.refunds.findVisible(em, client!, id);
      return refund ? RefundNode.from(refund) : null;
    }
    if (isId(id, 'pay')) {
      const payout = await services.payouts.findVisible(em, client!, id);
      return payout ? PayoutNode.from(toPayoutSnapshot(payout)) : null;
    }
    if (isId(id, 'wdr')) {
      const withdrawal = await services.withdrawals.findVisible(em, client!, id);
      return withdrawal ? WithdrawalNode.from(toWithdrawalSnapshot(withdrawal)) : null;
    }
    return null;
  }
}
