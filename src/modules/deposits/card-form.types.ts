// GraphQL shapes of the embedded card form: the card session (never the provider's `integrity`), the settle input and its payload.

import { Extensions, Field, ID, InputType, ObjectType } from 'type-graphql';
import { whenRefused } from '../../graphql/storable-arguments.js';
import { UserError } from '../../graphql/user-error.js';
import type { DepositStatus } from '../../providers/provider.js';
import type { CardSessionView } from './card-form.service.js';
import { DepositNode, DepositStatusEnum, Money } from './deposit.types.js';

@ObjectType({ description: 'What a merchant page needs to show the provider\'s embedded card form for a CARD deposit.' })
export class CardSession {
  @Field(() => ID, { description: 'The CARD deposit this form pays.' })
  depositId!: string;

  @Field({ description: 'True once the payment reached a final state at the provider: show a result page, not the form (scriptUrl and brands are then empty).' })
  settled!: boolean;

  @Field(() => DepositStatusEnum, { description: 'The payment\'s status at the provider now.' })
  status!: DepositStatus;

  @Field(() => Money, { description: 'The amount the shopper pays, as the provider holds it.' })
  amount!: Money;

  @Field(() => String, {
    nullable: true,
    description: 'The processor\'s loader script for this checkout. Load it WITHOUT an integrity attribute: its hash changes per checkout and a browser would block it silently.',
  })
  scriptUrl!: string | null;

  @Field(() => [String], { description: 'Enabled card brands, e.g. VISA, MASTER: put them on the form as the provider\'s documentation says.' })
  brands!: string[];

  @Field(() => String, {
    nullable: true,
    description:
      'The action of the form the loader script turns into card fields: this gateway\'s return address with a signed order token. The card fields post to the provider, never to you; the provider sends the shopper back here, the gateway settles the deposit server to server and then sends the shopper to the deposit\'s returnUrl. Null once settled.',
  })
  formAction!: string | null;

  static from(view: CardSessionView): CardSession {
    return Object.assign(new CardSession(), {
      depositId: view.depositId,
      settled: view.settled,
      status: view.status,
      amount: Money.of(view.amount.toDecimal(), view.amount.currency)!,
      scriptUrl: view.scriptUrl,
      brands: view.brands,
      formAction: view.formAction,
    });
  }
}

@InputType({ description: 'The CARD deposit whose outcome to ask the provider for, after the shopper used the card form.' })
export class SettleCardDepositInput {
  @Field(() => ID, { description: 'The CARD deposit the shopper just completed the card form for.' })
  depositId!: string;
}

@ObjectType({ description: 'The answer to settleCardDeposit: the deposit with the provider\'s outcome applied, or what stopped it.' })
export class SettleCardDepositPayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit after the provider\'s outcome was applied: SUCCEEDED, or DECLINED with declineReason.' })
  deposit!: DepositNode | null;

  @Field({ description: 'True when the deposit already had this outcome (a repeated call): nothing changed.' })
  @Extensions(whenRefused(false))
  alreadyProcessed!: boolean;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}
