// Managing back-office notification endpoints as an admin (docs/notifications.md): the secret is
// shown once, bad input is refused with a specific userError and changes nothing, every action lands
// in the admin trail, a rotation's overlap lets the old and the new secret both verify, then the
// new one alone, under the Standard Webhooks reference library, and revoking a client disables its
// endpoints for good.

import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../__generated__/gql.js';
import { CreateApiClientMutation, RevokeApiClientMutation } from '../foundation/operations.js';
import { execute, type TestGateway } from '../support/gateway.js';
import { cardDeposit, clientId, createEndpoint, CreateEndpointMutation, deliveries, EndpointsQuery, RotateMutation, typesOf, useNotificationGateway } from './support.js';

const HOUR = 3_600_000;

const UpdateMutation = graphql(`
  mutation UpdateNotificationEndpoint($input: UpdateNotificationEndpointInput!) {
    updateNotificationEndpoint(input: $input) { endpoint { id url eventTypes enabled disabledReason } userErrors { field code message } }
  }
`);

const DeleteMutation = graphql(`
  mutation DeleteNotificationEndpoint($id: ID!) {
    deleteNotificationEndpoint(id: $id) { endpoint { id } userErrors { field code message } }
  }
`);

const TrailQuery = graphql(`
  query NotificationTrail($objectId: ID) {
    adminActions(first: 20, filter: { objectId: $objectId }) { edges { node { action outcome } } }
  }
`);

const notifications = useNotificationGateway();
const { clock, receiver } = notifications;
let t: TestGateway;
beforeAll(() => {
  t = notifications.gateway();
});

async function endpoints() {
  const result = await execute(t.gateway.graphqlUrl, EndpointsQuery, {}, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  return result.data!.notificationEndpoints;
}

describe('creating an endpoint', () => {
  it('shows the secret once (whsec_ + base64), never in the list, and records the action in the admin trail', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.status_changed']);
    expect(hooks.secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ clientId: clientId(t, 'web-cashier'), url: hooks.url, eventTypes: ['deposit.status_changed'], enabled: true, state: 'HEALTHY' });
    const listed = await endpoints();
    expect(listed.find((item) => item.id === endpoint.id)).toMatchObject({ url: hooks.url });
    expect(JSON.stringify(listed)).not.toContain(hooks.secrets[0]!.slice(6));
    expect(t.logs.some((line) => line.includes(hooks.secrets[0]!.slice(6)))).toBe(false);
    const trail = await execute(t.gateway.graphqlUrl, TrailQuery, { objectId: endpoint.id }, { key: t.keys.admin });
    expect(trail.data!.adminActions.edges.map((edge) => edge.node)).toEqual([{ action: 'createNotificationEndpoint', outcome: 'OK' }]);
  });

  it.each([
    ['an unknown client', { clientId: 'cli_00000000000000000000000000' }, { field: ['clientId'], code: 'NOT_FOUND' }],
    ['a URL that is not one', { url: 'not a url' }, { field: ['url'], code: 'URL_INVALID' }],
    ['a scheme other than http(s)', { url: 'ftp://127.0.0.1/hooks' }, { field: ['url'], code: 'URL_SCHEME_NOT_ALLOWED' }],
    ['an unknown event type', { eventTypes: ['deposit.teleported'] }, { field: ['eventTypes'], code: 'INVALID_VALUE' }],
    // The destination rules (src/lib/outbound-http.ts), as an admin meets them.
    ['a private address', { url: 'https://10.1.2.3/hooks' }, { field: ['url'], code: 'ADDRESS_NOT_ALLOWED' }],
    ['the cloud metadata address', { url: 'http://169.254.169.254/latest/meta-data/' }, { field: ['url'], code: 'ADDRESS_NOT_ALLOWED' }],
    ['an IPv4-mapped private address', { url: 'https://[::ffff:192.168.1.1]/' }, { field: ['url'], code: 'ADDRESS_NOT_ALLOWED' }],
    ['plain http to another machine', { url: 'http://93.184.215.14/hooks' }, { field: ['url'], code: 'URL_SCHEME_NOT_ALLOWED' }],
    ['a user name and password in the URL', { url: 'https://ledger:hunter2@hooks.example.com/' }, { field: ['url'], code: 'URL_CREDENTIALS_NOT_ALLOWED' }],
  ])('refuses %s with a specific userError and creates nothing', async (_label, change, expected) => {
    const before = (await endpoints()).length;
    const input = { clientId: clientId(t, 'web-cashier'), url: 'http://127.0.0.1:9/hooks', ...change };
    const result = await execute(t.gateway.graphqlUrl, CreateEndpointMutation, { input }, { key: t.keys.admin });
    expect(result.data!.createNotificationEndpoint).toMatchObject({ endpoint: null, secret: null, userErrors: [expected] });
    expect(await endpoints()).toHaveLength(before);
  });

  it('is for admins only', async () => {
    const result = await execute(t.gateway.graphqlUrl, CreateEndpointMutation, { input: { clientId: clientId(t, 'web-cashier'), url: 'http://127.0.0.1:9/' } }, { key: t.keys.webCashier });
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('changing an endpoint', () => {
  it('updates, disables and deletes it; each action in the trail; a disabled or deleted endpoint is sent nothing', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'));
    const updated = await execute(t.gateway.graphqlUrl, UpdateMutation, { input: { id: endpoint.id, eventTypes: ['deposit.created'], enabled: false } }, { key: t.keys.admin });
    expect(updated.data!.updateNotificationEndpoint).toMatchObject({ endpoint: { eventTypes: ['deposit.created'], enabled: false, disabledReason: 'ADMIN' }, userErrors: [] });
    const refused = await execute(t.gateway.graphqlUrl, UpdateMutation, { input: { id: endpoint.id, url: 'nope' } }, { key: t.keys.admin });
    expect(refused.data!.updateNotificationEndpoint.userErrors).toMatchObject([{ field: ['url'], code: 'URL_INVALID' }]);
    const quiet = await cardDeposit(t, t.keys.webCashier);
    // Enabled again: from the log's current end.
    const enabled = await execute(t.gateway.graphqlUrl, UpdateMutation, { input: { id: endpoint.id, enabled: true } }, { key: t.keys.admin });
    expect(enabled.data!.updateNotificationEndpoint).toMatchObject({ endpoint: { enabled: true, disabledReason: null }, userErrors: [] });
    const heard = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, heard)).toEqual(['deposit.created']);
    expect(typesOf(hooks, quiet)).toEqual([]);
    const deleted = await execute(t.gateway.graphqlUrl, DeleteMutation, { id: endpoint.id }, { key: t.keys.admin });
    expect(deleted.data!.deleteNotificationEndpoint).toMatchObject({ endpoint: { id: endpoint.id }, userErrors: [] });
    const again = await execute(t.gateway.graphqlUrl, DeleteMutation, { id: endpoint.id }, { key: t.keys.admin });
    expect(again.data!.deleteNotificationEndpoint.userErrors).toMatchObject([{ field: ['id'], code: 'NOT_FOUND' }]);
    const trail = await execute(t.gateway.graphqlUrl, TrailQuery, { objectId: endpoint.id }, { key: t.keys.admin });
    expect(trail.data!.adminActions.edges.map((edge) => `${edge.node.action}:${edge.node.outcome}`).reverse()).toEqual([
      'createNotificationEndpoint:OK',
      'updateNotificationEndpoint:OK',
      'updateNotificationEndpoint:URL_INVALID',
      'updateNotificationEndpoint:OK',
      'deleteNotificationEndpoint:OK',
      'deleteNotificationEndpoint:NOT_FOUND',
    ]);
  });
});

describe('rotating the secret', () => {
  it('signs with both secrets during the overlap, each verifying on its own, then with the new one alone', async () => {
    const hooks = await receiver();
    const endpoint = await createEndpoint(t, hooks, clientId(t, 'web-cashier'), ['deposit.created']);
    const rotated = await execute(t.gateway.graphqlUrl, RotateMutation, { id: endpoint.id }, { key: t.keys.admin });
    const payload = rotated.data!.rotateNotificationSecret;
    expect(payload.userErrors).toEqual([]);
    expect(payload.secret).toMatch(/^whsec_/);
    expect(payload.secret).not.toBe(hooks.secrets[0]);
    expect(payload.endpoint!.previousSecretExpiresAt).not.toBeNull();
    hooks.secrets.push(payload.secret!);
    const during = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, during)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === during)!.verifiedBy).toEqual([0, 1]);
    // After the 24 h overlap
    clock.advance(25 * HOUR);
    const after = await cardDeposit(t, t.keys.webCashier);
    await expect.poll(() => typesOf(hooks, after)).toEqual(['deposit.created']);
    expect(hooks.delivered.find((item) => item.data.id === after)!.verifiedBy).toEqual([1]);
    const trail = await execute(t.gateway.graphqlUrl, TrailQuery, { objectId: endpoint.id }, { key: t.keys.admin });
    expect(trail.data!.adminActions.edges.map((edge) => edge.node.action)).toContain('rotateNotificationSecret');
  });
});

/** Rows of the job table, as a reader of it sees them: `notifications.deliver` jobs of one endpoint's lanes, and finished sweeps. */
async function jobCounts(endpointId: string): Promise<{ deliver: number; openDeliver: number; sweeps: number }> {
  const [row] = await t.gateway.db.fork().execute<Array<{ deliver: string | number; open_deliver: string | number; sweeps: string | number }>>(
    `select count(*) filter (where kind = 'notifications.deliver' and payload->>'endpointId' = ?) as deliver,
       count(*) filter (where kind = 'notifications.deliver' and payload->>'endpointId' = ? and status in ('pending', 'running')) as open_deliver,
       count(*) filter (where kind = 'notifications.sweep' and status = 'succeeded') as sweeps
     from job`,
    [endpointId, endpointId],
  );
  return { deliver: Number(row!.deliver), openDeliver: Number(row!.open_deliver), sweeps: Number(row!.sweeps) };
}

describe('revoking an endpoint\'s client', () => {
  it('disables its endpoints for good: no job wakes their lanes again, nothing is sent, and enabling one again is refused', async () => {
    // Given a back office whose receiver is down, with a delivery pending after a failed attempt
    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: 'ledger-to-revoke', roles: ['CASHIER'] } }, { key: t.keys.admin });
    expect(created.errors).toBeUndefined();
    const backOffice = created.data!.createApiClient;
    const hooks = await receiver();
    hooks.answer = () => 503;
    const endpoint = await createEndpoint(t, hooks, backOffice.client!.id, ['deposit.created']);
    const depositId = await cardDeposit(t, backOffice.key!, '19.00');
    await expect.poll(async () => (await deliveries(t, endpoint.id))[0]?.attemptCount ?? 0).toBeGreaterThanOrEqual(1);

    // When the client is revoked
    const revoked = await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: backOffice.client!.id } }, { key: t.keys.admin });
    expect(revoked.errors).toBeUndefined();
    expect(revoked.data!.revokeApiClient.userErrors).toEqual([]);

    // Then its endpoint is disabled, and says why
    expect((await endpoints()).find((item) => item.id === endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'CLIENT_REVOKED' });
    // The pending delivery is due on the gateway's clock from now on: the lane's job already
    // waiting runs (and sends nothing), and then the sweeps wake it no more.
    clock.advance(HOUR);
    await expect.poll(async () => (await jobCounts(endpoint.id)).openDeliver).toBe(0);
    const before = await jobCounts(endpoint.id);
    const requests = hooks.requests;
    const [pending] = await deliveries(t, endpoint.id);
    await expect.poll(async () => (await jobCounts(endpoint.id)).sweeps).toBeGreaterThanOrEqual(before.sweeps + 5);
    expect((await jobCounts(endpoint.id)).deliver).toBe(before.deliver);
    expect(hooks.requests).toBe(requests);
    expect(await deliveries(t, endpoint.id)).toEqual([pending]);
    expect(pending).toMatchObject({ subjectId: depositId, state: 'PENDING' });

    // An admin cannot enable it again: nothing would be sent to a revoked client
    const refused = await execute(t.gateway.graphqlUrl, UpdateMutation, { input: { id: endpoint.id, enabled: true } }, { key: t.keys.admin });
    expect(refused.data!.updateNotificationEndpoint.userErrors).toMatchObject([{ field: ['enabled'], code: 'CLIENT_REVOKED' }]);
    expect((await endpoints()).find((item) => item.id === endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'CLIENT_REVOKED' });
    // Deleting it is what an admin does with it (its deliveries go with it)
    const deleted = await execute(t.gateway.graphqlUrl, DeleteMutation, { id: endpoint.id }, { key: t.keys.admin });
    expect(deleted.data!.deleteNotificationEndpoint.userErrors).toEqual([]);
  });
});
