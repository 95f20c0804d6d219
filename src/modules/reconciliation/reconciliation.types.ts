// GraphQL shapes of on-demand reconciliation: the outcome enum and the reconcileDeposit payload.

import { Extensions, Field, ObjectType, registerEnumType } from 'type-graphql';
import { whenRefused } from '../../graphql/storable-arguments.js';
import { UserError } from '../../graphql/user-error.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { ReconcileOutcome } from './reconcile-results.js';

export const ReconcileOutcomeEnum = {
  APPLIED: 'APPLIED',
  UNCHANGED: 'UNCHANGED',
  ANOMALY: 'ANOMALY',
  PROVIDER_ERROR: 'PROVIDER_ERROR',
  NOT_FOUND: 'NOT_FOUND',
  NOT_SUBMITTED: 'NOT_SUBMITTED',
  ACCOUNT_NOT_CONFIGURED: 'ACCOUNT_NOT_CONFIGURED',
} as const;
export type ReconcileOutcomeValue = keyof typeof ReconcileOutcomeEnum;

registerEnumType(ReconcileOutcomeEnum, {
  name: 'ReconcileOutcome',
  description: 'What asking the provider about a deposit did.',
  valuesConfig: {
    APPLIED: { description: 'The provider\'s status differed and was applied (one event, one notification).' },
    UNCHANGED: { description: 'The deposit already had the provider\'s status.' },
    ANOMALY: { description: 'The provider\'s report was refused (impossible transition, other money, another order); see reason.' },
    PROVIDER_ERROR: { description: 'The provider could not be asked; try again later.' },
    NOT_FOUND: { description: 'No such deposit.' },
    NOT_SUBMITTED: { description: 'The deposit never reached the provider: there is nothing to ask about.' },
    ACCOUNT_NOT_CONFIGURED: { description: 'The deposit\'s merchant account is not configured on this gateway.' },
  },
});

export const RECONCILE_OUTCOME: Record<ReconcileOutcome, ReconcileOutcomeValue> = {
  applied: 'APPLIED',
  noop: 'UNCHANGED',
  anomaly: 'ANOMALY',
  provider_error: 'PROVIDER_ERROR',
  not_found: 'NOT_FOUND',
  not_submitted: 'NOT_SUBMITTED',
  account_missing: 'ACCOUNT_NOT_CONFIGURED',
};

@ObjectType({ description: 'The answer to reconcileDeposit: what the provider said and what the gateway did with it.' })
export class ReconcileDepositPayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit after reconciliation.' })
  deposit!: DepositNode | null;

  @Field(() => ReconcileOutcomeEnum, { description: 'What reconciliation did.' })
  // An id that cannot be stored names no deposit.
  @Extensions(whenRefused('NOT_FOUND'))
  outcome!: ReconcileOutcomeValue;

  @Field(() => String, { nullable: true, description: 'Why, for ANOMALY and PROVIDER_ERROR: starts with a stable code (e.g. TRANSITION_NOT_ALLOWED).' })
  reason!: string | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}
