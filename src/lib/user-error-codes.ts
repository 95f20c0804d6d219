// Every code a mutation's `userErrors` can carry, each declared once with its meaning. The type
// `UserErrorCode` is what `FieldError.code` accepts, so a code that is not declared here does not
// compile; docs/reference/user-errors.md is generated from this table (npm run docs:reference).

/** What kind of problem a code reports, which says what the caller can do about it. */
export type UserErrorKind =
  /** The input breaks a rule: fix the named field and send again. */
  | 'input'
  /** The input is well formed, but the object or account it names is not in a state that allows it. */
  | 'state'
  /** The provider refused or could not be reached; nothing was applied at the gateway. */
  | 'provider'
  /** The provider's answer contradicts what the gateway recorded; nothing was applied, admins are alerted. */
  | 'anomaly';

export interface UserErrorCodeInfo {
  kind: UserErrorKind;
  /** One or two sentences for the caller: what happened and what to do. */
  meaning: string;
}

export const USER_ERROR_CODES = {
  // Input: shape and format of fields.
  FIELD_REQUIRED: { kind: 'input', meaning: 'A field the rail, country or operation needs is missing or blank. The message names what it needs.' },
  FIELD_NOT_ALLOWED: { kind: 'input', meaning: 'A field was given that this rail or country does not take (e.g. a LATAM method for Mexico, phone fields for Ecuador). Leave it out.' },
  FIELD_INVALID: { kind: 'input', meaning: 'A Thai QR payer field is too long, or the bank account is not a Thai bank account number.' },
  FIELD_TOO_LONG: { kind: 'input', meaning: 'A text field is longer than the gateway stores; the message gives the limit.' },
  INVALID_FORMAT: { kind: 'input', meaning: 'A field is not in the expected format (email, E.164 phone, ISO country code, document number, URL, idempotency key, name). The message shows the format.' },
  INVALID_VALUE: { kind: 'input', meaning: 'A field holds a value outside the allowed list (method, bank country, LATAM country, document type, role, event name) or a non-positive amount.' },
  INVALID_CHECK_DIGIT: { kind: 'input', meaning: 'A CPF, Chilean RUT or Mexican CLABE has the right shape but its check digit does not match: the number was mistyped.' },
  INVALID_TEXT: { kind: 'input', meaning: 'A text argument cannot be stored: it contains a NUL character, a lone UTF-16 surrogate, or is too long.' },
  METADATA_TOO_LARGE: { kind: 'input', meaning: 'A deposit\'s metadata has too many entries, or a key or value (or all of it together) is longer than the gateway keeps; the message gives the limit.' },
  REFERENCE_TOO_LONG: { kind: 'input', meaning: 'The reference sent to the provider is longer than the provider accepts; the message gives the limit.' },
  URL_NOT_HTTPS: { kind: 'input', meaning: 'A return or redirect address must use https://.' },
  LIMIT_OUT_OF_RANGE: { kind: 'input', meaning: 'A client limit (setApiClientLimits) is not a whole number in its range; the message gives the range. Null gives the client the gateway\'s default.' },
  EXPIRY_OUT_OF_RANGE: { kind: 'input', meaning: 'An expiry is outside the window allowed: the rail\'s (hosted checkout sessions, Ecuador payment links, Thai QR codes), or the future for an API key\'s; the message gives the window.' },
  URL_INVALID: { kind: 'input', meaning: 'A notification endpoint URL is not an absolute http(s) URL.' },
  URL_SCHEME_NOT_ALLOWED: { kind: 'input', meaning: 'A notification endpoint URL must use https:// (http:// is accepted outside production, to a loopback address only).' },
  URL_CREDENTIALS_NOT_ALLOWED: { kind: 'input', meaning: 'A notification endpoint URL must not carry a user name or password; authenticate the gateway by the signature instead.' },
  ADDRESS_NOT_ALLOWED: { kind: 'input', meaning: 'A notification endpoint URL resolves to a private, link-local, loopback or metadata address that NOTIFICATION_ALLOWED_DESTINATIONS does not name.' },
  NAME_TAKEN: { kind: 'input', meaning: 'An API client with this name already exists; choose another name.' },

  // Input: money.
  AMOUNT_INVALID: { kind: 'input', meaning: 'The amount is not a plain decimal string such as "10.50" (no exponent, no thousands separator, never a JSON number).' },
  AMOUNT_NOT_POSITIVE: { kind: 'input', meaning: 'The amount is zero or negative.' },
  AMOUNT_TOO_LARGE: { kind: 'input', meaning: 'The amount has more integer digits than the gateway can hold.' },
  AMOUNT_TOO_PRECISE: { kind: 'input', meaning: 'The amount has more decimals than its currency has in ISO 4217 (none for JPY and CLP, two for EUR, three for KWD), or than its provider takes (the deposit gateway takes whole CLP and COP; some QR accounts take whole baht only).' },
  CURRENCY_INVALID: { kind: 'input', meaning: 'The currency is not a currency of ISO 4217 with a minor unit, written as its three capital letters such as "EUR".' },
  CURRENCY_NOT_SUPPORTED: { kind: 'input', meaning: 'The rail or country does not take this currency; the message lists the ones it takes.' },
  AMOUNT_BELOW_MINIMUM: { kind: 'input', meaning: 'The amount is below the rail\'s per-payment minimum; the message gives it.' },
  AMOUNT_ABOVE_MAXIMUM: { kind: 'input', meaning: 'The amount is above the rail\'s per-payment maximum; the message gives it.' },

  // Input: which rail.
  RAIL_REQUIRED: { kind: 'input', meaning: 'createDeposit names no rail: give exactly one rail block (card, hostedCheckout, openBanking, latam, upi, pix or crypto).' },
  RAIL_AMBIGUOUS: { kind: 'input', meaning: 'createDeposit names more than one rail block; give exactly one.' },
  RAIL_NOT_SUPPORTED: { kind: 'input', meaning: 'The chosen merchant account\'s provider does not serve this rail.' },
  HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT: { kind: 'input', meaning: 'Hosted checkout is refused on a test-mode merchant account, where a session would still make a real charge. Use a live account.' },

  // Idempotency.
  IDEMPOTENCY_KEY_REUSED: { kind: 'input', meaning: 'This idempotency key was already used with different input. Use a new key for a new request.' },
  IDEMPOTENCY_KEY_IN_USE: { kind: 'state', meaning: 'A request with this idempotency key is still being processed. Retry later with the same key and input.' },

  // State: the named object or account.
  NOT_FOUND: { kind: 'state', meaning: 'No object with this id exists, or the calling client may not see it.' },
  MERCHANT_ACCOUNT_NOT_FOUND: { kind: 'state', meaning: 'The merchant account does not exist for the rail\'s provider, or the calling client may not use it.' },
  ACCOUNT_NOT_CONFIGURED: { kind: 'state', meaning: 'The object\'s merchant account is no longer configured on this gateway, so its provider cannot be asked.' },
  DEPOSIT_NOT_SUBMITTED: { kind: 'state', meaning: 'The deposit has not reached the provider yet; try again shortly.' },
  NOT_A_CARD_DEPOSIT: { kind: 'state', meaning: 'The embedded card form serves CARD deposits only.' },
  DEPOSIT_NOT_SUCCEEDED: { kind: 'state', meaning: 'Only a SUCCEEDED deposit\'s credit can be claimed; the message names its current status.' },
  CANNOT_REVOKE_OWN_LAST_KEY: { kind: 'state', meaning: 'An admin cannot revoke the last usable key of its own client: it could never act again. Create another key first (createApiKey), or ask another admin.' },
  CANNOT_RESTRICT_SELF: { kind: 'state', meaning: 'A client cannot make itself trusted-documents-only: the manifest holds no admin tooling, so it could not undo it. Another admin can.' },
  CREDIT_CLAIM_OWNER_ONLY: { kind: 'state', meaning: 'Only the deposit\'s own client claims its credit (it credits the player); an admin reads the claim on the deposit instead, and nothing is claimed.' },
  DEPOSIT_NOT_REFUNDABLE: { kind: 'state', meaning: 'Only a SUCCEEDED deposit whose provider payment is known can be refunded.' },
  DEPOSIT_DISPUTED: { kind: 'state', meaning: 'A chargeback is open on the deposit; it cannot be refunded.' },
  CAPABILITY_NOT_SUPPORTED: { kind: 'state', meaning: 'The merchant account\'s provider does not offer this (payouts, the embedded card form, webhook registration or payment simulation); the message names the account and its provider. Use an account of a provider that does.' },
  REFUND_NOT_SUPPORTED: { kind: 'state', meaning: 'The deposit\'s provider has no refund API (Thai QR): refund on its dashboard; the refund then reaches the gateway as an event.' },
  REFUND_EXCEEDS_REFUNDABLE: { kind: 'state', meaning: 'The refund is more than is left to refund on the deposit, counting refunds still open.' },
  SIMULATION_NOT_AVAILABLE: { kind: 'state', meaning: "Payments can be simulated only on QR accounts the built-in sandbox serves, for a QR code that was created there; the real provider's test environment simulates from its merchant dashboard." },
  DELIVERY_NOT_FOUND: { kind: 'state', meaning: 'No stored webhook delivery has this id.' },
  DELIVERY_REJECTED: { kind: 'state', meaning: 'The webhook delivery was rejected when it arrived and kept no body, so it cannot be replayed.' },
  DELIVERY_BODY_ERASED: { kind: 'state', meaning: 'The webhook delivery\'s body, with the personal data in it, was erased after WEBHOOK_BODY_RETENTION_MS, so it cannot be replayed. Its outcome and the change it made stay on record; reconcileDeposit asks the provider for a deposit\'s current status.' },
  CLIENT_REVOKED: { kind: 'state', meaning: 'The API client is revoked: it gets no new key, nothing is delivered to it, so no notification endpoint can be made for it, and its endpoints (disabled by the revocation) cannot be enabled again.' },
  PAYLOAD_INVALID: { kind: 'state', meaning: 'The stored webhook body is not an event the gateway can apply.' },

  // Provider.
  PROVIDER_AUTH_FAILED: { kind: 'provider', meaning: 'The provider refused the merchant account\'s credentials: an operator must fix the account configuration.' },
  RAIL_DISABLED: { kind: 'provider', meaning: 'The payment method is disabled at the provider.' },
  RAIL_UNAVAILABLE: { kind: 'provider', meaning: 'The payment method is not available to this account right now; another one may be.' },
  BENEFICIARY_FIELDS_MISSING: { kind: 'provider', meaning: 'The provider needs more beneficiary details for this payout country; the message names them.' },
  PAYOUTS_NOT_ENABLED: { kind: 'provider', meaning: 'Live payouts are not enabled on this merchant account at the provider.' },
  WEBHOOK_URL_INVALID: { kind: 'provider', meaning: 'The webhook address is not a valid https URL the QR gateway accepts.' },
  RATE_LIMITED: { kind: 'provider', meaning: 'The provider is limiting requests; try again later.' },
  PROVIDER_REJECTED: { kind: 'provider', meaning: 'The provider refused the request for a reason with no more specific code; the message says what the gateway knows.' },
  PROVIDER_UNAVAILABLE: { kind: 'provider', meaning: 'The provider could not be reached or answered with an error. The outcome may be unknown: the gateway keeps the record and settles it by status lookup, or a retry with the same idempotency key resumes it.' },

  // Anomalies: the provider's answer does not fit the gateway's record.
  MERCHANT_REFERENCE_MISMATCH: { kind: 'anomaly', meaning: 'The provider\'s answer is about another payment than this deposit; nothing was applied.' },
  AMOUNT_MISMATCH: { kind: 'anomaly', meaning: 'The provider reported an amount or currency other than the deposit\'s; nothing was applied.' },
  TRANSITION_NOT_ALLOWED: { kind: 'anomaly', meaning: 'The provider reported a status the deposit cannot move to from its current one; nothing was applied.' },
  REFUND_NOT_RECORDED: { kind: 'anomaly', meaning: 'The provider says the deposit is refunded in full, but the gateway has not recorded refunds for all of it yet; nothing was applied.' },
  PROVIDER_REFERENCE_CONFLICT: { kind: 'anomaly', meaning: 'The provider\'s payment reference already belongs to another deposit; nothing was applied.' },
  ANOMALY: { kind: 'anomaly', meaning: 'The provider\'s answer does not fit the gateway\'s record for a reason with no more specific code; nothing was applied.' },
} as const satisfies Record<string, UserErrorCodeInfo>;

export type UserErrorCode = keyof typeof USER_ERROR_CODES;

export function isUserErrorCode(value: string): value is UserErrorCode {
  return Object.hasOwn(USER_ERROR_CODES, value);
}

/**
 * A code read back from storage or from the head of a reason text (`CODE: details`), as a
 * registered code; `fallback` when it is not one, so no unregistered code reaches a client.
 *
 * @example userErrorCodeOf('AMOUNT_MISMATCH: reported EUR 5.00', 'ANOMALY') // 'AMOUNT_MISMATCH'
 */
export function userErrorCodeOf(text: string | null | undefined, fallback: UserErrorCode): UserErrorCode {
  const head = /^[A-Z][A-Z0-9_]*/.exec(text ?? '')?.[0];
  return head !== undefined && isUserErrorCode(head) ? head : fallback;
}
