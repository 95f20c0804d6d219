// The audit trail: one log line per mutation (client, operation, outcome, object ids and nothing
// secret), the client and operation on every request line, and admin actions readable by admins.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { payoutsClient, VALID_PAYOUTS } from '../payouts/fixtures.js';
import { CreatePayoutMutation } from '../payouts/operations.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from '../qr/operations.js';
import { ReconcileDepositMutation, ReplayWebhookDeliveryMutation } from '../reconciliation/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { take, wsClient } from '../support/ws.js';
import { AdminActionsQuery, CreateApiClientMutation, RevokeApiClientMutation, ViewerQuery } from './operations.js';

type LogLine = Record<string, unknown>;

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

function lines(): LogLine[] {
  return t.logs.map((line) => JSON.parse(line) as LogLine);
}

function auditLines(operation: string): LogLine[] {
  return lines().filter((line) => line.msg === 'mutation audited' && line.operation === operation);
}

function requestLine(requestId: string): LogLine | undefined {
  return lines().find((line) => line.msg === 'request completed' && line.requestId === requestId);
}

describe('every mutation', () => {
  it('writes one line with client, operation, outcome and object ids, and nothing secret', async () => {
    const payoutsKey = await payoutsClient(t, 'audit-payouts');
    const accountNumber = '19377766655544';
    const payoutInput = { ...VALID_PAYOUTS.find(([country]) => country === 'PERU')![1] };
    payoutInput.beneficiary = { ...payoutInput.beneficiary, accountNumber, cci: '00219377766655544433' };
    const payout = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input: payoutInput }, { key: payoutsKey });
    expect(payout.errors).toBeUndefined();
    const payoutId = payout.data!.createPayout.payout!.id;

    const email = `audit-${randomUUID()}@example.com`;
    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, customer: { ...CARD_INPUT.customer, email } } }, { key: t.keys.webCashier });
    expect(deposit.errors).toBeUndefined();
    const depositId = deposit.data!.createDeposit.deposit!.id;

    const refused = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '0.00' } }, { key: t.keys.webCashier });
    const refusedCodes = refused.data!.createDeposit.userErrors.map((error) => error.code);
    expect(refusedCodes.length).toBeGreaterThan(0);

    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: `audit-${randomUUID()}`, roles: ['CASHIER'] } }, { key: t.keys.admin });
    const newKey = created.data!.createApiClient.key!;

    const cashier = (await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.webCashier })).data!.viewer.id;
    expect(auditLines('createPayout')).toEqual([expect.objectContaining({ audit: 'mutation', outcome: 'OK', objects: [{ kind: 'payout', id: payoutId }], clientId: expect.stringMatching(/^cli_/) })]);
    // One key once: the raw line names the client once (a repeated JSON key is read as the last one by some tools and refused by others).
    const rawAudit = t.logs.filter((line) => line.includes('"mutation audited"'));
    expect(rawAudit.length).toBeGreaterThan(0);
    for (const line of rawAudit) expect(line.match(/"clientId":/g) ?? [], line).toHaveLength(1);
    const depositLines = auditLines('createDeposit');
    expect(depositLines).toEqual([
      expect.objectContaining({ clientId: cashier, operationName: 'CreateDeposit', outcome: 'OK', objects: [{ kind: 'deposit', id: depositId }], requestId: expect.any(String) }),
      expect.objectContaining({ clientId: cashier, outcome: refusedCodes[0], objects: [] }),
    ]);
    expect(auditLines('createApiClient')).toContainEqual(expect.objectContaining({ outcome: 'OK', objects: [{ kind: 'client', id: created.data!.createApiClient.client!.id }] }));

    const text = t.logs.join('\n');
    for (const secret of [accountNumber, '00219377766655544433', email, newKey.slice(3), payoutsKey.slice(3), t.keys.webCashier.slice(3)]) expect(text).not.toContain(secret);
  });

  it('is audited over graphql-ws too, and the socket logs who runs which operation', async () => {
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.mobileCashier}` });
    const [result] = await take(ws, CreateDepositMutation, { input: CARD_INPUT }, 1);
    await ws.dispose();
    const depositId = result!.data!.createDeposit.deposit!.id;
    const mobile = (await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.mobileCashier })).data!.viewer.id;
    expect(auditLines('createDeposit')).toContainEqual(expect.objectContaining({ clientId: mobile, outcome: 'OK', objects: [{ kind: 'deposit', id: depositId }], connectionId: expect.any(String) }));
    expect(lines()).toContainEqual(expect.objectContaining({ msg: 'graphql-ws operation started', clientId: mobile, operation: 'CreateDeposit' }));
  });

  it('names each socket with an id of its own, shaped as a UUID', async () => {
    const ids: string[] = [];
    for (let socket = 0; socket < 2; socket++) {
      const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.mobileCashier}` });
      await take(ws, ViewerQuery, {}, 1);
      await ws.dispose();
      const started = lines().filter((line) => line.msg === 'graphql-ws operation started' && line.operation === 'Viewer' && !ids.includes(line.connectionId as string));
      expect(started).toHaveLength(1);
      ids.push(started[0]!.connectionId as string);
    }
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('records a refused call with its error code, and only an admin\'s actions in the admin trail', async () => {
    const victim = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: `victim-${randomUUID()}`, roles: ['CASHIER'] } }, { key: t.keys.admin });
    const victimId = victim.data!.createApiClient.client!.id;
    const forbidden = await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: victimId } }, { key: t.keys.webCashier });
    expect(forbidden.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(auditLines('revokeApiClient')).toContainEqual(expect.objectContaining({ outcome: 'FORBIDDEN', objects: [{ kind: 'input.id', id: victimId }] }));

    const trail = await execute(t.gateway.graphqlUrl, AdminActionsQuery, { filter: { objectId: victimId } }, { key: t.keys.admin });
    expect(trail.data!.adminActions.edges.map((edge) => edge.node.action)).toEqual(['createApiClient']);
  });
});

describe('request lines', () => {
  it('carry the client id and the operation name, or its type and root fields when it has none', async () => {
    const named = randomUUID();
    await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier, headers: { 'x-request-id': named } });
    const anonymous = randomUUID();
    const response = await fetch(t.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.webCashier}`, 'x-request-id': anonymous },
      body: JSON.stringify({ query: '{ viewer { id } merchantAccounts { code } }' }),
    });
    const viewerId = ((await response.json()) as { data: { viewer: { id: string } } }).data.viewer.id;
    const unauthenticated = randomUUID();
    await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { headers: { 'x-request-id': unauthenticated } });

    expect(requestLine(named)).toMatchObject({ path: '/graphql', status: 200, clientId: viewerId, operation: 'CreateDeposit' });
    expect(requestLine(anonymous)).toMatchObject({ clientId: viewerId, operation: 'query viewer,merchantAccounts' });
    expect(requestLine(unauthenticated)).toMatchObject({ operation: 'CreateDeposit' });
    expect(requestLine(unauthenticated)).not.toHaveProperty('clientId');
  });
});

describe('admin actions', () => {
  it('are readable by admins, newest first, with who, what, which objects and how each ended', async () => {
    const admin = (await execute(t.gateway.graphqlUrl, ViewerQuery, {}, { key: t.keys.admin })).data!.viewer;
    const created = await execute(t.gateway.graphqlUrl, CreateApiClientMutation, { input: { name: `trail-${randomUUID()}`, roles: ['REFUNDS'] } }, { key: t.keys.admin });
    const clientId = created.data!.createApiClient.client!.id;
    await execute(t.gateway.graphqlUrl, RevokeApiClientMutation, { input: { id: clientId } }, { key: t.keys.admin });
    const deposit = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    const depositId = deposit.data!.createDeposit.deposit!.id;
    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: depositId }, { key: t.keys.admin });
    expect(reconciled.errors).toBeUndefined();
    const replay = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: 'whd_00000000000000000000000000' }, { key: t.keys.admin });
    const replayCode = replay.data!.replayWebhookDelivery.userErrors[0]!.code;
    const qr = await execute(t.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } }, { key: t.keys.webCashier });
    const qrId = qr.data!.createQrCode.deposit!.id;
    const simulated = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: qrId, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(simulated.errors).toBeUndefined();

    const trail = await execute(t.gateway.graphqlUrl, AdminActionsQuery, { first: 5, filter: { clientId: admin.id } }, { key: t.keys.admin });
    expect(trail.errors).toBeUndefined();
    const actions = trail.data!.adminActions.edges.map((edge) => edge.node);
    const common = { clientId: admin.id, clientName: admin.name, requestId: expect.any(String), finishedAt: expect.any(String) };
    expect(actions).toEqual([
      { ...common, id: expect.stringMatching(/^adm_/), action: 'simulateQrPayment', outcome: 'OK', objects: [{ kind: 'input.depositId', id: qrId }], startedAt: expect.any(String) },
      { ...common, id: expect.any(String), action: 'replayWebhookDelivery', outcome: replayCode, objects: [{ kind: 'id', id: 'whd_00000000000000000000000000' }], startedAt: expect.any(String) },
      { ...common, id: expect.any(String), action: 'reconcileDeposit', outcome: 'OK', objects: [{ kind: 'id', id: depositId }], startedAt: expect.any(String) },
      { ...common, id: expect.any(String), action: 'revokeApiClient', outcome: 'OK', objects: [{ kind: 'input.id', id: clientId }], startedAt: expect.any(String) },
      { ...common, id: expect.any(String), action: 'createApiClient', outcome: 'OK', objects: [{ kind: 'client', id: clientId }], startedAt: expect.any(String) },
    ]);
    // Cashier mutations are not admin actions.
    expect(actions.map((action) => action.action)).not.toContain('createDeposit');

    const byObject = await execute(t.gateway.graphqlUrl, AdminActionsQuery, { filter: { objectId: clientId } }, { key: t.keys.admin });
    expect(byObject.data!.adminActions.edges.map((edge) => edge.node.action)).toEqual(['revokeApiClient', 'createApiClient']);
    const page = await execute(t.gateway.graphqlUrl, AdminActionsQuery, { first: 2, after: trail.data!.adminActions.edges[1]!.cursor, filter: { clientId: admin.id } }, { key: t.keys.admin });
    expect(page.data!.adminActions.edges.map((edge) => edge.node.action)).toEqual(['reconcileDeposit', 'revokeApiClient']);
  });

  it('are for admins only', async () => {
    const denied = await execute(t.gateway.graphqlUrl, AdminActionsQuery, {}, { key: t.keys.webCashier });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(denied.data).toBeNull();
  });
});
