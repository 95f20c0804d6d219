// GraphQL shapes of Thai QR payments: the create input, webhook registrations and test-mode
// simulation. The code itself (QrCode) is in qr-code.node.ts.

import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars.js';
import { UserError } from '../../graphql/user-error.js';
import { DepositNode } from '../deposits/deposit.types.js';
import type { QrWebhookRegistration } from './qr-webhook-registration.entity.js';

@InputType({ description: 'Who pays. The bank account is sent to the provider and not kept by the gateway.' })
export class QrPayerInput {
  @Field() name!: string;
  @Field({ nullable: true }) bankName?: string;
  @Field({ nullable: true, description: 'Thai bank account number, 10 to 15 digits.' }) bankAccount?: string;
}

@InputType({ description: 'A Thai QR payment in THB.' })
export class CreateQrCodeInput {
  @Field(() => DecimalScalar, { description: 'THB amount, e.g. "150.00".' }) amount!: string;
  @Field({ nullable: true }) merchantReference?: string;
  @Field({ nullable: true, description: 'Same key and same input return the first result; also accepted as the Idempotency-Key header.' }) idempotencyKey?: string;
  @Field(() => ID, { nullable: true }) merchantAccount?: string;
  @Field(() => QrPayerInput) payer!: QrPayerInput;
  @Field(() => Int, { nullable: true, description: 'Lifetime of the code, 60 to 86400 seconds; default 900.' }) expiresInSeconds?: number;
}

@ObjectType()
export class CreateQrCodePayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit (rail THAI_QR) with its qrCode.' })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@ObjectType('QrWebhookRegistration', { description: 'A URL registered with the QR gateway to receive its events.' })
export class QrWebhookRegistrationNode {
  @Field(() => ID) id!: string;
  @Field() merchantAccount!: string;
  @Field({ description: 'The provider\'s registration id (wh_…).' }) providerWebhookId!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field({ description: 'The provider\'s status word, e.g. active.' }) status!: string;
  @Field() createdAt!: Date;

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

@InputType()
export class RegisterQrWebhookInput {
  @Field() merchantAccount!: string;
  @Field({ description: 'A public https URL (the sandbox also accepts loopback http).' }) url!: string;
  @Field(() => [String], { description: 'payment.succeeded, payment.failed, payment.pending, withdrawal.*, refund.completed, refund.failed.' }) events!: string[];
}

@ObjectType()
export class RegisterQrWebhookPayload {
  @Field(() => QrWebhookRegistrationNode, { nullable: true }) registration!: QrWebhookRegistrationNode | null;
  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' }) userErrors!: UserError[];
}

export const QrSimulatedOutcomeEnum = { SUCCEEDED: 'SUCCEEDED', FAILED: 'FAILED' } as const;
registerEnumType(QrSimulatedOutcomeEnum, { name: 'QrSimulatedOutcome' });

@InputType()
export class SimulateQrPaymentInput {
  @Field(() => ID) depositId!: string;
  @Field(() => QrSimulatedOutcomeEnum) outcome!: 'SUCCEEDED' | 'FAILED';
}

@ObjectType()
export class SimulateQrPaymentPayload {
  @Field(() => DepositNode, { nullable: true, description: 'The deposit; its status changes when the provider\'s webhook arrives (watch depositUpdated).' })
  deposit!: DepositNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' }) userErrors!: UserError[];
}
