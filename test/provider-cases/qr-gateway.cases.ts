// Every request rule of spec/qr-gateway.md, with its boundary, as one table of cases: QR code
// creation (POST /v1/qr-codes) and webhook registration (POST /Thai/v1/webhooks). Each case is the
// request as the provider receives it and the verdict: accepted, or rejected by one named rule.
// qr-gateway.test.ts runs every case against the adapter's validation and the sandbox over HTTP.
//
// The spec leaves most QR rules "not shown"; those come from the Q assumptions in
// src/providers/qr-gateway/assumptions.ts (see docs/provider-assumptions.md).

import type { AmountUnit } from '../../src/providers/qr-gateway/assumptions.js';

export interface QrRule {
  spec: string;
  /** The adapter's field path (FieldError.field joined with dots, or the registration field). */
  field: string;
  /** The sandbox answers this status, with an `error.message` naming the rule. */
  status: number;
  message: RegExp;
  /** The sandbox's `error.code`, where one is assumed for the rule (Q9). */
  code?: string;
}

export const QR_RULES = {
  'amount.integer': { spec: 'amount: "integer" (Q2: in the account\'s unit)', field: 'amount', status: 400, message: /amount must be an integer/ },
  'amount.positive': { spec: 'amount: an amount for the code (nothing to pay is no payment)', field: 'amount', status: 400, message: /greater than zero/ },
  'amount.below': { spec: 'Amount bounds "not shown": Q11, THB 1.00 at least', field: 'amount', status: 400, message: /at least/, code: 'amount_too_small' },
  'amount.above': { spec: 'Amount bounds "not shown": Q11, THB 2,000,000.00 at most', field: 'amount', status: 400, message: /at most/, code: 'amount_too_large' },
  currency: { spec: 'currency: "Three-letter code, `THB`"; "The currency in use is `THB`"', field: 'currency', status: 400, message: /currency/ },
  client_name: { spec: 'client_name: "Payer\'s name" (Q13: required, at most 100 characters)', field: 'payer.name', status: 400, message: /client_name/ },
  client_bank_name: { spec: 'client_bank_name: "Payer\'s bank name" (Q13: at most 100 characters)', field: 'payer.bankName', status: 400, message: /client_bank_name/ },
  client_bank_account: { spec: 'client_bank_account: "Payer\'s bank account number" (Q13: 10 to 15 digits)', field: 'payer.bankAccount', status: 400, message: /client_bank_account/ },
  expires_in: { spec: 'expiry "adjustable at generation", bounds "not shown" (Q3: expires_in, 60 to 86400 seconds)', field: 'expiresInSeconds', status: 400, message: /expires_in/ },
  url: { spec: 'Webhook url: "HTTPS URL; must be publicly accessible"; 422 "Invalid URL" (Q12: loopback http in test mode)', field: 'url', status: 422, message: /url/, code: 'invalid_url' },
  'url.missing': { spec: 'Webhook url: required', field: 'url', status: 400, message: /url is required/ },
  events: { spec: 'Webhook events: "Event names from the Events section" (required)', field: 'events', status: 400, message: /events/ },
  secret: { spec: 'Webhook secret: optional (Q19: 8 to 256 characters)', field: 'secret', status: 400, message: /secret/ },
} as const satisfies Record<string, QrRule>;

export type QrRuleId = keyof typeof QR_RULES;

export type QrCase =
  | { kind: 'qr-code'; unit: AmountUnit; name: string; body: Record<string, unknown>; expect: 'accepted' | QrRuleId }
  | { kind: 'webhook'; name: string; body: Record<string, unknown>; expect: 'accepted' | QrRuleId };

/** Placeholder for the test's own loopback receiver (the sandbox checks that the URL answers, Q18). */
export const RECEIVER = '{receiver}';

const cases: QrCase[] = [];

const VALID_CODE = { amount: 25_000, currency: 'THB', reference: 'order-1', client_name: 'Somchai Jaidee', metadata: { client_id: 'client-1' } };

function code(unit: AmountUnit, name: string, change: Record<string, unknown>, expect: 'accepted' | QrRuleId): void {
  const body: Record<string, unknown> = { ...VALID_CODE, amount: unit === 'satang' ? 25_000 : 250 };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  cases.push({ kind: 'qr-code', unit, name: `${unit}: ${name}`, body, expect });
}

// ------------------------------------------------------------------------------------ amounts (Q2, Q11)

for (const unit of ['satang', 'baht'] as const) {
  const scale = unit === 'satang' ? 100 : 1;
  code(unit, 'the valid request', {}, 'accepted');
  code(unit, 'THB 1.00, the minimum', { amount: 1 * scale }, 'accepted');
  code(unit, 'THB 2,000,000.00, the maximum', { amount: 2_000_000 * scale }, 'accepted');
  code(unit, 'one unit above the maximum', { amount: 2_000_000 * scale + 1 }, 'amount.above');
  code(unit, 'THB 10,000,000', { amount: 10_000_000 * scale }, 'amount.above');
  code(unit, 'zero', { amount: 0 }, 'amount.positive');
  code(unit, 'negative', { amount: -1 * scale }, 'amount.positive');
  code(unit, 'a fraction of the unit', { amount: 150.5 }, 'amount.integer');
  code(unit, 'a decimal amount 0.15', { amount: 0.15 }, 'amount.integer');
}
code('satang', 'THB 0.99, below the minimum', { amount: 99 }, 'amount.below');
code('satang', 'THB 0.01', { amount: 1 }, 'amount.below');
code('satang', 'THB 12.34 in satang', { amount: 1234 }, 'accepted');
code('satang', 'THB 1.01', { amount: 101 }, 'accepted');
code('baht', 'THB 12.50 cannot be written in whole baht', { amount: 12.5 }, 'amount.integer');
code('baht', 'THB 2', { amount: 2 }, 'accepted');

// ------------------------------------------------------------------------------------ currency

for (const unit of ['satang', 'baht'] as const) {
  code(unit, 'currency missing', { currency: undefined }, 'currency');
  for (const currency of ['USD', 'EUR', 'LAK', 'thb', 'THBB']) code(unit, `currency ${currency}`, { currency }, 'currency');
}

// ------------------------------------------------------------------------------------ payer (Q13)

code('satang', 'client_name missing', { client_name: undefined }, 'client_name');
code('satang', 'client_name blank', { client_name: '   ' }, 'client_name');
code('satang', 'client_name of 100 characters', { client_name: 'ส'.repeat(100) }, 'accepted');
code('satang', 'client_name of 101 characters', { client_name: 'n'.repeat(101) }, 'client_name');
code('satang', 'client_name in Thai script', { client_name: 'สมชาย ใจดี' }, 'accepted');
code('satang', 'client_bank_name given', { client_bank_name: 'Kasikornbank' }, 'accepted');
code('satang', 'client_bank_name of 100 characters', { client_bank_name: 'b'.repeat(100) }, 'accepted');
code('satang', 'client_bank_name of 101 characters', { client_bank_name: 'b'.repeat(101) }, 'client_bank_name');
for (const account of ['1234567890', '123456789012', '123456789012345']) code('satang', `client_bank_account ${account}`, { client_bank_account: account }, 'accepted');
for (const account of ['123456789', '1234567890123456', '12345678901a', 'abcdefghij', '+661234567890']) {
  code('satang', `client_bank_account ${account}`, { client_bank_account: account }, 'client_bank_account');
}

// ------------------------------------------------------------------------------------ expiry (Q3)

for (const [seconds, expect] of [
  [60, 'accepted'], [900, 'accepted'], [86_400, 'accepted'], [59, 'expires_in'], [86_401, 'expires_in'], [0, 'expires_in'], [-60, 'expires_in'], [90.5, 'expires_in'],
] as const) {
  code('satang', `expires_in ${seconds}`, { expires_in: seconds }, expect);
}
code('satang', 'expires_in omitted (default 900)', { expires_in: undefined }, 'accepted');

// ------------------------------------------------------------------------------------ webhook registration

function webhook(name: string, change: Record<string, unknown>, expect: 'accepted' | QrRuleId): void {
  const body: Record<string, unknown> = { url: `${RECEIVER}/hooks/qr`, events: ['payment.succeeded'] };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  cases.push({ kind: 'webhook', name, body, expect });
}

const EVENTS = ['payment.succeeded', 'payment.failed', 'payment.pending', 'withdrawal.processed', 'withdrawal.succeeded', 'withdrawal.failed', 'withdrawal.pending', 'refund.completed', 'refund.failed'];
webhook('the valid request (test mode, loopback http)', {}, 'accepted');
for (const event of EVENTS) webhook(`event ${event}`, { events: [event] }, 'accepted');
webhook('every event', { events: EVENTS }, 'accepted');
webhook('secret of 8 characters', { secret: 's'.repeat(8) }, 'accepted');
webhook('secret of 256 characters', { secret: 's'.repeat(256) }, 'accepted');
webhook('secret of 7 characters', { secret: 's'.repeat(7) }, 'secret');
webhook('secret of 257 characters', { secret: 's'.repeat(257) }, 'secret');
webhook('no events', { events: [] }, 'events');
for (const event of ['payment.refunded', 'PAYMENT.SUCCEEDED', 'payment.*', 'refund.requested']) webhook(`event ${event}`, { events: [event] }, 'events');
webhook('a known and an unknown event', { events: ['payment.succeeded', 'payout.paid'] }, 'events');
webhook('url missing', { url: undefined }, 'url.missing');
webhook('url not a URL', { url: 'hooks.example.com/qr' }, 'url');
webhook('url ftp', { url: 'ftp://127.0.0.1/hooks' }, 'url');
webhook('url plain http to a public host', { url: 'http://hooks.example.com/qr' }, 'url');
webhook('url plain http to a private address', { url: 'http://10.0.0.5/qr' }, 'url');

export const QR_GATEWAY_CASES: readonly QrCase[] = cases;
