// GraphQL shape of a merchant account: code, provider and mode only.

import { Field, ObjectType } from 'type-graphql';
import { BUILT_IN_PROVIDERS } from '../../providers/index.js';
import type { MerchantAccountView } from './merchant-account.service.js';

@ObjectType('MerchantAccount', { description: 'A provider account the gateway moves money through. Credentials are never exposed.' })
export class MerchantAccountNode {
  @Field({ description: 'The account\'s code: name it as merchantAccount in inputs and filters.' })
  code!: string;

  @Field({ description: `${BUILT_IN_PROVIDERS.map((definition) => `"${definition.name}"`).join(' or ')}.` })
  provider!: string;

  @Field({ description: 'False for test-mode accounts: no real money moves.' })
  livemode!: boolean;

  static from(view: MerchantAccountView): MerchantAccountNode {
    return Object.assign(new MerchantAccountNode(), view);
  }
}
