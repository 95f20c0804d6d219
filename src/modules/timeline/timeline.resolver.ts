// The `timeline` field of Deposit, Refund and Payout: a Relay connection over the payment's whole
// story, oldest entry first (docs/timeline.md). Kept in the timeline module, beside its types, so the
// payment modules need not know it. Whoever may read the payment reads its timeline; admin-only
// detail answers null to other readers (timeline.types.ts), and events raised for admins alone are
// not listed to them. The timelines of a page of payments are read together: one statement per
// source for the page, whatever its size.

import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, pageSize, toConnection } from '../../graphql/relay.js';
import type { PaymentSubjectKind } from '../../kernel/payment-scope.js';
import { seenBy } from '../../kernel/visibility.js';
import { DepositNode } from '../deposits/deposit.types.js';
import { PayoutNode } from '../payouts/payout.types.js';
import { RefundNode } from '../refunds/refund.types.js';
import { isTimelinePosition, readTimelines, type TimelinePosition, type TimelineRow } from './timeline-reader.js';
import { TimelineConnection, toEntry } from './timeline.types.js';

/** The field's description; a deposit's story also holds its credit claim. */
const describeTimeline = (creditClaim: boolean): string =>
  `Everything that happened to it, oldest first: its changes, the provider calls made for it (each attempt), the webhooks that matched it, reconciliation checks, follow-up jobs${creditClaim ? ', notification attempts and its credit claim' : ' and notification attempts'}. docs/timeline.md.`;

/** One loader per payment kind, page size and cursor in a request: the payments of a page read together. */
const perContext = new WeakMap<GatewayContext, Map<string, DataLoader<string, TimelineRow[]>>>();

function loaderFor(ctx: GatewayContext, subjectType: PaymentSubjectKind, limit: number, after: TimelinePosition | undefined): DataLoader<string, TimelineRow[]> {
  let loaders = perContext.get(ctx);
  if (!loaders) perContext.set(ctx, (loaders = new Map<string, DataLoader<string, TimelineRow[]>>()));
  const name = JSON.stringify([subjectType, limit, after ?? null]);
  let loader = loaders.get(name);
  if (!loader) {
    // Events raised for admins alone are listed to whoever the visibility policy shows them to.
    const adminOnlyEvents = seenBy(ctx.viewer, subjectType)({ adminOnly: true, clientId: null, merchantAccount: null });
    loader = new DataLoader(async (ids) => {
      const read = await readTimelines(ctx.em, { subjectType, subjectIds: [...ids], limit, after, adminOnlyEvents });
      return ids.map((id) => read.get(id) ?? []);
    });
    loaders.set(name, loader);
  }
  return loader;
}

async function timeline(ctx: GatewayContext, subjectType: PaymentSubjectKind, id: string, first: number | undefined, after: string | undefined): Promise<TimelineConnection> {
  const size = pageSize(first);
  const position = after ? decodeCursor(after, isTimelinePosition) : undefined;
  const rows = await loaderFor(ctx, subjectType, size + 1, position).load(id);
  return toConnection(rows, size, (row) => row.position, toEntry, Boolean(position));
}

@Resolver(() => DepositNode)
export class DepositTimelineResolver {
  @FieldResolver(() => TimelineConnection, { description: describeTimeline(true) })
  timeline(
    @Root() deposit: DepositNode,
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
  ): Promise<TimelineConnection> {
    return timeline(ctx, 'deposit', deposit.id, first, after);
  }
}

@Resolver(() => RefundNode)
export class RefundTimelineResolver {
  @FieldResolver(() => TimelineConnection, { description: describeTimeline(false) })
  timeline(
    @Root() refund: RefundNode,
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
  ): Promise<TimelineConnection> {
    return timeline(ctx, 'refund', refund.id, first, after);
  }
}

@Resolver(() => PayoutNode)
export class PayoutTimelineResolver {
  @FieldResolver(() => TimelineConnection, { description: describeTimeline(false) })
  timeline(
    @Root() payout: PayoutNode,
    @Ctx() ctx: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
  ): Promise<TimelineConnection> {
    return timeline(ctx, 'payout', payout.id, first, after);
  }
}
