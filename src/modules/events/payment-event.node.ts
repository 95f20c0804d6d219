// GraphQL shape of the durable, ordered event log that clients catch up from.

import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { PaymentEvent } from './payment-event.entity.js';
import type { DepositSnapshot, EventNotification } from './payment-event.types.js';

@ObjectType('PaymentEvent', { description: 'One change, in the order the gateway applied it. Catch up with events(after: <cursor>).' })
export class PaymentEventNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'e.g. deposit.created, deposit.status_changed.' })
  type!: string;

  @Field({ description: 'deposit, refund or payout.' })
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

  /** Position in the global log: the cursor. */
  position!: string;

  static from(event: PaymentEvent | EventNotification): PaymentEventNode {
    const snapshot = 'data' in event ? (event.data as unknown as DepositSnapshot) : event.deposit;
    return Object.assign(new PaymentEventNode(), {
      id: event.id,
      type: event.type,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      fromStatus: event.fromStatus ?? null,
      toStatus: event.toStatus ?? null,
      createdAt: new Date(event.createdAt),
      deposit: event.subjectType === 'deposit' && snapshot ? DepositNode.from(snapshot) : null,
      position: String(event.position),
    });
  }
}

@ObjectType()
export class PaymentEventConnection extends connectionType(PaymentEventNode, 'PaymentEvent') {}
