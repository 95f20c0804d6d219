// GraphQL shape of a refund.

import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { isoText } from '../../lib/iso-time.js';
import { canonicalDecimal } from '../../lib/money.js';
import type { RefundStatus } from '../../providers/provider.js';
import { Money, RefundStatusEnum } from '../deposits/deposit.types.js';
import type { Refund, RefundOrigin } from './refund.entity.js';
import { toRefundSnapshot, type RefundFactsRead, type RefundSnapshot } from './refund-snapshot.js';

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

  /**
   * The node `from(toRefundSnapshot(row))` makes, from a row read with only some of the snapshot's
   * properties (`REFUND_FIELD_READS`), without the snapshot between: each field whose properties
   * were read is set as `from` sets it, the others stay unset.
   */
  static fromRow(row: RefundFactsRead): RefundNode {
    const node = new RefundNode();
    node.id = row.id;
    node.depositId = row.depositId;
    if (row.status !== undefined) node.status = row.status;
    if (row.providerStatus !== undefined) node.providerStatus = row.providerStatus ?? null;
    if (row.origin !== undefined) node.origin = row.origin ?? 'GATEWAY';
    if (row.amount !== undefined && row.currency !== undefined) node.amount = Money.of(canonicalDecimal(row.amount, row.currency), row.currency)!;
    if (row.reason !== undefined) node.reason = row.reason ?? null;
    if (row.createdAt !== undefined) node.createdAt = isoText(row.createdAt);
    if (row.updatedAt !== undefined) node.updatedAt = isoText(row.updatedAt);
    return node;
  }
}
