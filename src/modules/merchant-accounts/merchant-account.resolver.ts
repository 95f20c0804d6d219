import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../graphql/context.js';
import { MerchantAccountNode } from './merchant-account.types.js';

@Resolver()
export class MerchantAccountResolver {
  @Authorized()
  @Query(() => [MerchantAccountNode], { description: 'Merchant accounts the caller may use (all, for admins).' })
  merchantAccounts(@Ctx() { client, services }: RequestContext): MerchantAccountNode[] {
    return services.accounts.visibleTo(client!).map((account) => MerchantAccountNode.from(account));
  }
}
