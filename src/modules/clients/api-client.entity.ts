// An internal client of the gateway (web cashier, mobile cashier, admin tooling, a back-office
// service): its roles and rules. Its keys are rows of their own (api-key.entity.ts).

import { defineEntity, p } from '@mikro-orm/core';
import type { Role } from '../../kernel/roles.js';

export const ApiClientSchema = defineEntity({
  name: 'ApiClient',
  tableName: 'api_client',
  properties: {
    id: p.string().primary().length(30),
    name: p.string().length(100).unique(),
    roles: p.array().$type<Role[]>(),
    /** Merchant account codes this client may use; null means every account. */
    merchantAccounts: p.array().$type<string[]>().nullable(),
    /** Runs only the documents of the persisted-documents manifest (src/graphql/trusted-documents.ts). */
    trustedDocumentsOnly: p.boolean().default(false),
    /** Its own limits (src/modules/clients/client-limits.ts); null: the gateway's default. */
    requestsPerSecond: p.integer().nullable(),
    requestBurst: p.integer().nullable(),
    maxSubscriptions: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiClient extends ApiClientSchema.class {
  hasRole(role: Role): boolean {
    return this.roles.includes(role);
  }

  isAdmin(): boolean {
    return this.hasRole('ADMIN');
  }

  isRevoked(): boolean {
    return this.revokedAt != null;
  }

  /** True when the client may act on the given merchant account. */
  mayUseAccount(code: string): boolean {
    return this.merchantAccounts == null || this.merchantAccounts.includes(code);
  }
}

ApiClientSchema.setClass(ApiClient);

// Not called unbound: this object is every copy's prototype, so `this` is the copy.
/* eslint-disable @typescript-eslint/unbound-method */
/** ApiClient's own methods, shared by every detached copy: they read only the copied fields. */
const DETACHED_CLIENT: Pick<ApiClient, 'hasRole' | 'isAdmin' | 'isRevoked' | 'mayUseAccount'> = {
  hasRole: ApiClient.prototype.hasRole,
  isAdmin: ApiClient.prototype.isAdmin,
  isRevoked: ApiClient.prototype.isRevoked,
  mayUseAccount: ApiClient.prototype.mayUseAccount,
};
/* eslint-enable @typescript-eslint/unbound-method */

/**
 * The client as a plain object with ApiClient's fields and methods, tied to no EntityManager: a
 * loaded entity keeps the fork that loaded it (identity map, unit of work, everything that request
 * read) alive for as long as it is held, and the key cache and subscriptions hold clients for long.
 * A copy is only read (roles, accounts, trusted-documents rule, id, name), never persisted, never changed (it is frozen):
 * a client that already is a copy (the key cache's, say) is returned as it is, so every
 * subscription made with one key shares one copy.
 */
export function detachedClient(client: ApiClient): ApiClient {
  if (isDetachedClient(client)) return client;
  const roles = Object.freeze([...client.roles]);
  const merchantAccounts = client.merchantAccounts ? Object.freeze([...client.merchantAccounts]) : null;
  return Object.freeze(Object.assign(Object.create(DETACHED_CLIENT) as object, {
    id: client.id,
    name: client.name,
    roles,
    merchantAccounts,
    trustedDocumentsOnly: client.trustedDocumentsOnly,
    requestsPerSecond: client.requestsPerSecond ?? null,
    requestBurst: client.requestBurst ?? null,
    maxSubscriptions: client.maxSubscriptions ?? null,
    createdAt: client.createdAt,
    revokedAt: client.revokedAt ?? null,
  })) as unknown as ApiClient;
}

/** True for a copy made by {@link detachedClient}. */
export function isDetachedClient(client: ApiClient): boolean {
  return Object.getPrototypeOf(client) === DETACHED_CLIENT;
}
