// The `events` field of each subject type (Deposit.events, Payout.events, Withdrawal.events): the
// subject's own changes, oldest first, as the catch-up log has them. Kept here, beside the
// PaymentEvent type, so the subject modules need not know the event log's GraphQL shape.

import type { GraphQLResolveInfo } from 'graphql';
import { Ctx, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { loaders, readAheadOf, seesEveryRecord, visibilityCheck, type ReadAheadEvents } from '../../graphql/loaders.js';
import { selectsAny } from '../../graphql/selection.js';
import type { SubjectEventRecord } from '../../kernel/events/event-log.js';
import { DepositNode } from '../deposits/deposit.types.js';
import { PayoutNode } from '../payouts/payout.types.js';
import { WithdrawalNode } from '../withdrawals/withdrawal.types.js';
import { PaymentEventNode } from './payment-event.node.js';

/** The field of an event that shows its deposit's snapshot: events are read with their snapshots only when it is asked. */
const SNAPSHOT_FIELDS = ['deposit'];

@Resolver(() => DepositNode)
export class DepositEventsResolver {
  @FieldResolver(() => [PaymentEventNode], { description: 'This deposit\'s changes, oldest first.' })
  events(@Root() deposit: DepositNode, @Ctx() ctx: GatewayContext, @Info() info: GraphQLResolveInfo): PaymentEventNode[] | Promise<PaymentEventNode[]> {
    const snapshots = selectsAny(info, SNAPSHOT_FIELDS);
    // A page of deposits may have read every deposit's events with it (DepositResolver.deposits).
    const ready = readAheadOf<ReadAheadEvents>(deposit, 'events');
    if (ready && (ready.snapshots || !snapshots)) return visibleEvents(ctx, 'deposit', ready.events);
    return loaders(ctx).events('deposit', snapshots).load(deposit.id).then((events) => visibleEvents(ctx, 'deposit', events));
  }
}

@Resolver(() => PayoutNode)
export class PayoutEventsResolver {
  @FieldResolver(() => [PaymentEventNode], { description: 'This payout\'s changes, oldest first.' })
  async events(@Root() payout: PayoutNode, @Ctx() ctx: GatewayContext): Promise<PaymentEventNode[]> {
    // A payout event has no snapshot field in the schema: its row's data is never read here.
    return visibleEvents(ctx, 'payout', await loaders(ctx).events('payout', false).load(payout.id));
  }
}

@Resolver(() => WithdrawalNode)
export class WithdrawalEventsResolver {
  @FieldResolver(() => [PaymentEventNode], { description: 'This withdrawal\'s changes, oldest first.' })
  async events(@Root() withdrawal: WithdrawalNode, @Ctx() ctx: GatewayContext): Promise<PaymentEventNode[]> {
    // Withdrawals are for admins alone, who see every event of one.
    const events = await loaders(ctx).events('withdrawal', true).load(withdrawal.id);
    return events.map((event) => PaymentEventNode.from(event));
  }
}

/**
 * Whoever sees the subject sees its events, but for anomalies raised for admins alone. A viewer who
 * sees every event had them read without their facts (src/graphql/loaders.ts), and is shown them
 * all; anyone else's were read with them. Facts missing for another viewer would refuse the event.
 */
function visibleEvents(ctx: GatewayContext, subjectType: 'deposit' | 'payout', events: SubjectEventRecord[]): PaymentEventNode[] {
  if (seesEveryRecord(ctx, subjectType)) return events.map((event) => PaymentEventNode.from(event));
  const visible = visibilityCheck(ctx, subjectType);
  const nodes: PaymentEventNode[] = [];
  for (const event of events) {
    if (visible({ clientId: event.clientId, merchantAccount: event.merchantAccount ?? null, adminOnly: event.adminOnly })) nodes.push(PaymentEventNode.from(event));
  }
  return nodes;
}
