// GraphQL shape of a merchant account: code, provider, mode and what its provider offers.

import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { BUILT_IN_PROVIDERS } from '../../providers/index.js';
import type { Capability } from '../../providers/ports.js';
import type { Rail } from '../../providers/provider.js';
import { RailEnum } from '../../graphql/rail.js';
import type { MerchantAccountView } from './merchant-account.service.js';

export const ProviderCapabilityEnum = {
  REFUNDS: 'refunds',
  PAYOUTS: 'payouts',
  CARD_FORM: 'cardForm',
  DEPOSIT_LISTING: 'depositListing',
  WEBHOOK_REGISTRATION: 'webhookRegistration',
  SIMULATION: 'simulation',
} as const satisfies Record<string, Capability>;

registerEnumType(ProviderCapabilityEnum, {
  name: 'ProviderCapability',
  description: 'What a merchant account\'s provider offers beyond deposits. Asking an account for what its provider lacks is refused with CAPABILITY_NOT_SUPPORTED (REFUND_NOT_SUPPORTED for refunds).',
  valuesConfig: {
    REFUNDS: { description: 'requestRefund on its deposits.' },
    PAYOUTS: { description: 'createPayout on this account.' },
    CARD_FORM: { description: 'The embedded card form (cardSession, settleCardDeposit) for its CARD deposits.' },
    DEPOSIT_LISTING: { description: 'A list of its payments, which reconciliation searches for a deposit whose provider reference it never learnt.' },
    WEBHOOK_REGISTRATION: { description: 'The gateway registers its webhook URL through the provider\'s API.' },
    SIMULATION: { description: 'simulateQrPayment, on sandbox test accounts.' },
  },
});

@ObjectType('MerchantAccount', { description: 'A provider account the gateway moves money through. Credentials are never exposed.' })
export class MerchantAccountNode {
  @Field({ description: 'The account\'s code: name it as merchantAccount in inputs and filters.' })
  code!: string;

  @Field({ description: `${BUILT_IN_PROVIDERS.map((definition) => `"${definition.name}"`).join(' or ')}.` })
  provider!: string;

  @Field({ description: 'False for test-mode accounts: no real money moves. True for live-mode accounts, which alone take hosted checkout; real money moves on them unless sandbox is true.' })
  livemode!: boolean;

  @Field({ description: 'True when the gateway\'s local provider sandbox serves the account (development and tests): no real money moves, even in live mode.' })
  sandbox!: boolean;

  @Field(() => [RailEnum], { description: 'The rails its provider serves: a deposit naming this account must use one of them.' })
  rails!: Rail[];

  @Field(() => [ProviderCapabilityEnum], { description: 'What its provider offers beyond deposits.' })
  capabilities!: Capability[];

  static from(view: MerchantAccountView): MerchantAccountNode {
    return Object.assign(new MerchantAccountNode(), { ...view, rails: [...view.rails] });
  }
}
