// The QR gateway's rules for a deposit request, checked before any provider call (assumptions Q2,
// Q3, Q11, Q13). Field paths are relative to the createQrCode mutation input.

import type { CreateDepositRequest, FieldError } from '../provider.js';
import { MAX_AMOUNT, MIN_AMOUNT, toProviderAmount } from './amount.js';
import {
  BANK_ACCOUNT_PATTERN,
  EXPIRY_BOUNDS_SECONDS,
  LOOPBACK_HOSTS,
  NAME_MAX_LENGTH,
  QR_CURRENCY,
  QR_EVENTS,
  SECRET_LENGTH,
  isQrEvent,
  type AmountUnit,
} from './assumptions.js';

/** Spaces and dashes as printed on passbooks; removed before the number is checked and sent. */
export function normalizeBankAccount(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function validateQrDeposit(request: Omit<CreateDepositRequest, 'depositId'>, unit: AmountUnit): FieldError[] {
  const { details, amount } = request;
  if (details.rail !== 'THAI_QR') {
    return [{ field: ['rail'], code: 'RAIL_NOT_SUPPORTED', message: `The QR gateway serves THAI_QR only, not ${details.rail}` }];
  }
  const errors: FieldError[] = [];

  if (amount.currency !== QR_CURRENCY) {
    errors.push({ field: ['currency'], code: 'CURRENCY_NOT_SUPPORTED', message: `Thai QR payments are in THB only; got ${amount.currency}` });
  } else if (amount.minor < MIN_AMOUNT.minor) {
    errors.push({ field: ['amount'], code: 'AMOUNT_BELOW_MINIMUM', message: `The minimum Thai QR amount is THB ${MIN_AMOUNT.toDecimal()}` });
  } else if (amount.minor > MAX_AMOUNT.minor) {
    errors.push({ field: ['amount'], code: 'AMOUNT_ABOVE_MAXIMUM', message: `The maximum Thai QR amount is THB ${MAX_AMOUNT.toDecimal()}` });
  } else if (!toProviderAmount(amount, unit).ok) {
    errors.push({
      field: ['amount'],
      code: 'AMOUNT_TOO_PRECISE',
      message: `This QR account takes whole baht only; got THB ${amount.toDecimal()}`,
    });
  }

  const name = details.payer?.name?.trim() ?? '';
  if (name === '') {
    errors.push({ field: ['payer', 'name'], code: 'FIELD_REQUIRED', message: "The payer's name is required" });
  } else if (name.length > NAME_MAX_LENGTH) {
    errors.push({ field: ['payer', 'name'], code: 'FIELD_INVALID', message: `The payer's name has at most ${NAME_MAX_LENGTH} characters` });
  }
  const bankName = details.payer?.bankName;
  if (bankName !== undefined && bankName.trim().length > NAME_MAX_LENGTH) {
    errors.push({ field: ['payer', 'bankName'], code: 'FIELD_INVALID', message: `The bank name has at most ${NAME_MAX_LENGTH} characters` });
  }
  const bankAccount = details.payer?.bankAccount;
  if (bankAccount !== undefined && bankAccount !== '' && !BANK_ACCOUNT_PATTERN.test(normalizeBankAccount(bankAccount))) {
    errors.push({ field: ['payer', 'bankAccount'], code: 'FIELD_INVALID', message: 'A Thai bank account number has 10 to 15 digits' });
  }

  const expires = details.expiresInSeconds;
  if (expires !== undefined && (!Number.isInteger(expires) || expires < EXPIRY_BOUNDS_SECONDS.min || expires > EXPIRY_BOUNDS_SECONDS.max)) {
    errors.push({
      field: ['expiresInSeconds'],
      code: 'EXPIRY_OUT_OF_RANGE',
      message: `A QR code expires after ${EXPIRY_BOUNDS_SECONDS.min} to ${EXPIRY_BOUNDS_SECONDS.max} seconds`,
    });
  }
  return errors;
}

/** A webhook registration the provider would refuse, with the provider error code the adapter returns. */
export interface RegistrationProblem {
  field: 'url' | 'events' | 'secret';
  code: 'WEBHOOK_URL_INVALID' | 'PROVIDER_REJECTED';
  message: string;
}

/**
 * The webhook registration request rules (spec: Webhook registration request): `url` an "HTTPS URL"
 * (Q12: a test account may also name loopback http), `events` names from the Events section, an
 * optional `secret` of Q19's length. Reachability is for the provider to judge.
 */
export function validateWebhookRegistration(
  request: { url: string; events: readonly string[]; secret?: string },
  livemode: boolean,
): RegistrationProblem | undefined {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { field: 'url', code: 'WEBHOOK_URL_INVALID', message: 'The webhook URL is not a valid URL' };
  }
  const loopbackHttp = !livemode && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    return { field: 'url', code: 'WEBHOOK_URL_INVALID', message: 'The webhook URL must be an https URL' };
  }
  const events = [...new Set(request.events)];
  const unknown = events.filter((event) => !isQrEvent(event));
  if (events.length === 0 || unknown.length > 0) {
    return {
      field: 'events',
      code: 'PROVIDER_REJECTED',
      message: events.length === 0 ? 'Name at least one event' : `Unknown events: ${unknown.join(', ')}; allowed: ${QR_EVENTS.join(', ')}`,
    };
  }
  if (request.secret !== undefined && (request.secret.length < SECRET_LENGTH.min || request.secret.length > SECRET_LENGTH.max)) {
    return { field: 'secret', code: 'PROVIDER_REJECTED', message: `A webhook secret has ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters` };
  }
  return undefined;
}
