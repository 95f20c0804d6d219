// What a provider may offer beyond taking deposits, one port per capability, and the one lookup
// every service asks: the port of a merchant account's provider, or a clear user error when that
// provider does not offer it. A definition's `createAdapter` returns its ports; nothing casts an
// adapter to a capability it did not hand over.

import type { UserErrorCode } from '../lib/user-error-codes.js';
import type {
  CardSession,
  CardSettleResult,
  CreatePayoutRequest,
  DepositProvider,
  FieldError,
  MerchantAccount,
  Page,
  ProviderDeposit,
  ProviderName,
  ProviderPayout,
  ProviderRefund,
  ProviderResult,
  RegisterWebhookRequest,
  RequestRefundRequest,
  WebhookRegistration,
} from './provider.js';

/** Refunds of the provider's own deposits. */
export interface RefundPort {
  requestRefund(account: MerchantAccount, request: RequestRefundRequest): Promise<ProviderResult<ProviderRefund>>;
  /**
   * Checks a refund's amount against the provider's own format (fewer decimals than ISO 4217 gives,
   * say) so a refund it cannot take is refused before any call. Empty means valid; a provider
   * without such rules leaves it out.
   */
  validateRefund?(account: MerchantAccount, request: Pick<RequestRefundRequest, 'amount'>): FieldError[];
}

/** Payouts to beneficiaries, and the list their reconciliation reads. */
export interface PayoutPort {
  /**
   * The currency a payout to the country uses when the caller names none; empty string when the
   * provider pays out to no such country (the caller then reports the country).
   */
  payoutCurrency(country: string): string;
  /** Checks a payout against the provider's rules before any call. Empty means valid. */
  validatePayout(account: MerchantAccount, request: Omit<CreatePayoutRequest, 'payoutId'>): FieldError[];
  createPayout(account: MerchantAccount, request: CreatePayoutRequest): Promise<ProviderResult<ProviderPayout>>;
  listPayouts(account: MerchantAccount, page?: { before?: string; limit?: number }): Promise<ProviderResult<Page<ProviderPayout>>>;
}

/** An embedded card form: the session a merchant page places, and the settle call that ends it. */
export interface CardFormPort {
  getCardSession(account: MerchantAccount, reference: string): Promise<ProviderResult<CardSession>>;
  settleCard(account: MerchantAccount, reference: string): Promise<ProviderResult<CardSettleResult>>;
}

/** The provider's list of payments, newest first: what reconciliation searches for a deposit whose reference it never learnt. */
export interface DepositListingPort {
  listDeposits(account: MerchantAccount, page?: { before?: string; limit?: number }): Promise<ProviderResult<Page<ProviderDeposit>>>;
  /**
   * The moment after which a hosted checkout session created at `createdAt` can no longer produce a
   * payment: a hosted deposit whose payment the list does not show by then was never paid.
   */
  checkoutSessionDeadline(createdAt: Date, expiresInSeconds?: number): Date;
}

/** Webhooks registered through the provider's API (at start-up, for each account). */
export interface WebhookRegistrationPort {
  /** Every event name a registration may subscribe to; the gateway registers itself for all of them. */
  readonly webhookEvents: readonly string[];
  registerWebhook(account: MerchantAccount, request: RegisterWebhookRequest): Promise<ProviderResult<WebhookRegistration>>;
}

/** Test mode only: a payer's success or failure, as the provider's dashboard simulates it. */
export interface SimulationPort {
  simulatePayment(account: MerchantAccount, reference: string, outcome: 'SUCCEEDED' | 'FAILED'): Promise<ProviderResult<ProviderDeposit>>;
}

/**
 * What one provider's adapter hands the gateway: deposits on its rails (and the verification of its
 * webhooks) always, each further capability as a port of its own when it offers it.
 */
export interface ProviderPorts {
  deposits: DepositProvider;
  refunds?: RefundPort;
  payouts?: PayoutPort;
  cardForm?: CardFormPort;
  depositListing?: DepositListingPort;
  webhookRegistration?: WebhookRegistrationPort;
  simulation?: SimulationPort;
}

export type Capability = Exclude<keyof ProviderPorts, 'deposits'>;

export type PortOf<C extends Capability> = NonNullable<ProviderPorts[C]>;

/** Every capability, in the order the API lists them. */
export const CAPABILITIES = ['refunds', 'payouts', 'cardForm', 'depositListing', 'webhookRegistration', 'simulation'] as const satisfies readonly Capability[];

/** What each capability is called in an error a client reads. */
export const CAPABILITY_WORDS: Record<Capability, string> = {
  refunds: 'refunds',
  payouts: 'payouts',
  cardForm: 'an embedded card form',
  depositListing: 'a list of its payments',
  webhookRegistration: 'webhook registration',
  simulation: 'test-mode payment simulation',
};

/** The error code of a missing capability: refunds keep the code clients already handle. */
const CAPABILITY_ERRORS: Record<Capability, UserErrorCode> = {
  refunds: 'REFUND_NOT_SUPPORTED',
  payouts: 'CAPABILITY_NOT_SUPPORTED',
  cardForm: 'CAPABILITY_NOT_SUPPORTED',
  depositListing: 'CAPABILITY_NOT_SUPPORTED',
  webhookRegistration: 'CAPABILITY_NOT_SUPPORTED',
  simulation: 'CAPABILITY_NOT_SUPPORTED',
};

export interface MissingCapability {
  code: UserErrorCode;
  message: string;
}

export type PortLookup<C extends Capability> = { ok: true; port: PortOf<C> } | { ok: false; error: MissingCapability };

/**
 * The adapters of the registered providers, one set of ports each, created once per gateway.
 *
 * @example
 * const found = adapters.adapterFor(account, 'payouts');
 * if (!found.ok) return [{ field: ['merchantAccount'], ...found.error }];
 * await found.port.createPayout(account, request);
 */
export class ProviderAdapters {
  constructor(private readonly byName: ReadonlyMap<ProviderName, ProviderPorts>) {}

  names(): ProviderName[] {
    return [...this.byName.keys()];
  }

  /** A registered provider's deposits and webhook verification; every provider has them. */
  deposits(name: ProviderName): DepositProvider {
    const ports = this.byName.get(name);
    if (!ports) throw new Error(`Provider "${name}" is not registered`);
    return ports.deposits;
  }

  /** The same, or undefined for a name no provider is registered under (a webhook path, say). */
  findDeposits(name: string): DepositProvider | undefined {
    return this.byName.get(name as ProviderName)?.deposits;
  }

  /** Whether the provider offers the capability. */
  offers(name: string, capability: Capability): boolean {
    return this.byName.get(name as ProviderName)?.[capability] !== undefined;
  }

  /** The capabilities the provider offers, in `CAPABILITIES` order. */
  capabilitiesOf(name: string): Capability[] {
    return CAPABILITIES.filter((capability) => this.offers(name, capability));
  }

  /** The port of the account's provider for the capability, or the user error that says the provider does not offer it. */
  adapterFor<C extends Capability>(account: Pick<MerchantAccount, 'code' | 'provider'>, capability: C): PortLookup<C> {
    const port = this.byName.get(account.provider)?.[capability] as PortOf<C> | undefined;
    if (port) return { ok: true, port };
    return {
      ok: false,
      error: { code: CAPABILITY_ERRORS[capability], message: `Merchant account "${account.code}" is at ${account.provider}, which offers no ${CAPABILITY_WORDS[capability]}` },
    };
  }
}
