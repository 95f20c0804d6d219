// GraphQL inputs of createDeposit: shared fields, the customer, and one block per rail.
// Shapes only; every rule is checked by the deposit service and the provider adapter.

import { Field, ID, InputType, Int } from 'type-graphql';
import { DecimalScalar } from '../../graphql/scalars.js';
import type { CreateDepositInput as ServiceInput } from './deposit.service.js';

@InputType({ description: 'The payer\'s details. Which are required depends on the rail.' })
export class CustomerInput {
  @Field({ nullable: true, description: 'The payer\'s email address.' }) email?: string;
  @Field({ nullable: true, description: 'The payer\'s first name.' }) firstName?: string;
  @Field({ nullable: true, description: 'The payer\'s last name.' }) lastName?: string;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 billing country, e.g. "NL" (not a country name).' }) country?: string;
  @Field({ nullable: true, description: 'Billing street address.' }) address1?: string;
  @Field({ nullable: true, description: 'Billing city.' }) city?: string;
  @Field({ nullable: true, description: 'Billing postal code.' }) zipCode?: string;
  @Field({ nullable: true, description: 'E.164 for cards, e.g. "+31612345678".' }) phone?: string;
  @Field({ nullable: true, description: 'Dialling code for LATAM, e.g. "+57".' }) phoneCode?: string;
  @Field({ nullable: true, description: 'UPI: the payer\'s UPI ID (name@bank). PIX: the payer\'s CPF, 11 digits. Must be the person actually paying.' }) personalId?: string;
  @Field({ nullable: true, description: 'LATAM identity document type, case-sensitive (e.g. DNI, RUT, CC).' }) documentType?: string;
  @Field({ nullable: true, description: 'LATAM identity document number (Peru DNI 8 digits; Chile RUT NNNNNNNN-D).' }) documentNumber?: string;
}

@InputType({ description: 'The provider\'s hosted page lets the player choose how to pay (live accounts only).' })
export class HostedCheckoutInput {
  @Field({ nullable: true, description: 'Pre-select a method: cards, sepa, instant or fps.' }) method?: string;
  @Field({ nullable: true, description: 'With sepa, instant or fps: NL, MT or GB (fps GB only).' }) bankCountry?: string;
  @Field(() => Int, { nullable: true, description: 'Session lifetime, 300 to 86400 seconds; default 3600.' }) expiresInSeconds?: number;
  @Field({ nullable: true, description: 'https address the player returns to after paying (with ?ref=&status=); returnUrl when omitted. Never credit on return: wait for SUCCEEDED.' }) successUrl?: string;
  @Field({ nullable: true, description: 'https address the player returns to after abandoning or failing (with ?ref=&status=); returnUrl when omitted.' }) cancelUrl?: string;
}

@InputType({ description: 'One key/value pair of a deposit\'s metadata.' })
export class MetadataEntryInput {
  @Field({ description: '1 to 40 letters, digits, "_", "-" or "."; unique within the deposit.' }) key!: string;
  @Field({ description: 'Up to 500 characters.' }) value!: string;
}

@InputType({ description: 'Card payment with 3-D Secure on the provider\'s page. Has no fields of its own: pass {}.' })
export class CardInput {
  @Field({ nullable: true, defaultValue: true, description: 'Always true; present because GraphQL inputs need a field.' }) selected?: boolean;
}

@InputType({ description: 'European open banking.' })
export class OpenBankingInput {
  @Field({ description: 'sepa, instant or fps.' }) method!: string;
  @Field({ description: 'NL, MT or GB; fps is GB only.' }) bankCountry!: string;
}

@InputType({ description: 'LATAM local methods; the country selects the rail and the currency.' })
export class LatamInput {
  @Field({ description: 'ECUADOR, CHILE, PERU, MEXICO or COLOMBIA.' }) country!: string;
  @Field({ nullable: true, description: 'Chile: cards or bank. Peru: bank or qr. Omit for Ecuador, Mexico and Colombia.' }) method?: string;
  @Field({ nullable: true, description: 'Where the player returns after a completed payment.' }) successUrl?: string;
  @Field({ nullable: true, description: 'Where the player returns after a failed payment.' }) errorUrl?: string;
  @Field({ nullable: true, description: 'Colombia only: return address after the payment.' }) redirectUrl?: string;
  @Field({
    nullable: true,
    description: 'When the payment link expires. Ecuador requires it, 5 minutes to 72 hours ahead; Mexico and Colombia take it in that window (else 30 minutes); Peru and Chile ignore it (30 minutes). An unpaid link that expires makes the deposit EXPIRED.',
  })
  expiresAt?: Date;
}

@InputType({ description: 'UPI (India, INR 100 to 50,000). The payer\'s UPI ID goes in customer.personalId. Pass {}.' })
export class UpiInput {
  @Field({ nullable: true, defaultValue: true, description: 'Always true; present because GraphQL inputs need a field.' }) selected?: boolean;
}

@InputType({ description: 'PIX (Brazil, BRL 10 to 15,000). The payer\'s CPF goes in customer.personalId. Pass {}.' })
export class PixInput {
  @Field({ nullable: true, defaultValue: true, description: 'Always true; present because GraphQL inputs need a field.' }) selected?: boolean;
}

@InputType({ description: 'Cryptocurrency (EUR or USD, from 10.00). Pass {}.' })
export class CryptoInput {
  @Field({ nullable: true, defaultValue: true, description: 'Always true; present because GraphQL inputs need a field.' }) selected?: boolean;
}

@InputType({ description: 'A deposit request. Give exactly one rail block.' })
export class CreateDepositInput {
  @Field(() => DecimalScalar, { description: 'Exact decimal string in major units, e.g. "25.00"; whole numbers for CLP and COP.' })
  amount!: string;

  @Field({ nullable: true, description: 'ISO 4217 code; defaults to the rail\'s currency (EUR for cards, INR for UPI, BRL for PIX, the country\'s for LATAM).' })
  currency?: string;

  @Field({ nullable: true, description: 'Your own reference (up to 128 characters), echoed back.' })
  merchantReference?: string;

  @Field({ nullable: true, description: 'https address the player returns to. Never credit on return: wait for SUCCEEDED.' })
  returnUrl?: string;

  @Field({ nullable: true, description: 'Same key and same input return the first result; also accepted as the Idempotency-Key header.' })
  idempotencyKey?: string;

  @Field(() => ID, { nullable: true, description: 'Merchant account code; defaults to the first one of the rail\'s provider the client may use.' })
  merchantAccount?: string;

  @Field(() => [MetadataEntryInput], { nullable: true, description: 'Your own key/value pairs (at most 20, 4 KB in all), shown back on the deposit and passed to the provider where it takes them. Not for personal data.' })
  metadata?: MetadataEntryInput[];

  @Field(() => CustomerInput, { nullable: true, description: 'The payer; which fields are required depends on the rail.' }) customer?: CustomerInput;
  @Field(() => HostedCheckoutInput, { nullable: true, description: 'Rail HOSTED_CHECKOUT: the provider\'s hosted page (live accounts only).' }) hostedCheckout?: HostedCheckoutInput;
  @Field(() => CardInput, { nullable: true, description: 'Rail CARD: a card payment with 3-D Secure.' }) card?: CardInput;
  @Field(() => OpenBankingInput, { nullable: true, description: 'Rail OPEN_BANKING: SEPA, instant or Faster Payments.' }) openBanking?: OpenBankingInput;
  @Field(() => LatamInput, { nullable: true, description: 'Rail LATAM: a local method in one of five Latin American countries.' }) latam?: LatamInput;
  @Field(() => UpiInput, { nullable: true, description: 'Rail UPI (India).' }) upi?: UpiInput;
  @Field(() => PixInput, { nullable: true, description: 'Rail PIX (Brazil).' }) pix?: PixInput;
  @Field(() => CryptoInput, { nullable: true, description: 'Rail CRYPTO.' }) crypto?: CryptoInput;

  /** The service's view of this input. */
  toServiceInput(idempotencyKeyHeader?: string): ServiceInput {
    const customer = this.customer ? (stripNulls({ ...this.customer }) as ServiceInput['customer']) : undefined;
    const idempotencyKey = this.idempotencyKey ?? idempotencyKeyHeader;
    return {
      amount: this.amount,
      ...(this.currency != null ? { currency: this.currency } : {}),
      ...(this.merchantReference != null ? { merchantReference: this.merchantReference } : {}),
      ...(this.returnUrl != null ? { returnUrl: this.returnUrl } : {}),
      ...(idempotencyKey != null ? { idempotencyKey } : {}),
      ...(this.merchantAccount != null ? { merchantAccount: this.merchantAccount } : {}),
      ...(this.metadata != null ? { metadata: this.metadata.map(({ key, value }) => ({ key, value })) } : {}),
      ...(customer ? { customer } : {}),
      rails: {
        hostedCheckout: this.hostedCheckout
          ? {
              rail: 'HOSTED_CHECKOUT',
              ...(this.hostedCheckout.method != null ? { preselect: { method: this.hostedCheckout.method, ...(this.hostedCheckout.bankCountry != null ? { bankCountry: this.hostedCheckout.bankCountry } : {}) } } : {}),
              ...(this.hostedCheckout.expiresInSeconds != null ? { expiresInSeconds: this.hostedCheckout.expiresInSeconds } : {}),
              ...(this.hostedCheckout.successUrl != null ? { successUrl: this.hostedCheckout.successUrl } : {}),
              ...(this.hostedCheckout.cancelUrl != null ? { cancelUrl: this.hostedCheckout.cancelUrl } : {}),
            }
          : null,
        card: this.card ? { rail: 'CARD' } : null,
        openBanking: this.openBanking ? { rail: 'OPEN_BANKING', method: this.openBanking.method, bankCountry: this.openBanking.bankCountry } : null,
        latam: this.latam ? { rail: 'LATAM', ...(stripNulls({ ...this.latam }) as { country: string }) } : null,
        upi: this.upi ? { rail: 'UPI' } : null,
        pix: this.pix ? { rail: 'PIX' } : null,
        crypto: this.crypto ? { rail: 'CRYPTO' } : null,
      },
    };
  }
}

function stripNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

@InputType({ description: 'The deposit whose credit to claim.' })
export class ClaimDepositCreditInput {
  @Field(() => ID, { description: 'The SUCCEEDED deposit (dep_…) whose amount the player is credited.' })
  depositId!: string;

  @Field({
    nullable: true,
    description:
      'This claim\'s own key, as an idempotency key (1 to 255 printable ASCII characters, no spaces; also accepted as the Idempotency-Key header). The claim that wins records it: the same client claiming again under the same key (a retry after a lost answer or a time-out) is told firstClaim: true again; any other claim firstClaim: false. Without a key, a winning claim whose answer was lost cannot be told it won.',
  })
  claimKey?: string;
}
