// GraphQL inputs of createPayout. Shapes only; every rule is checked by the payout service and the provider adapter.

import { Field, ID, InputType } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars.js';
import type { PayoutBeneficiary } from '../../providers/provider.js';
import type { CreatePayoutInput as ServiceInput } from './payout.service.js';

@InputType({ description: 'The player being paid. Which fields are required depends on the country (all but Mexico need bankCode and accountType; Peru also cci).' })
export class PayoutBeneficiaryInput {
  @Field({ nullable: true, description: 'Account holder\'s full name.' }) name?: string;
  @Field({ nullable: true, description: 'Identity document type, case-sensitive (e.g. CI, RUT, DNI, CURP, CC).' }) documentType?: string;
  @Field({ nullable: true, description: 'Identity document number (Chile RUT NNNNNNNN-D; Peru DNI 8 digits).' }) documentNumber?: string;
  @Field({ nullable: true, description: 'Destination account; Mexico: the 18-digit CLABE. Shown masked afterwards.' }) accountNumber?: string;
  @Field({ nullable: true, description: 'Bank code (not for Mexico).' }) bankCode?: string;
  @Field({ nullable: true, description: 'Account type, e.g. checking or savings (not for Mexico).' }) accountType?: string;
  @Field({ nullable: true, description: 'Peru: the 20-digit interbank number (CCI). Shown masked afterwards.' }) cci?: string;
}

@InputType({ description: 'A payout request.' })
export class CreatePayoutInput {
  @Field({ description: 'ECUADOR, CHILE, PERU, MEXICO or COLOMBIA.' })
  country!: string;

  @Field(() => DecimalScalar, { description: 'Exact decimal string in major units, e.g. "150.00"; whole numbers for CLP and COP.' })
  amount!: string;

  @Field({ nullable: true, description: 'ISO 4217 code; defaults to the country\'s currency (USD for Ecuador, CLP, PEN, MXN, COP).' })
  currency?: string;

  @Field(() => PayoutBeneficiaryInput, { description: 'Who is paid; which fields are required depends on the country.' })
  beneficiary!: PayoutBeneficiaryInput;

  @Field({ nullable: true, description: 'Your own reference (up to 128 characters), echoed back.' })
  merchantReference?: string;

  @Field({ nullable: true, description: 'Same key and same input return the first result; also accepted as the Idempotency-Key header.' })
  idempotencyKey?: string;

  @Field(() => ID, { nullable: true, description: `Merchant account code; defaults to the first account the client may use whose provider offers payouts.` })
  merchantAccount?: string;

  /** The service's view of this input. */
  toServiceInput(idempotencyKeyHeader?: string): ServiceInput {
    const idempotencyKey = this.idempotencyKey ?? idempotencyKeyHeader;
    const beneficiary = Object.fromEntries(Object.entries({ ...this.beneficiary }).filter(([, value]) => value !== null && value !== undefined)) as PayoutBeneficiary;
    return {
      country: this.country,
      amount: this.amount,
      beneficiary,
      ...(this.currency != null ? { currency: this.currency } : {}),
      ...(this.merchantReference != null ? { merchantReference: this.merchantReference } : {}),
      ...(idempotencyKey != null ? { idempotencyKey } : {}),
      ...(this.merchantAccount != null ? { merchantAccount: this.merchantAccount } : {}),
    };
  }
}
