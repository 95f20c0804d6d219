/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Card payment with 3-D Secure on the provider's page. Has no fields of its own: pass {}. */
export type CardInput = {
  /** Always true; present because GraphQL inputs need a field. */
  selected?: boolean | null | undefined;
};

/** The deposit whose credit to claim. */
export type ClaimDepositCreditInput = {
  /** This claim's own key, as an idempotency key (1 to 255 printable ASCII characters, no spaces; also accepted as the Idempotency-Key header). The claim that wins records it: the same client claiming again under the same key (a retry after a lost answer or a time-out) is told firstClaim: true again; any other claim firstClaim: false. Without a key, a winning claim whose answer was lost cannot be told it won. */
  claimKey?: string | null | undefined;
  /** The SUCCEEDED deposit (dep_…) whose amount the player is credited. */
  depositId: string | number;
};

/** A deposit request. Give exactly one rail block. */
export type CreateDepositInput = {
  /** Exact decimal string in major units, e.g. "25.00"; whole numbers for CLP and COP. */
  amount: string;
  /** Rail CARD: a card payment with 3-D Secure. */
  card?: CardInput | null | undefined;
  /** Rail CRYPTO. */
  crypto?: CryptoInput | null | undefined;
  /** ISO 4217 code; defaults to the rail's currency (EUR for cards, INR for UPI, BRL for PIX, the country's for LATAM). */
  currency?: string | null | undefined;
  /** The payer; which fields are required depends on the rail. */
  customer?: CustomerInput | null | undefined;
  /** Rail HOSTED_CHECKOUT: the provider's hosted page (live accounts only). */
  hostedCheckout?: HostedCheckoutInput | null | undefined;
  /** Same key and same input return the first result; also accepted as the Idempotency-Key header. */
  idempotencyKey?: string | null | undefined;
  /** Rail LATAM: a local method in one of five Latin American countries. */
  latam?: LatamInput | null | undefined;
  /** Merchant account code; defaults to the first one of the rail's provider the client may use. */
  merchantAccount?: string | number | null | undefined;
  /** Your own reference (up to 128 characters), echoed back. */
  merchantReference?: string | null | undefined;
  /** Your own key/value pairs (at most 20, 4 KB in all), shown back on the deposit and passed to the provider where it takes them. Not for personal data. */
  metadata?: Array<MetadataEntryInput> | null | undefined;
  /** Rail OPEN_BANKING: SEPA, instant or Faster Payments. */
  openBanking?: OpenBankingInput | null | undefined;
  /** Rail PIX (Brazil). */
  pix?: PixInput | null | undefined;
  /** https address the player returns to. Never credit on return: wait for SUCCEEDED. */
  returnUrl?: string | null | undefined;
  /** Rail UPI (India). */
  upi?: UpiInput | null | undefined;
};

/** A payout request. */
export type CreatePayoutInput = {
  /** Exact decimal string in major units, e.g. "150.00"; whole numbers for CLP and COP. */
  amount: string;
  /** Who is paid; which fields are required depends on the country. */
  beneficiary: PayoutBeneficiaryInput;
  /** ECUADOR, CHILE, PERU, MEXICO or COLOMBIA. */
  country: string;
  /** ISO 4217 code; defaults to the country's currency (USD for Ecuador, CLP, PEN, MXN, COP). */
  currency?: string | null | undefined;
  /** Same key and same input return the first result; also accepted as the Idempotency-Key header. */
  idempotencyKey?: string | null | undefined;
  /** Merchant account code; defaults to the first account the client may use whose provider offers payouts. */
  merchantAccount?: string | number | null | undefined;
  /** Your own reference (up to 128 characters), echoed back. */
  merchantReference?: string | null | undefined;
};

/** A Thai QR payment in THB. */
export type CreateQrCodeInput = {
  /** THB amount, e.g. "150.00". */
  amount: string;
  /** Lifetime of the code, 60 to 86400 seconds. Omitted: the provider's default (15 minutes in the QR gateway's test mode), and no lifetime is sent. */
  expiresInSeconds?: number | null | undefined;
  /** Same key and same input return the first result; also accepted as the Idempotency-Key header. */
  idempotencyKey?: string | null | undefined;
  /** QR gateway merchant account code; defaults to the first one the client may use. */
  merchantAccount?: string | number | null | undefined;
  /** Your own reference, echoed back. */
  merchantReference?: string | null | undefined;
  /** Who pays. */
  payer: QrPayerInput;
};

/** Cryptocurrency (EUR or USD, from 10.00). Pass {}. */
export type CryptoInput = {
  /** Always true; present because GraphQL inputs need a field. */
  selected?: boolean | null | undefined;
};

/** The payer's details. Which are required depends on the rail. */
export type CustomerInput = {
  /** Billing street address. */
  address1?: string | null | undefined;
  /** Billing city. */
  city?: string | null | undefined;
  /** ISO 3166-1 alpha-2 billing country, e.g. "NL" (not a country name). */
  country?: string | null | undefined;
  /** LATAM identity document number (Peru DNI 8 digits; Chile RUT NNNNNNNN-D). */
  documentNumber?: string | null | undefined;
  /** LATAM identity document type, case-sensitive (e.g. DNI, RUT, CC). */
  documentType?: string | null | undefined;
  /** The payer's email address. */
  email?: string | null | undefined;
  /** The payer's first name. */
  firstName?: string | null | undefined;
  /** The payer's last name. */
  lastName?: string | null | undefined;
  /** UPI: the payer's UPI ID (name@bank). PIX: the payer's CPF, 11 digits. Must be the person actually paying. */
  personalId?: string | null | undefined;
  /** E.164 for cards, e.g. "+31612345678". */
  phone?: string | null | undefined;
  /** Dialling code for LATAM, e.g. "+57". */
  phoneCode?: string | null | undefined;
  /** Billing postal code. */
  zipCode?: string | null | undefined;
};

/** Where a deposit stands. Credit a player on SUCCEEDED only. */
export type DepositStatus =
  /** Authorized: money has left the payer, not yet settled. Do not credit yet. */
  | 'AUTHORIZED'
  /** The payer abandoned; no money taken. */
  | 'CANCELLED'
  /** Not completed; no money taken. */
  | 'DECLINED'
  /** The payer never completed in time; no money taken. */
  | 'EXPIRED'
  /** A technical failure; no money taken; safe to try again. */
  | 'FAILED'
  /** Created; waiting for the payer or the bank. */
  | 'PENDING'
  /** A succeeded deposit returned in full. */
  | 'REFUNDED'
  /** Funds received. The only status on which to credit the player, once. */
  | 'SUCCEEDED';

/** The provider's hosted page lets the player choose how to pay (live accounts only). */
export type HostedCheckoutInput = {
  /** With sepa, instant or fps: NL, MT or GB (fps GB only). */
  bankCountry?: string | null | undefined;
  /** https address the player returns to after abandoning or failing (with ?ref=&status=); returnUrl when omitted. */
  cancelUrl?: string | null | undefined;
  /** Session lifetime, 300 to 86400 seconds; default 3600. */
  expiresInSeconds?: number | null | undefined;
  /** Pre-select a method: cards, sepa, instant or fps. */
  method?: string | null | undefined;
  /** https address the player returns to after paying (with ?ref=&status=); returnUrl when omitted. Never credit on return: wait for SUCCEEDED. */
  successUrl?: string | null | undefined;
};

/** LATAM local methods; the country selects the rail and the currency. */
export type LatamInput = {
  /** ECUADOR, CHILE, PERU, MEXICO or COLOMBIA. */
  country: string;
  /** Where the player returns after a failed payment. */
  errorUrl?: string | null | undefined;
  /** When the payment link expires. Ecuador requires it, 5 minutes to 72 hours ahead; Mexico and Colombia take it in that window (else 30 minutes); Peru and Chile ignore it (30 minutes). An unpaid link that expires makes the deposit EXPIRED. */
  expiresAt?: string | null | undefined;
  /** Chile: cards or bank. Peru: bank or qr. Omit for Ecuador, Mexico and Colombia. */
  method?: string | null | undefined;
  /** Colombia only: return address after the payment. */
  redirectUrl?: string | null | undefined;
  /** Where the player returns after a completed payment. */
  successUrl?: string | null | undefined;
};

/** One key/value pair of a deposit's metadata. */
export type MetadataEntryInput = {
  /** 1 to 40 letters, digits, "_", "-" or "."; unique within the deposit. */
  key: string;
  /** Up to 500 characters. */
  value: string;
};

/** European open banking. */
export type OpenBankingInput = {
  /** NL, MT or GB; fps is GB only. */
  bankCountry: string;
  /** sepa, instant or fps. */
  method: string;
};

/** The player being paid. Which fields are required depends on the country (all but Mexico need bankCode and accountType; Peru also cci). */
export type PayoutBeneficiaryInput = {
  /** Destination account; Mexico: the 18-digit CLABE. Shown masked afterwards. */
  accountNumber?: string | null | undefined;
  /** Account type, e.g. checking or savings (not for Mexico). */
  accountType?: string | null | undefined;
  /** Bank code (not for Mexico). */
  bankCode?: string | null | undefined;
  /** Peru: the 20-digit interbank number (CCI). Shown masked afterwards. */
  cci?: string | null | undefined;
  /** Identity document number (Chile RUT NNNNNNNN-D; Peru DNI 8 digits). */
  documentNumber?: string | null | undefined;
  /** Identity document type, case-sensitive (e.g. CI, RUT, DNI, CURP, CC). */
  documentType?: string | null | undefined;
  /** Account holder's full name. */
  name?: string | null | undefined;
};

/** Where a payout stands. */
export type PayoutStatus =
  /** Rejected by the player's bank (invalid or closed account, wrong code); no money left. Final. */
  | 'BOUNCED'
  /** Refused before the provider made a payout (see failureCode); no money left. Final: retry with a new idempotency key. */
  | 'FAILED'
  /** Settled to the player's account. May still be REVERTED. */
  | 'PAID'
  /** Created; waiting for the provider to settle it to the player's account. */
  | 'PENDING'
  /** A paid payout was reversed and the funds returned. Final. */
  | 'REVERTED';

/** PIX (Brazil, BRL 10 to 15,000). The payer's CPF goes in customer.personalId. Pass {}. */
export type PixInput = {
  /** Always true; present because GraphQL inputs need a field. */
  selected?: boolean | null | undefined;
};

/** Who pays. The bank account is sent to the provider and not kept by the gateway. */
export type QrPayerInput = {
  /** Thai bank account number, 10 to 15 digits. */
  bankAccount?: string | null | undefined;
  /** The payer's bank, e.g. Kasikornbank. */
  bankName?: string | null | undefined;
  /** The payer's full name. */
  name: string;
};

/** How the money moves. */
export type Rail =
  /** Card payment with 3-D Secure. */
  | 'CARD'
  /** Cryptocurrency at a quoted rate, for an amount in EUR or USD. */
  | 'CRYPTO'
  /** The deposit gateway's hosted page, where the player chooses how to pay (live accounts only). */
  | 'HOSTED_CHECKOUT'
  /** Local methods in Ecuador, Chile, Peru, Mexico and Colombia. */
  | 'LATAM'
  /** European open banking: SEPA, instant or Faster Payments. */
  | 'OPEN_BANKING'
  /** Brazil's instant payments, in BRL. */
  | 'PIX'
  /** A Thai QR code in THB, through the QR gateway. */
  | 'THAI_QR'
  /** India's Unified Payments Interface, in INR. */
  | 'UPI';

/** Where a refund was started. */
export type RefundOrigin =
  /** Requested through this API (requestRefund). */
  | 'GATEWAY'
  /** Made outside the gateway (e.g. the provider's dashboard) and recorded from the provider's event. */
  | 'PROVIDER';

/** Where a refund stands. */
export type RefundStatus =
  /** The provider returned the money to the payer. */
  | 'APPROVED'
  /** The provider refused; no money was returned. */
  | 'REJECTED'
  /** Sent to the provider; waiting for its answer. */
  | 'REQUESTED';

/** A refund of a SUCCEEDED deposit, in full or in part. */
export type RequestRefundInput = {
  /** In the deposit's currency and decimals, e.g. "5.00"; omit to refund everything still refundable. */
  amount?: string | null | undefined;
  /** The SUCCEEDED deposit to refund. */
  depositId: string | number;
  /** Retrying with the same key and input returns the first refund; no second refund is made. */
  idempotencyKey?: string | null | undefined;
  /** Why, for the provider and your records (up to 500 characters). */
  reason?: string | null | undefined;
};

/** What an API client may do. */
export type Role =
  /** Everything, every client's data, introspection. */
  | 'ADMIN'
  /** Create deposits and QR codes; read and subscribe to its own. */
  | 'CASHIER'
  /** Create and read payouts. */
  | 'PAYOUTS'
  /** Request and read refunds. */
  | 'REFUNDS';

/** The CARD deposit whose outcome to ask the provider for, after the shopper used the card form. */
export type SettleCardDepositInput = {
  /** The CARD deposit the shopper just completed the card form for. */
  depositId: string | number;
};

/** UPI (India, INR 100 to 50,000). The payer's UPI ID goes in customer.personalId. Pass {}. */
export type UpiInput = {
  /** Always true; present because GraphQL inputs need a field. */
  selected?: boolean | null | undefined;
};

export type BackOfficeRefundFragment = { id: string, status: RefundStatus, origin: RefundOrigin, reason: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string } };

export type BackOfficePayoutFragment = { id: string, status: PayoutStatus, country: string, merchantAccount: string, merchantReference: string | null, failureCode: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string }, beneficiary: { name: string | null, documentType: string | null, documentNumber: string | null, accountNumber: string | null, bankCode: string | null, accountType: string | null, cci: string | null } };

export type RequestRefundMutationVariables = Exact<{
  input: RequestRefundInput;
}>;


export type RequestRefundMutation = { requestRefund: { refund: { id: string, status: RefundStatus, origin: RefundOrigin, reason: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string } } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type RefundUpdatedSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type RefundUpdatedSubscription = { refundUpdated: { id: string, status: RefundStatus, origin: RefundOrigin, reason: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string } } };

export type CreatePayoutMutationVariables = Exact<{
  input: CreatePayoutInput;
}>;


export type CreatePayoutMutation = { createPayout: { payout: { id: string, status: PayoutStatus, country: string, merchantAccount: string, merchantReference: string | null, failureCode: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string }, beneficiary: { name: string | null, documentType: string | null, documentNumber: string | null, accountNumber: string | null, bankCode: string | null, accountType: string | null, cci: string | null } } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type PayoutUpdatedSubscriptionVariables = Exact<{
  id?: string | number | null | undefined;
}>;


export type PayoutUpdatedSubscription = { payoutUpdated: { id: string, status: PayoutStatus, country: string, merchantAccount: string, merchantReference: string | null, failureCode: string | null, createdAt: string, updatedAt: string, amount: { amount: string, currency: string }, beneficiary: { name: string | null, documentType: string | null, documentNumber: string | null, accountNumber: string | null, bankCode: string | null, accountType: string | null, cci: string | null } } };

export type CashierDepositFragment = { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null };

export type CreateDepositMutationVariables = Exact<{
  input: CreateDepositInput;
}>;


export type CreateDepositMutation = { createDeposit: { deposit: { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type CreateQrCodeMutationVariables = Exact<{
  input: CreateQrCodeInput;
}>;


export type CreateQrCodeMutation = { createQrCode: { deposit: { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type ClaimDepositCreditMutationVariables = Exact<{
  input: ClaimDepositCreditInput;
}>;


export type ClaimDepositCreditMutation = { claimDepositCredit: { claim: { claimedAt: string, firstClaim: boolean } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type DepositQueryVariables = Exact<{
  id: string | number;
}>;


export type DepositQuery = { deposit: { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null } | null };

export type DepositUpdatedSubscriptionVariables = Exact<{
  id?: string | number | null | undefined;
  after?: string | null | undefined;
}>;


export type DepositUpdatedSubscription = { depositUpdated: { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null } };

export type CardSessionQueryVariables = Exact<{
  depositId: string | number;
}>;


export type CardSessionQuery = { cardSession: { depositId: string, settled: boolean, status: DepositStatus, scriptUrl: string | null, brands: Array<string>, formAction: string | null, amount: { amount: string, currency: string } } | null };

export type SettleCardDepositMutationVariables = Exact<{
  input: SettleCardDepositInput;
}>;


export type SettleCardDepositMutation = { settleCardDeposit: { alreadyProcessed: boolean, deposit: { id: string, status: DepositStatus, rail: Rail, redirectUrl: string | null, declineReason: string | null, merchantReference: string | null, createdAt: string, updatedAt: string, approvedAt: string | null, creditClaimedAt: string | null, amount: { amount: string, currency: string }, fee: { amount: string, currency: string } | null, net: { amount: string, currency: string } | null, qrCode: { payload: string, svg: string, expiresAt: string } | null, crypto: { quoteTtlMinutes: number, underpayTolerancePct: string } | null } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };

export type CashierContextQueryVariables = Exact<{ [key: string]: never; }>;


export type CashierContextQuery = { viewer: { id: string, name: string, roles: Array<Role>, merchantAccounts: Array<string> | null }, merchantAccounts: Array<{ code: string, provider: string, livemode: boolean, rails: Array<Rail> }> };

export const BackOfficeRefundFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficeRefund"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Refund"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<BackOfficeRefundFragment, unknown>;
export const BackOfficePayoutFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficePayout"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Payout"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"beneficiary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"documentType"}},{"kind":"Field","name":{"kind":"Name","value":"documentNumber"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"cci"}}]}},{"kind":"Field","name":{"kind":"Name","value":"merchantAccount"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"failureCode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<BackOfficePayoutFragment, unknown>;
export const CashierDepositFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<CashierDepositFragment, unknown>;
export const RequestRefundDocument = {"__meta__":{"hash":"sha256:fae3e641eb655725f33c43f3fa39abf9ba81217fac0ca3fb3750ceadfb5ce664"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RequestRefund"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RequestRefundInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestRefund"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refund"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BackOfficeRefund"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficeRefund"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Refund"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RequestRefundMutation, RequestRefundMutationVariables>;
export const RefundUpdatedDocument = {"__meta__":{"hash":"sha256:23779bf3c581e2d5971967156466921454abe92cd69d106b21e3d0275ca594a5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RefundUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refundUpdated"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BackOfficeRefund"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficeRefund"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Refund"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RefundUpdatedSubscription, RefundUpdatedSubscriptionVariables>;
export const CreatePayoutDocument = {"__meta__":{"hash":"sha256:d305491f48ecf78eab08fd7bc97139f4dc28e24a52f007f08d2c4e4f24ba6684"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreatePayout"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreatePayoutInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createPayout"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BackOfficePayout"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficePayout"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Payout"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"beneficiary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"documentType"}},{"kind":"Field","name":{"kind":"Name","value":"documentNumber"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"cci"}}]}},{"kind":"Field","name":{"kind":"Name","value":"merchantAccount"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"failureCode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreatePayoutMutation, CreatePayoutMutationVariables>;
export const PayoutUpdatedDocument = {"__meta__":{"hash":"sha256:ccc5040854ab3b9da254759faba232c2c539ba7463a1ac7dc00ba0ab4bfd8e63"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PayoutUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payoutUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BackOfficePayout"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BackOfficePayout"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Payout"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"beneficiary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"documentType"}},{"kind":"Field","name":{"kind":"Name","value":"documentNumber"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"bankCode"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"cci"}}]}},{"kind":"Field","name":{"kind":"Name","value":"merchantAccount"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"failureCode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<PayoutUpdatedSubscription, PayoutUpdatedSubscriptionVariables>;
export const CreateDepositDocument = {"__meta__":{"hash":"sha256:4c04319f8b48154531c7da48940d3bae28a27cd73efba310795210aad0cf6bd7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateDeposit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDepositInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDeposit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deposit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CashierDeposit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<CreateDepositMutation, CreateDepositMutationVariables>;
export const CreateQrCodeDocument = {"__meta__":{"hash":"sha256:7b3ef6923a6ac2356ae3d34d8aa3ad548bdbbaa6fc30c209285709bfdef02b54"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateQrCode"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateQrCodeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createQrCode"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deposit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CashierDeposit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<CreateQrCodeMutation, CreateQrCodeMutationVariables>;
export const ClaimDepositCreditDocument = {"__meta__":{"hash":"sha256:d18bd948d1d3706ea7eee48aa4f65b38011782d68d9752ae92f5aa5bfc414031"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ClaimDepositCredit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ClaimDepositCreditInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"claimDepositCredit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"claim"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"claimedAt"}},{"kind":"Field","name":{"kind":"Name","value":"firstClaim"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ClaimDepositCreditMutation, ClaimDepositCreditMutationVariables>;
export const DepositDocument = {"__meta__":{"hash":"sha256:1509d20acea7e557713d91471d5fdc524c5b65a9e24b8057fc714c1ac09672eb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Deposit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deposit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CashierDeposit"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<DepositQuery, DepositQueryVariables>;
export const DepositUpdatedDocument = {"__meta__":{"hash":"sha256:9582294d59c7106c59a024c057e95905a6ff10c33b3fecdb6d5d998f051e674c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DepositUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"depositUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CashierDeposit"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<DepositUpdatedSubscription, DepositUpdatedSubscriptionVariables>;
export const CardSessionDocument = {"__meta__":{"hash":"sha256:e1761c806ceda13fc01dc3aeb96faa88d5550d9a24b7b6240a22e31920bdcce0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CardSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"depositId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cardSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"depositId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"depositId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"depositId"}},{"kind":"Field","name":{"kind":"Name","value":"settled"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scriptUrl"}},{"kind":"Field","name":{"kind":"Name","value":"brands"}},{"kind":"Field","name":{"kind":"Name","value":"formAction"}}]}}]}}]} as unknown as DocumentNode<CardSessionQuery, CardSessionQueryVariables>;
export const SettleCardDepositDocument = {"__meta__":{"hash":"sha256:b70ee343e1fa6728878aa61cc040fbd2ffa534bc79d72e012ed83ba49d0e7db7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SettleCardDeposit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SettleCardDepositInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"settleCardDeposit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deposit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CashierDeposit"}}]}},{"kind":"Field","name":{"kind":"Name","value":"alreadyProcessed"}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CashierDeposit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deposit"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rail"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fee"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"net"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"redirectUrl"}},{"kind":"Field","name":{"kind":"Name","value":"declineReason"}},{"kind":"Field","name":{"kind":"Name","value":"merchantReference"}},{"kind":"Field","name":{"kind":"Name","value":"qrCode"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"svg"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"crypto"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"quoteTtlMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"underpayTolerancePct"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"approvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"creditClaimedAt"}}]}}]} as unknown as DocumentNode<SettleCardDepositMutation, SettleCardDepositMutationVariables>;
export const CashierContextDocument = {"__meta__":{"hash":"sha256:0e3f03edad19a4c78d2c2bcf5dcb32577d64f4430a1bdec0d6b568c2b63897da"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CashierContext"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"merchantAccounts"}}]}},{"kind":"Field","name":{"kind":"Name","value":"merchantAccounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"livemode"}},{"kind":"Field","name":{"kind":"Name","value":"rails"}}]}}]}}]} as unknown as DocumentNode<CashierContextQuery, CashierContextQueryVariables>;