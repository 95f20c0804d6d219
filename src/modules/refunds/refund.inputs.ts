// GraphQL input of requestRefund. Shapes only; every rule is checked by the refund service.

import { Field, ID, InputType } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars.js';
import type { RequestRefundInput as ServiceInput } from './refund.service.js';

@InputType({ description: 'A refund of a SUCCEEDED deposit, in full or in part.' })
export class RequestRefundInput {
  @Field(() => ID, { description: 'The SUCCEEDED deposit to refund.' })
  depositId!: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'In the deposit\'s currency and decimals, e.g. "5.00"; omit to refund everything still refundable.' })
  amount?: string;

  @Field({ nullable: true, description: 'Why, for the provider and your records (up to 500 characters).' })
  reason?: string;

  @Field({ nullable: true, description: 'Retrying with the same key and input returns the first refund; no second refund is made.' })
  idempotencyKey?: string;

  /** The service's input; the request's Idempotency-Key header counts when the input has no key. */
  toServiceInput(headerKey?: string): ServiceInput {
    const idempotencyKey = this.idempotencyKey ?? headerKey;
    return {
      depositId: this.depositId,
      ...(this.amount != null ? { amount: this.amount } : {}),
      ...(this.reason != null ? { reason: this.reason } : {}),
      ...(idempotencyKey != null ? { idempotencyKey } : {}),
    };
  }
}
