// GraphQL shape of the durable, ordered event log that clients catch up from.

import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { DepositNode } from '../deposits/deposit.types.js';
import { WithdrawalNode } from '../withdrawals/withdrawal.types.js';
import type { PaymentEvent } from './payment-event.entity.js';
import type { DepositSnapshot, EventNotification, WithdrawalSnapshot } from './payment-event.types.js';

@ObjectType('PaymentEvent', { description: 'One change, in the order the gateway applied it. Catch up with events(after: <cursor>).' })
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
  deposit!: DepositNode | null;

  @Field(() => WithdrawalNode, { nullable: true, description: 'The withdrawal as it stood right after this change (withdrawal events, which only admins see).' })
  withdrawal!: WithdrawalNode | null;

  /** Position in the global log: the cursor. */
  position!: string;

  static from(event: PaymentEvent | EventNotification): PaymentEventNode {
    const snapshot = 'data' in event ? (event.data as unknown as DepositSnapshot) : event.deposit;
    const withdrawal = 'data' in event ? (event.data as unknown as WithdrawalSnapshot) : event.withdrawal;
    return Object.assign(new PaymentEventNode(), {
      id: event.id,
      type: event.type,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      fromStatus: event.fromStatus ?? null,
      toStatus: event.toStatus ?? null,
      createdAt: new Date(event.createdAt),
      deposit: event.subjectType === 'deposit' && snapshot ? DepositNode.from(snapshot) : null,
      withdrawal: event.subjectType === 'withdrawal' && typeof withdrawal?.id === 'string' ? WithdrawalNode.from(withdrawal) : null,
      position: String(event.position),
    });
  }
}

@ObjectType()
export class PaymentEventConnection extends connectionType(PaymentEventNode, 'PaymentEvent') {}
