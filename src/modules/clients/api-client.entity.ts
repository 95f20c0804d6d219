// An internal client of the gateway (web cashier, mobile cashier, admin tooling, a back-office
// service). Its key is shown once at creation and stored only as a SHA-256 hash.

import { defineEntity, p } from '@mikro-orm/core';
import type { Role } from './roles.js';

export const ApiClientSchema = defineEntity({
  name: 'ApiClient',
  tableName: 'api_client',
  properties: {
    id: p.string().primary().length(30),
    name: p.string().length(100).unique(),
    roles: p.array().$type<Role[]>(),
    /** First characters of the key, safe to show, so an operator can tell keys apart. */
    keyPrefix: p.string().length(16),
    keyHash: p.string().length(64).unique().hidden(),
    /** Merchant account codes this client may use; null means every account. */
    merchantAccounts: p.array().$type<string[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
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
