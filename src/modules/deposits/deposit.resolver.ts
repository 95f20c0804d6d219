// GraphQL entry points of deposits: createDeposit, deposit(id), deposits, depositUpdated and the caller-dependent Deposit fields.
// Deposit fields also resolve for subscription groups, whose context has a viewer and no client: they read `ctx.viewer` only.
// Admin-only fields are DEPOSIT_REDACTION's (deposit-snapshot.ts), withheld for every path by src/graphql/redaction.ts.

import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, ID, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { keepReadAhead, seesEveryRecord, visibilityCheck, type ReadAheadEvents } from '../../graphql/loaders.js';
import { fieldsNamed, selectionsAt } from '../../graphql/selection.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import type { DepositSnapshot } from './deposit-snapshot.js';
import type { EventNotification } from '../../kernel/events/event-notification.js';
import { RESUME_AFTER_ARGUMENT, resumePosition, subjectUpdatesStream } from '../../graphql/subject-updates.js';
import { toDepositSnapshot } from './deposit-snapshot.js';
import { ClaimDepositCreditInput, CreateDepositInput } from './deposit.inputs.js';
import { ClaimDepositCreditPayload, CreateDepositPayload } from './deposit.payloads.js';
import { DepositConnection, DepositFilter, DepositNode } from './deposit.types.js';

@Resolver(() => DepositNode)
export class DepositResolver {
  @Authorized('CASHIER')
  @Mutation(() => CreateDepositPayload, { description: 'Creates a deposit on one rail. Send the player to deposit.redirectUrl, then wait for SUCCEEDED.' })
  async createDeposit(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The deposit: amount, customer and exactly one rail block.' }) input: CreateDepositInput): Promise<CreateDepositPayload> {
    const result = await ctx.services.deposits.create(ctx.em, ctx.client!, input.toServiceInput(ctx.idempotencyKey));
    return {
      deposit: result.deposit ? DepositNode.from(result.deposit) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('CASHIER')
  @Mutation(() => ClaimDepositCreditPayload, {
    description:
      'Claims the credit of a SUCCEEDED deposit, exactly once: the first call anywhere answers firstClaim: true (credit the player then), every later one firstClaim: false with the original time, except the winning claim itself retried under its claimKey, which is told firstClaim: true again. For the deposit\'s own client only: an admin is refused (CREDIT_CLAIM_OWNER_ONLY) and reads creditClaimedAt instead.',
  })
  async claimDepositCredit(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The deposit whose credit to claim.' }) input: ClaimDepositCreditInput): Promise<ClaimDepositCreditPayload> {
    const result = await ctx.services.deposits.claimCredit(ctx.em, ctx.client!, input.depositId, input.claimKey ?? ctx.idempotencyKey);
    return {
      claim: result.claim,
      deposit: result.deposit ? DepositNode.from(result.deposit) : null,
      userErrors: userErrors(result.errors),
    };
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Query(() => DepositNode, { nullable: true, description: 'A deposit by id, if the caller may see it: a cashier its own, a refunds back office those of its merchant accounts, an admin any.' })
  async deposit(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The deposit\'s id (dep_…).' }) id: string): Promise<DepositNode | null> {
    const deposit = await ctx.services.deposits.findVisible(ctx.em, ctx.client!, id);
    return deposit ? DepositNode.from(toDepositSnapshot(deposit)) : null;
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Query(() => DepositConnection, { description: 'The deposits the caller may see (a cashier its own, a refunds back office those of its merchant accounts, an admin all), newest first.' })
  async deposits(
    @Ctx() ctx: RequestContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
    @Arg('filter', () => DepositFilter, { nullable: true, description: 'Only deposits that match.' }) filter?: DepositFilter,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<DepositConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await ctx.services.deposits.page(ctx.em, ctx.client!, {
      limit: size + 1,
      ...(cursor ? { after: { createdAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      ...(filter ? { filter } : {}),
    });
    const connection = toConnection(rows, size, (row) => [row.createdAt, row.id], (row) => DepositNode.from(row), Boolean(cursor));
    if (info) await readNestedLists(ctx, info, connection.edges.map((edge) => edge.node));
    return connection;
  }

  @Authorized('CASHIER', 'REFUNDS')
  @Subscription(() => DepositNode, {
    description: 'Every change of one deposit, or with no id of every deposit the caller may see, as it is committed (on any gateway instance). Each message carries its event cursor in extensions.cursor: pass the last one as after when subscribing again to receive what was missed first.',
    subscribe: async ({ args, context }) => {
      const ctx = context as RequestContext;
      const client = ctx.client!;
      const { id: given, after } = args as { id?: string | null; after?: string | null };
      const id = given ?? undefined;
      // A malformed cursor is refused before anything else is read.
      const from = resumePosition(ctx, after);
      if (id && !(await ctx.services.deposits.findVisible(ctx.em, client, id))) {
        throw new GraphQLError(`No deposit with id ${id}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return subjectUpdatesStream(ctx, 'deposit', id, from);
    },
  })
  depositUpdated(
    @Root() event: EventNotification,
    @Arg('id', () => ID, { nullable: true, description: 'Only this deposit; omit for every deposit the key may see.' }) _id?: string,
    @Arg('after', () => String, RESUME_AFTER_ARGUMENT) _after?: string,
  ): DepositNode {
    return depositOfEvent(event);
  }
}

/**
 * What a `depositUpdated` frame shows of a deposit event: the snapshot this module wrote
 * (deposit-snapshot.ts). The subscription's resolver returns it, and so does the fan-out's run of
 * an event for a group of subscribers (src/graphql/schema/delivery.ts).
 */
export function depositOfEvent(event: EventNotification): DepositNode {
  return DepositNode.from(event.snapshot as unknown as DepositSnapshot);
}

/**
 * The refunds and events of a page's deposits, when the query asks for them, read with the page:
 * the same statements the field resolvers' DataLoaders would send (one per list, side by side),
 * answered to them without a round per deposit (src/graphql/loaders.ts, `keepReadAhead`).
 */
async function readNestedLists(ctx: GatewayContext, info: GraphQLResolveInfo, nodes: DepositNode[]): Promise<void> {
  if (nodes.length === 0) return;
  const nodeSelections = selectionsAt(info, ['edges', 'node']);
  const eventFields = nodeSelections.flatMap((set) => fieldsNamed(info, set, 'events'));
  // The refunds field asks the policy per deposit; a deposit whose refunds it hides is not read for.
  const refundsOf = nodeSelections.some((set) => fieldsNamed(info, set, 'refunds').length > 0) ? nodes.filter(visibilityCheck(ctx, 'refund')) : [];
  const snapshots = eventFields.some((field) => field.selectionSet !== undefined && fieldsNamed(info, field.selectionSet, 'deposit').length > 0);
  const [refunds, events] = await Promise.all([
    refundsOf.length > 0 ? ctx.services.refunds.forDeposits(ctx.em, refundsOf.map((node) => node.id)) : undefined,
    eventFields.length > 0 ? ctx.services.events.forSubjects(ctx.em, 'deposit', nodes.map((node) => node.id), { snapshots, facts: !seesEveryRecord(ctx, 'deposit') }) : undefined,
  ]);
  if (refunds) for (const node of refundsOf) keepReadAhead(node, 'refunds', refunds.get(node.id) ?? []);
  if (events) for (const node of nodes) keepReadAhead(node, 'events', { snapshots, events: events.get(node.id) ?? [] } satisfies ReadAheadEvents);
}
