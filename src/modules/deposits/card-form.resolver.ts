// GraphQL entry points of the embedded card form: the card session query and the settle mutation.

import { GraphQLError } from 'graphql';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../graphql/context.js';
import { userErrors } from '../../graphql/user-error.js';
import { CardSession, SettleCardDepositInput, SettleCardDepositPayload } from './card-form.types.js';
import { toDepositSnapshot } from './deposit-snapshot.js';
import { DepositNode } from './deposit.types.js';

@Resolver()
export class CardFormResolver {
  @Authorized('CASHIER')
  @Query(() => CardSession, { nullable: true, description: 'The embedded card form\'s session for one of the caller\'s CARD deposits (admins: any); null when there is no such deposit.' })
  async cardSession(@Ctx() ctx: RequestContext, @Arg('depositId', () => ID, { description: 'The CARD deposit to show the form for.' }) depositId: string): Promise<CardSession | null> {
    const result = await ctx.services.cardForm.session(ctx.em, ctx.client!, depositId);
    if (result.ok) return CardSession.from(result.session);
    if (result.notFound) return null;
    // A provider failure is not the caller's input: it keeps the provider error's own code and
    // client-safe message (PROVIDER_UNAVAILABLE: try again; PROVIDER_REJECTED: the provider refused).
    throw new GraphQLError(result.error.message, { extensions: { code: result.providerFailure ? result.error.code : 'BAD_USER_INPUT', reason: result.error.code } });
  }

  @Authorized('CASHIER')
  @Mutation(() => SettleCardDepositPayload, {
    description: 'Call when the shopper returns from the card form: asks the provider for the outcome and applies it. Idempotent; ignore the return address\'s query parameters.',
  })
  async settleCardDeposit(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The deposit to settle.' }) input: SettleCardDepositInput): Promise<SettleCardDepositPayload> {
    const result = await ctx.services.cardForm.settle(ctx.em, ctx.client!, input.depositId);
    return {
      deposit: result.deposit ? DepositNode.from(toDepositSnapshot(result.deposit)) : null,
      alreadyProcessed: result.alreadyProcessed,
      userErrors: userErrors(result.errors),
    };
  }
}
