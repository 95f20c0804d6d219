// GraphQL shape of a refund.

import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import type { RefundStatus } from '../../providers/provider.js';
import { Money, RefundStatusEnum } from '../deposits/deposit.types.js';
import type { Refund, RefundOrigin } from './refund.entity.js';
import { toRefundSnapshot, type RefundSnapshot } from './refund-snapshot.js';

export const RefundOriginEnum = { GATEWAY: 'GATEWAY', PROVIDER: 'PROVIDER' } as const satisfies Record<RefundOrigin, RefundOrigin>;
registerEnumType(RefundOriginEnum, {
  name: 'RefundOrigin',
  description: 'Where a refund was started.',
  valuesConfig: {
    GATEWAY: { description: 'Requested through this API (requestRefund).' },
    PROVIDER: { description: 'Made outside the gateway (e.g. the provider\'s dashboard) and recorded from the provider\'s event.' },
  },
});

@ObjectType('Refund', { implements: Node, simpleResolvers: true, description: 'Money going back to the payer of a succeeded deposit, in full or in part.' })
export class RefundNode extends Node {
  @Field(() => RefundStatusEnum, { description: 'REQUESTED until the provider decides: APPROVED (executed) or REJECTED.' })
  status!: RefundStatus;

  @Field(() => String, { nullable: true, description: 'The provider\'s own status word, for support.' })
  providerStatus!: string | null;

  @Field(() => RefundOriginEnum, { description: 'Whether the refund was requested through the gateway or made at the provider.' })
  origin!: RefundOrigin;

  @Field(() => Money, { description: 'In the deposit\'s currency.' })
  amount!: Money;

  @Field(() => String, { nullable: true, description: 'Why, as given when it was requested.' })
  reason!: string | null;

  /** Resolved by RefundResolver.deposit. */
  depositId!: string;

  // Times stay the snapshot's ISO strings: DateTime answers them as they are, with no Date between.
  @Field(() => Date, { description: 'When the refund was created.' })
  createdAt!: string;

  @Field(() => Date, { description: 'When the refund last changed.' })
  updatedAt!: string;

  static from(refund: Refund | RefundSnapshot): RefundNode {
    const snapshot = 'amountMoney' in refund ? toRefundSnapshot(refund) : refund;
    const node = new RefundNode();
    node.id = snapshot.id;
    node.status = snapshot.status;
    node.providerStatus = snapshot.providerStatus;
    node.origin = snapshot.origin ?? 'GATEWAY';
    node.amount = Money.of(snapshot.amount, snapshot.currency)!;
    node.reason = snapshot.reason;
    node.depositId = snapshot.depositId;
    node.createdAt = snapshot.createdAt;
    node.updatedAt = snapshot.updatedAt;
    return node;
  }
}
