// GraphQL shape of the durable, ordered event log that clients catch up from.

import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { DepositNode } from '../deposits/deposit.types.js';
import { WithdrawalNode } from '../withdrawals/withdrawal.types.js';
import type { PaymentEventRecord } from './event.service.js';
import type { DepositSnapshot, EventNotification, WithdrawalSnapshot } from './payment-event.types.js';

@ObjectType('PaymentEvent', { simpleResolvers: true, description: 'One change, in the order the gateway applied it. Catch up with events(after: <cursor>).' })
export class PaymentEventNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'e.g. deposit.created, deposit.status_changed.' })
  type!: string;

  @Field({ description: 'deposit, refund, payout or withdrawal.' })
  subjectType!: string;

  @Field(() => ID)
  subjectId!: string;

  @Field(() => String, { nullable: true })
  fromStatus!: string | null;

  @Field(() => String, { nullable: true })
  toStatus!: string | null;

  @Field()
  createdAt!: Date;

  @Field(() => DepositNode, { nullable: true, description: 'The deposit as it stood right after this change.' })
  get deposit(): DepositNode | null {
    const source = this.source;
    if (source.subjectType !== 'deposit') return null;
    const snapshot = 'data' in source ? (source.data as unknown as DepositSnapshot) : source.deposit;
    return snapshot ? DepositNode.from(snapshot) : null;
  }

  @Field(() => WithdrawalNode, { nullable: true, description: 'The withdrawal as it stood right after this change (withdrawal events, which only admins see).' })
  get withdrawal(): WithdrawalNode | null {
    const source = this.source;
    if (source.subjectType !== 'withdrawal') return null;
    const snapshot = 'data' in source ? (source.data as unknown as WithdrawalSnapshot) : source.withdrawal;
    return typeof snapshot?.id === 'string' ? WithdrawalNode.from(snapshot) : null;
  }

  /** Position in the global log: the cursor. */
  position!: string;

  /**
   * The row or notification this node was made from: its subject's snapshot becomes a node only
   * when a query asks for it (most lists of events never do).
   */
  private source!: PaymentEventRecord | EventNotification;

  static from(event: PaymentEventRecord | EventNotification): PaymentEventNode {
    return Object.assign(new PaymentEventNode(), {
      id: event.id,
      type: event.type,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      fromStatus: event.fromStatus ?? null,
      toStatus: event.toStatus ?? null,
      createdAt: new Date(event.createdAt),
      position: String(event.position),
      source: event,
    });
  }
}

@ObjectType()
export class PaymentEventConnection extends connectionType(PaymentEventNode, 'PaymentEvent') {}
