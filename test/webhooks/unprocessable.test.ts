// A correctly signed delivery that no retry could ever apply (not UTF-8, not JSON, no event, an
// amount or currency holding NUL or a lone surrogate) is kept as rejected, visible to admins, and
// acknowledged 200, so the provider stops retrying (both specs: any non-2xx is retried for 24
// hours). Nothing is applied; only forged or stale deliveries are refused with a 4xx.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader as qrSignatureHeader } from '../../src/providers/qr-gateway/signature.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { WebhookDeliveriesQuery } from '../reconciliation/operations.js';
import { accountSecrets, deliveries, eventsOf, insertDeposit, paymentEnvelope, readDeposit, sendWebhook } from './support.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Replaces the first `"<field>":"<value>"` in a JSON text with raw `bytes` in place of the value's text. */
function withRawValue(json: string, field: string, bytes: Buffer): Buffer {
  const match = new RegExp(`"${field}":"[^"]*"`).exec(json);
  if (!match) throw new Error(`no ${field} in ${json}`);
  const before = Buffer.from(json.slice(0, match.index + field.length + 4));
  return Buffer.concat([before, bytes, Buffer.from(json.slice(match.index + match[0].length - 1))]);
}

async function adminDeliveryOf(bodySha256: string) {
  const response = await execute(t.gateway.graphqlUrl, WebhookDeliveriesQuery, { first: 50, filter: { outcome: 'REJECTED' } }, { key: t.keys.admin });
  expect(response.errors).toBeUndefined();
  return response.data!.webhookDeliveries.edges.map((edge) => edge.node).filter((node) => node.bodySha256 === bodySha256);
}

describe('a signed deposit-gateway delivery that cannot be processed', () => {
  const cases: Array<{ name: string; body: (deposit: Awaited<ReturnType<typeof insertDeposit>>) => Buffer | string }> = [
    { name: 'an amount holding NUL', body: (deposit) => JSON.stringify(paymentEnvelope(deposit, 'approved', { amount: `${deposit.amount}\u0000` })) },
    { name: 'a currency holding a lone surrogate', body: (deposit) => JSON.stringify(paymentEnvelope(deposit, 'approved', { currency: '\ud800' })) },
    { name: 'an amount of invalid UTF-8', body: (deposit) => withRawValue(JSON.stringify(paymentEnvelope(deposit, 'approved')), 'amount', Buffer.from([0x31, 0x30, 0xff, 0xfe])) },
    { name: 'a currency that is a raw NUL byte', body: (deposit) => withRawValue(JSON.stringify(paymentEnvelope(deposit, 'approved')), 'currency', Buffer.from([0x00])) },
    { name: 'a body that is not JSON', body: () => 'not json' },
    { name: 'an envelope with no event name', body: () => '{"id":"evt_1"}' },
  ];

  it.each(cases)('with $name: 200, kept as rejected with its reason, visible to admins, nothing applied', async ({ body }) => {
    // given
    const deposit = await insertDeposit(t);
    const bytes = body(deposit);

    // when: delivered, then retried as the provider would after a non-2xx
    const first = await sendWebhook(t, bytes);
    const retry = await sendWebhook(t, bytes);

    // then
    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'rejected', reason: 'PAYLOAD_INVALID' } });
    expect(retry).toEqual(first);
    const seen = await adminDeliveryOf(sha256(bytes));
    expect(seen).toHaveLength(2);
    for (const node of seen) expect(node).toMatchObject({ provider: 'DEPOSIT_GATEWAY', merchantAccount: 'dg-test', outcome: 'REJECTED', reason: 'PAYLOAD_INVALID', eventName: null, subjectId: null });
    // Its bytes are not kept: they may be anything.
    expect((await deliveries(t)).filter((row) => row.bodySha256 === sha256(bytes)).map((row) => row.rawBody)).toEqual(['', '']);
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
    expect(await eventsOf(t, deposit.id)).toEqual([]);
  });

  it('is counted by its reason, and logged at warn without a stack', async () => {
    const metrics = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="rejected",reason="PAYLOAD_INVALID"\} [1-9]/);
    const lines = t.logs.filter((line) => line.includes('PAYLOAD_INVALID')).map((line) => JSON.parse(line) as { level: number; err?: unknown });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.level).toBeLessThanOrEqual(40);
      expect(line.err).toBeUndefined();
    }
  });

  it('while a forged one is still refused 401', async () => {
    const deposit = await insertDeposit(t);
    const bytes = JSON.stringify(paymentEnvelope(deposit, 'approved', { amount: `${deposit.amount}\u0000` }));
    expect(await sendWebhook(t, bytes, { secrets: ['whsec_not_the_secret'] })).toEqual({ status: 401, body: { received: false, reason: 'SIGNATURE_MISMATCH' } });
  });
});

describe('a signed QR gateway delivery that cannot be processed', () => {
  async function sendQr(bytes: Buffer | string) {
    const body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
    const response = await fetch(`${t.gateway.url}/webhooks/qr-gateway/qr-test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-qr-signature': qrSignatureHeader(accountSecrets(t, 'qr-test'), body, Math.floor(Date.now() / 1000)) },
      body: new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const event = (data: Record<string, unknown>) =>
    JSON.stringify({ event: 'payment.succeeded', data: { payment_id: 'qr_unprocessable', status: 'succeeded', amount: 15000, currency: 'THB', ...data }, timestamp: new Date().toISOString() });

  it.each([
    { name: 'an amount holding NUL', body: event({ amount: '15000\u0000' }) },
    { name: 'a currency holding a lone surrogate', body: event({ currency: 'TH\udc00' }) },
    { name: 'a body of invalid UTF-8', body: Buffer.concat([Buffer.from(event({}).slice(0, -2)), Buffer.from([0xc3, 0x28, 0x7d])]) },
  ])('with $name: 200 and kept as rejected', async ({ body }) => {
    const answer = await sendQr(body);
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'rejected', reason: expect.stringMatching(/^(PAYLOAD_INVALID|TEXT_NOT_STORABLE)$/) } });
    const seen = await adminDeliveryOf(sha256(body));
    expect(seen).toEqual([expect.objectContaining({ provider: 'QR_GATEWAY', merchantAccount: 'qr-test', outcome: 'REJECTED', reason: answer.body.reason })]);
  });
});
