// GraphQL entry point of on-demand reconciliation (admins).

import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../graphql/context.js';
import { UserError } from '../../graphql/user-error.js';
import { linkToStoredTrace } from '../../lib/tracing/trace-context.js';
import { userErrorCodeOf, type UserErrorCode } from '../../lib/user-error-codes.js';
import { toDepositSnapshot } from '../deposits/deposit-snapshot.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { ReconcileOutcome } from './reconcile-results.js';
import { RECONCILE_OUTCOME, ReconcileDepositPayload } from './reconciliation.types.js';

/** Outcomes where nothing could be checked: reported as a user error too. */
const FAILED: Partial<Record<ReconcileOutcome, UserErrorCode>> = {
  not_found: 'NOT_FOUND',
  not_submitted: 'DEPOSIT_NOT_SUBMITTED',
  account_missing: 'ACCOUNT_NOT_CONFIGURED',
  provider_error: 'PROVIDER_UNAVAILABLE',
};

@Resolver()
export class ReconciliationResolver {
  @Authorized('ADMIN')
  @Mutation(() => ReconcileDepositPayload, { description: 'Asks the provider about one deposit now and applies its answer, as the background reconciler does.' })
  async reconcileDeposit(@Ctx() ctx: GatewayContext, @Arg('id', () => ID, { description: 'The deposit to reconcile.' }) id: string): Promise<ReconcileDepositPayload> {
    const result = await ctx.services.reconciler.reconcileDeposit(ctx.em, id);
    // The check runs in the admin's trace: its operation's span links to the trace of the request
    // that made the deposit, as the background check's job run does (docs/tracing.md).
    linkToStoredTrace(result.deposit?.traceContext, { 'payments.subject.type': 'deposit' });
    const code = FAILED[result.outcome];
    return {
      deposit: result.deposit ? DepositNode.from(toDepositSnapshot(result.deposit)) : null,
      outcome: RECONCILE_OUTCOME[result.outcome],
      reason: result.reason ?? null,
      userErrors: code
        ? [UserError.from({ field: result.outcome === 'provider_error' ? [] : ['id'], code: result.outcome === 'provider_error' ? userErrorCodeOf(result.reason, code) : code, message: result.reason ?? code })]
        : [],
    };
  }
}
