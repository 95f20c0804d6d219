// GraphQL root fields of payouts (createPayout, payout, payouts, payoutUpdated) and the Payout fields that depend on the caller.

import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { decodeCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import type { PaymentEvent } from '../events/payment-event.entity.js';
import { PaymentEventNode } from '../events/payment-event.node.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from '../events/payment-event.types.js';
import { toPayoutSnapshot } from './payout-snapshot.js';
import { CreatePayoutInput } from './payout.inputs.js';
import { CreatePayoutPayload } from './payout.payloads.js';
import { PayoutBeneficiaryNode, PayoutConnection, PayoutFilter, PayoutNode } from './payout.types.js';

const isCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]));

interface PayoutLoaders {
  events: DataLoader<string, PaymentEvent[]>;
  fullNumbers: DataLoader<string, { accountNumber: string | null; cci: string | null } | undefined>;
}

const perContext = new WeakMap<GatewayContext, PayoutLoaders>();

/** Per-request batching: a page of payouts costs one query per field, whatever its size. */
function payoutLoaders(ctx: GatewayContext): PayoutLoaders {
  let existing = perContext.get(ctx);
  if (!existing) {
    existing = {
      events: new DataLoader(async (ids) => {
        const grouped = await ctx.services.events.forSubjects(ctx.em, 'payout', [...ids]);
        return ids.map((id) => grouped.get(id) ?? []);
      }),
      fullNumbers: new DataLoader(async (ids) => {
        const found = await ctx.services.payouts.fullAccountNumbers(ctx.em, ids);
        return ids.map((id) => found.get(id));
      }),
    };
    perContext.set(ctx, existing);
  }
  return existing;
}

@Resolver(() => PayoutNode)
export class PayoutResolver {
  @Authorized('PAYOUTS')
  @Mutation(() => CreatePayoutPayload, { description: 'Pays a player out to a bank account (LATAM). Wait for PAID on payoutUpdated; it may later become REVERTED.' })
  async createPayout(@Ctx() ctx: GatewayContext, @Arg('input') input: CreatePayoutInput): Promise<CreatePayoutPayload> {
    const result = await ctx.services.payouts.create(ctx.em, ctx.client!, input.toServiceInput(ctx.idempotencyKey));
    return {
      payout: result.payout ? PayoutNode.from(toPayoutSnapshot(result.payout)) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('PAYOUTS')
  @Query(() => PayoutNode, { nullable: true, description: 'A payout by id, if it belongs to a merchant account the caller may use (admins: any).' })
  async payout(@Ctx() ctx: GatewayContext, @Arg('id', () => ID) id: string): Promise<PayoutNode | null> {
    const payout = await ctx.services.payouts.findVisible(ctx.em, ctx.client!, id);
    return payout ? PayoutNode.from(toPayoutSnapshot(payout)) : null;
  }

  @Authorized('PAYOUTS')
  @Query(() => PayoutConnection, { description: 'Payouts of the merchant accounts the caller may use (admins: all), newest first, test or live only (filter.livemode).' })
  async payouts(
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('filter', () => PayoutFilter, { nullable: true }) filter?: PayoutFilter,
  ): Promise<PayoutConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isCursor) : undefined;
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
    description: 'Every change of one payout, or with no id of every payout the caller may see, as it is committed (on any gateway instance).',
    subscribe: async ({ args, context }) => {
      const ctx = context as GatewayContext;
      const client = ctx.client!;
      const id = (args as { id?: string | null }).id ?? undefined;
      if (id && !(await ctx.services.payouts.findVisible(ctx.em, client, id))) {
        throw new GraphQLError(`No payout with id ${id}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return ctx.services.pubsub.subscribe<EventNotification>(
        PAYMENT_EVENTS_TOPIC,
        (event) =>
          event.subjectType === 'payout' &&
          Boolean(event.payout) &&
          (id ? event.subjectId === id : client.isAdmin() || (client.hasRole('PAYOUTS') && client.mayUseAccount(event.payout!.merchantAccount))),
      );
    },
  })
  payoutUpdated(@Root() event: EventNotification, @Arg('id', () => ID, { nullable: true }) _id?: string): PayoutNode {
    return PayoutNode.from(event.payout!);
  }

  @FieldResolver(() => PayoutBeneficiaryNode, { description: 'Who is paid; account and CCI numbers masked for all but admin clients.' })
  async beneficiary(@Root() payout: PayoutNode, @Ctx() ctx: GatewayContext): Promise<PayoutBeneficiaryNode> {
    const masked = payout.maskedBeneficiary;
    if (!ctx.client?.isAdmin()) return masked;
    const full = await payoutLoaders(ctx).fullNumbers.load(payout.id);
    return Object.assign(new PayoutBeneficiaryNode(), masked, {
      accountNumber: full?.accountNumber ?? masked.accountNumber,
      cci: full?.cci ?? masked.cci,
    });
  }

  @FieldResolver(() => String, { nullable: true, description: 'The provider\'s own message on a refusal. Admins only (null for other callers).' })
  statusReason(@Root() payout: PayoutNode, @Ctx() ctx: GatewayContext): string | null {
    return ctx.client?.isAdmin() ? payout.statusReason : null;
  }

  @FieldResolver(() => [PaymentEventNode], { description: 'This payout\'s changes, oldest first.' })
  async events(@Root() payout: PayoutNode, @Ctx() ctx: GatewayContext): Promise<PaymentEventNode[]> {
    const events = await payoutLoaders(ctx).events.load(payout.id);
    return events.map((event) => PaymentEventNode.from(event));
  }
}
