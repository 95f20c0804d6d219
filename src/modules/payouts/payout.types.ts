// GraphQL shapes of payouts: the Payout type, its beneficiary, the status enum, the list filter and the connection.

import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { connectionType } from '../../graphql/relay.js';
import type { PayoutStatus } from '../../providers/provider.js';
import { Money, PaymentProviderEnum, paymentProviderOf, type PaymentProvider } from '../deposits/deposit.types.js';
import type { PayoutSnapshot } from './payout-snapshot.js';

export const PayoutStatusEnum = {
  PENDING: 'PENDING',
  PAID: 'PAID',
  BOUNCED: 'BOUNCED',
  REVERTED: 'REVERTED',
  FAILED: 'FAILED',
} as const satisfies Record<PayoutStatus, PayoutStatus>;

registerEnumType(PayoutStatusEnum, {
  name: 'PayoutStatus',
  description: 'Where a payout stands.',
  valuesConfig: {
    PENDING: { description: 'Created; waiting for the provider to settle it to the player\'s account.' },
    PAID: { description: 'Settled to the player\'s account. May still be REVERTED.' },
    BOUNCED: { description: 'Rejected by the player\'s bank (invalid or closed account, wrong code); no money left. Final.' },
    REVERTED: { description: 'A paid payout was reversed and the funds returned. Final.' },
    FAILED: { description: 'Refused before the provider made a payout (see failureCode); no money left. Final: retry with a new idempotency key.' },
  },
});

@ObjectType('PayoutBeneficiary', {
  description:
    'Who is paid. Account, CCI and document numbers are masked (****1234); admins see the full account and CCI numbers. Once the payout is final and unchanged for PERSONAL_DATA_RETENTION_MS (90 days), the name is erased (null) and admins too see the numbers masked.',
})
export class PayoutBeneficiaryNode {
  @Field(() => String, { nullable: true, description: 'The beneficiary\'s full name; null once retention erased it.' }) name!: string | null;
  @Field(() => String, { nullable: true, description: 'Identity document type, e.g. RUT, DNI, CC.' }) documentType!: string | null;
  @Field(() => String, { nullable: true, description: 'Always masked: the full number is kept only to resubmit the payout, until retention erases it.' }) documentNumber!: string | null;
  @Field(() => String, { nullable: true, description: 'Masked (****1234) except for admin clients, and for them too once retention erased the full number.' }) accountNumber!: string | null;
  @Field(() => String, { nullable: true, description: 'The beneficiary\'s bank code.' }) bankCode!: string | null;
  @Field(() => String, { nullable: true, description: 'Account type, e.g. checking or savings.' }) accountType!: string | null;
  @Field(() => String, { nullable: true, description: 'Peru\'s interbank number. Masked except for admin clients, and for them too once retention erased the full number.' }) cci!: string | null;
}

@ObjectType('Payout', { implements: Node, description: 'Money going out to a player\'s bank account (LATAM).' })
export class PayoutNode extends Node {
  @Field(() => PayoutStatusEnum, { description: 'Where the payout stands.' })
  status!: PayoutStatus;

  @Field(() => String, { nullable: true, description: 'The provider\'s own status word, for support.' })
  providerStatus!: string | null;

  /** Admins only (`PAYOUT_REDACTION`): null for other readers on every path (src/graphql/redaction.ts). */
  @Field(() => String, { nullable: true, description: 'The provider\'s own message on a refusal. Admins only (null for other callers).' })
  statusReason!: string | null;

  @Field(() => Money, { description: 'The amount paid out, in the country\'s currency.' })
  amount!: Money;

  @Field({ description: 'ECUADOR, CHILE, PERU, MEXICO or COLOMBIA.' })
  country!: string;

  /** Resolved by PayoutResolver.beneficiary (full numbers for admins). */
  maskedBeneficiary!: PayoutBeneficiaryNode;

  @Field(() => PaymentProviderEnum, { description: 'The provider that pays it.' })
  provider!: PaymentProvider;

  @Field({ description: 'Code of the merchant account that pays it.' })
  merchantAccount!: string;

  @Field(() => String, { nullable: true, description: 'The client\'s own reference.' })
  merchantReference!: string | null;

  @Field(() => String, { nullable: true, description: 'Why the submission failed or is unconfirmed, e.g. PAYOUTS_NOT_ENABLED, PROVIDER_UNAVAILABLE.' })
  failureCode!: string | null;

  @Field({ description: 'False for test-mode payouts: no real money moved.' })
  livemode!: boolean;

  @Field({ description: 'When the payout was created.' })
  createdAt!: Date;

  @Field({ description: 'When the payout last changed.' })
  updatedAt!: Date;

  /** Owner, for the record; visibility follows the merchant account. */
  clientId!: string;

  static from(snapshot: PayoutSnapshot): PayoutNode {
    return Object.assign(new PayoutNode(), {
      id: snapshot.id,
      clientId: snapshot.clientId,
      status: snapshot.status,
      providerStatus: snapshot.providerStatus,
      statusReason: snapshot.statusReason,
      amount: Money.of(snapshot.amount, snapshot.currency)!,
      country: snapshot.country,
      maskedBeneficiary: Object.assign(new PayoutBeneficiaryNode(), snapshot.beneficiary),
      provider: paymentProviderOf(snapshot.provider),
      merchantAccount: snapshot.merchantAccount,
      merchantReference: snapshot.merchantReference,
      failureCode: snapshot.failureCode,
      livemode: snapshot.livemode,
      createdAt: new Date(snapshot.createdAt),
      updatedAt: new Date(snapshot.updatedAt),
    });
  }
}

@ObjectType({ description: 'A page of payouts, newest first.' })
export class PayoutConnection extends connectionType(PayoutNode, 'Payout') {}

@InputType({ description: 'Narrows `payouts`. All given conditions must hold. Test and live payouts are never listed together.' })
export class PayoutFilter {
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: live payouts only; false: test payouts only. Default: the mode of the merchant account createPayout uses when none is named.',
  })
  livemode?: boolean;

  @Field(() => PayoutStatusEnum, { nullable: true, description: 'Only payouts in this status.' })
  status?: PayoutStatus;

  @Field({ nullable: true, description: 'Only payouts to this country: ECUADOR, CHILE, PERU, MEXICO or COLOMBIA.' })
  country?: string;

  @Field({ nullable: true, description: 'Merchant account code.' })
  merchantAccount?: string;

  @Field({ nullable: true, description: 'Only payouts with this merchant reference.' })
  merchantReference?: string;

  @Field({ nullable: true, description: 'Created at or after this time.' })
  createdAfter?: Date;

  @Field({ nullable: true, description: 'Created before this time.' })
  createdBefore?: Date;
}
