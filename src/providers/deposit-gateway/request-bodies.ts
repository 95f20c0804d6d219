// Writing the deposit gateway's request bodies from the gateway's requests (spec: Payment create
// request and rail tables, Checkout session request, Refund request, Payout request), and reading a
// 422's `missing` field names back as the gateway's field paths.

import type { CreateDepositRequest, CreatePayoutRequest, RailDetails, RequestRefundRequest } from '../provider.js';
import { CHECKOUT_SESSION_TAKES_METADATA, HOSTED_CHECKOUT_CURRENCY_FIELD, HOSTED_CHECKOUT_RETURN_FIELDS, type BeneficiaryField } from './assumptions.js';
import { wireAmount } from './amount.js';
import { JsonNumber, type JsonObject } from './json.js';
import { BENEFICIARY_FIELD_NAMES } from './validation.js';

type Details<R extends RailDetails['rail']> = Extract<RailDetails, { rail: R }>;

/**
 * POST /checkout-sessions (spec: Checkout session request; currency per A10, the partner return
 * addresses per A31; no metadata, A32). No idempotency key exists for it.
 */
export function checkoutSessionBody(request: CreateDepositRequest, details: Details<'HOSTED_CHECKOUT'>): JsonObject {
  const { customer } = request;
  return {
    amount: wireAmount(request.amount),
    [HOSTED_CHECKOUT_CURRENCY_FIELD]: request.amount.currency,
    merchant_reference: request.depositId,
    return_url: request.returnUrl,
    [HOSTED_CHECKOUT_RETURN_FIELDS.success]: details.successUrl,
    [HOSTED_CHECKOUT_RETURN_FIELDS.cancel]: details.cancelUrl,
    ...(CHECKOUT_SESSION_TAKES_METADATA ? { metadata: request.metadata } : {}),
    method: details.preselect?.method,
    bankCountry: details.preselect?.bankCountry,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    country: customer.country,
    address1: customer.address1,
    city: customer.city,
    zipCode: customer.zipCode,
    phone: customer.phone,
    expires_in: details.expiresInSeconds,
  };
}

/**
 * POST /payments: the shared fields plus the rail's own (spec: Payment create request and rail
 * tables). `whiteLabel` is the account's choice of redirect host (spec: shared `white_label`).
 */
export function paymentBody(request: CreateDepositRequest, options: { whiteLabel?: boolean } = {}): JsonObject {
  const { customer, details } = request;
  const shared: JsonObject = {
    // Decimal string in every rail but crypto (A21); CLP and COP as integers ("send integers").
    amount: wireAmount(request.amount),
    currency: request.amount.currency,
    merchant_reference: request.depositId,
    idempotency_key: request.depositId,
    return_url: request.returnUrl,
    // A32: a shared field, echoed back on the payment; an object of strings as the client gave it.
    metadata: request.metadata && Object.keys(request.metadata).length > 0 ? { ...request.metadata } : undefined,
    // Sent only when the account asks for it: false is the spec's default.
    white_label: options.whiteLabel === true ? true : undefined,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
  };
  const billing = {
    country: customer.country,
    address1: customer.address1,
    city: customer.city,
    zipCode: customer.zipCode,
    phone: customer.phone,
  };
  switch (details.rail) {
    case 'CARD':
      // `solution` names the rail, so the provider never routes a card payment by its billing
      // country (spec: shared fields, `solution`; a LATAM country otherwise selects a LATAM rail).
      return { ...shared, solution: 'cards', method: 'cards', ...billing };
    case 'OPEN_BANKING':
      return { ...shared, method: details.method, bankCountry: details.bankCountry, ...billing };
    case 'LATAM':
      return {
        ...shared,
        country: details.country,
        method: details.method,
        documentType: customer.documentType,
        documentNumber: customer.documentNumber,
        phone: customer.phone,
        phoneCode: customer.phoneCode,
        successUrl: details.successUrl,
        errorUrl: details.errorUrl,
        redirectUrl: details.redirectUrl,
        expiresAt: details.expiresAt?.toISOString(),
      };
    case 'UPI':
    case 'PIX':
      return { ...shared, solution: details.rail === 'UPI' ? 'upi' : 'pix', phone: customer.phone, personalId: customer.personalId };
    case 'CRYPTO':
      // A JSON number as the crypto examples send it, written from the decimal's own digits (A21).
      return { ...shared, amount: new JsonNumber(wireAmount(request.amount)), provider: 'crypto' };
    case 'HOSTED_CHECKOUT':
    case 'THAI_QR':
      throw new Error(`${details.rail} is not created through POST /payments`);
  }
}

/** POST /refunds (spec: Refund request). */
export function refundBody(request: RequestRefundRequest): JsonObject {
  return {
    reference: request.depositReference,
    amount: request.amount && wireAmount(request.amount),
    reason: request.reason,
    idempotency_key: request.refundId,
  };
}

/** Payout create (spec: Payout request; path A1). */
export function payoutBody(request: CreatePayoutRequest): JsonObject {
  const beneficiary: JsonObject = {};
  for (const [wire, name] of Object.entries(BENEFICIARY_FIELD_NAMES)) beneficiary[wire] = request.beneficiary[name];
  return {
    country: request.country,
    amount: wireAmount(request.amount),
    currency: request.amount.currency,
    beneficiary,
    merchant_reference: request.payoutId,
    idempotency_key: request.payoutId,
  };
}

/** A 422's `missing` entries (provider names, possibly `beneficiary.`-prefixed) as gateway field paths. */
export function missingFieldPaths(missing: unknown): string[][] {
  if (!Array.isArray(missing)) return [];
  const paths: string[][] = [];
  for (const entry of missing) {
    if (typeof entry !== 'string' || entry === '') continue;
    const prefixed = /^beneficiary[.[]/.test(entry);
    const name = entry.replace(/^beneficiary[.[]/, '').replace(/\]$/, '');
    if (Object.hasOwn(BENEFICIARY_FIELD_NAMES, name)) paths.push(['beneficiary', BENEFICIARY_FIELD_NAMES[name as BeneficiaryField]]);
    else paths.push(prefixed ? ['beneficiary', camel(name)] : [camel(name)]);
  }
  return paths;
}

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
