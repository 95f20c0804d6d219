// The deposit gateway's published request rules (spec: rail tables, Limits), checked before any call:
// each rail's rules for a deposit, a payout's and a refund's. The rules the rails share are
// field-checks.ts's, LATAM's latam-validation.ts's, the check digits check-digits.ts's.

import type { Money } from '../../lib/money.js';
import { maskTail } from '../../lib/logger.js';
import type {
  CreateDepositRequest,
  CreatePayoutRequest,
  Customer,
  FieldError,
  MerchantAccount,
  PayoutBeneficiary,
  RailDetails,
} from '../provider.js';
import { RAIL_BLOCK } from '../provider.js';
import {
  HOSTED_CHECKOUT_DEFAULT_CURRENCY,
  HOSTED_CHECKOUT_PRESELECT_METHODS,
  LATAM_COUNTRIES,
  LATAM_CURRENCY,
  OPEN_BANKING_CURRENCY,
  PAYOUT_DOCUMENT_TYPES,
  PAYOUT_REQUIRED_BENEFICIARY_FIELDS,
  UPI_ID_PATTERN,
  type BeneficiaryField,
} from './assumptions.js';
import { CLABE, CPF, isValidClabe, isValidCpf } from './check-digits.js';
import {
  checkAmountPrecision,
  checkAmountShape,
  checkBand,
  checkBankCountry,
  checkBillingCustomer,
  checkCurrencyIn,
  checkEmail,
  checkHttpsUrl,
  checkIsoCountry,
  checkName,
  Collector,
  isLatamCountry,
  quote,
  requireField,
  title,
} from './field-checks.js';
import { checkDocument, checkLatam } from './latam-validation.js';
import {
  CARD_CURRENCIES,
  CHECKOUT_EXPIRES_IN,
  CRYPTO_CURRENCIES,
  MERCHANT_REFERENCE_MAX_LENGTH,
  OPEN_BANKING_METHODS,
  PIX_CURRENCY,
  UPI_CURRENCY,
} from './rules.js';

export type DepositToValidate = Omit<CreateDepositRequest, 'depositId'> & { depositId?: string };
export type PayoutToValidate = Omit<CreatePayoutRequest, 'payoutId'> & { payoutId?: string };

/** Gateway (camelCase) name of each provider beneficiary field (A5). */
export const BENEFICIARY_FIELD_NAMES: Readonly<Record<BeneficiaryField, keyof PayoutBeneficiary>> = {
  name: 'name',
  document_type: 'documentType',
  document_number: 'documentNumber',
  account_number: 'accountNumber',
  bank_code: 'bankCode',
  account_type: 'accountType',
  cci: 'cci',
};

const E164 = /^\+[1-9][0-9]{1,14}$/;

/** The currency a rail uses when the caller names none; '' where the rail has no default. */
export function defaultCurrency(details: RailDetails): string {
  switch (details.rail) {
    case 'HOSTED_CHECKOUT':
      return HOSTED_CHECKOUT_DEFAULT_CURRENCY;
    case 'CARD':
      return 'EUR';
    case 'UPI':
      return UPI_CURRENCY;
    case 'PIX':
      return PIX_CURRENCY;
    case 'LATAM':
      return isLatamCountry(details.country) ? LATAM_CURRENCY[details.country] : '';
    case 'OPEN_BANKING':
      return OPEN_BANKING_CURRENCY[details.bankCountry] ?? '';
    case 'CRYPTO':
    case 'THAI_QR':
      return '';
  }
}

/** The deposit's fields checked against the rules of its rail; one error per field at most, the first rule broken wins. */
export function validateDepositRequest(account: MerchantAccount, request: DepositToValidate, now: Date = new Date()): FieldError[] {
  const out = new Collector();
  const { details, customer, amount } = request;

  if (request.depositId !== undefined && request.depositId.length > MERCHANT_REFERENCE_MAX_LENGTH) {
    out.add(['depositId'], 'REFERENCE_TOO_LONG', `The merchant reference is ${request.depositId.length} characters long; the provider accepts at most ${MERCHANT_REFERENCE_MAX_LENGTH}.`);
  }
  checkAmountShape(out, amount);
  if (request.returnUrl !== undefined) checkHttpsUrl(out, ['returnUrl'], request.returnUrl, 'returnUrl');

  switch (details.rail) {
    case 'HOSTED_CHECKOUT':
      checkHostedCheckout(out, account, details, customer, amount);
      break;
    case 'CARD':
      checkCard(out, customer, amount);
      break;
    case 'OPEN_BANKING':
      checkOpenBanking(out, details, customer, amount);
      break;
    case 'LATAM':
      checkLatam(out, details, customer, amount, now);
      break;
    case 'UPI':
      checkUpi(out, customer, amount);
      break;
    case 'PIX':
      checkPix(out, customer, amount);
      break;
    case 'CRYPTO':
      checkCrypto(out, customer, amount);
      break;
    case 'THAI_QR':
      out.add(['rail'], 'INVALID_VALUE', 'The deposit gateway does not serve the THAI_QR rail.');
      break;
  }
  return out.errors;
}

export function validatePayoutRequest(request: PayoutToValidate): FieldError[] {
  const out = new Collector();
  const { amount, beneficiary } = request;
  if (request.payoutId !== undefined && request.payoutId.length > MERCHANT_REFERENCE_MAX_LENGTH) {
    out.add(['payoutId'], 'REFERENCE_TOO_LONG', `The merchant reference is ${request.payoutId.length} characters long; the provider accepts at most ${MERCHANT_REFERENCE_MAX_LENGTH}.`);
  }
  checkAmountShape(out, amount);
  if (!isLatamCountry(request.country)) {
    out.add(['country'], request.country ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `Payout country ${quote(request.country)} is not one of ${LATAM_COUNTRIES.join(', ')}.`);
    return out.errors;
  }
  const country = request.country;
  checkCurrencyIn(out, amount, [LATAM_CURRENCY[country]], `payouts to ${title(country)}`);

  for (const field of PAYOUT_REQUIRED_BENEFICIARY_FIELDS[country]) {
    const name = BENEFICIARY_FIELD_NAMES[field];
    requireField(out, ['beneficiary', name], beneficiary[name], `beneficiary.${name} is required for payouts to ${title(country)}.`);
  }
  if (beneficiary.documentType !== undefined && beneficiary.documentType !== '') {
    checkDocument(out, ['beneficiary'], country, beneficiary.documentType, beneficiary.documentNumber, PAYOUT_DOCUMENT_TYPES[country]);
  }
  if (country === 'MEXICO' && beneficiary.accountNumber) {
    const clabe = beneficiary.accountNumber;
    if (!CLABE.test(clabe)) {
      out.add(['beneficiary', 'accountNumber'], 'INVALID_FORMAT', `The account number ${maskTail(clabe)} must be an 18-digit CLABE for payouts to Mexico.`);
    } else if (!isValidClabe(clabe)) {
      out.add(['beneficiary', 'accountNumber'], 'INVALID_CHECK_DIGIT', `The CLABE ${maskTail(clabe)} has a wrong check digit.`);
    }
  }
  return out.errors;
}

/**
 * A refund's amount in the provider's format (spec: Refund request, amount in the payment's currency):
 * a partial refund of COP 100.50 is refused here, before any call. Absent means the full amount.
 */
export function validateRefundRequest(request: { amount?: Money }): FieldError[] {
  const out = new Collector();
  if (request.amount) checkAmountPrecision(out, request.amount);
  return out.errors;
}

type Details<R extends RailDetails['rail']> = Extract<RailDetails, { rail: R }>;

/** Hosted checkout: a live account only, the card currencies, the session's lifetime, pre-selection and return addresses, and the prefill shown to the player. */
function checkHostedCheckout(out: Collector, account: MerchantAccount, details: Details<'HOSTED_CHECKOUT'>, customer: Customer, amount: Money): void {
  const block = RAIL_BLOCK[details.rail];
  if (!account.livemode) {
    // Spec, POST /checkout-sessions: a test-key session "carries no test flag and produces a real charge".
    out.add([block], 'HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT', `Hosted checkout is only available on a live merchant account; account ${account.code} is in test mode, where a session would still make a real charge.`);
  }
  checkCurrencyIn(out, amount, CARD_CURRENCIES, 'hosted checkout');
  if (details.expiresInSeconds !== undefined) {
    const seconds = details.expiresInSeconds;
    if (!Number.isInteger(seconds)) {
      out.add([block, 'expiresInSeconds'], 'INVALID_VALUE', `expiresInSeconds must be a whole number of seconds; got ${seconds}.`);
    } else if (seconds < CHECKOUT_EXPIRES_IN.min || seconds > CHECKOUT_EXPIRES_IN.max) {
      out.add([block, 'expiresInSeconds'], 'EXPIRY_OUT_OF_RANGE', `expiresInSeconds must be between ${CHECKOUT_EXPIRES_IN.min} and ${CHECKOUT_EXPIRES_IN.max}; got ${seconds}.`);
    }
  }
  if (details.preselect) {
    const { method, bankCountry } = details.preselect;
    if (!HOSTED_CHECKOUT_PRESELECT_METHODS.includes(method)) {
      out.add([block, 'preselect', 'method'], 'INVALID_VALUE', `Pre-selected method ${quote(method)} is not one of ${HOSTED_CHECKOUT_PRESELECT_METHODS.join(', ')}.`);
    }
    // Spec (Checkout session request): "method, bankCountry ... omit to let the player choose".
    if (bankCountry !== undefined) checkBankCountry(out, [block, 'preselect', 'bankCountry'], method, bankCountry);
  }
  // A31: the partner return addresses take return_url's rule.
  if (details.successUrl !== undefined) checkHttpsUrl(out, [block, 'successUrl'], details.successUrl, 'successUrl');
  if (details.cancelUrl !== undefined) checkHttpsUrl(out, [block, 'cancelUrl'], details.cancelUrl, 'cancelUrl');
  // Prefill is optional on the hosted page, but a wrong value would be shown to the player.
  if (customer.email !== undefined) checkEmail(out, customer.email);
  if (customer.country !== undefined) checkIsoCountry(out, customer.country);
}

function checkCard(out: Collector, customer: Customer, amount: Money): void {
  checkCurrencyIn(out, amount, CARD_CURRENCIES, 'cards');
  checkBand(out, amount, 'CARD', 'cards');
  checkBillingCustomer(out, customer);
  if (customer.phone !== undefined && !E164.test(customer.phone)) {
    out.add(['customer', 'phone'], 'INVALID_FORMAT', `Phone ${quote(customer.phone)} must be in E.164 format, such as +31201234567.`);
  }
}

function checkOpenBanking(out: Collector, details: Details<'OPEN_BANKING'>, customer: Customer, amount: Money): void {
  const block = RAIL_BLOCK[details.rail];
  if (!OPEN_BANKING_METHODS.includes(details.method)) {
    out.add([block, 'method'], details.method ? 'INVALID_VALUE' : 'FIELD_REQUIRED', `Open banking method ${quote(details.method)} is not one of ${OPEN_BANKING_METHODS.join(', ')}.`);
  }
  checkBankCountry(out, [block, 'bankCountry'], details.method, details.bankCountry);
  const currency = OPEN_BANKING_CURRENCY[details.bankCountry];
  if (currency) checkCurrencyIn(out, amount, [currency], `open banking in ${details.bankCountry}`);
  checkBillingCustomer(out, customer);
}

function checkUpi(out: Collector, customer: Customer, amount: Money): void {
  const currencyOk = checkCurrencyIn(out, amount, [UPI_CURRENCY], 'UPI');
  if (currencyOk) checkBand(out, amount, 'UPI', 'UPI');
  checkName(out, customer);
  requireField(out, ['customer', 'phone'], customer.phone, 'phone is required for UPI payments.');
  if (requireField(out, ['customer', 'personalId'], customer.personalId, "personalId is required for UPI: the payer's UPI ID.")) {
    if (!UPI_ID_PATTERN.test(customer.personalId!)) {
      out.add(['customer', 'personalId'], 'INVALID_FORMAT', `personalId ${quote(customer.personalId)} must be the payer's UPI ID, of the form handle@bank.`);
    }
  }
}

function checkPix(out: Collector, customer: Customer, amount: Money): void {
  const currencyOk = checkCurrencyIn(out, amount, [PIX_CURRENCY], 'PIX');
  if (currencyOk) checkBand(out, amount, 'PIX', 'PIX');
  checkName(out, customer);
  requireField(out, ['customer', 'phone'], customer.phone, 'phone is required for PIX payments.');
  if (requireField(out, ['customer', 'personalId'], customer.personalId, "personalId is required for PIX: the payer's CPF.")) {
    const cpf = customer.personalId!;
    if (!CPF.test(cpf)) {
      out.add(['customer', 'personalId'], 'INVALID_FORMAT', 'personalId must be the payer\'s CPF: exactly 11 digits, without dots or dashes.');
    } else if (!isValidCpf(cpf)) {
      out.add(['customer', 'personalId'], 'INVALID_CHECK_DIGIT', 'personalId is not a valid CPF: its check digits do not match.');
    }
  }
}

function checkCrypto(out: Collector, customer: Customer, amount: Money): void {
  if (!amount.currency) {
    out.add(['currency'], 'FIELD_REQUIRED', `Crypto payments need a currency: ${CRYPTO_CURRENCIES.join(' or ')}.`);
  } else if (checkCurrencyIn(out, amount, CRYPTO_CURRENCIES, 'crypto')) {
    checkBand(out, amount, 'CRYPTO', 'crypto');
  }
  checkName(out, customer);
}
