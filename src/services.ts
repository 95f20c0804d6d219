// The domain services, created once per gateway and shared by every request (they hold no
// request state; each call receives its own EntityManager fork).

import type { MerchantAccount } from './providers/provider.js';
import { ApiClientService } from './modules/clients/api-client.service.js';
import { MerchantAccountService } from './modules/merchant-accounts/merchant-account.service.js';

export interface Services {
  clients: ApiClientService;
  accounts: MerchantAccountService;
}

export function createServices(options: { merchantAccounts: MerchantAccount[] }): Services {
  const accounts = new MerchantAccountService(options.merchantAccounts);
  return {
    accounts,
    clients: new ApiClientService(() => accounts.codes()),
  };
}
