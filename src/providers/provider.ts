// The interface every payment provider adapter implements. The domain speaks only these types;
// each adapter under src/providers/<provider>/ is the one place that knows its provider's URLs,
// field names, status words and signature scheme. Nothing here knows GraphQL or the database.

import type { Money } from '../lib/money.js';
import type { UserErrorCode } from '../lib/user-error-codes.js';

/**
 * The names of the registered providers. Empty here: each provider's folder adds its own name
 * (`declare module '../provider.js' { interface ProviderNames { 'acme-pay': true } }`) beside its
 * registry definition, so a map over providers is typed without this file naming any.
 */
// Empty on purpose, filled by declaration merging (above).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProviderNames {}

/** A registered provider's name (src/providers/registry.ts): lower-case letters, digits and dashes. */
// `& string` keeps the name a string whatever a provider merges in; today every key is one, hence the finding.
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
export type ProviderName = keyof ProviderNames & string;

/** How the money moves. One `Deposit` type covers every rail of both providers. */
export type Rail = 'HOSTED_CHECKOUT' | 'CARD' | 'OPEN_BANKING' | 'LATAM' | 'UPI' | 'PIX' | 'CRYPTO' | 'THAI_QR';

/** Gateway deposit status (DESIGN.md). `SUCCEEDED` is the only status on which a player is credited. */
export type DepositStatus =
  | 'PENDING'
  | 'AUTHORIZED'
  | 'SUCCEEDED'
  | 'DECLINED'
  | 'EXPIRED'
  | 'CANCELLED'
  | 'FAILED'
  | 'REFUNDED';

export type RefundStatus = 'REQUESTED' | 'APPROVED' | 'REJECTED';
export type PayoutStatus = 'PENDING' | 'PAID' | 'BOUNCED' | 'REVERTED' | 'FAILED';
/** A withdrawal from the merchant's balance at a provider, which the gateway only hears about. */
export type WithdrawalStatus = 'PENDING' | 'PROCESSED' | 'SUCCEEDED' | 'FAILED';

/** A merchant account at a provider, as configured. Secrets stay inside adapters and never leave the process. */
export interface MerchantAccount {
  /** Our stable code for the account, used in webhook URLs (`/webhooks/<provider>/<code>`). */
  code: string;
  provider: ProviderName;
  /** false for test-mode accounts (sandbox or provider test keys). */
  livemode: boolean;
  /** Base address of the provider API as its spec names it: `{base_url}` with `/v1` for the deposit gateway, the bare `{qr_base_url}` for the QR gateway (its paths carry their versions). */
  baseUrl: string;
  apiKey: string;
  /** Current webhook signing secret first; older ones still accepted during rotation. */
  webhookSecrets: string[];
  /**
   * Served by the gateway's in-process sandbox (development and tests): what only a sandbox can do,
   * such as simulating a payer, is allowed on such an account alone.
   */
  sandbox?: boolean;
  /**
   * Send players to the provider's own checkout host rather than the acquirer's page, where the
   * provider offers the choice (the deposit gateway's `white_label`). A merchant-wide presentation
   * choice, so an account setting and not a per-deposit field. Default false.
   */
  whiteLabel?: boolean;
}

/** Customer details a rail may require. Field names are the gateway's, not a provider's. */
export interface Customer {
  email?: string;
  firstName?: string;
  lastName?: string;
  /** ISO 3166-1 alpha-2 billing country. */
  country?: string;
  address1?: string;
  city?: string;
  zipCode?: string;
  phone?: string;
  phoneCode?: string;
  personalId?: string;
  documentType?: string;
  documentNumber?: string;
}

/** Name of each rail's block in the gateway's `createDeposit` input (the API's names, not a provider's). */
export const RAIL_BLOCK = {
  HOSTED_CHECKOUT: 'hostedCheckout',
  CARD: 'card',
  OPEN_BANKING: 'openBanking',
  LATAM: 'latam',
  UPI: 'upi',
  PIX: 'pix',
  CRYPTO: 'crypto',
  THAI_QR: 'thaiQr',
} as const satisfies Record<Rail, string>;

/** The rail block of a deposit request: exactly one. */
export type RailDetails =
  | {
      rail: 'HOSTED_CHECKOUT';
      preselect?: { method: string; bankCountry?: string };
      expiresInSeconds?: number;
      /** Where the player goes after paying; `returnUrl` when absent. */
      successUrl?: string;
      /** Where the player goes after abandoning or failing; `returnUrl` when absent. */
      cancelUrl?: string;
    }
  | { rail: 'CARD' }
  | { rail: 'OPEN_BANKING'; method: string; bankCountry: string }
  | {
      rail: 'LATAM';
      /** ECUADOR, CHILE, PERU, MEXICO or COLOMBIA. */
      country: string;
      method?: string;
      successUrl?: string;
      errorUrl?: string;
      redirectUrl?: string;
      expiresAt?: Date;
    }
  | { rail: 'UPI' }
  | { rail: 'PIX' }
  | { rail: 'CRYPTO' }
  | {
      rail: 'THAI_QR';
      payer: { name: string; bankName?: string; bankAccount?: string };
      expiresInSeconds?: number;
      /** Our API client id, sent as metadata. */
      clientId: string;
    };

export interface CreateDepositRequest {
  /**
   * The gateway's own deposit id. Sent to the provider as its merchant reference and idempotency
   * key, so a retry after a crash can never create a second provider payment.
   */
  depositId: string;
  amount: Money;
  details: RailDetails;
  customer: Customer;
  returnUrl?: string;
  /** The client's own key/value pairs, sent where the provider takes them (echoed back on the payment). */
  metadata?: Record<string, string>;
}

/** What a provider says about one deposit, mapped to domain terms. */
export interface ProviderDeposit {
  /** The provider's reference for the payment (or session id for hosted checkout). */
  reference: string;
  status: DepositStatus;
  /** The provider's raw status word, kept for admins and support. */
  providerStatus: string;
  /** Where to send the player, when the rail has a redirect. */
  redirectUrl?: string;
  /** Echo of the merchant reference we sent (our deposit id), when the provider returns it. */
  merchantReference?: string;
  amount?: Money;
  fee?: Money;
  /** Only when it is `amount - fee`, as the deposit gateway defines it; otherwise see `netMismatch`. */
  net?: Money;
  /** A reported net that is not `amount - fee`: not applied, raised as an anomaly for admins. */
  netMismatch?: Money;
  declineReason?: string;
  /** Processor code: for admins only, never for shoppers. */
  statusReason?: string;
  approvedAt?: Date;
  /** When the provider created the payment (lookups and lists); bounds a search of its newest-first list. */
  createdAt?: Date;
  /**
   * Refund position of the payment as the provider reports it on status lookup; absent when no
   * refund was ever requested.
   */
  refundStatus?: {
    status: RefundStatus;
    providerStatus: string;
    /** The provider says the payment itself is reversed in full (deposit gateway A25). */
    reversedInFull?: boolean;
  };
  /** Crypto quote terms (crypto rail only). */
  crypto?: { quoteTtlMinutes: number; underpayTolerancePct: string };
  /** Thai QR code (THAI_QR rail only). */
  qrCode?: { payload: string; expiresAt: Date };
}

/** Stable error codes a provider call can end with. Clients see the code and the safe message. */
export const PROVIDER_ERROR_CODES = [
  'PROVIDER_AUTH_FAILED',
  'RAIL_DISABLED',
  /** The rail is not available to this account right now (deposit gateway: "solution not enabled"); another may be. */
  'RAIL_UNAVAILABLE',
  'AMOUNT_BELOW_MINIMUM',
  'AMOUNT_ABOVE_MAXIMUM',
  'CURRENCY_NOT_SUPPORTED',
  'BENEFICIARY_FIELDS_MISSING',
  'PAYOUTS_NOT_ENABLED',
  'WEBHOOK_URL_INVALID',
  'RATE_LIMITED',
  'PROVIDER_REJECTED',
  'PROVIDER_UNAVAILABLE',
] as const satisfies readonly UserErrorCode[];

export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

export interface ProviderError {
  code: ProviderErrorCode;
  /** Safe for any client: says what went wrong in gateway terms. */
  message: string;
  /** The provider's own message, kept for admins (may name provider fields). */
  providerMessage?: string;
  httpStatus?: number;
  /** Field paths in gateway terms (e.g. `['beneficiary', 'bankCode']`) the provider said are missing. */
  missing?: string[][];
  /**
   * True when the outcome at the provider is unknown (timeout, 5xx): the request may or may not
   * have taken effect, so the record stays recoverable by status lookup or retry.
   */
  outcomeUnknown: boolean;
}

/** Declines and failures are results, not exceptions. */
export type ProviderResult<T> = { ok: true; value: T } | { ok: false; error: ProviderError };

/** A validation failure of a request, before any provider call. */
export interface FieldError {
  /** Path in gateway request terms, e.g. `['customer', 'phone']` or `['amount']`. */
  field: string[];
  /** Stable UPPER_SNAKE code, declared with its meaning in src/lib/user-error-codes.ts. */
  code: UserErrorCode;
  message: string;
}

/** A verified webhook, mapped to domain terms. */
export interface WebhookEvent {
  /** Dedupe key: the provider's event id, or `<reference>:<status>` where the provider has none. */
  eventId: string;
  /** The provider's event name, e.g. `payment.approved`. */
  name: string;
  livemode?: boolean;
  occurredAt?: Date;
  /** What the event is about; `unknown` events are stored and ignored. */
  subject:
    | { kind: 'deposit'; reference: string; merchantReference?: string; status: DepositStatus; providerStatus: string; amount?: Money; declineReason?: string }
    | { kind: 'refund'; reference: string; depositReference?: string; status: RefundStatus; providerStatus: string; amount?: Money }
    | { kind: 'payout'; reference: string; merchantReference?: string; status: PayoutStatus; providerStatus: string; amount?: Money }
    | { kind: 'chargeback'; reference: string; merchantReference?: string }
    | { kind: 'withdrawal'; reference: string; status: WithdrawalStatus; providerStatus: string; amount?: Money }
    | { kind: 'other'; reference?: string };
}

/** Why a delivery's bytes are not authentic: its signature or its freshness failed. */
export type SignatureRejection = 'SIGNATURE_MISSING' | 'SIGNATURE_MALFORMED' | 'SIGNATURE_MISMATCH' | 'TIMESTAMP_OUT_OF_WINDOW';

/**
 * Why an adapter did not make an event of a delivery: a signature rejection, or `PAYLOAD_INVALID`,
 * which an adapter reports only for authentic bytes (verified first) that are not an event it can
 * read: not UTF-8, not JSON, or an envelope whose fields break the provider's rules.
 */
export type WebhookRejection = SignatureRejection | 'PAYLOAD_INVALID';

export type WebhookVerification = { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookRejection };

/** Incoming webhook exactly as received: verification runs on these bytes. */
export interface RawWebhook {
  body: Buffer;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** Defaults to the current time; tests pass their own. */
  receivedAt?: Date;
}

/** One provider that takes deposits. */
export interface DepositProvider {
  readonly name: ProviderName;
  /** Rails this provider serves. */
  readonly rails: readonly Rail[];
  /**
   * Checks a request against the provider's published rules (amount bands, currencies, required
   * fields per rail) so bad input is refused before any provider call. Empty means valid.
   */
  validateDeposit(account: MerchantAccount, request: Omit<CreateDepositRequest, 'depositId'>): FieldError[];
  /**
   * The currency a rail uses when the caller names none, so the caller can build the request's
   * `Money`. Empty string when the rail has no default (the caller must then name one).
   *
   * @example adapter.defaultCurrency({ rail: 'PIX' }) // 'BRL'
   */
  defaultCurrency(details: RailDetails): string;
  createDeposit(account: MerchantAccount, request: CreateDepositRequest): Promise<ProviderResult<ProviderDeposit>>;
  /** Status lookup by the provider reference; used by reconciliation. */
  getDeposit(account: MerchantAccount, reference: string): Promise<ProviderResult<ProviderDeposit>>;
  /** Verifies a webhook on the exact bytes received, then parses it. Never parses before verifying. */
  verifyWebhook(account: MerchantAccount, webhook: RawWebhook): WebhookVerification;
  /**
   * Parses a body that was verified when it was received (a stored delivery an admin replays).
   * Never call it on bytes that have not passed `verifyWebhook`: it checks no signature.
   */
  parseWebhook(account: MerchantAccount, body: Buffer): WebhookVerification;
  /** Liveness of the provider's API for this account (health checks). */
  ping(account: MerchantAccount): Promise<boolean>;
}

export interface RequestRefundRequest {
  /** The gateway's refund id, sent as the provider's idempotency key. */
  refundId: string;
  /** Provider reference of the deposit being refunded. */
  depositReference: string;
  /** Omitted: refund the full captured amount. */
  amount?: Money;
  reason?: string;
}

export interface ProviderRefund {
  reference: string;
  status: RefundStatus;
  providerStatus: string;
  amount?: Money;
}

export interface PayoutBeneficiary {
  name?: string;
  documentType?: string;
  documentNumber?: string;
  /** Destination account (the CLABE in Mexico). Sensitive: masked for non-admins and in logs. */
  accountNumber?: string;
  bankCode?: string;
  accountType?: string;
  /** Peru's interbank number. */
  cci?: string;
}

export interface CreatePayoutRequest {
  /** The gateway's payout id: the provider's merchant reference and idempotency key. */
  payoutId: string;
  country: string;
  amount: Money;
  beneficiary: PayoutBeneficiary;
}

export interface ProviderPayout {
  reference: string;
  status: PayoutStatus;
  providerStatus: string;
  merchantReference?: string;
  amount?: Money;
  /** When the provider created the payout, when its list says (the spec's payout object does not promise it). */
  createdAt?: Date;
}

export interface CardSession {
  settled: boolean;
  status: DepositStatus;
  providerStatus: string;
  amount?: Money;
  scriptUrl?: string;
  brands: string[];
}

export interface CardSettleResult {
  settled: boolean;
  changed: boolean;
  deposit: ProviderDeposit;
}

export interface Page<T> {
  items: T[];
  /** Cursor for the next (older) page; absent on the last page. */
  nextBefore?: string;
}

/** A webhook registration at a provider that has a registration API (the QR gateway). */
export interface WebhookRegistration {
  /** The provider's registration id (`wh_…` at the QR gateway). */
  id: string;
  url: string;
  events: string[];
  /** The provider's word, e.g. `active`. */
  status: string;
  createdAt: Date;
  /** The signing secret in force: the caller's, or one the adapter generated. Stored encrypted or not at all outside config. */
  secret: string;
}

export interface RegisterWebhookRequest {
  url: string;
  events: string[];
  /** Generated by the adapter when omitted, so the gateway always knows the secret it verifies with. */
  secret?: string;
}
