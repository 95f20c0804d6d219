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
 * The names in it are guesses, settings whose defaults are {@link QR_WIRE} (`codeIdField`, `payloadField`,
 * `expiresAtField`), except that the code's id is read from `payment_id` first: the one payment
 * identifier the spec names (its deliveries). A response with no `status` is read as `pending` (a
 * code just made is unpaid); one with no expiry moment expires Q3's default after it was made.
 */
export const CREATE_STATUS = 201;
export const QR_CODE_ID_PREFIX = 'qr_';
/** The payment identifier the spec names (delivery payload), read before Q1's guessed field. */
export const SPEC_PAYMENT_ID_FIELD = 'payment_id';

/**
 * Q2. Amount unit: "Amount for the code (the unit is not stated by the interface)". A per-deployment
 * setting: `satang` (integer minor units, 100 = THB 1.00; the default, as most card-era APIs count
 * minor units) or `baht` (integer major units, so only whole-baht amounts can be sent).
 */
export type AmountUnit = 'satang' | 'baht';
export const DEFAULT_AMOUNT_UNIT: AmountUnit = 'satang';

/**
 * Q3. Expiry: "A QR code expiry parameter exists (default 15 minutes in test mode, adjustable at
 * generation); its field name is not stated", and "QR code expiry bounds: not shown". Nothing is sent
 * unless a code's lifetime is asked for (`createQrCode(expiresInSeconds:)`): then it goes as
 * `QR_WIRE.expiryField` (assumed `expires_in`), in seconds, 60 to 86400. Without it the provider's
 * default applies; where the response gives no expiry moment, the gateway takes the spec's stated
 * default, 15 minutes, as the code's lifetime.
 */
export const DEFAULT_EXPIRY_SECONDS = 900;
export const EXPIRY_BOUNDS_SECONDS = { min: 60, max: 86_400 } as const;

/**
 * Q4. Webhook signature: "The signature scheme ... for these events: not shown." Assumed the common
 * scheme of the deposit gateway's era: header `X-QR-Signature` (`QR_WIRE.signatureHeader`) holding
 * `t=<unix seconds>,v1=<hex>`, where `v1` is HMAC-SHA256 with the registration's secret over
 * `<t>.<raw body>`. Several `v1` entries may appear (the provider signing with an old and a new
 * secret while one is rotated); one match is enough. Deliveries older or newer than 300 seconds are
 * refused.
 */
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
 * shown. The sandbox's dashboard has the control (a form per pending code, success or failure). So
 * that the gateway can drive its own in-process sandbox, the sandbox also answers the same
 * simulation, through the same code, at `POST /v1/qr-codes/{id}/simulate` with
 * `{ outcome: 'succeeded' | 'failed' }` and the account's key, answered with the Q1 object; test
 * keys only (403 `test_mode_only` for a live key), pending codes only (409 `invalid_state`). The
 * real provider has no such route, so the adapter calls it on sandbox accounts only.
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
 * (`QR_WIRE.lookupPath`; the Q1 object) for reconciliation, and `GET /v1/qr-codes?limit=1`
 * (`{ data: [...], has_more }`) for health checks.
 */
export const QR_CODES_PATH = '/v1/qr-codes';
export const PING_PATH = `${QR_CODES_PATH}?limit=1`;

/**
 * The wire names the spec does not state, one switch each, read by the adapter and the sandbox
 * alike: settings of the QR provider (`QR_GATEWAY_WIRE_*`, ./settings.ts), which give both the same
 * names, so meeting the real provider's is a change of configuration; test/providers/qr-gateway-wire.test.ts
 * runs each alternative.
 */
export interface QrWire {
  /** Q1: the create and lookup response's code id (read after the spec's `payment_id`). */
  codeIdField: string;
  /** Q1: the PromptPay string to render. */
  payloadField: string;
  /** Q1: when the code stops working (ISO 8601). */
  expiresAtField: string;
  /** Q3: the requested lifetime in seconds, sent only when one is asked for. */
  expiryField: string;
  /** Q4: the delivery signature header (lower case, as Node reads headers). */
  signatureHeader: string;
  /** Q15: the status lookup; `{id}` is replaced by the URL-encoded code id. */
  lookupPath: string;
}

/** The settings' defaults: the names assumed until the real provider shows its own. */
export const QR_WIRE: QrWire = {
  codeIdField: 'id',
  payloadField: 'qr_payload',
  expiresAtField: 'expires_at',
  expiryField: 'expires_in',
  signatureHeader: 'x-qr-signature',
  lookupPath: `${QR_CODES_PATH}/{id}`,
};

/** The lookup path of one code under `wire` (Q15). */
export const lookupPathOf = (wire: QrWire, id: string): string => wire.lookupPath.replace('{id}', encodeURIComponent(id));

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
 * bearer. So the gateway, a backend, is configured with the secret key, any `sk_…` key. What the spec
 * does state about test or live is on the publishable key, so an account's mode comes from its
 * `publishableKey` (`pk_test_…` or `pk_live_…`, read for its mode and never sent) or, when none is
 * given, its `livemode` setting. A secret key written `sk_test_…` or `sk_live_…` is read as saying its
 * mode too; a plain `sk_…` key says nothing. Sources that disagree are refused at start. A `pk_` key
 * given as the apiKey is never a bearer and is refused with a message saying which key to use.
 */
export const SECRET_KEY_PREFIX = 'sk_';
/** The mode markers a secret key may carry (Q20); the spec states them for publishable keys only. */
export const SECRET_KEY_MODE_PREFIX = { test: 'sk_test_', live: 'sk_live_' } as const;
export const PUBLISHABLE_KEY_PREFIX = 'pk_';
export const PUBLISHABLE_KEY_MODE_PREFIX = { test: 'pk_test_', live: 'pk_live_' } as const;

/** Test or live by a secret key (Q20): `unstated` for an `sk_` key without a marker; undefined for anything that is not a QR secret key. */
export function secretKeyMode(apiKey: string): 'test' | 'live' | 'unstated' | undefined {
  if (!apiKey.startsWith(SECRET_KEY_PREFIX) || apiKey.length <= SECRET_KEY_PREFIX.length) return undefined;
  if (apiKey.startsWith(SECRET_KEY_MODE_PREFIX.test)) return 'test';
  if (apiKey.startsWith(SECRET_KEY_MODE_PREFIX.live)) return 'live';
  return 'unstated';
}

/** Test or live by a publishable key (Authentication 2); undefined for anything else. */
export function publishableKeyMode(key: string): 'test' | 'live' | undefined {
  if (key.startsWith(PUBLISHABLE_KEY_MODE_PREFIX.test) && key.length > PUBLISHABLE_KEY_MODE_PREFIX.test.length) return 'test';
  if (key.startsWith(PUBLISHABLE_KEY_MODE_PREFIX.live) && key.length > PUBLISHABLE_KEY_MODE_PREFIX.live.length) return 'live';
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
