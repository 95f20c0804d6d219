// What the visibility tests share: back-office clients made through the API, as an admin would.

import { expect } from 'vitest';
import { CreateApiClientMutation } from '../foundation/operations.js';
import { execute, type TestGateway } from '../support/gateway.js';

/** An API client with these roles, limited to these merchant accounts, made by the admin: its id and key. */
export async function createClient(t: TestGateway, name: string, roles: Array<'REFUNDS' | 'PAYOUTS'>, merchantAccounts: string[]): Promise<{ id: string; key: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name, roles, merchantAccounts } }, { key: t.keys.admin });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createApiClient.userErrors).toEqual([]);
  return { id: created.data!.createApiClient.client!.id, key: created.data!.createApiClient.key! };
}
