// Admin views of webhook deliveries: rejected deliveries are listed with their reason and never a
// body, the list filters and pages newest first, and a stored delivery can be replayed through the
// same decision code as a fresh one (an unmatched event once its deposit exists).

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import type { WebhookDeliveriesQueryVariables } from '../__generated__/graphql.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { ReplayWebhookDeliveryMutation, WebhookDeliveriesQuery } from '../reconciliation/operations.js';
import { accountSecrets, deliveries, eventsOf, insertDeposit, paymentEnvelope, readDeposit, sendWebhook } from './support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const now = () => Math.floor(Date.now() / 1000);

async function list(variables: WebhookDeliveriesQueryVariables, key = t.keys.admin) {
  const response = await execute(t.gateway.graphqlUrl, WebhookDeliveriesQuery, variables, { key });
  expect(response.errors).toBeUndefined();
  return response.data!.webhookDeliveries;
}

describe('rejected deliveries', () => {
  it('are listed with provider, account, reason and time, without the body (only its SHA-256)', async () => {
    // given
    const deposit = await insertDeposit(t);
    const bytes = JSON.stringify(paymentEnvelope(deposit, 'approved', { marker: 'rejected-body-marker-91c2' }));

    // when: a wrong secret, and a stale signature
    expect((await sendWebhook(t, bytes, { header: signatureHeader(bytes, ['whsec_not_the_secret'], now()) })).status).toBe(401);
    expect((await sendWebhook(t, bytes, { header: signatureHeader(bytes, accountSecrets(t), now() - 3600) })).status).toBe(401);

    // then
    const page = await list({ first: 2, filter: { outcome: 'REJECTED' } });
    expect(page.edges.map((edge) => edge.node.reason)).toEqual(['TIMESTAMP_OUT_OF_WINDOW', 'SIGNATURE_MISMATCH']);
    for (const { node } of page.edges) {
      expect(node).toMatchObject({ provider: 'DEPOSIT_GATEWAY', merchantAccount: 'dg-test', outcome: 'REJECTED', eventName: null, subjectId: null });
      expect(node.eventId).toBe(`rejected:${node.id}`);
      expect(node.bodySha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(Date.now() - Date.parse(node.receivedAt)).toBeLessThan(60_000);
    }
    expect(JSON.stringify(page)).not.toContain('rejected-body-marker-91c2');
    const stored = (await deliveries(t)).filter((row) => row.outcome === 'rejected');
    expect(stored.every((row) => row.rawBody === '')).toBe(true);
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
  });

  it('cannot be replayed', async () => {
    const [rejected] = (await list({ first: 1, filter: { outcome: 'REJECTED' } })).edges;
    const replay = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: rejected!.node.id }, { key: t.keys.admin });
    expect(replay.errors).toBeUndefined();
    expect(replay.data!.replayWebhookDelivery).toMatchObject({ outcome: null, userErrors: [{ code: 'DELIVERY_REJECTED' }], delivery: { id: rejected!.node.id, outcome: 'REJECTED' } });
  });

  it('are counted by reason code', async () => {
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="rejected",reason="SIGNATURE_MISMATCH"\} [1-9]/);
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="rejected",reason="TIMESTAMP_OUT_OF_WINDOW"\} [1-9]/);
  });
});

describe('the delivery list', () => {
  it('is newest first, filters by subject, provider and account, and pages', async () => {
    const deposit = await insertDeposit(t);
    await sendWebhook(t, paymentEnvelope(deposit, 'pending'));
    await sendWebhook(t, paymentEnvelope(deposit, 'approved'));

    const mine = await list({ first: 10, filter: { subjectId: deposit.id, provider: 'DEPOSIT_GATEWAY', merchantAccount: 'dg-test' } });
    expect(mine.edges.map((edge) => [edge.node.eventName, edge.node.outcome, edge.node.subjectType])).toEqual([
      ['payment.approved', 'APPLIED', 'deposit'],
      ['payment.pending', 'DUPLICATE', 'deposit'],
    ]);
    const first = await list({ first: 1, filter: { subjectId: deposit.id } });
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await list({ first: 1, after: first.pageInfo.endCursor, filter: { subjectId: deposit.id } });
    expect(second.edges.map((edge) => edge.node.eventName)).toEqual(['payment.pending']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(await list({ first: 1, filter: { merchantAccount: 'no-such-account' } })).toMatchObject({ edges: [] });
  });

  it('is for admins only', async () => {
    const response = await execute(t.gateway.graphqlUrl, WebhookDeliveriesQuery, { first: 1 }, { key: t.keys.webCashier });
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const replay = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: 'whd_00000000000000000000000000' }, { key: t.keys.webCashier });
    expect(replay.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('replayWebhookDelivery', () => {
  it('applies a stored unmatched delivery once its deposit exists, through the same code as a fresh one', async () => {
    // given: an approval for a deposit this gateway does not have yet
    const id = newId('dep');
    const reference = `pay_${randomBytes(8).toString('hex')}`;
    const template = Object.assign(new Deposit(), { id, providerReference: reference, amount: '10.00', currency: 'EUR' });
    const envelope = paymentEnvelope(template, 'approved');
    expect((await sendWebhook(t, envelope)).body).toEqual({ received: true, outcome: 'unmatched' });
    const [stored] = await deliveries(t, { eventId: envelope.id });
    expect(stored!.outcome).toBe('unmatched');

    // when: the deposit appears, and an admin replays the delivery
    const em = t.gateway.db.fork();
    em.create(Deposit, {
      id,
      clientId: t.gateway.demoClients[0]!.id,
      merchantAccount: 'dg-test',
      provider: 'deposit-gateway',
      rail: 'CARD',
      livemode: false,
      status: 'PENDING',
      providerStatus: 'redirected',
      amount: '10.00',
      currency: 'EUR',
      providerReference: reference,
      request: { details: { rail: 'CARD' }, customer: {} },
    });
    await em.flush();
    const replay = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: stored!.id }, { key: t.keys.admin });

    // then
    expect(replay.errors).toBeUndefined();
    expect(replay.data!.replayWebhookDelivery).toMatchObject({ outcome: 'APPLIED', userErrors: [], delivery: { id: stored!.id, outcome: 'APPLIED', subjectId: id } });
    expect(replay.data!.replayWebhookDelivery.delivery!.replayedAt).not.toBeNull();
    expect((await readDeposit(t, id)).status).toBe('SUCCEEDED');
    expect((await eventsOf(t, id)).map((event) => `${event.type}:${event.toStatus}`)).toEqual(['deposit.status_changed:SUCCEEDED']);

    // and a second replay changes nothing; the row keeps what it applied
    const again = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: stored!.id }, { key: t.keys.admin });
    expect(again.data!.replayWebhookDelivery).toMatchObject({ outcome: 'DUPLICATE', userErrors: [], delivery: { outcome: 'APPLIED' } });
    expect((await eventsOf(t, id)).filter((event) => event.type === 'deposit.status_changed')).toHaveLength(1);
  });

  it('an unknown delivery is a user error', async () => {
    const replay = await execute(t.gateway.graphqlUrl, ReplayWebhookDeliveryMutation, { id: 'whd_00000000000000000000000000' }, { key: t.keys.admin });
    expect(replay.errors).toBeUndefined();
    expect(replay.data!.replayWebhookDelivery).toMatchObject({ delivery: null, outcome: null, userErrors: [{ code: 'DELIVERY_NOT_FOUND', field: ['id'] }] });
  });
});
