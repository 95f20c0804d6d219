// Every place where spec/deposit-gateway.md says "not shown", decided once and named here (A1, A2, …).
// The adapter and the sandbox both read these, so meeting the real provider is a change to this
// file alone. docs/provider-assumptions.md is the list of them all: the rule each one fills, its
// value, why, and this file; test/provider-cases/assumptions-doc.test.ts keeps the two in step.

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
 * A30. LATAM deposit `currency` override: "Override; defaults to the country currency", with the
 * per-solution currencies "not shown". Assumed the country's currency (A6) or US dollars, the one
 * foreign currency LATAM merchants price in; anything else is refused rather than converted.
 * Payouts keep the country's currency alone: there "country ... selects rail and currency".
 */
export const LATAM_CURRENCY_OVERRIDES: readonly string[] = ['USD'];

/** The currencies a LATAM deposit in `country` may be made in: its own (A6), then the overrides (A30). */
export function latamDepositCurrencies(country: LatamCountry): string[] {
  return [...new Set([LATAM_CURRENCY[country], ...LATAM_CURRENCY_OVERRIDES])];
}

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

/** Spec (LATAM, `expiresAt`): "Peru and Chile ignore it (provider sets 30 minutes)". */
export const LATAM_PROVIDER_LINK_LIFETIME_SECONDS = 30 * 60;

/**
 * A33. How each country's hosted link takes `expiresAt` ("ISO 8601 link expiry"). The spec states
 * three: Ecuador requires it, a near-future value (A8's window); Peru and Chile ignore it and the
 * provider sets 30 minutes. Mexico and Colombia: not stated. Assumed they honour it as Ecuador does,
 * in the same window, when it is given, and otherwise last the provider's 30 minutes, the one
 * lifetime the spec says the provider sets.
 */
export const LATAM_EXPIRES_AT: Readonly<Record<LatamCountry, 'required' | 'honoured' | 'ignored'>> = {
  ECUADOR: 'required',
  CHILE: 'ignored',
  PERU: 'ignored',
  MEXICO: 'honoured',
  COLOMBIA: 'honoured',
};

/** A33: the moment a LATAM link made at `createdAt`, with the request's `expiresAt` if any, stops taking a payment. */
export function latamLinkExpiresAt(country: LatamCountry, createdAt: Date, expiresAt: Date | null | undefined): Date {
  if (LATAM_EXPIRES_AT[country] !== 'ignored' && expiresAt) return expiresAt;
  return new Date(createdAt.getTime() + LATAM_PROVIDER_LINK_LIFETIME_SECONDS * 1000);
}

/**
 * A9. Open-banking currencies: not stated. Assumed EUR for NL and MT, GBP for GB (FPS is a sterling
 * scheme).
 */
export const OPEN_BANKING_CURRENCY: Readonly<Record<string, string>> = { NL: 'EUR', MT: 'EUR', GB: 'GBP' };

/**
 * A10. Hosted checkout currency: the session table lists no currency; "Partner integrations also
 * refer to a currency ... their exact request-field names ...: not shown". Assumed a field named
 * `currency` (the payment table's own name), values from the card currency list, default EUR.
 * Should the provider ignore it, the session would settle in the account's own currency: the
 * gateway's amount check then holds the deposit (flagged, never SUCCEEDED) rather than crediting
 * another currency. To switch, rename the field here.
 */
export const HOSTED_CHECKOUT_CURRENCY_FIELD = 'currency';
export const HOSTED_CHECKOUT_DEFAULT_CURRENCY = 'EUR';

/**
 * A31. Hosted checkout `success_url` and `cancel_url`: named for partner integrations, with
 * "requirements other than those two: not shown". Assumed optional, https only like `return_url`,
 * and with the `?ref=&status=` of `return_url` appended: the player goes to `success_url` after an
 * approved payment and to `cancel_url` after any other outcome, to `return_url` when the one that
 * applies is absent.
 */
export const HOSTED_CHECKOUT_RETURN_FIELDS = { success: 'success_url', cancel: 'cancel_url' } as const;

/**
 * A32. `metadata`: "Opaque data echoed back on the payment (documented for cards)", in the shared
 * payment table; the checkout session table has no such field. Assumed every POST /payments rail
 * takes it (it is a shared field) as an object of string values, and a checkout session does not:
 * there the gateway keeps the client's metadata on the deposit without sending it.
 */
export const CHECKOUT_SESSION_TAKES_METADATA = false;

/**
 * A11. Sandbox test triggers beyond the spec's `.13` decline rule, for flows the spec leaves to
 * the dashboard: a payout whose beneficiary `account_number` ends in `13` bounces, one ending in
 * `31` is paid and then reverted, one ending in `41` fails (payout.failed); a refund whose amount
 * ends in `13` (minor units) is rejected, one ending in `31` is cancelled (refund_status
 * `cancelled`, announced by a `refund.cancelled` event). Test cards of the embedded card form
 * decline with each of the spec's decline reasons; two show issuer signals that "collapse into
 * `declined`", with the processor code in `status_reason`.
 */
export const SANDBOX_TRIGGERS = {
  declineAmountSuffix: '.13',
  payoutBounceAccountSuffix: '13',
  payoutRevertAccountSuffix: '31',
  payoutFailAccountSuffix: '41',
  refundRejectMinorSuffix: '13',
  refundCancelMinorSuffix: '31',
  /** Card number -> [decline_reason, status_reason]. */
  declineCards: {
    '4000000000000002': ['declined', '05 Do not honour'],
    '4000000000000119': ['declined', '51 Insufficient funds'],
    '4000000000000101': ['declined', '43 Stolen card, pick up'],
    '4000000000000069': ['expired_card', '54 Expired card'],
    '4000000000000127': ['invalid_details', '82 CVV mismatch'],
    '4000000000003063': ['verification_failed', '3DS authentication failed'],
    '4000000000000036': ['too_many_attempts', '75 Allowable number of attempts exceeded'],
  },
} as const;

/** The spec's card decline reasons (Cards: `decline_reason`), all of which the sandbox can give. */
export const CARD_DECLINE_REASONS = ['expired_card', 'invalid_details', 'verification_failed', 'too_many_attempts', 'declined'] as const;

/** A12. Webhook signature freshness: "about 5 minutes"; taken as 300 seconds either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Header carrying the webhook signature (spec: Authentication, 6). */
export const SIGNATURE_HEADER = 'x-service-signature';

/**
 * A13. Hosted checkout pre-selection: the session table lists `method, bankCountry` ("Pre-select the
 * rail") without their values. Assumed the Direct API's own words: `cards` or an open-banking method,
 * with `bankCountry` following the open-banking rules (NL, MT, GB; `fps` GB only).
 */
export const HOSTED_CHECKOUT_PRESELECT_METHODS: readonly string[] = ['cards', 'sepa', 'instant', 'fps'];

/**
 * A14. Chile RUT: the spec writes `NNNNNNNN-D`. RUTs below 10 million have seven body digits, so
 * seven or eight digits are accepted, then a hyphen and the modulo-11 check digit (`0`-`9` or an
 * upper-case `K`). No dots.
 */
export const CHILE_RUT_PATTERN = /^([0-9]{7,8})-([0-9K])$/;

/**
 * A15. LATAM `successUrl` / `errorUrl`: "requirement varies per solution", solutions not shown.
 * Assumed optional everywhere and sent only when the caller gives them; `expiresAt` is likewise
 * optional (and sent when given) outside Ecuador, and Colombia's `redirectUrl` ("conditional",
 * "Colombia only") is optional in Colombia and refused elsewhere.
 */
export const LATAM_REDIRECT_URLS_REQUIRED = false;

/**
 * A16. Payout beneficiary `document_type` values: "not shown". Assumed the deposit lists of A7, and
 * the deposit's number rules for the same document (Peru DNI 8 digits, Chile RUT per A14).
 */
export const PAYOUT_DOCUMENT_TYPES: Readonly<Record<LatamCountry, readonly string[]>> = LATAM_DOCUMENT_TYPES;

/**
 * A17. Create responses that carry no status (the flat UPI/PIX/LATAM shape, and checkout sessions)
 * are taken to be `redirected`, the state the transition table gives every non-crypto creation.
 */
export const CREATED_STATUS_WORD = 'redirected';

/**
 * A18. `refund_status` words beyond the refund events' pending/approved/rejected: "Moves between
 * refund_status values: not shown". Assumed `cancelled` ends the request without money moving
 * (REJECTED) and `refunded` means it executed (APPROVED).
 */
export const REFUND_STATUS_WORDS = {
  pending: 'REQUESTED',
  approved: 'APPROVED',
  refunded: 'APPROVED',
  rejected: 'REJECTED',
  cancelled: 'REJECTED',
} as const;

/**
 * A19. 422 texts: only the UPI/PIX messages are summarised ("Validation messages ... for other
 * rails ... not shown"). Assumed English texts that name the rule: these patterns sort them into the
 * stable codes; a range message ("between 100 and 50000") is decided by comparing the request amount
 * with the rail's band. Anything else is a plain rejection.
 */
export const REJECTION_PATTERNS = {
  belowMinimum: /\b(minimum|below|at least|too (low|small))\b/i,
  aboveMaximum: /\b(maximum|above|exceeds?|at most|too (high|large))\b/i,
  outOfBand: /\bbetween\b/i,
  currency: /\bcurrenc(y|ies)\b|\bsettles [A-Z]{3} only\b/i,
  /** A26: the spec's "solution not enabled" text, "This payment method is not available right now". */
  railUnavailable: /\bnot available right now\b/i,
} as const;

/**
 * A26. "solution not enabled": the spec gives its message ("This payment method is not available
 * right now", Errors 3) but not its HTTP status; the 403 row is "Payment method currently disabled
 * (crypto rail disabled by the operator)". Assumed the two are different conditions told apart by the
 * message: the "not available right now" text, under any 4xx status, is `RAIL_UNAVAILABLE` (this
 * account cannot use the rail now; another rail may do); any other 403 is `RAIL_DISABLED`. The
 * sandbox answers 403 with that text for a solution not enabled on the account, and 403 "This
 * payment method is currently disabled" for the crypto rail disabled by the operator.
 */
/**
 * A27. "Transitions involving `approved_for_payment`, `expired`, `cancelled` and `error`: not shown",
 * nor events for them. Assumed `approved_for_payment` is an open status between redirected/pending
 * and approved (or declined), and `expired`, `cancelled` and `error` end an open payment with no
 * money taken. Each is announced by a `payment.<status>` event whose `data.status` is the word (new
 * event types "are added over time"; the adapter reads the status from `data.status`), never by a
 * payment.declined. The sandbox reaches each through its `complete` control, on every rail but
 * crypto: "The crypto flow uses only payment.approved ... and payment.declined".
 */
export const UNSHOWN_PAYMENT_STATUS_EVENTS = ['payment.approved_for_payment', 'payment.expired', 'payment.cancelled', 'payment.error'] as const;

export const RAIL_DISABLED_MESSAGE = 'This payment method is currently disabled';
export const RAIL_UNAVAILABLE_MESSAGE = 'This payment method is not available right now';

/**
 * A20. Card settle call body and idempotency: not shown. Assumed an empty JSON object with no
 * idempotency key; since the spec calls the settle "idempotent, promote-only", a failed attempt is
 * safe to retry.
 */
export const CARD_SETTLE_BODY: Readonly<Record<string, never>> = {};

/**
 * A21. Crypto amounts: "Crypto examples send a JSON number" (the shared table says "string, major
 * units" and "up to 2 decimals"). Whether the crypto rail also takes a string is not shown. Assumed
 * it wants what its examples show: the adapter sends the crypto `amount` as a JSON number whose token
 * is the exact decimal text (`20.10`, `999999999999999.99`), written through `JSON.rawJSON` and never
 * through a binary float; every other rail keeps the decimal string. A number from the provider is
 * read by its source text.
 */
export const CRYPTO_AMOUNT_AS_JSON_NUMBER = true;

/**
 * A22. LATAM `successUrl`, `errorUrl` and `redirectUrl`: no scheme rule is stated. Assumed the shared
 * table's `return_url` rule ("https:// only") applies to every address a player is sent back to.
 */
export const LATAM_REDIRECT_URLS_HTTPS_ONLY = true;

/**
 * A23. Status words beyond the spec's table: the spec adds event types over time and may add words.
 * A word the adapter does not know, seen on a status lookup, is kept as `providerStatus` and read as
 * PENDING (credits nothing; the reconciler looks again). On a webhook it makes the event `other`
 * (stored and ignored), as the spec asks for unknown events.
 */
export const UNKNOWN_LOOKUP_STATUS = 'PENDING';

/**
 * A24. Checkout session expiry: "A session has a lifetime (`expires_in`). Its states and what
 * follows expiry: not shown." Assumed a session past its lifetime can no longer be paid, so a hosted
 * checkout deposit whose payment GET /payments does not show once the lifetime (default 3600 s, the
 * spec's) plus this margin has passed was never paid: the reconciler makes it EXPIRED. The margin
 * covers a player who opened the page just before expiry and a clock difference.
 */
export const CHECKOUT_SESSION_EXPIRY_MARGIN_SECONDS = 15 * 60;

/** Spec (Checkout session request): `expires_in` defaults to 3600 seconds. */
export const CHECKOUT_SESSION_DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * A25. A payment-level `refunded` report: the status table says "returned, in full or in part",
 * while `refund_status` is `refunded` "once the payment itself is reversed". Assumed:
 * - a `payment.refunded` webhook (or a lookup status `refunded`) does not say how much went back:
 *   only refund rows (refund events, or the refund we requested) decide the refunded amount;
 * - `refund_status: refunded` on a lookup means the payment is reversed in full, so what our refund
 *   rows do not already explain is the rest of the payment's amount;
 * - `refund_status` is the position of the payment's latest refund, so it decides one of our
 *   refunds only when that refund is the only one the provider knows for the payment.
 */
export const REFUND_STATUS_REVERSED_IN_FULL = 'refunded';

/**
 * A28. UPI `personalId`: the spec says only "India: the payer's UPI ID". Assumed the NPCI virtual
 * payment address `handle@psp`: 2 to 256 letters, digits, dots, hyphens or underscores, an `@`, and
 * the payment service provider's handle, a letter then 1 to 63 letters or digits (`okaxis`, `ybl`).
 */
export const UPI_ID_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/;

/**
 * A29. LATAM `phoneCode`: the spec gives only an example ("phoneCode like `+57`"). Assumed a `+` and
 * an ITU-T E.164 country calling code: 1 to 3 digits, never starting with 0.
 */
export const PHONE_CODE_PATTERN = /^\+[1-9][0-9]{0,2}$/;
