// GraphQL root fields of payouts (createPayout, payout, payouts, payoutUpdated) and the Payout fields that depend on the caller.
// Payout fields also resolve for subscription groups, whose context has a viewer and no client: they read `ctx.viewer` only.
// Admin-only fields are PAYOUT_REDACTION's (payout-snapshot.ts): statusReason is withheld for every path by
// src/graphql/redaction.ts; the full beneficiary numbers, which no snapshot holds, are read here for whom it allows.

import { GraphQLError } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { loaders } from '../../graphql/loaders.js';
import { readsUnmasked } from '../../kernel/redaction.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import { PAYOUT_REDACTION, type PayoutSnapshot } from './payout-snapshot.js';
import type { EventNotification } from '../../kernel/events/event-notification.js';
import { RESUME_AFTER_ARGUMENT, resumePosition, subjectUpdatesStream } from '../../graphql/subject-updates.js';
import { toPayoutSnapshot } from './payout-snapshot.js';
import { CreatePayoutInput } from './payout.inputs.js';
import { CreatePayoutPayload } from './payout.payloads.js';
import { PayoutBeneficiaryNode, PayoutConnection, PayoutFilter, PayoutNode } from './payout.types.js';

/** The beneficiary's numbers the payout row keeps in full (payoutAccountNumbers), for the readers PAYOUT_REDACTION shows them to. */
const UNMASKABLE = ['accountNumber', 'cci'] as const;

@Resolver(() => PayoutNode)
export class PayoutResolver {
  @Authorized('PAYOUTS')
  @Mutation(() => CreatePayoutPayload, { description: 'Pays a player out to a bank account (LATAM). Wait for PAID on payoutUpdated; it may later become REVERTED.' })
  async createPayout(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The payout: country, amount and beneficiary.' }) input: CreatePayoutInput): Promise<CreatePayoutPayload> {
    const result = await ctx.services.payouts.create(ctx.em, ctx.client!, input.toServiceInput(ctx.idempotencyKey));
    return {
      payout: result.payout ? PayoutNode.from(result.payout) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('PAYOUTS')
  @Query(() => PayoutNode, { nullable: true, description: 'A payout by id, if it belongs to a merchant account the caller may use (admins: any).' })
  async payout(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The payout\'s id (pay_…).' }) id: string): Promise<PayoutNode | null> {
    const payout = await ctx.services.payouts.findVisible(ctx.em, ctx.client!, id);
    return payout ? PayoutNode.from(toPayoutSnapshot(payout)) : null;
  }

  @Authorized('PAYOUTS')
  @Query(() => PayoutConnection, { description: 'Payouts of the merchant accounts the caller may use (admins: all), newest first, test or live only (filter.livemode).' })
  async payouts(
    @Ctx() ctx: RequestContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => PayoutFilter, { nullable: true, description: 'Only payouts that match.' }) filter?: PayoutFilter,
  ): Promise<PayoutConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const cleaned = filter ? (Object.fromEntries(Object.entries(filter).filter(([, value]) => value != null)) as PayoutFilter) : undefined;
    const rows = await ctx.services.payouts.page(ctx.em, ctx.client!, {
      limit: size + 1,
      ...(cursor ? { after: { createdAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      ...(cleaned ? { filter: cleaned } : {}),
    });
    return toConnection(rows, size, (row) => [row.createdAt.toISOString(), row.id], (row) => PayoutNode.from(toPayoutSnapshot(row)), Boolean(cursor));
  }

  @Authorized('PAYOUTS')
  @Subscription(() => PayoutNode, {
    description: 'Every change of one payout, or with no id of every payout the caller may see, as it is committed (on any gateway instance). Each message carries its event cursor in extensions.cursor: pass the last one as after when subscribing again to receive what was missed first.',
    subscribe: async ({ args, context }) => {
      const ctx = context as RequestContext;
      const client = ctx.client!;
      const { id: given, after } = args as { id?: string | null; after?: string | null };
      const id = given ?? undefined;
      // A malformed cursor is refused before anything else is read.
      const from = resumePosition(ctx, after);
      if (id && !(await ctx.services.payouts.findVisible(ctx.em, client, id))) {
        throw new GraphQLError(`No payout with id ${id}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return subjectUpdatesStream(ctx, 'payout', id, from);
    },
  })
  payoutUpdated(
    @Root() event: EventNotification,
    @Arg('id', () => ID, { nullable: true, description: 'Only this payout; omit for every payout the key may see.' }) _id?: string,
    @Arg('after', () => String, RESUME_AFTER_ARGUMENT) _after?: string,
  ): PayoutNode {
    return payoutOfEvent(event);
  }

  @FieldResolver(() => PayoutBeneficiaryNode, { description: 'Who is paid; account and CCI numbers masked for all but admin clients.' })
  async beneficiary(@Root() payout: PayoutNode, @Ctx() ctx: GatewayContext): Promise<PayoutBeneficiaryNode> {
    const masked = payout.maskedBeneficiary;
    const unmasked = UNMASKABLE.filter((field) => readsUnmasked(ctx.viewer, PAYOUT_REDACTION, `beneficiary.${field}`));
    if (unmasked.length === 0) return masked;
    const full = await loaders(ctx).payoutAccountNumbers.load(payout.id);
    const shown = Object.assign(new PayoutBeneficiaryNode(), masked);
    for (const field of unmasked) shown[field] = full?.[field] ?? masked[field];
    return shown;
  }
}

/**
 * What a `payoutUpdated` frame shows of a payout event: the snapshot this module wrote
 * (payout-snapshot.ts). The subscription's resolver returns it, and so does the fan-out's run of
 * an event for a group of subscribers (src/graphql/schema/delivery.ts).
 */
export function payoutOfEvent(event: EventNotification): PayoutNode {
  return PayoutNode.from(event.snapshot as unknown as PayoutSnapshot);
}
