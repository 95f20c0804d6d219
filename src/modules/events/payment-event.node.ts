// GraphQL shape of the durable, ordered event log that clients catch up from.

import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import { DepositNode } from '../deposits/deposit.types.js';
import { WithdrawalNode } from '../withdrawals/withdrawal.types.js';
import type { SubjectEventRecord } from '../../kernel/events/event-log.js';
import type { EventNotification } from '../../kernel/events/event-notification.js';
import type { DepositSnapshot } from '../deposits/deposit-snapshot.js';
import type { WithdrawalSnapshot } from '../withdrawals/withdrawal-snapshot.js';

@ObjectType('PaymentEvent', { simpleResolvers: true, description: 'One change, in the order the gateway applied it. Catch up with events(after: <cursor>).' })
export class PaymentEventNode {
  @Field(() => ID, { description: 'The event\'s id.' })
  id!: string;

  @Field({ description: 'What happened, e.g. deposit.created, deposit.status_changed.' })
  type!: string;

  @Field({ description: 'What the event is about: deposit, refund, payout or withdrawal.' })
  subjectType!: string;

  @Field(() => ID, { description: 'Id of the deposit, refund, payout or withdrawal.' })
  subjectId!: string;

  @Field(() => String, { nullable: true, description: 'Its status before the change; null when it was created.' })
  fromStatus!: string | null;

  @Field(() => String, { nullable: true, description: 'Its status after the change; null when the change was not of status.' })
  toStatus!: string | null;

  /** A row's Date, or a notification's ISO string: DateTime answers either. */
  @Field(() => Date, { description: 'When the gateway applied the change.' })
  createdAt!: Date | string;

  @Field(() => DepositNode, { nullable: true, description: 'The deposit as it stood right after this change.' })
  get deposit(): DepositNode | null {
    if (this.subjectType !== 'deposit') return null;
    const snapshot = this.snapshot as DepositSnapshot | undefined;
    return snapshot ? DepositNode.from(snapshot) : null;
  }

  @Field(() => WithdrawalNode, { nullable: true, description: 'The withdrawal as it stood right after this change (withdrawal events, which only admins see).' })
  get withdrawal(): WithdrawalNode | null {
    if (this.subjectType !== 'withdrawal') return null;
    const snapshot = this.snapshot as WithdrawalSnapshot | undefined;
    return typeof snapshot?.id === 'string' ? WithdrawalNode.from(snapshot) : null;
  }

  /**
   * The subject's snapshot, from the row's `data` or the notification: it becomes a node only when
   * a query asks for it (most lists of events never do). Absent from rows read without it.
   */
  private snapshot: unknown;

  static from(event: SubjectEventRecord | EventNotification): PaymentEventNode {
    // Set one by one, not Object.assign'ed from a literal: a page makes hundreds, each one object.
    const node = new PaymentEventNode();
    node.id = event.id;
    node.type = event.type;
    node.subjectType = event.subjectType;
    node.subjectId = event.subjectId;
    node.fromStatus = event.fromStatus ?? null;
    node.toStatus = event.toStatus ?? null;
    node.createdAt = event.createdAt;
    node.snapshot = snapshotOf(event);
    return node;
  }
}

/** A row's `data` (when it was read), or the snapshot a notification carries. */
function snapshotOf(event: SubjectEventRecord | EventNotification): unknown {
  return 'data' in event ? event.data : (event as EventNotification).snapshot;
}

@ObjectType({ description: 'A page of payment events, in log order (oldest first).' })
export class PaymentEventConnection extends connectionType(PaymentEventNode, 'PaymentEvent') {}
