// Every place where spec/qr-gateway.md says "not shown", decided once and named here (Q1, Q2, …).
// The adapter and the sandbox both read these, so meeting the real provider is a change to this
// file alone. docs/provider-assumptions.md is the list of them all: the rule each one fills, its
// value, why, and this file; test/provider-cases/assumptions-doc.test.ts keeps the two in step.

/**
 * Q1. QR code creation response: "The response body and the status codes of this call: not shown."
 * Assumed `201 { id: 'qr_…', reference, amount, currency, status: 'pending', qr_payload, expires_at,
 * created_at, paid_at: null, failure_reason: null, client_name, client_bank_name, metadata, livemode }`
 * (the bank account is never echoed); the same object is what a status lookup (Q15) and a simulation
 * (Q8) return. A request repeated with its Idempotency-Key (Q14) gets the original status and body again.
 */
export const CREATE_STATUS = 201;
export const QR_CODE_ID_PREFIX = 'qr_';

/**
 * Q2. Amount unit: "Amount for the code (the unit is not stated by the interface)". A per-deployment
 * setting: `satang` (integer minor units, 100 = THB 1.00; the default, as most card-era APIs count
 * minor units) or `baht` (integer major units, so only whole-baht amounts can be sent).
 */
export type AmountUnit = 'satang' | 'baht';
export const DEFAULT_AMOUNT_UNIT: AmountUnit = 'satang';

/**
 * Q3. Expiry: "A QR code expiry parameter exists (default 15 minutes in test mode, adjustable at
 * generation); its field name is not stated", and "QR code expiry bounds: not shown". Assumed
 * `expires_in`, in seconds, 60 to 86400, default 900; the response carries the moment as `expires_at`.
 */
export const EXPIRY_FIELD = 'expires_in';
export const DEFAULT_EXPIRY_SECONDS = 900;
export const EXPIRY_BOUNDS_SECONDS = { min: 60, max: 86_400 } as const;

/**
 * Q4. Webhook signature: "The signature scheme ... for these events: not shown." Assumed the common
 * scheme of the deposit gateway's era: header `X-QR-Signature: t=<unix seconds>,v1=<hex>`, where
 * `v1` is HMAC-SHA256 with the registration's secret over `<t>.<raw body>`. Several `v1` entries may
 * appear (the provider signing with an old and a new secret while one is rotated); one match is
 * enough. Deliveries older or newer than 300 seconds are refused.
 */
export const SIGNATURE_HEADER = 'x-qr-signature';
export const SIGNATURE_SCHEME = 'v1';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Q5. Payment statuses and transitions: "The full set of status values and all transitions: not
 * shown." Assumed `pending` → `succeeded` | `failed`, terminal states final. A code that expires
 * unpaid becomes `failed` and sends `payment.failed`. A failed code carries `failure_reason`
 * (`expired` or `declined`; assumed, and optional when read). `payment.pending` is sent once, when
 * the code is created, to registrations subscribed to it.
 *
 * Gateway mapping: `payment.failed` says "declined or failed", no money taken, so it maps to
 * DECLINED (the client-facing word for "no money taken"), or to EXPIRED when `failure_reason` says
 * `expired`. FAILED stays the gateway's word for technical errors, which this provider never reports.
 */
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type PaymentStatusWord = (typeof PAYMENT_STATUSES)[number];
export const FAILURE_REASONS = ['expired', 'declined'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * Q6. Dedupe key and deposit lookup: the delivery payload has no event id. Following DESIGN.md
 * ("data.reference + status where there is none"), `eventId = <data.payment_id>:<event>`: a payment
 * changes status at most once per event name, so this names one real transition. The creation
 * request's `reference` is our deposit id; assumed echoed back as `data.reference` in deliveries
 * (not in the spec's data table). When it is absent the gateway finds the deposit by `payment_id`,
 * the provider reference it stored at creation.
 */
export const eventIdFor = (subjectId: string, event: string): string => `${subjectId}:${event}`;

/**
 * Q7. Refund and withdrawal events: "Payload fields for withdrawal and refund events: not shown."
 * Assumed the payment envelope with `data: { refund_id | withdrawal_id, payment_id?, status, amount,
 * currency }`. `refund.completed` means the money went back (APPROVED), `refund.failed` that it did
 * not (REJECTED). The spec has no refund endpoint, so every refund it reports was made outside the
 * gateway (the merchant dashboard): the gateway records it against the deposit whose `payment_id` it
 * names, which needs the amount. Withdrawals have no endpoint either; the gateway keeps each one's
 * latest status and logs its events for admins. Assumed withdrawal order `pending` → `processed`
 * (sent to the bank) → `succeeded` | `failed`, where `processed` may be skipped and the last two are final.
 */
export const REFUND_EVENT_STATUS = { 'refund.completed': 'APPROVED', 'refund.failed': 'REJECTED' } as const;
export const WITHDRAWAL_EVENT_STATUS = {
  'withdrawal.pending': 'PENDING',
  'withdrawal.processed': 'PROCESSED',
  'withdrawal.succeeded': 'SUCCEEDED',
  'withdrawal.failed': 'FAILED',
} as const;

/**
 * Q8. Test-mode simulation: "success or failure is simulated from the merchant dashboard"; no API is
 * shown. Assumed the dashboard's call is `POST /v1/qr-codes/{id}/simulate` with
 * `{ outcome: 'succeeded' | 'failed' }`, answered with the Q1 object; test keys only (403
 * `test_mode_only` for a live key), pending codes only (409 `invalid_state`).
 */
export const simulatePath = (id: string): string => `/v1/qr-codes/${encodeURIComponent(id)}/simulate`;
export const SIMULATION_OUTCOMES = ['succeeded', 'failed'] as const;

/**
 * Q9. Errors of QR creation and the other calls: "Error codes other than invalid_url and the errors
 * of QR code creation: not shown." Assumed the spec's one error shape `{ error: { code, message,
 * type } }` everywhere, with these codes.
 */
export const ERROR_CODES = {
  /** 400 validation_error: a field is missing or malformed. */
  invalidRequest: 'invalid_request',
  /** 400 validation_error: amount below Q11's minimum. */
  amountTooSmall: 'amount_too_small',
  /** 400 validation_error: amount above Q11's maximum. */
  amountTooLarge: 'amount_too_large',
  /** 400 validation_error: a currency other than THB. */
  currencyNotSupported: 'currency_not_supported',
  /** 401 authentication_error (spec: "A failed authentication gives HTTP 401"). */
  unauthorized: 'unauthorized',
  /** 403 invalid_request_error: simulation with a live key (Q8). */
  testModeOnly: 'test_mode_only',
  /** 404 invalid_request_error. */
  notFound: 'not_found',
  /** 409 invalid_request_error: an Idempotency-Key reused with a different body (Q14). */
  idempotencyConflict: 'idempotency_conflict',
  /** 409 invalid_request_error: simulating a code that is no longer pending (Q8). */
  invalidState: 'invalid_state',
  /** 422 validation_error: the spec's one named code. */
  invalidUrl: 'invalid_url',
  /** 500 api_error. */
  internal: 'internal_error',
} as const;

/**
 * Q10. Delivery retries and time-out: "retry policy and delivery time-out for these events: not
 * shown." Assumed as the deposit gateway states for its own: a delivery is answered 2xx within 10
 * seconds, otherwise retried with exponential backoff (30 s, doubling, at most 1 hour apart) for up
 * to 24 hours. The same delivery may therefore arrive more than once.
 */
export const DELIVERY_POLICY = {
  timeoutMs: 10_000,
  firstRetryDelaySeconds: 30,
  maxRetryDelaySeconds: 3_600,
  retryWindowSeconds: 86_400,
} as const;

/**
 * Q11. Amount bounds: "Amount bounds ... not shown." Assumed THB 1.00 to THB 2,000,000.00 per code,
 * the cap commonly applied to PromptPay transfers; kept in satang so both units (Q2) use one table.
 */
export const AMOUNT_BOUNDS_SATANG = { min: 100n, max: 200_000_000n } as const;

/**
 * Q12. Webhook URLs: the spec wants "HTTPS URL; must be publicly accessible". The real provider
 * could never reach a loopback address anyway, so in TEST mode the sandbox also accepts `http://`
 * URLs on 127.0.0.1, localhost or [::1], so a gateway on a laptop can receive its webhooks. Every
 * other non-https URL is 422 `invalid_url`.
 */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Q13. Required creation fields and lengths: "Which request fields are required: not shown."
 * Assumed `amount`, `currency`, `reference` and `client_name` required; `client_bank_name`,
 * `client_bank_account`, `metadata` and `expires_in` optional. `reference` 1 to 64 characters,
 * names at most 100, a bank account 10 to 15 digits (Thai account numbers are 10 or 12 digits; spaces
 * and dashes as printed on passbooks are removed before sending).
 */
export const CREATE_REQUIRED_FIELDS = ['amount', 'currency', 'reference', 'client_name'] as const;
export const REFERENCE_MAX_LENGTH = 64;
export const NAME_MAX_LENGTH = 100;
export const BANK_ACCOUNT_PATTERN = /^[0-9]{10,15}$/;

/**
 * Q14. Idempotency: "Idempotency keys are recommended before going live"; how they are sent is not
 * shown. Assumed the `Idempotency-Key` request header, scoped to the API key: the same key returns the
 * original code, the same key with a different body is 409 `idempotency_conflict`.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Q15. Status lookup and a cheap authenticated call: none is shown. Assumed `GET /v1/qr-codes/{id}`
 * (the Q1 object) for reconciliation, and `GET /v1/qr-codes?limit=1` (`{ data: [...], has_more }`)
 * for health checks.
 */
export const QR_CODES_PATH = '/v1/qr-codes';
export const qrCodePath = (id: string): string => `${QR_CODES_PATH}/${encodeURIComponent(id)}`;
export const PING_PATH = `${QR_CODES_PATH}?limit=1`;

/**
 * Q16. Base address: the spec writes paths with their versions (`/v1/qr-codes`, `/Thai/v1/webhooks`).
 * A merchant account's `baseUrl` is therefore the bare `{qr_base_url}` with no version prefix.
 */
export const WEBHOOKS_PATH = '/Thai/v1/webhooks';
export const WEBHOOK_ID_PREFIX = 'wh_';

/**
 * Q17. The QR payload: the spec says only that a code is returned. Assumed an EMVCo merchant-presented
 * PromptPay string (the Thai national QR), returned as `qr_payload` for the merchant to render. The
 * sandbox puts the code id in the reference label (62/05), since EMVCo caps that field at 25
 * characters and merchant references may be longer.
 */
export const PROMPTPAY_AID = 'A000000677010111';

/**
 * Q18. "Invalid URL or unreachable endpoint" (422): how reachability is tested is not shown. Assumed
 * one `HEAD` request with a 5 second time-out; any HTTP answer counts as reachable, a refused
 * connection, DNS failure or time-out does not.
 */
export const REACHABILITY_TIMEOUT_MS = 5_000;

/**
 * Q19. The registration `secret`: rules not shown. Assumed 8 to 256 characters. The adapter always
 * sends one (`whsec_` and 32 random bytes in hex) because the response table has no secret field, so
 * a secret generated by the provider could never be learned.
 */
export const SECRET_LENGTH = { min: 8, max: 256 } as const;
export const GENERATED_SECRET_PREFIX = 'whsec_';

/**
 * Q20. API keys: Authentication 1 sends `Authorization: Bearer <SECRET_KEY>`, and Authentication 2 says
 * "test keys start with `pk_test_` … production keys start with `pk_live_`" and names "a secret key
 * starting with `sk_`, which must be used on the backend only"; the examples send the secret key as the
 * bearer. How a secret key tells test from live is not shown. Assumed the secret key carries the same
 * marker as its publishable twin: `sk_test_` (test mode) and `sk_live_` (production). The gateway is a
 * backend, so it is configured with the secret key only; a `pk_` key is the publishable (client-side)
 * key, is never a bearer, and is refused at configuration with a message saying which key to use.
 */
export const SECRET_KEY_PREFIX = { test: 'sk_test_', live: 'sk_live_' } as const;
export const PUBLISHABLE_KEY_PREFIX = 'pk_';

/** Test or live by a secret key's prefix (Q20); undefined for anything that is not a QR secret key. */
export function secretKeyMode(apiKey: string): 'test' | 'live' | undefined {
  if (apiKey.startsWith(SECRET_KEY_PREFIX.test)) return 'test';
  if (apiKey.startsWith(SECRET_KEY_PREFIX.live)) return 'live';
  return undefined;
}

/** Event names (spec: Events). Registrations may name only these. */
export const QR_EVENTS = [
  'payment.succeeded',
  'payment.failed',
  'payment.pending',
  'withdrawal.processed',
  'withdrawal.succeeded',
  'withdrawal.failed',
  'withdrawal.pending',
  'refund.completed',
  'refund.failed',
] as const;
export type QrEvent = (typeof QR_EVENTS)[number];

export const isQrEvent = (value: unknown): value is QrEvent => typeof value === 'string' && (QR_EVENTS as readonly string[]).includes(value);

/** The only currency (spec: What the service does, 2). */
export const QR_CURRENCY = 'THB';
