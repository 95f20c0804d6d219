// The simulated card processor behind the embedded card form: reads the card fields the shopper's
// browser posted to it, keeps only the masked card (spec: middle digits never stored), and decides
// the authorisation the card settle call later reports.

import type { Money } from '../../lib/money.js';
import { SANDBOX_TRIGGERS } from '../../providers/deposit-gateway/assumptions.js';
import { testModeOutcome } from './simulator.js';
import type { CardAuthorization } from './store.js';

/**
 * Card scheme by number prefix (spec: Cards, brands), most specific first; the wallets are not
 * simulated. Prefixes are the schemes' published IIN ranges.
 */
const SCHEMES: Array<[RegExp, string]> = [
  [/^4/, 'VISA'],
  [/^(5[1-5]|2(2[2-9]|[3-6][0-9]|7[01]|720))/, 'MASTER'],
  [/^3[47]/, 'AMEX'],
  [/^35(2[89]|[3-8][0-9])/, 'JCB'],
  [/^3(0[0-5]|09|6|[89])/, 'DINERS'],
  [/^(6011|64[4-9]|65)/, 'DISCOVER'],
  [/^62/, 'CHINA_UNION_PAY'],
  [/^(50|5[6-9]|6[0-9])/, 'MAESTRO'],
];

export type CardReading = { ok: true; authorization: CardAuthorization } | { ok: false; error: string };

function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Reads the posted card fields. Malformed fields are an error shown on the fields page (nothing is
 * authorised); a well-formed card of a brand the account has boarded is authorised by the
 * test-mode rule (`.13` declines), except an expired card, which declines with `expired_card`, and
 * the test cards of A11, which decline with the reason each stands for (spec: Cards, decline reasons).
 */
export function readCard(fields: URLSearchParams, amount: Money, brands: string[], now: Date): CardReading {
  const number = (fields.get('card_number') ?? '').replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(number) || !luhn(number)) return { ok: false, error: 'Enter a valid card number.' };
  const scheme = SCHEMES.find(([prefix]) => prefix.test(number))?.[1];
  // Spec: only brands boarded on the merchant's account authorise.
  if (!scheme || !brands.includes(scheme)) return { ok: false, error: `This card is not accepted here (accepted: ${brands.join(', ')}).` };
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2})$/.exec((fields.get('card_expiry') ?? '').trim());
  if (!expiry) return { ok: false, error: 'Enter the expiry date as MM/YY.' };
  const cvvLength = scheme === 'AMEX' ? 4 : 3;
  if (!new RegExp(`^[0-9]{${cvvLength}}$`).test((fields.get('card_cvv') ?? '').trim())) return { ok: false, error: `Enter the ${cvvLength}-digit security code.` };
  const card = { bin: number.slice(0, 6), last4: number.slice(-4), scheme };
  // A card is valid to the end of its expiry month (UTC).
  const expiresAt = Date.UTC(2000 + Number(expiry[2]), Number(expiry[1]), 1);
  if (expiresAt <= now.getTime()) return { ok: true, authorization: { outcome: 'declined', declineReason: 'expired_card', statusReason: '54 Expired card', card } };
  const declineCards: Readonly<Record<string, readonly [string, string]>> = SANDBOX_TRIGGERS.declineCards;
  const testDecline = declineCards[number];
  if (testDecline) return { ok: true, authorization: { outcome: 'declined', declineReason: testDecline[0], statusReason: testDecline[1], card } };
  return testModeOutcome(amount) === 'approved'
    ? { ok: true, authorization: { outcome: 'approved', declineReason: null, statusReason: null, card } }
    : { ok: true, authorization: { outcome: 'declined', declineReason: 'declined', statusReason: '05 Do not honour', card } };
}
