// GraphQL entry points of deposits: createDeposit, deposit(id), deposits, depositUpdated and the caller-dependent Deposit fields.

import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { loaders } from '../../graphql/loaders.js';
import { selectsAny } from '../../graphql/selection.js';
import { maySee } from '../../kernel/visibility.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import { PaymentEventNode } from '../events/payment-event.node.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from '../events/payment-event.types.js';
import { toDepositSnapshot } from './deposit-snapshot.js';
import { CreateDepositInput } from './deposit.inputs.js';
import { CreateDepositPayload } from './deposit.payloads.js';
import { DepositConnection, DepositFilter, DepositNode } from './deposit.types.js';

@Resolver(() => DepositNode)
export class DepositResolver {
  @Authorized('CASHIER')
  @Mutation(() => CreateDepositPayload, { description: 'Creates a deposit on one rail. Send the player to deposit.redirectUrl, then wait for SUCCEEDED.' })
  async createDeposit(@Ctx() ctx: GatewayContext, @Arg('input') input: CreateDepositInput): Promise<CreateDepositPayload> {
    const result = await ctx.services.deposits.create(ctx.em, ctx.client!, input.toServiceInput(ctx.idempotencyKey));
    return {
      deposit: result.deposit ? DepositNode.from(result.deposit) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Query(() => DepositNode, { nullable: true, description: 'A deposit by id, if the caller may see it: a cashier its own, a refunds back office those of its merchant accounts, an admin any.' })
  async deposit(@Ctx() ctx: GatewayContext, @Arg('id', () => ID) id: string): Promise<DepositNode | null> {
    const deposit = await ctx.services.deposits.findVisible(ctx.em, ctx.client!, id);
    return deposit ? DepositNode.from(toDepositSnapshot(deposit)) : null;
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Query(() => DepositConnection, { description: 'The deposits the caller may see (a cashier its own, a refunds back office those of its merchant accounts, an admin all), newest first.' })
  async deposits(
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => DepositFilter, { nullable: true }) filter?: DepositFilter,
  ): Promise<DepositConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await ctx.services.deposits.page(ctx.em, ctx.client!, {
      limit: size + 1,
      ...(cursor ? { after: { createdAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      ...(filter ? { filter } : {}),
    });
    return toConnection(rows, size, (row) => [row.createdAt, row.id], (row) => DepositNode.from(row), Boolean(cursor));
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Subscription(() => DepositNode, {
    description: 'Every change of one deposit, or with no id of every deposit the caller may see, as it is committed (on any gateway instance).',
    subscribe: async ({ args, context }) => {
      const ctx = context as GatewayContext;
      const client = ctx.client!;
      const id = (args as { id?: string | null }).id ?? undefined;
      if (id && !(await ctx.services.deposits.findVisible(ctx.em, client, id))) {
        throw new GraphQLError(`No deposit with id ${id}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return ctx.services.pubsub.subscribe<EventNotification>(
        PAYMENT_EVENTS_TOPIC,
        (event) => event.subjectType === 'deposit' && Boolean(event.deposit) && (!id || event.subjectId === id) && maySee(client, 'deposit', event),
      );
    },
  })
  depositUpdated(@Root() event: EventNotification, @Arg('id', () => ID, { nullable: true }) _id?: string): DepositNode {
    return DepositNode.from(event.deposit!);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The processor\'s exact code. Admins only (null for other callers); never show it to players.' })
  statusReason(@Root() deposit: DepositNode, @Ctx() ctx: GatewayContext): string | null {
    return ctx.client?.isAdmin() ? deposit.statusReason : null;
  }

  @FieldResolver(() => [PaymentEventNode], { description: 'This deposit\'s changes, oldest first.' })
  async events(@Root() deposit: DepositNode, @Ctx() ctx: GatewayContext, @Info() info: GraphQLResolveInfo): Promise<PaymentEventNode[]> {
    const events = await loaders(ctx).events('deposit', selectsAny(info, ['deposit'])).load(deposit.id);
    // Whoever sees the deposit sees its events, but for anomalies raised for admins alone.
    return events.filter((event) => maySee(ctx.client!, 'deposit', event)).map((event) => PaymentEventNode.from(event));
  }
}
