// GraphQL shape of a withdrawal (admins only): its status enum, list filter and connection.

import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { connectionType } from '../../graphql/relay.js';
import type { WithdrawalStatus } from '../../providers/provider.js';
import { Money, PaymentProviderEnum, paymentProviderOf, type PaymentProvider } from '../deposits/deposit.types.js';
import type { WithdrawalSnapshot } from './withdrawal-snapshot.js';

export const WithdrawalStatusEnum = {
  PENDING: 'PENDING',
  PROCESSED: 'PROCESSED',
  SUCCEEDED: 'SUCCEEDED',
  FAILED: 'FAILED',
} as const satisfies Record<WithdrawalStatus, WithdrawalStatus>;

registerEnumType(WithdrawalStatusEnum, {
  name: 'WithdrawalStatus',
  description: 'Where a withdrawal from the merchant balance stands, as the provider reports it.',
  valuesConfig: {
    PENDING: { description: 'Accepted by the provider, not yet sent.' },
    PROCESSED: { description: 'Sent to the bank; not yet confirmed.' },
    SUCCEEDED: { description: 'Completed. Final.' },
    FAILED: { description: 'Declined or failed; the money stays in the balance. Final.' },
  },
});

@ObjectType('Withdrawal', {
  implements: Node,
  description: 'Money the merchant took out of its balance at a provider. Made outside the gateway (the provider dashboard) and known from the provider\'s events. Admins only.',
})
export class WithdrawalNode extends Node {
  @Field(() => WithdrawalStatusEnum, { description: 'Where the withdrawal stands.' })
  status!: WithdrawalStatus;

  @Field({ description: 'The provider\'s own status word.' })
  providerStatus!: string;

  @Field(() => Money, { nullable: true, description: 'Null while no event has carried the amount.' })
  amount!: Money | null;

  @Field(() => PaymentProviderEnum, { description: 'The provider holding the balance.' })
  provider!: PaymentProvider;

  @Field({ description: 'Code of the merchant account whose balance it draws on.' })
  merchantAccount!: string;

  @Field({ description: 'The provider\'s withdrawal id.' })
  providerReference!: string;

  @Field({ description: 'False for test mode: no real money moved.' })
  livemode!: boolean;

  @Field({ description: 'When the gateway first heard of it.' })
  createdAt!: Date;

  @Field({ description: 'When it last changed.' })
  updatedAt!: Date;

  static from(snapshot: WithdrawalSnapshot): WithdrawalNode {
    return Object.assign(new WithdrawalNode(), {
      id: snapshot.id,
      status: snapshot.status,
      providerStatus: snapshot.providerStatus,
      amount: snapshot.currency ? Money.of(snapshot.amount, snapshot.currency) : null,
      provider: paymentProviderOf(snapshot.provider),
      merchantAccount: snapshot.merchantAccount,
      providerReference: snapshot.providerReference,
      livemode: snapshot.livemode,
      createdAt: new Date(snapshot.createdAt),
      updatedAt: new Date(snapshot.updatedAt),
    });
  }
}

@InputType({ description: 'Narrows withdrawals; all fields combine with AND.' })
export class WithdrawalFilter {
  @Field(() => String, { nullable: true, description: 'Only withdrawals from this merchant account.' }) merchantAccount?: string;
  @Field(() => WithdrawalStatusEnum, { nullable: true, description: 'Only withdrawals in this status.' }) status?: WithdrawalStatus;
  @Field(() => Boolean, { nullable: true, description: 'true: live withdrawals only; false: test ones only.' }) livemode?: boolean;
}

@ObjectType({ description: 'A page of withdrawals, newest first.' })
export class WithdrawalConnection extends connectionType(WithdrawalNode, 'Withdrawal') {}
