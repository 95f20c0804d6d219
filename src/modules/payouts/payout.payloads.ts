// GraphQL payload of createPayout: the payout or null, and userErrors.

import { Field, ObjectType } from 'type-graphql';
import { UserError } from '../../graphql/user-error.js';
import { PayoutNode } from './payout.types.js';

@ObjectType({ description: 'The answer to createPayout: the payout, or what stopped it.' })
export class CreatePayoutPayload {
  @Field(() => PayoutNode, {
    nullable: true,
    description: 'The payout; null when the input was refused before any provider call. FAILED when the provider refused it; PENDING with userErrors when the provider could not be reached (retry with the same idempotency key).',
  })
  payout!: PayoutNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}
