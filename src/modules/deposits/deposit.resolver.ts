// GraphQL entry points of deposits: createDeposit, deposit(id), deposits, depositUpdated and the caller-dependent Deposit fields.
// Deposit fields also resolve for subscription groups, whose context has a viewer and no client: they read `ctx.viewer` only.
// Admin-only fields are DEPOSIT_REDACTION's (deposit-snapshot.ts), withheld for every path by src/graphql/redaction.ts.

import { GraphQLError, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, ID, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { keepReadAhead, REFUND_FIELD_READS, seesEveryRecord, visibilityCheck, type ReadAheadEvents } from '../../graphql/loaders.js';
import { fieldsNamed, selectionsAt, selectsOnly } from '../../graphql/selection.js';
import { isoText } from '../../lib/iso-time.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import type { DepositSnapshot, DepositSnapshotProperty } from './deposit-snapshot.js';
import type { EventNotification } from '../../kernel/events/event-notification.js';
import { RESUME_AFTER_ARGUMENT, resumePosition, subjectUpdatesStream } from '../../graphql/subject-updates.js';
import { toDepositSnapshot } from './deposit-snapshot.js';
import { ClaimDepositCreditInput, CreateDepositInput } from './deposit.inputs.js';
import { ClaimDepositCreditPayload, CreateDepositPayload } from './deposit.payloads.js';
import { DEPOSIT_FIELD_READS, DepositConnection, DepositFilter, DepositNode } from './deposit.types.js';

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
    const plan = info ? pagePlan(info) : undefined;
    const rows = await ctx.services.deposits.page(ctx.em, ctx.client!, {
      limit: size + 1,
      ...(cursor ? { after: { createdAt: new Date(cursor[0]), id: cursor[1] } } : {}),
      ...(filter ? { filter } : {}),
      ...(plan ? { properties: plan.deposits } : {}),
    });
    const connection = toConnection(rows, size, (row) => [isoText(row.createdAt), row.id], (row) => DepositNode.fromRow(row), Boolean(cursor));
    if (plan) await readNestedLists(ctx, plan, connection.edges.map((edge) => edge.node));
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
 * What a page's query asks of its deposits and their lists: the properties of each deposit's row
 * and of each refund's (`DEPOSIT_FIELD_READS`, `REFUND_FIELD_READS`; undefined: refunds not asked),
 * and whether events are asked, with their snapshots. Worked out once per query: kept by the
 * field's node of its parsed document (a field merged from several nodes is worked out each time).
 */
interface PagePlan {
  deposits: readonly DepositSnapshotProperty[];
  // The refunds' properties as the GraphQL layer's map names them: the deposits module imports nothing of the refunds module (which builds on it).
  refunds: ReturnType<typeof REFUND_FIELD_READS.of> | undefined;
  events: boolean;
  eventSnapshots: boolean;
}

const pagePlans = new WeakMap<FieldNode, PagePlan>();

/** What a connection and its edges show besides their nodes: nothing that reads a deposit's row but its cursor. */
const CONNECTION_FIELDS = ['edges', 'pageInfo'];
const EDGE_FIELDS = ['cursor', 'node'];

function pagePlan(info: GraphQLResolveInfo): PagePlan {
  const single = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  const kept = single && pagePlans.get(single);
  if (kept) return kept;
  const nodeSelections = selectionsAt(info, ['edges', 'node']);
  const refundFields = nodeSelections.flatMap((set) => fieldsNamed(info, set, 'refunds'));
  const eventFields = nodeSelections.flatMap((set) => fieldsNamed(info, set, 'events'));
  // Deposits reached another way than edges.node (a field the connection does not have today) read every property.
  const onlyEdges = selectsOnly(info, selectionsAt(info, []), CONNECTION_FIELDS) && selectsOnly(info, selectionsAt(info, ['edges']), EDGE_FIELDS);
  const plan: PagePlan = {
    deposits: onlyEdges ? DEPOSIT_FIELD_READS.of(info, nodeSelections) : DEPOSIT_FIELD_READS.every,
    refunds: refundFields.length > 0 ? REFUND_FIELD_READS.of(info, refundFields.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []))) : undefined,
    events: eventFields.length > 0,
    eventSnapshots: eventFields.some((field) => field.selectionSet !== undefined && fieldsNamed(info, field.selectionSet, 'deposit').length > 0),
  };
  if (single) pagePlans.set(single, plan);
  return plan;
}

/**
 * The refunds and events of a page's deposits, when the query asks for them, read with the page:
 * the same statements the field resolvers' DataLoaders would send (one per list, side by side),
 * the refunds with only the properties the query asks, answered to them without a round per
 * deposit (src/graphql/loaders.ts, `keepReadAhead`).
 */
async function readNestedLists(ctx: GatewayContext, plan: PagePlan, nodes: DepositNode[]): Promise<void> {
  if (nodes.length === 0) return;
  // The refunds field asks the policy per deposit; a deposit whose refunds it hides is not read for.
  const refundsOf = plan.refunds ? nodes.filter(visibilityCheck(ctx, 'refund')) : [];
  const snapshots = plan.eventSnapshots;
  const [refunds, events] = await Promise.all([
    plan.refunds && refundsOf.length > 0 ? ctx.services.refunds.rowsForDeposits(ctx.em, refundsOf.map((node) => node.id), plan.refunds) : undefined,
    plan.events ? ctx.services.events.forSubjects(ctx.em, 'deposit', nodes.map((node) => node.id), { snapshots, facts: !seesEveryRecord(ctx, 'deposit') }) : undefined,
  ]);
  if (refunds) for (const node of refundsOf) keepReadAhead(node, 'refunds', refunds.get(node.id) ?? []);
  if (events) for (const node of nodes) keepReadAhead(node, 'events', { snapshots, events: events.get(node.id) ?? [] } satisfies ReadAheadEvents);
}
