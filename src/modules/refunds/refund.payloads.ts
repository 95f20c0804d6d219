// GraphQL payload of requestRefund.

import { Field, ObjectType } from 'type-graphql';
import { UserError } from '../../graphql/user-error.js';
import { RefundNode } from './refund.types.js';

@ObjectType({ description: 'The answer to requestRefund: the refund, or what stopped it.' })
export class RequestRefundPayload {
  @Field(() => RefundNode, {
    nullable: true,
    description: 'The refund, also when the provider could not be reached (it stays REQUESTED and recoverable: retry with the same idempotency key).',
  })
  refund!: RefundNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}
