// Every root field is guarded: no key or a revoked key is UNAUTHENTICATED, a missing role is
// FORBIDDEN, and each role sees what it should. Real server, real database, real HTTP.

import { readFile } from 'node:fs/promises';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, postRaw, startTestGateway, type TestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { ApiClientsQuery, CreateApiClientMutation, MerchantAccountsQuery, RevokeApiClientMutation, ViewerQuery } from './operations.js';

let t: TestGateway;
let url: string;
const roleKeys: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestGateway();
  url = t.gateway.graphqlUrl;
  roleKeys.CASHIER = t.keys.webCashier;
  roleKeys.ADMIN = t.keys.admin;
  for (const role of ['PAYOUTS', 'REFUNDS'] as const) {
    const created = await execute(url, CreateApiClientMutation, { input: { name: `${role.toLowerCase()}-service`, roles: [role] } }, { key: t.keys.admin });
    expect(created.errors).toBeUndefined();
    roleKeys[role] = created.data!.createApiClient.key!;
  }
});

afterAll(() => t?.close());

/**
 * One row per root field: a minimal operation and the roles allowed to call it. The test below
 * fails when the schema gains a root field that is missing here.
 */
const ROOT_FIELDS: Record<string, { query: string; variables?: Record<string, unknown>; roles: string[] | 'any' }> = {
  'Query.viewer': { query: '{ viewer { id } }', roles: 'any' },
  'Query.node': { query: '{ node(id: "cli_00000000000000000000000000") { id } }', roles: 'any' },
  'Query.merchantAccounts': { query: '{ merchantAccounts { code } }', roles: 'any' },
  'Query.apiClients': { query: '{ apiClients { edges { cursor } } }', roles: ['ADMIN'] },
  'Query.withdrawals': { query: '{ withdrawals { edges { cursor } } }', roles: ['ADMIN'] },
  'Mutation.createApiClient': {
    query: 'mutation($input: CreateApiClientInput!) { createApiClient(input: $input) { userErrors { code } } }',
    variables: { input: { name: 'x', roles: [] } },
    roles: ['ADMIN'],
  },
  'Mutation.revokeApiClient': {
    query: 'mutation($input: RevokeApiClientInput!) { revokeApiClient(input: $input) { userErrors { code } } }',
    variables: { input: { id: 'cli_00000000000000000000000000' } },
    roles: ['ADMIN'],
  },
  'Mutation.createApiKey': {
    query: 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { userErrors { code } } }',
    variables: { input: { clientId: 'cli_00000000000000000000000000' } },
    roles: ['ADMIN'],
  },
  'Mutation.revokeApiKey': {
    query: 'mutation($input: RevokeApiKeyInput!) { revokeApiKey(input: $input) { userErrors { code } } }',
    variables: { input: { keyId: 'key_00000000000000000000000000' } },
    roles: ['ADMIN'],
  },
  'Mutation.setApiClientTrustedDocuments': {
    query: 'mutation($input: SetApiClientTrustedDocumentsInput!) { setApiClientTrustedDocuments(input: $input) { userErrors { code } } }',
    variables: { input: { id: 'cli_00000000000000000000000000', trustedDocumentsOnly: true } },
    roles: ['ADMIN'],
  },
  'Mutation.setApiClientLimits': {
    query: 'mutation($input: SetApiClientLimitsInput!) { setApiClientLimits(input: $input) { userErrors { code } } }',
    variables: { input: { clientId: 'cli_00000000000000000000000000', burst: 5 } },
    roles: ['ADMIN'],
  },
  'Query.deposit': { query: '{ deposit(id: "dep_00000000000000000000000000") { id } }', roles: ['CASHIER', 'REFUNDS'] },
  'Query.deposits': { query: '{ deposits(first: 1) { edges { cursor } } }', roles: ['CASHIER', 'REFUNDS'] },
  'Query.events': { query: '{ events(first: 1) { edges { cursor } } }', roles: 'any' },
  'Mutation.createDeposit': {
    query: 'mutation($input: CreateDepositInput!) { createDeposit(input: $input) { userErrors { code } } }',
    variables: { input: { amount: '0' } },
    roles: ['CASHIER'],
  },
  'Mutation.claimDepositCredit': {
    query: 'mutation($input: ClaimDepositCreditInput!) { claimDepositCredit(input: $input) { userErrors { code } } }',
    variables: { input: { depositId: 'dep_00000000000000000000000000' } },
    roles: ['CASHIER'],
  },
  'Mutation.createQrCode': {
    query: 'mutation($input: CreateQrCodeInput!) { createQrCode(input: $input) { userErrors { code } } }',
    variables: { input: { amount: '0', payer: { name: '' } } },
    roles: ['CASHIER'],
  },
  'Mutation.registerQrWebhook': {
    query: 'mutation($input: RegisterQrWebhookInput!) { registerQrWebhook(input: $input) { userErrors { code } } }',
    variables: { input: { merchantAccount: 'nope', url: 'https://x.example', events: [] } },
    roles: ['ADMIN'],
  },
  'Mutation.simulateQrPayment': {
    query: 'mutation($input: SimulateQrPaymentInput!) { simulateQrPayment(input: $input) { userErrors { code } } }',
    variables: { input: { depositId: 'dep_00000000000000000000000000', outcome: 'SUCCEEDED' } },
    roles: ['ADMIN'],
  },
  'Query.qrWebhookRegistrations': { query: '{ qrWebhookRegistrations { id } }', roles: ['ADMIN'] },
  'Query.cardSession': { query: '{ cardSession(depositId: "dep_00000000000000000000000000") { settled } }', roles: ['CASHIER'] },
  'Mutation.settleCardDeposit': {
    query: 'mutation($input: SettleCardDepositInput!) { settleCardDeposit(input: $input) { userErrors { code } } }',
    variables: { input: { depositId: 'dep_00000000000000000000000000' } },
    roles: ['CASHIER'],
  },
  'Mutation.reconcileDeposit': { query: 'mutation { reconcileDeposit(id: "dep_00000000000000000000000000") { outcome } }', roles: ['ADMIN'] },
  'Query.webhookDeliveries': { query: '{ webhookDeliveries(first: 1) { edges { cursor } } }', roles: ['ADMIN'] },
  'Query.adminActions': { query: '{ adminActions(first: 1) { edges { cursor } } }', roles: ['ADMIN'] },
  'Mutation.replayWebhookDelivery': { query: 'mutation { replayWebhookDelivery(id: "whd_00000000000000000000000000") { userErrors { code } } }', roles: ['ADMIN'] },
  'Query.notificationEndpoints': { query: '{ notificationEndpoints { id } }', roles: ['ADMIN'] },
  'Query.notificationDeliveries': { query: '{ notificationDeliveries(endpointId: "nep_00000000000000000000000000", first: 1) { edges { cursor } } }', roles: ['ADMIN'] },
  'Mutation.createNotificationEndpoint': {
    query: 'mutation($input: CreateNotificationEndpointInput!) { createNotificationEndpoint(input: $input) { userErrors { code } } }',
    variables: { input: { clientId: 'cli_00000000000000000000000000', url: 'not a url' } },
    roles: ['ADMIN'],
  },
  'Mutation.updateNotificationEndpoint': {
    query: 'mutation($input: UpdateNotificationEndpointInput!) { updateNotificationEndpoint(input: $input) { userErrors { code } } }',
    variables: { input: { id: 'nep_00000000000000000000000000' } },
    roles: ['ADMIN'],
  },
  'Mutation.rotateNotificationSecret': { query: 'mutation { rotateNotificationSecret(id: "nep_00000000000000000000000000") { userErrors { code } } }', roles: ['ADMIN'] },
  'Mutation.deleteNotificationEndpoint': { query: 'mutation { deleteNotificationEndpoint(id: "nep_00000000000000000000000000") { userErrors { code } } }', roles: ['ADMIN'] },
  'Mutation.redeliverNotification': { query: 'mutation { redeliverNotification(deliveryId: "ndl_00000000000000000000000000") { userErrors { code } } }', roles: ['ADMIN'] },
  'Mutation.replayNotificationEndpoint': {
    query: 'mutation { replayNotificationEndpoint(endpointId: "nep_00000000000000000000000000", after: "IjAi") { userErrors { code } } }',
    roles: ['ADMIN'],
  },
  'Subscription.heartbeat': { query: 'subscription { heartbeat { sequence } }', roles: 'any' },
  'Subscription.depositUpdated': { query: 'subscription { depositUpdated { id } }', roles: ['CASHIER', 'REFUNDS'] },
  'Query.refund': { query: '{ refund(id: "rfd_00000000000000000000000000") { id } }', roles: ['CASHIER', 'REFUNDS'] },
  'Mutation.requestRefund': {
    query: 'mutation($input: RequestRefundInput!) { requestRefund(input: $input) { userErrors { code } } }',
    variables: { input: { depositId: 'dep_00000000000000000000000000' } },
    roles: ['REFUNDS'],
  },
  'Subscription.refundUpdated': { query: 'subscription { refundUpdated { id } }', roles: ['CASHIER', 'REFUNDS'] },
  'Query.payout': { query: '{ payout(id: "pay_00000000000000000000000000") { id } }', roles: ['PAYOUTS'] },
  'Query.payouts': { query: '{ payouts(first: 1) { edges { cursor } } }', roles: ['PAYOUTS'] },
  'Mutation.createPayout': {
    query: 'mutation($input: CreatePayoutInput!) { createPayout(input: $input) { userErrors { code } } }',
    variables: { input: { country: 'CHILE', amount: '0', beneficiary: {} } },
    roles: ['PAYOUTS'],
  },
  'Subscription.payoutUpdated': { query: 'subscription { payoutUpdated { id } }', roles: ['PAYOUTS'] },
};

/** No data at all, or only nulls (a nullable root field that was refused). */
function nothingReturned(data: Record<string, unknown> | null | undefined): boolean {
  return data == null || Object.values(data).every((value) => value === null);
}

describe('auth on every root field', () => {
  it('covers every root field of the committed schema', async () => {
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const fields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]
      .filter((type): type is GraphQLObjectType => Boolean(type))
      .flatMap((type) => Object.keys(type.getFields()).map((field) => `${type.name}.${field}`));
    expect(Object.keys(ROOT_FIELDS).sort()).toEqual(fields.sort());
  });

  const httpFields = Object.entries(ROOT_FIELDS).filter(([name]) => !name.startsWith('Subscription.'));

  it.each(httpFields)('%s without a key is UNAUTHENTICATED', async (_name, { query, variables }) => {
    const response = await postRaw(url, { query, variables });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(nothingReturned(response.body.data)).toBe(true);
  });

  it.each(httpFields)('%s with a malformed or unknown key is UNAUTHENTICATED', async (_name, { query, variables }) => {
    for (const key of ['not-a-key', 'gw_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await postRaw(url, { query, variables }, key);
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  for (const [name, { query, variables, roles }] of httpFields) {
    for (const role of ['CASHIER', 'PAYOUTS', 'REFUNDS', 'ADMIN']) {
      const allowed = roles === 'any' || roles.includes(role) || role === 'ADMIN';
      it(`${name} as ${role} is ${allowed ? 'allowed' : 'FORBIDDEN'}`, async () => {
        const response = await postRaw(url, { query, variables }, roleKeys[role]);
        if (allowed) {
          expect(response.body.errors).toBeUndefined();
          // answered under the field's own name (null where the query names nothing that exists)
          expect(Object.keys(response.body.data as Record<string, unknown>)).toEqual([name.split('.')[1]]);
        } else {
          expect(response.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
          expect(nothingReturned(response.body.data)).toBe(true);
        }
      });
    }
  }
});

describe('auth on every subscription field over graphql-ws', () => {
  const subscriptionFields = Object.entries(ROOT_FIELDS).filter(([name]) => name.startsWith('Subscription.'));
  for (const [name, { query, roles }] of subscriptionFields) {
    for (const role of ['CASHIER', 'PAYOUTS', 'REFUNDS']) {
      if (roles === 'any' || roles.includes(role)) continue;
      it(`${name} as ${role} is FORBIDDEN before anything is delivered`, async () => {
        const client = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${roleKeys[role]}` });
        const first = await new Promise<unknown>((resolve) => {
          client.subscribe({ query }, { next: resolve, error: resolve, complete: () => resolve('complete') });
        });
        await client.dispose();
        expect(JSON.stringify(first)).toMatch(/FORBIDDEN/);
      });
    }
  }
});

describe('viewer', () => {
  it.each(['CASHIER', 'PAYOUTS', 'REFUNDS', 'ADMIN'])('returns the calling %s client', async (role) => {
    const response = await execute(url, ViewerQuery, {}, { key: roleKeys[role] });
    expect(response.errors).toBeUndefined();
    expect(response.data!.viewer.roles).toEqual([role]);
    expect(roleKeys[role]!.startsWith(response.data!.viewer.keyPrefix)).toBe(true);
  });

  it('shows merchant accounts without credentials', async () => {
    const response = await postRaw(url, { query: '{ merchantAccounts { code provider livemode sandbox } }' }, roleKeys.CASHIER);
    expect(response.body.data.merchantAccounts).toEqual([
      { code: 'dg-test', provider: 'deposit-gateway', livemode: false, sandbox: true },
      { code: 'dg-live', provider: 'deposit-gateway', livemode: true, sandbox: true },
      { code: 'qr-test', provider: 'qr-gateway', livemode: false, sandbox: true },
    ]);
    const typed = await execute(url, MerchantAccountsQuery, {}, { key: roleKeys.CASHIER });
    expect(JSON.stringify(typed)).not.toMatch(/svc_test_|svc_live_|sk_test_|pk_test_|whsec_|127\.0\.0\.1/);
  });
});

describe('node', () => {
  it('finds a client by global id for itself and for admins, and nothing for other clients', async () => {
    const self = await execute(url, ViewerQuery, {}, { key: roleKeys.CASHIER });
    const id = self.data!.viewer.id;
    const query = `{ node(id: "${id}") { id ... on ApiClient { name } } }`;
    expect((await postRaw(url, { query }, roleKeys.CASHIER)).body.data.node).toEqual({ id, name: 'web-cashier (demo)' });
    expect((await postRaw(url, { query }, roleKeys.ADMIN)).body.data.node).toEqual({ id, name: 'web-cashier (demo)' });
    expect((await postRaw(url, { query }, roleKeys.PAYOUTS)).body.data.node).toBeNull();
    expect((await postRaw(url, { query: '{ node(id: "nope") { id } }' }, roleKeys.ADMIN)).body.data.node).toBeNull();
  });
});

describe('client lifecycle', () => {
  it('a revoked key is UNAUTHENTICATED at once', async () => {
    const created = await execute(url, CreateApiClientMutation, { input: { name: 'soon-revoked', roles: ['CASHIER'] } }, { key: t.keys.admin });
    const { client, key } = created.data!.createApiClient;
    expect((await execute(url, ViewerQuery, {}, { key: key! })).data?.viewer.id).toBe(client!.id);

    const revoked = await execute(url, RevokeApiClientMutation, { input: { id: client!.id } }, { key: t.keys.admin });
    expect(revoked.data!.revokeApiClient.client!.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const after = await execute(url, ViewerQuery, {}, { key: key! });
    expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(after.data ?? null).toBeNull();
  });

  it('stores only a hash of the key', async () => {
    const created = await execute(url, CreateApiClientMutation, { input: { name: 'hash-check', roles: ['CASHIER'] } }, { key: t.keys.admin });
    const key = created.data!.createApiClient.key!;
    const rows = await t.gateway.db.fork().execute<{ hash: string; prefix: string }[]>('select k.hash, k.prefix from api_key k join api_client c on c.id = k.client_id where c.name = ?', ['hash-check']);
    expect(rows).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{64}$/), prefix: key.slice(0, 10) }]);
    expect(rows[0]!.hash).not.toContain(key.slice(3));
  });

  it('rejects bad client input as userErrors, including a taken name, without SQL', async () => {
    const duplicate = await execute(url, CreateApiClientMutation, { input: { name: 'hash-check', roles: ['CASHIER'] } }, { key: t.keys.admin });
    expect(duplicate.errors).toBeUndefined();
    expect(duplicate.data!.createApiClient).toMatchObject({ client: null, key: null, userErrors: [{ field: ['name'], code: 'NAME_TAKEN' }] });
    expect(JSON.stringify(duplicate)).not.toMatch(/unique|constraint|insert|duplicate key/i);

    const bad = await execute(url, CreateApiClientMutation, { input: { name: '', roles: [], merchantAccounts: ['nope'] } }, { key: t.keys.admin });
    expect(bad.data!.createApiClient.userErrors.map((error) => error.code).sort()).toEqual(['FIELD_REQUIRED', 'INVALID_FORMAT', 'NOT_FOUND']);
  });

  it('limits a client to its merchant accounts', async () => {
    const created = await execute(url, CreateApiClientMutation, { input: { name: 'qr-only', roles: ['CASHIER'], merchantAccounts: ['qr-test'] } }, { key: t.keys.admin });
    const accounts = await execute(url, MerchantAccountsQuery, {}, { key: created.data!.createApiClient.key! });
    expect(accounts.data!.merchantAccounts.map((account) => account.code)).toEqual(['qr-test']);
  });

  it('pages through clients with opaque cursors', async () => {
    const first = await execute(url, ApiClientsQuery, { first: 2 }, { key: t.keys.admin });
    expect(first.data!.apiClients.edges).toHaveLength(2);
    expect(first.data!.apiClients.pageInfo.hasNextPage).toBe(true);
    const second = await execute(url, ApiClientsQuery, { first: 2, after: first.data!.apiClients.pageInfo.endCursor }, { key: t.keys.admin });
    const ids = [...first.data!.apiClients.edges, ...second.data!.apiClients.edges].map((edge) => edge.node.id);
    expect(new Set(ids).size).toBe(4);
    const bad = await execute(url, ApiClientsQuery, { first: 2, after: 'garbage' }, { key: t.keys.admin });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
