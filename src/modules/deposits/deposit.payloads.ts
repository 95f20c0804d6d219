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
