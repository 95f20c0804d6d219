// A deposit request as the API layer hands it to the deposits service (amount not yet parsed):
// shared by the service that validates it and the operation that records and submits it.

import { RAIL_BLOCK, type CreateDepositRequest, type Customer, type DepositProvider, type MerchantAccount, type RailDetails } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';

/** A deposit request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface CreateDepositInput {
  amount: string;
  currency?: string;
  merchantReference?: string;
  returnUrl?: string;
  idempotencyKey?: string;
  merchantAccount?: string;
  customer?: Customer;
  /** The client's own key/value pairs (checked by `metadataOf`). */
  metadata?: Array<{ key: string; value: string }>;
  /** Exactly one rail block must be present; `null` blocks count as absent. */
  rails: Partial<Record<RailBlock, RailDetails | null>>;
}

/** A `CreateDepositInput` once validated: its client, the account and provider it goes to, and the request to record. */
export interface ValidatedDepositInput {
  client: ApiClient;
  input: CreateDepositInput;
  account: MerchantAccount;
  provider: DepositProvider;
  request: Omit<CreateDepositRequest, 'depositId'>;
}

/** Names of the rail blocks of `CreateDepositInput`, as the API spells them. */
export type RailBlock = (typeof RAIL_BLOCK)[keyof typeof RAIL_BLOCK];
