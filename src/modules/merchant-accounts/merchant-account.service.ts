// The provider merchant accounts the gateway may use, from configuration. Their API keys and
// webhook secrets stay inside this process: nothing here is ever handed to GraphQL or a log.

import type { UserErrorCode } from '../../lib/user-error-codes.js';
import { CAPABILITY_WORDS, type Capability, type PortOf, type ProviderAdapters } from '../../providers/ports.js';
import type { MerchantAccount, ProviderName, Rail } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';

/** What may be shown about an account: no key, no secret, no provider URL. */
export interface MerchantAccountView {
  code: string;
  provider: ProviderName;
  livemode: boolean;
  /** Served by the gateway's local provider sandbox: no real money moves, live mode or not. */
  sandbox: boolean;
  /** The rails its provider serves. */
  rails: readonly Rail[];
  /** What its provider offers beyond deposits. */
  capabilities: Capability[];
}

export class MerchantAccountService {
  private readonly byCode: Map<string, MerchantAccount>;

  constructor(
    accounts: MerchantAccount[],
    /** The providers' ports: which capability each account's provider offers. */
    private readonly adapters: ProviderAdapters,
  ) {
    this.byCode = new Map(accounts.map((account) => [account.code, account]));
  }

  codes(): string[] {
    return [...this.byCode.keys()];
  }

  /** The account with its credentials, for adapters only. */
  get(code: string): MerchantAccount | undefined {
    return this.byCode.get(code);
  }

  /** Accounts the client may use (all for admins), without credentials. */
  visibleTo(client: ApiClient): MerchantAccountView[] {
    return [...this.byCode.values()]
      .filter((account) => client.isAdmin() || client.mayUseAccount(account.code))
      .map((account) => ({
        code: account.code,
        provider: account.provider,
        livemode: account.livemode,
        sandbox: account.sandbox === true,
        rails: this.adapters.deposits(account.provider).rails,
        capabilities: this.adapters.capabilitiesOf(account.provider),
      }));
  }

  /**
   * The account a client's request should use: the named one if the client may use it, otherwise
   * the first account of the provider the client may use.
   */
  resolve(client: ApiClient, provider: ProviderName, code?: string): { ok: true; account: MerchantAccount } | { ok: false; code: 'MERCHANT_ACCOUNT_NOT_FOUND'; message: string } {
    if (code !== undefined) {
      const account = this.byCode.get(code);
      if (!account || account.provider !== provider || !(client.isAdmin() || client.mayUseAccount(code))) {
        return { ok: false, code: 'MERCHANT_ACCOUNT_NOT_FOUND', message: `No ${provider} merchant account "${code}" is available to this client` };
      }
      return { ok: true, account };
    }
    const account = [...this.byCode.values()].find((candidate) => candidate.provider === provider && (client.isAdmin() || client.mayUseAccount(candidate.code)));
    if (!account) return { ok: false, code: 'MERCHANT_ACCOUNT_NOT_FOUND', message: `No ${provider} merchant account is available to this client` };
    return { ok: true, account };
  }

  /**
   * The account a request that needs a capability uses, with its provider's port: the named one if
   * the client may use it and its provider offers the capability (otherwise the error says which
   * is missing), or else the first account the client may use whose provider offers it.
   *
   * @example accounts.withPort(client, 'payouts', input.merchantAccount) // { ok: true, account, port }
   */
  withPort<C extends Capability>(client: ApiClient, capability: C, code?: string): { ok: true; account: MerchantAccount; port: PortOf<C> } | { ok: false; code: UserErrorCode; message: string } {
    const usable = (account: MerchantAccount) => client.isAdmin() || client.mayUseAccount(account.code);
    const account =
      code !== undefined ? this.byCode.get(code) : [...this.byCode.values()].find((candidate) => usable(candidate) && this.adapters.offers(candidate.provider, capability));
    if (!account || !usable(account)) {
      const message = code !== undefined ? `No merchant account "${code}" is available to this client` : `No merchant account available to this client is at a provider that offers ${CAPABILITY_WORDS[capability]}`;
      return { ok: false, code: 'MERCHANT_ACCOUNT_NOT_FOUND', message };
    }
    const found = this.adapters.adapterFor(account, capability);
    return found.ok ? { ok: true, account, port: found.port } : { ok: false, ...found.error };
  }
}
