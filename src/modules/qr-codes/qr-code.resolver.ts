import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { userErrors } from '../../graphql/user-error.js';
import { toDepositSnapshot } from '../deposits/deposit-snapshot.js';
import { DepositNode } from '../deposits/deposit.types.js';
import {
  CreateQrCodeInput,
  CreateQrCodePayload,
  QrWebhookRegistrationNode,
  RegisterQrWebhookInput,
  RegisterQrWebhookPayload,
  SimulateQrPaymentInput,
  SimulateQrPaymentPayload,
} from './qr-code.types.js';

@Resolver()
export class QrCodeResolver {
  @Authorized('CASHIER')
  @Mutation(() => CreateQrCodePayload, { description: 'Creates a Thai QR payment: a deposit on the THAI_QR rail whose qrCode the cashier shows at once.' })
  async createQrCode(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The amount and the payer.' }) input: CreateQrCodeInput): Promise<CreateQrCodePayload> {
    const idempotencyKey = input.idempotencyKey ?? ctx.idempotencyKey;
    const payer = { name: input.payer.name, ...(input.payer.bankName != null ? { bankName: input.payer.bankName } : {}), ...(input.payer.bankAccount != null ? { bankAccount: input.payer.bankAccount } : {}) };
    const result = await ctx.services.deposits.create(ctx.em, ctx.client!, {
      amount: input.amount,
      currency: 'THB',
      ...(input.merchantReference != null ? { merchantReference: input.merchantReference } : {}),
      ...(idempotencyKey != null ? { idempotencyKey } : {}),
      ...(input.merchantAccount != null ? { merchantAccount: input.merchantAccount } : {}),
      rails: {
        thaiQr: { rail: 'THAI_QR', payer, clientId: ctx.client!.id, ...(input.expiresInSeconds != null ? { expiresInSeconds: input.expiresInSeconds } : {}) },
      },
    });
    return { deposit: result.deposit ? DepositNode.from(result.deposit) : null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => RegisterQrWebhookPayload, { description: 'Registers a URL for the given events with the merchant account\'s provider: the QR gateway, or any provider whose account lists WEBHOOK_REGISTRATION among its capabilities. Admins only.' })
  async registerQrWebhook(@Ctx() ctx: GatewayContext, @Arg('input', { description: 'The account, URL and events.' }) input: RegisterQrWebhookInput): Promise<RegisterQrWebhookPayload> {
    const result = await ctx.services.qrCodes.register(ctx.em, input);
    return { registration: result.registration ? QrWebhookRegistrationNode.from(result.registration) : null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Query(() => [QrWebhookRegistrationNode], { description: 'Webhook registrations made with providers that take them (the QR gateway\'s among them), newest first. Admins only.' })
  async qrWebhookRegistrations(@Ctx() ctx: GatewayContext, @Arg('merchantAccount', () => String, { nullable: true, description: 'Only this merchant account\'s registrations; omit for all.' }) merchantAccount?: string): Promise<QrWebhookRegistrationNode[]> {
    return (await ctx.services.qrCodes.list(ctx.em, merchantAccount ?? undefined)).map((registration) => QrWebhookRegistrationNode.from(registration));
  }

  @Authorized('ADMIN')
  @Mutation(() => SimulateQrPaymentPayload, { description: 'Test mode only: simulates the payer paying (SUCCEEDED) or failing (FAILED). Admins only.' })
  async simulateQrPayment(@Ctx() ctx: RequestContext, @Arg('input', { description: 'The deposit and what its payer does.' }) input: SimulateQrPaymentInput): Promise<SimulateQrPaymentPayload> {
    const result = await ctx.services.qrCodes.simulate(ctx.em, ctx.client!, input.depositId, input.outcome);
    return { deposit: result.deposit ? DepositNode.from(toDepositSnapshot(result.deposit)) : null, userErrors: userErrors(result.errors) };
  }
}
