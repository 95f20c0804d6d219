// Every place where spec/deposit-gateway.md says "not shown", decided once and named here.
// The adapter and the sandbox both read these, so meeting the real provider is a change to this
// file alone. docs/provider-assumptions.md lists each one with its reasoning.

/** A1. Payout create path: "Method and path: not shown". Assumed `POST /payouts`, beside `GET /payouts`. */
export const PAYOUT_CREATE_PATH = '/payouts';

/** A2. Card settle path: "Method and path: not shown". Assumed `POST /payments/{reference}/settle`, beside the card-session path. */
export const cardSettlePath = (reference: string): string => `/payments/${encodeURIComponent(reference)}/settle`;

/**
 * A3. Refund create response: "not shown beyond the 201 status". Assumed
 * `201 { ok: true, refund: { id, reference, amount, currency, status: 'pending', reason, created_at } }`
 * where `id` starts with `rf_` and `reference` is the payment's reference.
 */
export const REFUND_ID_PREFIX = 'rf_';

/**
 * A4. Refund, payout.failed and chargeback event payloads: "not shown". Assumed the same envelope
 * as payment events, with `data`:
 * - refund.*: `{ reference: <refund id>, payment_reference, merchant_reference, status, amount, currency }`
 *   where status is `pending` (requested), `approved` or `rejected`;
 * - payout.*: `{ reference, merchant_reference, status, amount, currency }` with status `paid`,
 *   `bounced`, `reverted` or `failed`;
 * - chargeback.opened: `{ reference: <payment reference>, merchant_reference, status: 'opened', amount, currency }`.
 */
export const REFUND_EVENT_STATUS = { 'refund.requested': 'pending', 'refund.approved': 'approved', 'refund.rejected': 'rejected' } as const;

/**
 * A5. Payout beneficiary fields required per country: "not shown". Assumed from common LATAM
 * banking practice: everywhere a name, an ID document and a destination account; Mexico pays to a
 * CLABE (18 digits) and needs no bank code or account type; Peru also needs the interbank CCI.
 */
export const PAYOUT_REQUIRED_BENEFICIARY_FIELDS: Readonly<Record<LatamCountry, readonly BeneficiaryField[]>> = {
  ECUADOR: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
  CHILE: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
  PERU: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type', 'cci'],
  MEXICO: ['name', 'document_type', 'document_number', 'account_number'],
  COLOMBIA: ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type'],
};

export type BeneficiaryField = 'name' | 'document_type' | 'document_number' | 'account_number' | 'bank_code' | 'account_type' | 'cci';

/** LATAM countries of the deposit gateway (spec: LATAM and Payout request tables). */
export type LatamCountry = 'ECUADOR' | 'CHILE' | 'PERU' | 'MEXICO' | 'COLOMBIA';
export const LATAM_COUNTRIES: readonly LatamCountry[] = ['ECUADOR', 'CHILE', 'PERU', 'MEXICO', 'COLOMBIA'];

/**
 * A6. Country currencies for LATAM deposits and payouts: "Per-solution currencies ... not shown".
 * Assumed each country's national currency, Ecuador's being USD.
 */
export const LATAM_CURRENCY: Readonly<Record<LatamCountry, string>> = {
  ECUADOR: 'USD',
  CHILE: 'CLP',
  PERU: 'PEN',
  MEXICO: 'MXN',
  COLOMBIA: 'COP',
};

/**
 * A7. Allowed LATAM `documentType` values (case-sensitive): "not shown". Assumed each country's
 * national identity documents.
 */
export const LATAM_DOCUMENT_TYPES: Readonly<Record<LatamCountry, readonly string[]>> = {
  ECUADOR: ['CI', 'RUC', 'PASSPORT'],
  CHILE: ['RUT'],
  PERU: ['DNI', 'CE', 'PASSPORT'],
  MEXICO: ['CURP', 'RFC', 'PASSPORT'],
  COLOMBIA: ['CC', 'CE', 'NIT', 'PASSPORT'],
};

/** A8. Ecuador's "near-future" `expiresAt`: assumed at least 5 minutes and at most 72 hours ahead. */
export const ECUADOR_EXPIRY_WINDOW_SECONDS = { min: 5 * 60, max: 72 * 3600 } as const;

/**
 * A9. Open-banking currencies: not stated. Assumed EUR for NL and MT, GBP for GB (FPS is a sterling
 * scheme).
 */
export const OPEN_BANKING_CURRENCY: Readonly<Record<string, string>> = { NL: 'EUR', MT: 'EUR', GB: 'GBP' };

/**
 * A10. Hosted checkout currency: the spec names a currency for partner integrations without its
 * field name. Assumed a `currency` field, default EUR, from the card currency list.
 */
export const HOSTED_CHECKOUT_DEFAULT_CURRENCY = 'EUR';

/**
 * A11. Sandbox test triggers beyond the spec's `.13` decline rule, for flows the spec leaves to
 * the dashboard: a payout whose beneficiary `account_number` ends in `13` bounces, one ending in
 * `31` is paid and then reverted; a refund whose amount ends in `13` (minor units) is rejected.
 */
export const SANDBOX_TRIGGERS = {
  declineAmountSuffix: '.13',
  payoutBounceAccountSuffix: '13',
  payoutRevertAccountSuffix: '31',
  refundRejectMinorSuffix: '13',
} as const;

/** A12. Webhook signature freshness: "about 5 minutes"; taken as 300 seconds either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Header carrying the webhook signature (spec: Authentication, 6). */
export const SIGNATURE_HEADER = 'x-service-signature';
