// The webhook inbox over real HTTP on a real database: verification before anything is stored,
// exactly one status change per real transition, anomalies kept and acknowledged, 413 and 5xx.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventNotification } from '../../src/kernel/events/event-notification.js';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import { metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { collectNotifications } from '../support/notifications.js';
import { databaseOutage, type TestDatabase } from '../support/database.js';
import {
  accountSecrets,
  countDeliveries,
  deliveries,
  eventsOf,
  insertDeposit,
  paymentEnvelope,
  readDeposit,
  sendWebhook,
} from './support.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/**
 * Resolves once `live` has received the event of a webhook applied after everything before this
 * call: the event bus publishes in position order, so a repeat of an earlier event would have come
 * before it.
 */
async function publishedPastNow(live: { seen: EventNotification[] }): Promise<void> {
  const later = await insertDeposit(t);
  expect((await sendWebhook(t, paymentEnvelope(later, 'declined'))).body.outcome).toBe('applied');
  await expect.poll(() => live.seen.some((n) => n.subjectId === later.id)).toBe(true);
}

describe('a verified approved webhook', () => {
  it('moves the deposit to SUCCEEDED with one event row, one notification and an applied inbox row', async () => {
    // given
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved');
    const bytes = JSON.stringify(envelope);
    const live = await collectNotifications(t.gateway.services.pubsub);

    // when
    const response = await sendWebhook(t, bytes);

    // then
    expect(response).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const after = await readDeposit(t, deposit.id);
    expect(after.status).toBe('SUCCEEDED');
    expect(after.providerStatus).toBe('approved');
    expect(after.approvedAt).toBeInstanceOf(Date);

    const events = await eventsOf(t, deposit.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'deposit.status_changed', fromStatus: 'PENDING', toStatus: 'SUCCEEDED', clientId: deposit.clientId });
    expect(events[0]!.data).toMatchObject({ id: deposit.id, status: 'SUCCEEDED', amount: '10.00', currency: 'EUR' });

    const [delivery, ...more] = await deliveries(t, { eventId: envelope.id });
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ provider: 'deposit-gateway', merchantAccount: 'dg-test', eventName: 'payment.approved', outcome: 'applied', subjectType: 'deposit', subjectId: deposit.id });
    expect(delivery!.rawBody).toBe(bytes);

    // Live delivery waits until the transactions running beside the commit have ended (docs/kernel-reference.md "Event log order").
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await publishedPastNow(live);
    const mine = live.seen.filter((n) => n.subjectId === deposit.id);
    live.stop();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ position: String(events[0]!.position), id: events[0]!.id, fromStatus: 'PENDING', toStatus: 'SUCCEEDED' });
    expect(mine[0]!.snapshot).toMatchObject({ id: deposit.id, status: 'SUCCEEDED', providerStatus: 'approved', amount: '10.00' });
  });

  it('a declined one records the decline reason', async () => {
    const deposit = await insertDeposit(t);
    const response = await sendWebhook(t, paymentEnvelope(deposit, 'declined', { decline_reason: 'insufficient_funds' }));
    expect(response.body).toEqual({ received: true, outcome: 'applied' });
    expect(await readDeposit(t, deposit.id)).toMatchObject({ status: 'DECLINED', providerStatus: 'declined', declineReason: 'insufficient_funds' });
  });
});

describe('an unverified webhook is refused and changes nothing', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: Array<{ name: string; status: number; reason: string; send: (bytes: string, secret: string) => { body: string; header: string | null } }> = [
    { name: 'tampered body', status: 401, reason: 'SIGNATURE_MISMATCH', send: (bytes, secret) => ({ body: bytes.replace('"10.00"', '"1000.00"'), header: signatureHeader(bytes, [secret], now()) }) },
    { name: 'stale t (301 s old)', status: 401, reason: 'TIMESTAMP_OUT_OF_WINDOW', send: (bytes, secret) => ({ body: bytes, header: signatureHeader(bytes, [secret], now() - 301) }) },
    { name: 'future t (301 s ahead)', status: 401, reason: 'TIMESTAMP_OUT_OF_WINDOW', send: (bytes, secret) => ({ body: bytes, header: signatureHeader(bytes, [secret], Math.ceil(Date.now() / 1000) + 301) }) },
    { name: 'missing header', status: 401, reason: 'SIGNATURE_MISSING', send: (bytes) => ({ body: bytes, header: null }) },
    { name: 'malformed header', status: 401, reason: 'SIGNATURE_MALFORMED', send: (bytes) => ({ body: bytes, header: 'sha256=deadbeef' }) },
    { name: 'malformed v1', status: 401, reason: 'SIGNATURE_MALFORMED', send: (bytes) => ({ body: bytes, header: `t=${now()},v1=xyz` }) },
    { name: 'wrong secret', status: 401, reason: 'SIGNATURE_MISMATCH', send: (bytes) => ({ body: bytes, header: signatureHeader(bytes, ['whsec_not_the_secret'], now()) }) },
  ];

  it.each(cases)('$name → $status $reason', async ({ status, reason, send }) => {
    // given
    const deposit = await insertDeposit(t);
    const secret = accountSecrets(t)[0]!;
    const before = await countDeliveries(t);
    // Signed right before it is sent (and `t` ahead counted from the next whole second): a `t` 301 s
    // ahead is inside the 300 s window again once a second passes.
    const { body, header } = send(JSON.stringify(paymentEnvelope(deposit, 'approved')), secret);

    // when
    const response = await sendWebhook(t, body, { header });

    // then
    expect(response).toEqual({ status, body: { received: false, reason } });
    expect(JSON.stringify(response.body)).not.toContain(secret);
    // Only a bodiless `rejected` row is kept, for admins (test/webhooks/admin.test.ts).
    expect(await countDeliveries(t)).toBe(before + 1);
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
    expect(await eventsOf(t, deposit.id)).toEqual([]);
  });

  it('an unknown provider or account is 404', async () => {
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved');
    expect((await sendWebhook(t, envelope, { account: 'no-such-account' })).status).toBe(404);
    expect((await sendWebhook(t, envelope, { provider: 'no-such-provider' })).status).toBe(404);
    // qr-test exists, but not at the deposit gateway.
    expect((await sendWebhook(t, envelope, { account: 'qr-test' })).status).toBe(404);
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
  });
});

describe('exactly one status change per real transition', () => {
  it('the same webhook 50 times at once: one change, one event, one notification, 49 duplicates, all 2xx', async () => {
    // given
    const deposit = await insertDeposit(t);
    const bytes = JSON.stringify(paymentEnvelope(deposit, 'approved'));
    const header = signatureHeader(bytes, accountSecrets(t), Math.floor(Date.now() / 1000));
    const live = await collectNotifications(t.gateway.services.pubsub);

    // when
    const responses = await Promise.all(Array.from({ length: 50 }, () => sendWebhook(t, bytes, { header })));

    // then
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const outcomes = responses.map((response) => response.body.outcome);
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(49);
    expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
    expect(await eventsOf(t, deposit.id)).toHaveLength(1);
    expect(await deliveries(t, { subjectId: deposit.id })).toHaveLength(1);
    // Live delivery waits until the transactions running beside the commit have ended (docs/kernel-reference.md "Event log order").
    await expect.poll(() => live.seen.filter((n) => n.subjectId === deposit.id).length).toBe(1);
    await publishedPastNow(live);
    expect(live.seen.filter((n) => n.subjectId === deposit.id)).toHaveLength(1);
    live.stop();
  });

  it('distinct approved and declined events racing for one deposit: the row lock lets exactly one apply', async () => {
    // given
    const deposit = await insertDeposit(t);
    const racing = Array.from({ length: 20 }, (_, i) => paymentEnvelope(deposit, i % 2 === 0 ? 'approved' : 'declined'));

    // when
    const responses = await Promise.all(racing.map((envelope) => sendWebhook(t, envelope)));

    // then: the first to lock applies; the rest see its committed status (same: duplicate, other: anomaly)
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(responses.filter((response) => response.body.outcome === 'applied')).toHaveLength(1);
    const final = (await readDeposit(t, deposit.id)).status;
    expect(['SUCCEEDED', 'DECLINED']).toContain(final);
    const events = await eventsOf(t, deposit.id);
    expect(events.map((event) => [event.fromStatus, event.toStatus])).toEqual([['PENDING', final]]);
    const stored = await deliveries(t, { subjectId: deposit.id });
    expect(stored).toHaveLength(20);
    expect(stored.filter((delivery) => delivery.outcome === 'duplicate')).toHaveLength(9);
    expect(stored.filter((delivery) => delivery.outcome === 'anomaly')).toHaveLength(10);
  });

  it('a distinct event repeating the current status is stored as a duplicate and changes nothing', async () => {
    const deposit = await insertDeposit(t);
    expect((await sendWebhook(t, paymentEnvelope(deposit, 'approved'))).body.outcome).toBe('applied');
    const again = paymentEnvelope(deposit, 'approved');
    expect(await sendWebhook(t, again)).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect((await deliveries(t, { eventId: again.id }))[0]).toMatchObject({ outcome: 'duplicate', subjectId: deposit.id });
    expect(await eventsOf(t, deposit.id)).toHaveLength(1);
  });

  it('approved then a late declined stays SUCCEEDED; the declined delivery is an anomaly', async () => {
    // given
    const deposit = await insertDeposit(t);
    expect((await sendWebhook(t, paymentEnvelope(deposit, 'approved'))).body.outcome).toBe('applied');

    // when
    const late = paymentEnvelope(deposit, 'declined');
    const response = await sendWebhook(t, late);

    // then: acknowledged, so the provider stops retrying, and kept for an admin
    expect(response).toEqual({ status: 200, body: { received: true, outcome: 'anomaly' } });
    expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
    expect(await eventsOf(t, deposit.id)).toHaveLength(1);
    const [delivery] = await deliveries(t, { eventId: late.id });
    expect(delivery).toMatchObject({ outcome: 'anomaly', subjectType: 'deposit', subjectId: deposit.id });
    expect(delivery!.reason).toMatch(/^TRANSITION_NOT_ALLOWED: /);
  });

  it.each([
    { name: 'amount', data: { amount: '9.99' } },
    { name: 'currency', data: { currency: 'USD' } },
  ])('a webhook for another $name is an anomaly and does not make the deposit SUCCEEDED', async ({ data }) => {
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved', data);
    const response = await sendWebhook(t, envelope);
    expect(response).toEqual({ status: 200, body: { received: true, outcome: 'anomaly' } });
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
    expect(await eventsOf(t, deposit.id)).toEqual([]);
    const [delivery] = await deliveries(t, { eventId: envelope.id });
    expect(delivery).toMatchObject({ outcome: 'anomaly', subjectId: deposit.id });
    expect(delivery!.reason).toMatch(/^AMOUNT_MISMATCH: /);
  });

  it('a test-mode event never moves a deposit on a live account (and the reverse)', async () => {
    const deposit = await insertDeposit(t);
    const envelope = { ...paymentEnvelope(deposit, 'approved'), livemode: true };
    expect((await sendWebhook(t, envelope)).body.outcome).toBe('anomaly');
    expect((await deliveries(t, { eventId: envelope.id }))[0]!.reason).toMatch(/^LIVEMODE_MISMATCH/);
    expect((await readDeposit(t, deposit.id)).status).toBe('PENDING');
  });

  it('finds the deposit by the provider reference when the merchant reference is absent', async () => {
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved', { merchant_reference: undefined });
    expect((await sendWebhook(t, envelope)).body.outcome).toBe('applied');
    expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
  });
});

describe('verified events that cannot be applied are kept and acknowledged', () => {
  it('an unknown event type is stored as ignored, 200', async () => {
    const envelope = { id: 'evt_unknown_type_1', event: 'payment_link.created', livemode: false, created_at: new Date().toISOString(), data: { reference: 'pl_1' } };
    expect(await sendWebhook(t, envelope)).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
    expect((await deliveries(t, { eventId: envelope.id }))[0]).toMatchObject({ outcome: 'ignored', eventName: 'payment_link.created', subjectId: null });
  });

  it('an event for a refund we do not have is stored as unmatched, 200', async () => {
    const envelope = { id: 'evt_refund_1', event: 'refund.approved', livemode: false, created_at: new Date().toISOString(), data: { reference: 'rf_1', payment_reference: 'pay_1', status: 'approved', amount: '1.00', currency: 'EUR' } };
    expect(await sendWebhook(t, envelope)).toEqual({ status: 200, body: { received: true, outcome: 'unmatched' } });
    expect((await deliveries(t, { eventId: envelope.id }))[0]).toMatchObject({ outcome: 'unmatched' });
  });

  it('an event for a deposit we do not have is stored as unmatched, 200', async () => {
    const envelope = {
      id: 'evt_unmatched_1',
      event: 'payment.approved',
      livemode: false,
      created_at: new Date().toISOString(),
      data: { reference: 'pay_nobody', merchant_reference: 'dep_01JD3V9K8W6Q7T2M4N5P6R7S8T', status: 'approved', amount: '10.00', currency: 'EUR' },
    };
    expect(await sendWebhook(t, envelope)).toEqual({ status: 200, body: { received: true, outcome: 'unmatched' } });
    const [delivery] = await deliveries(t, { eventId: envelope.id });
    expect(delivery).toMatchObject({ outcome: 'unmatched', subjectId: null });
    expect(delivery!.reason).toMatch(/^DEPOSIT_NOT_FOUND/);
  });

  it('a redelivery of a stored event answers duplicate and stores nothing more', async () => {
    const envelope = { id: 'evt_unknown_type_2', event: 'something.new', livemode: false, created_at: new Date().toISOString(), data: {} };
    expect((await sendWebhook(t, envelope)).body.outcome).toBe('ignored');
    const before = await countDeliveries(t);
    expect((await sendWebhook(t, envelope)).body).toEqual({ received: true, outcome: 'duplicate' });
    expect(await countDeliveries(t)).toBe(before);
  });
});

describe('limits, logs and metrics', () => {
  it('a body over WEBHOOK_BODY_LIMIT_BYTES is 413 and is not stored', async () => {
    const before = await countDeliveries(t);
    const padding = 'x'.repeat(t.gateway.config.http.webhookBodyLimitBytes);
    const response = await sendWebhook(t, JSON.stringify({ id: 'evt_big', event: 'x.y', data: { padding } }));
    expect(response).toEqual({ status: 413, body: { received: false, reason: 'PAYLOAD_TOO_LARGE' } });
    expect(await countDeliveries(t)).toBe(before);
  });

  it('a streamed (chunked) body over the limit is cut off unbuffered and not stored', async () => {
    const before = await countDeliveries(t);
    const chunk = new TextEncoder().encode('x'.repeat(16_384));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    // No Content-Length to refuse up front: the bounded reader stops at the limit and cuts the
    // connection rather than read the rest, so the client sees a 413 or a reset, never a 2xx.
    const outcome = await fetch(`${t.gateway.url}/webhooks/deposit-gateway/dg-test`, { method: 'POST', body, duplex: 'half' } as RequestInit).then(
      (response) => response.status,
      () => 'reset',
    );
    expect([413, 'reset']).toContain(outcome);
    expect(await countDeliveries(t)).toBe(before);
  });

  it('logs each outcome with its event id, never the body, the signature header or a secret', async () => {
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved', { marker: 'body-marker-7f3a' });
    const bytes = JSON.stringify(envelope);
    const header = signatureHeader(bytes, accountSecrets(t), Math.floor(Date.now() / 1000));
    await sendWebhook(t, bytes, { header });
    await sendWebhook(t, bytes, { header: `${header.slice(0, -4)}0000` });
    const line = t.logs.find((entry) => entry.includes(envelope.id) && entry.includes('webhook received'));
    expect(JSON.parse(line!)).toMatchObject({ provider: 'deposit-gateway', account: 'dg-test', event: 'payment.approved', eventId: envelope.id, outcome: 'applied' });
    expect(t.logs.some((entry) => entry.includes('webhook rejected') && entry.includes('SIGNATURE_MISMATCH'))).toBe(true);
    const all = t.logs.join('\n');
    expect(all).not.toContain('body-marker-7f3a');
    expect(all).not.toContain(header.split('v1=')[1]);
    for (const secret of accountSecrets(t)) expect(all).not.toContain(secret);
  });

  it('counts webhooks by provider and outcome', async () => {
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="applied"\} \d+/);
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="duplicate",reason="[A-Z_]+"\} \d+/);
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="rejected",reason="SIGNATURE_MISMATCH"\} \d+/);
    expect(text).toMatch(/gateway_webhooks_total\{provider="unknown",outcome="rejected",reason="NOT_FOUND"\} \d+/);
    expect(text).toMatch(/gateway_webhooks_total\{provider="deposit-gateway",outcome="rejected",reason="PAYLOAD_TOO_LARGE"\} \d+/);
  });
});

describe('secret rotation', () => {
  const current = 'whsec_rotation_current';
  const previous = 'whsec_rotation_previous';
  let r: TestGateway & { database: TestDatabase };
  beforeAll(async () => {
    r = await startTestGateway({
      env: {
        MERCHANT_ACCOUNTS: JSON.stringify([
          { code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'svc_test_rotation', webhookSecrets: [current, previous] },
        ]),
      },
    });
  });
  afterAll(() => r?.close());

  const header = (bytes: string, secrets: string[]) => signatureHeader(bytes, secrets, Math.floor(Date.now() / 1000));

  it('accepts a header with two v1 values of which one is from a secret we still hold', async () => {
    const deposit = await insertDeposit(r);
    const bytes = JSON.stringify(paymentEnvelope(deposit, 'approved'));
    expect((await sendWebhook(r, bytes, { header: header(bytes, ['whsec_long_retired', previous]) })).body.outcome).toBe('applied');
  });

  it('accepts the new and the previous secret alone, refuses a retired one', async () => {
    const a = await insertDeposit(r);
    const b = await insertDeposit(r);
    const c = await insertDeposit(r);
    const bytesA = JSON.stringify(paymentEnvelope(a, 'approved'));
    const bytesB = JSON.stringify(paymentEnvelope(b, 'approved'));
    const bytesC = JSON.stringify(paymentEnvelope(c, 'approved'));
    expect((await sendWebhook(r, bytesA, { header: header(bytesA, [current]) })).status).toBe(200);
    expect((await sendWebhook(r, bytesB, { header: header(bytesB, [previous]) })).status).toBe(200);
    expect(await sendWebhook(r, bytesC, { header: header(bytesC, ['whsec_long_retired']) })).toEqual({ status: 401, body: { received: false, reason: 'SIGNATURE_MISMATCH' } });
    expect((await readDeposit(r, c.id)).status).toBe('PENDING');
  });
});

// Last: on PGlite the outage closes the database for good.
describe('when the database is down', () => {
  it('answers 500 and stores nothing, so the provider retries; a retry after recovery applies once', async () => {
    const deposit = await insertDeposit(t);
    const envelope = paymentEnvelope(deposit, 'approved');
    const bytes = JSON.stringify(envelope);
    const header = signatureHeader(bytes, accountSecrets(t), Math.floor(Date.now() / 1000));
    const errors = /gateway_webhooks_total\{provider="deposit-gateway",outcome="error"\} (\d+)/;
    const errorsBefore = await metric(t, errors);

    const outage = await databaseOutage(t.database, () => t.gateway.db.close());
    try {
      expect(await sendWebhook(t, bytes, { header })).toEqual({ status: 500, body: { received: false, reason: 'INTERNAL_ERROR' } });
    } finally {
      await outage.end();
    }
    // Counted as a webhook that could not be stored, for the operators.
    expect(await metric(t, errors)).toBe(errorsBefore + 1);
    if (t.database.kind === 'postgresql') {
      await expect.poll(async () => (await sendWebhook(t, bytes, { header })).status).toBe(200);
      expect((await readDeposit(t, deposit.id)).status).toBe('SUCCEEDED');
      expect(await eventsOf(t, deposit.id)).toHaveLength(1);
    }
  });
});

