// The one shape of business failure in every mutation payload (DESIGN.md: userErrors).

import { Field, ObjectType } from 'type-graphql';
import type { UserErrorCode } from '../lib/user-error-codes.js';
import type { FieldError } from '../providers/provider.js';

@ObjectType({ description: 'A problem with the input or the operation, for the caller to fix or show. Never thrown.' })
export class UserError {
  @Field(() => [String], { nullable: true, description: 'Path to the input field at fault, relative to the mutation input; null when not about one field.' })
  field!: string[] | null;

  @Field(() => String, { description: 'Stable UPPER_SNAKE code, e.g. AMOUNT_BELOW_MINIMUM, IDEMPOTENCY_KEY_REUSED, PROVIDER_UNAVAILABLE.' })
  code!: UserErrorCode;

  @Field({ description: 'Human-readable explanation.' })
  message!: string;

  static from(error: FieldError): UserError {
    return Object.assign(new UserError(), { field: error.field.length ? error.field : null, code: error.code, message: error.message });
  }
}

export function userErrors(errors: FieldError[]): UserError[] {
  return errors.map((error) => UserError.from(error));
}
