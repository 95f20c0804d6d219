// GraphQL shapes of Thai QR payments: the create input, webhook registrations and test-mode
// simulation. The code itself (QrCode) is in qr-code.node.ts.

import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars.js';
import { UserError } from '../../graphql/user-error.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { QrWebhookRegistration } from './qr-webhook-registration.entity.js';

@InputType({ description: 'Who pays. The bank account is sent to the provider and not kept by the gateway.' })
export class QrPayerInput {
  @Field({ description: 'The payer\'s full name.' }) name!: string;
  @Field({ nullable: true, description: 'The payer\'s bank, e.g. Kasikornbank.' }) bankName?: string;
  @Field({ nullable: true, description: 'Thai bank account number, 10 to 15 digits.' }) bankAccount?: string;
}

@InputType({ description: 'A Thai QR payment in THB.' })
export class CreateQrCodeInput {
  @Field(() => DecimalScalar, { description: 'THB amount, e.g. "150.00".' }) amount!: string;
  @Field({ nullable: true, description: 'Your own reference, echoed back.' }) merchantReference?: string;
  @Field({ nullable: true, description: 'Same key and same input return the first result; also accepted as the Idempotency-Key header.' }) idempotencyKey?: string;
  @Field(() => ID, { nullable: true, description: 'QR gateway merchant account code; defaults to the first one the client may use.' }) merchantAccount?: string;
  @Field(() => QrPayerInput, { description: 'Who pays.' }) payer!: QrPayerInput;
  @Field(() => Int, { nullable: true, description: "Lifetime of the code, 60 to 86400 seconds. Omitted: the provider's default (15 minutes in the QR gateway's test mode), and no lifetime is sent." }) expiresInSeconds?: number;
}

@ObjectType({ description: 'The answer to createQrCode: the deposit with its QR code, or what stopped it.' })
export class CreateQrCodePayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit (rail THAI_QR) with its qrCode.' })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@ObjectType('QrWebhookRegistration', { description: 'A URL registered with a provider (the QR gateway, or another that takes registrations) to receive its events.' })
export class QrWebhookRegistrationNode {
  @Field(() => ID, { description: 'The registration\'s id.' }) id!: string;
  @Field({ description: 'The merchant account it is registered with.' }) merchantAccount!: string;
  @Field({ description: 'The provider\'s registration id (wh_…).' }) providerWebhookId!: string;
  @Field({ description: 'Where the provider sends its events.' }) url!: string;
  @Field(() => [String], { description: 'The event names it receives.' }) events!: string[];
  @Field({ description: 'The provider\'s status word, e.g. active.' }) status!: string;
  @Field({ description: 'When it was registered.' }) createdAt!: Date;

  static from(registration: QrWebhookRegistration): QrWebhookRegistrationNode {
    return Object.assign(new QrWebhookRegistrationNode(), {
      id: registration.id,
      merchantAccount: registration.merchantAccount,
      providerWebhookId: registration.providerWebhookId,
      url: registration.url,
      events: registration.events,
      status: registration.status,
      createdAt: registration.createdAt,
    });
  }
}

@InputType({ description: 'A URL to register with a merchant account\'s provider for its events.' })
export class RegisterQrWebhookInput {
  @Field({ description: 'The merchant account to register with; its provider must offer WEBHOOK_REGISTRATION.' }) merchantAccount!: string;
  @Field({ description: 'A public https URL (the sandbox also accepts loopback http).' }) url!: string;
  @Field(() => [String], { description: 'Event names the provider sends (the QR gateway: payment.succeeded, payment.failed, payment.pending, withdrawal.*, refund.completed, refund.failed); an unknown one is refused with the list.' }) events!: string[];
}

@ObjectType({ description: 'The answer to registerQrWebhook: the registration, or what stopped it.' })
export class RegisterQrWebhookPayload {
  @Field(() => QrWebhookRegistrationNode, { nullable: true, description: 'The registration as the provider holds it.' }) registration!: QrWebhookRegistrationNode | null;
  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' }) userErrors!: UserError[];
}

export const QrSimulatedOutcomeEnum = { SUCCEEDED: 'SUCCEEDED', FAILED: 'FAILED' } as const;
registerEnumType(QrSimulatedOutcomeEnum, {
  name: 'QrSimulatedOutcome',
  description: 'How the simulated payer answers a test-mode QR code.',
  valuesConfig: {
    SUCCEEDED: { description: 'The payer pays: the deposit becomes SUCCEEDED.' },
    FAILED: { description: 'The payment fails: the deposit becomes DECLINED.' },
  },
});

@InputType({ description: 'A test-mode QR deposit to pay or fail as its payer would.' })
export class SimulateQrPaymentInput {
  @Field(() => ID, { description: 'The THAI_QR deposit.' }) depositId!: string;
  @Field(() => QrSimulatedOutcomeEnum, { description: 'What the payer does.' }) outcome!: 'SUCCEEDED' | 'FAILED';
}

@ObjectType({ description: 'The answer to simulateQrPayment: the deposit, or what stopped it.' })
export class SimulateQrPaymentPayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit; its status changes when the provider\'s webhook arrives (watch depositUpdated).' })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' }) userErrors!: UserError[];
}
