import { Field, ObjectType } from 'type-graphql';
import { UserError } from '../../graphql/user-error.js';
import { DepositNode } from './deposit.types.js';

@ObjectType({ description: 'The answer to createDeposit: the deposit, or what stopped it.' })
export class CreateDepositPayload {
  @Field(() => DepositNode, {
    nullable: true,
    description: 'The deposit, also when the provider could not be reached (it stays PENDING and recoverable: retry with the same idempotency key).',
  })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@ObjectType({ description: 'A claim of a deposit\'s credit: when it was first made, and whether this call made it.' })
export class DepositCreditClaim {
  @Field(() => Date, { description: 'When the credit was first claimed; the same on every later claim.' })
  claimedAt!: Date;

  @Field({ description: 'True for the one call, on any instance or transport, that claimed it: credit the player then, and only then.' })
  firstClaim!: boolean;
}

@ObjectType({ description: 'The answer to claimDepositCredit: the claim, or what stopped it.' })
export class ClaimDepositCreditPayload {
  @Field(() => DepositCreditClaim, { nullable: true, description: 'The claim; null when the deposit cannot be claimed (see userErrors).' })
  claim!: DepositCreditClaim | null;

  @Field(() => DepositNode, { nullable: true, description: 'The deposit as it stands, with creditClaimedAt; null when it is not found.' })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the claim: NOT_FOUND, or DEPOSIT_NOT_SUCCEEDED with the current status; empty when it succeeded.' })
  userErrors!: UserError[];
}
