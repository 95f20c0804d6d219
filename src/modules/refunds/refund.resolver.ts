// GraphQL entry points of refunds: requestRefund, refund(id), refundUpdated, Refund.deposit and Deposit.refunds.
// Refund and Deposit fields also resolve for subscription groups, whose context has a viewer and no client: they read `ctx.viewer` only.

import { GraphQLError } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { loaders, readAheadOf, visibilityCheck } from '../../graphql/loaders.js';
import { userErrors } from '../../graphql/user-error.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { EventNotification } from '../../kernel/events/event-notification.js';
import { RESUME_AFTER_ARGUMENT, resumePosition, subjectUpdatesStream } from '../../graphql/subject-updates.js';
import type { RefundFactsRead, RefundSnapshot } from './refund-snapshot.js';
import { RequestRefundInput } from './refund.inputs.js';
import { RequestRefundPayload } from './refund.payloads.js';
import { RefundNode } from './refund.types.js';

@Resolver(() => RefundNode)
export class RefundResolver {
  @Authorized('REFUNDS')
  @Mutation(() => RequestRefundPayload, { description: 'Refunds a SUCCEEDED deposit in full (no amount) or in part. The provider decides: follow refundUpdated.' })
  async requestRefund(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The deposit to refund, and how much.' }) input: RequestRefundInput): Promise<RequestRefundPayload> {
    const result = await ctx.services.refunds.request(ctx.em, ctx.client!, input.toServiceInput(ctx.idempotencyKey));
    return { refund: result.refund ? RefundNode.from(result.refund) : null, userErrors: userErrors(result.errors) };
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Query(() => RefundNode, { nullable: true, description: 'A refund by id, if the caller may see its deposit\'s refunds: a cashier those of its own deposits, a refunds back office those of its merchant accounts, an admin any.' })
  async refund(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The refund\'s id (rfd_…).' }) id: string): Promise<RefundNode | null> {
    const refund = await ctx.services.refunds.findVisible(ctx.em, ctx.client!, id);
    return refund ? RefundNode.from(refund) : null;
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Subscription(() => RefundNode, {
    description: 'Every change of one refund, or with no id of every refund the caller may see, as it is committed (on any gateway instance). Each message carries its event cursor in extensions.cursor: pass the last one as after when subscribing again to receive what was missed first.',
    subscribe: async ({ args, context }) => {
      const ctx = context as RequestContext;
      const client = ctx.client!;
      const { id: given, after } = args as { id?: string | null; after?: string | null };
      const id = given ?? undefined;
      // A malformed cursor is refused before anything else is read.
      const from = resumePosition(ctx, after);
      if (id && !(await ctx.services.refunds.findVisible(ctx.em, client, id))) {
        throw new GraphQLError(`No refund with id ${id}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return subjectUpdatesStream(ctx, 'refund', id, from);
    },
  })
  refundUpdated(
    @Root() event: EventNotification,
    @Arg('id', () => ID, { nullable: true, description: 'Only this refund; omit for every refund the key may see.' }) _id?: string,
    @Arg('after', () => String, RESUME_AFTER_ARGUMENT) _after?: string,
  ): RefundNode {
    return refundOfEvent(event);
  }

  @FieldResolver(() => DepositNode, { description: 'The deposit being refunded.' })
  async deposit(@Root() refund: RefundNode, @Ctx() ctx: GatewayContext): Promise<DepositNode> {
    // Whoever may see a refund may see its deposit: the policy grants refunds and deposits together.
    return DepositNode.from(await loaders(ctx).deposits.load(refund.depositId));
  }
}

@Resolver(() => DepositNode)
export class DepositRefundsResolver {
  @FieldResolver(() => [RefundNode], { description: 'Refunds of this deposit, oldest first.' })
  refunds(@Root() deposit: DepositNode, @Ctx() ctx: GatewayContext): RefundNode[] | Promise<RefundNode[]> {
    // Today every grant that shows a deposit shows its refunds; asked anyway, so a policy change cannot leak them.
    if (!visibilityCheck(ctx, 'refund')(deposit)) return [];
    // Read with the page by `deposits`, or batched here for any other way to a deposit.
    const ready = readAheadOf<RefundFactsRead[]>(deposit, 'refunds');
    if (ready) return ready.map((row) => RefundNode.fromRow(row));
    return loaders(ctx).depositRefunds.load(deposit.id).then((refunds) => refunds.map((refund) => RefundNode.from(refund)));
  }
}

/**
 * What a `refundUpdated` frame shows of a refund event: the snapshot this module wrote
 * (refund-snapshot.ts). The subscription's resolver returns it, and so does the fan-out's run of
 * an event for a group of subscribers (src/graphql/schema/delivery.ts).
 */
export function refundOfEvent(event: EventNotification): RefundNode {
  return RefundNode.from(event.snapshot as unknown as RefundSnapshot);
}
