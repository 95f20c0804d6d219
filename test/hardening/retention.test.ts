// Retention (docs/operations.md "Retention"), through the API and the webhook endpoint on a clock the test
// moves forward: an idempotency key answers its first request for a day and then starts a new
// one, before the retention job has run as after it; a key in doubt keeps resuming its deposit for
// longer; a verified webhook's body, with its personal data, is erased after its window while
// admins still read its hash, event id and outcome and the deposit keeps its events; nothing else
// goes. The settings' validation: src/config.spec.ts.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '../../src/kernel/inbox/webhook-delivery.entity.js';
import { graphql } from '../__generated__/gql.js';
import type { CreateDepositInput } from '../__generated__/graphql.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { ManualClock } from '../support/clock.js';
import type { TestDatabase } from '../support/database.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { accountSecrets, paymentEnvelope, readDeposit, sendWebhook } from '../webhooks/support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const RetainedDeliveriesQuery = graphql(`
  query RetainedDeliveries($filter: WebhookDeliveryFilter) {
    webhookDeliveries(first: 50, filter: $filter) {
      edges {
        node { id eventId eventName outcome reason subjectType subjectId bodySha256 bodyErasedAt receivedAt }
      }
    }
  }
`);

const RetainedReplayMutation = graphql(`
  mutation RetainedReplay($id: ID!) {
    replayWebhookDelivery(id: $id) {
      delivery { id outcome bodyErasedAt }
      outcome
      userErrors { field code message }
    }
  }
`);

const clock = new ManualClock();
let t: TestGateway & { database: TestDatabase };

beforeAll(async () => {
  // One attempt per provider call, so a single injected 500 leaves an outcome unknown.
  t = await startTestGateway({ clock, env: { PROVIDER_MAX_RETRIES: '0' } });
});

afterAll(async () => {
  await t?.close();
});

async function createDeposit(input: CreateDepositInput) {
  const result = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
  expect(result.errors).toBeUndefined();
  return result.data!.createDeposit;
}

async function keyRows(key: string): Promise<number> {
  const rows = await t.gateway.db.fork().execute<Array<{ n: string | number }>>('select count(*) as n from idempotency_key where key = ?', [key]);
  return Number(rows[0]!.n);
}

async function adminDeliveries(subjectId: string) {
  const result = await execute(t.gateway.graphqlUrl, RetainedDeliveriesQuery, { filter: { subjectId } }, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  return result.data!.webhookDeliveries.edges.map((edge) => edge.node);
}

async function storedBody(id: string): Promise<string> {
  return (await t.gateway.db.fork().findOneOrFail(WebhookDelivery, { id })).rawBody;
}

describe('idempotency keys expire after their window', () => {
  it('replays a key reused inside the window, and starts a new deposit after it, before the retention job has run', async () => {
    // Given a deposit made under a key
    const idempotencyKey = randomUUID();
    const first = await createDeposit({ ...CARD_INPUT, idempotencyKey });
    expect(first.userErrors).toEqual([]);
    const firstId = first.deposit!.id;

    // When the key is reused 23 hours later, then it replays the first deposit
    clock.advance(23 * HOUR);
    const inside = await createDeposit({ ...CARD_INPUT, idempotencyKey });
    expect(inside.userErrors).toEqual([]);
    expect(inside.deposit!.id).toBe(firstId);

    // When it is reused 25 hours after its first use (no retention sweep has run), then it starts a new deposit
    clock.advance(2 * HOUR);
    const after = await createDeposit({ ...CARD_INPUT, idempotencyKey });
    expect(after.userErrors).toEqual([]);
    const secondId = after.deposit!.id;
    expect(secondId).not.toBe(firstId);
    // ... which owns the key from now on: it replays
    const again = await createDeposit({ ...CARD_INPUT, idempotencyKey });
    expect(again.deposit!.id).toBe(secondId);
    expect(await keyRows(idempotencyKey)).toBe(1);
  });

  it('takes other input under an expired key as a new request, not IDEMPOTENCY_KEY_REUSED', async () => {
    const idempotencyKey = randomUUID();
    await createDeposit({ ...CARD_INPUT, idempotencyKey });
    const reused = await createDeposit({ ...CARD_INPUT, amount: '26.00', idempotencyKey });
    expect(reused.userErrors).toEqual([expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' })]);

    clock.advance(DAY + HOUR);
    const later = await createDeposit({ ...CARD_INPUT, amount: '26.00', idempotencyKey });
    expect(later.userErrors).toEqual([]);
    expect(later.deposit!.amount.amount).toBe('26.00');
  });

  it('keeps a key in doubt resuming its deposit past the window, and lets it go after the in-doubt window', async () => {
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    // Given two deposits whose provider call answered 500: their outcome at the provider is unknown
    const resumed = randomUUID();
    sandbox.failNext({ status: 500, method: 'POST' });
    const doubtful = await createDeposit({ ...CARD_INPUT, idempotencyKey: resumed });
    expect(doubtful.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const released = randomUUID();
    sandbox.failNext({ status: 500, method: 'POST' });
    const abandoned = await createDeposit({ ...CARD_INPUT, idempotencyKey: released });
    expect(abandoned.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);

    // When the first is retried two days later, then it resumes the same deposit (a new one could pay twice)
    clock.advance(2 * DAY);
    const retried = await createDeposit({ ...CARD_INPUT, idempotencyKey: resumed });
    expect(retried.userErrors).toEqual([]);
    expect(retried.deposit!.id).toBe(doubtful.deposit!.id);

    // When the second is retried after the 30-day in-doubt window, then it starts a new deposit
    clock.advance(29 * DAY);
    const late = await createDeposit({ ...CARD_INPUT, idempotencyKey: released });
    expect(late.userErrors).toEqual([]);
    expect(late.deposit!.id).not.toBe(abandoned.deposit!.id);
  });

  it('the retention job deletes expired keys in batches and keeps the others', async () => {
    // Given a key now past its window and one used just now
    const old = randomUUID();
    await createDeposit({ ...CARD_INPUT, idempotencyKey: old });
    clock.advance(DAY + HOUR);
    const fresh = randomUUID();
    await createDeposit({ ...CARD_INPUT, idempotencyKey: fresh });
    const before = await metric(t, /gateway_retention_removed_total\{data="idempotency_keys"\} (\d+)/);

    // When the retention sweep runs (as a job)
    await t.gateway.retention.runOnce();

    // Then the expired key is gone, the fresh one answers as before
    expect(await keyRows(old)).toBe(0);
    expect(await keyRows(fresh)).toBe(1);
    expect(await metric(t, /gateway_retention_removed_total\{data="idempotency_keys"\} (\d+)/)).toBeGreaterThan(before);
    const line = t.logs.map((text) => JSON.parse(text) as Record<string, unknown>).findLast((entry) => entry.msg === 'retention sweep done');
    expect(line).toMatchObject({ component: 'retention', idempotencyKeysDeleted: expect.any(Number), webhookBodiesErased: expect.any(Number) });
    expect(line!.idempotencyKeysDeleted as number).toBeGreaterThanOrEqual(1);
  });
});

describe('webhook bodies lose their personal data after their window', () => {
  const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;

  /** A card deposit the sandbox approved by webhook, with its follow-up work done: nothing more changes it. */
  async function approvedDeposit(): Promise<string> {
    const created = await createDeposit(CARD_INPUT);
    const id = created.deposit!.id;
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.admin })).data?.deposit?.fee?.amount ?? null, { interval: 25 })
      .not.toBeNull();
    await sandbox().idle();
    await t.gateway.services.jobs.runUntilIdle(['deposit.fetch_details']);
    return id;
  }

  it('erases a verified body after 30 days; admins still read its hash, event id and outcome, and the deposit keeps its events', async () => {
    // Given a deposit the provider approved by webhook, and a second report about it that carries the payer's personal data
    const depositId = await approvedDeposit();
    const envelope = paymentEnvelope(await readDeposit(t, depositId), 'approved', { customer_email: 'ana.retention@example.com', customer_name: 'Ana Retention' });
    expect((await sendWebhook(t, envelope)).status).toBe(200);
    const deliveries = await adminDeliveries(depositId);
    const applied = deliveries.find((row) => row.outcome === 'APPLIED' && row.eventName === 'payment.approved');
    const personal = deliveries.find((row) => row.eventId === envelope.id);
    expect(applied).toMatchObject({ bodyErasedAt: null, bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(personal).toMatchObject({ bodyErasedAt: null, bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await storedBody(personal!.id)).toContain('ana.retention@example.com');
    const before = (await execute(t.gateway.graphqlUrl, DepositQuery, { id: depositId }, { key: t.keys.admin })).data!.deposit!;
    expect(before.events.map((event) => event.toStatus)).toContain('SUCCEEDED');

    // When 29 days have passed and the sweep runs, then the bodies are still kept
    clock.advance(29 * DAY);
    await t.gateway.retention.runOnce();
    expect(await storedBody(personal!.id)).toContain('ana.retention@example.com');

    // When 31 days have passed and the sweep runs
    const erasedBefore = await metric(t, /gateway_retention_removed_total\{data="webhook_bodies"\} (\d+)/);
    clock.advance(2 * DAY);
    await t.gateway.retention.runOnce();

    // Then the bodies and the personal data in them are gone
    expect(await storedBody(personal!.id)).toBe('');
    expect(await storedBody(applied!.id)).toBe('');
    const raw = await t.gateway.db.fork().execute<Array<{ n: string | number }>>("select count(*) as n from webhook_delivery where raw_body like '%ana.retention@example.com%'");
    expect(Number(raw[0]!.n)).toBe(0);
    expect(await metric(t, /gateway_retention_removed_total\{data="webhook_bodies"\} (\d+)/)).toBeGreaterThan(erasedBefore);
    // ... while admins still read the same hashes, event ids, names and outcomes, and when the bodies were erased
    const kept = await adminDeliveries(depositId);
    for (const original of [applied!, personal!]) {
      const row = kept.find((candidate) => candidate.id === original.id);
      expect(row).toEqual({ ...original, bodyErasedAt: expect.any(String) });
    }
    // ... and the deposit's status, amounts and events are intact
    const after = (await execute(t.gateway.graphqlUrl, DepositQuery, { id: depositId }, { key: t.keys.admin })).data!.deposit!;
    expect(after).toEqual(before);
    // ... and a replay says why it cannot run
    const replay = await execute(t.gateway.graphqlUrl, RetainedReplayMutation, { id: applied!.id }, { key: t.keys.admin });
    expect(replay.errors).toBeUndefined();
    expect(replay.data!.replayWebhookDelivery).toMatchObject({ outcome: null, userErrors: [{ field: ['id'], code: 'DELIVERY_BODY_ERASED' }], delivery: { id: applied!.id, outcome: 'APPLIED' } });
  });

  it('erases nothing else: younger bodies, rejected deliveries, deposits, events and the admin trail stay', async () => {
    // Given a rejected delivery, an unmatched one and a deposit, all older than the window, and a delivery received now
    const rejected = await sendWebhook(t, '{"id":"evt_unsigned"}', { header: null });
    expect(rejected.status).toBeGreaterThanOrEqual(400);
    const depositId = await approvedDeposit();
    const row = await readDeposit(t, depositId);
    // Reports about a payment the gateway does not know: they change nothing, so only retention touches their rows.
    const stranger = () => paymentEnvelope(row, 'approved', { reference: `pay_${randomUUID().replace(/-/g, '')}`, merchant_reference: `dep_${randomUUID().replace(/-/g, '')}` });
    const unmatched = stranger();
    expect((await sendWebhook(t, unmatched)).status).toBe(200);
    clock.advance(31 * DAY);
    const young = stranger();
    expect((await sendWebhook(t, young)).status).toBe(200);
    const counts = async () => {
      const [totals] = await t.gateway.db.fork().execute<Array<Record<string, string | number>>>(
        `select (select count(*) from webhook_delivery) as deliveries, (select count(*) from webhook_delivery where outcome = 'rejected') as rejected,
                (select count(*) from deposit) as deposits, (select count(*) from payment_event) as events, (select count(*) from admin_action) as admin_actions`,
      );
      return Object.fromEntries(Object.entries(totals!).map(([name, value]) => [name, Number(value)]));
    };
    const before = await counts();

    // When the sweep runs
    await t.gateway.retention.runOnce();

    // Then no row went; the old verified body is erased with its hash kept, the young one is kept
    expect(await counts()).toEqual(before);
    const em = t.gateway.db.fork();
    const youngRow = await em.findOneOrFail(WebhookDelivery, { eventId: young.id });
    expect(youngRow.rawBody).toContain(young.id);
    expect(youngRow.bodyErasedAt ?? null).toBeNull();
    const oldRow = await em.findOneOrFail(WebhookDelivery, { eventId: unmatched.id });
    expect(oldRow).toMatchObject({ outcome: 'unmatched', rawBody: '', bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(oldRow.bodyErasedAt).toBeInstanceOf(Date);
  });

  it('runs on its own as a recurring job, on the configured interval', async () => {
    const ownClock = new ManualClock();
    const own = await startTestGateway({ clock: ownClock, env: { RETENTION_INTERVAL_MS: '200', JOBS_POLL_INTERVAL_MS: '50' } });
    try {
      const sent = await execute(own.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: own.keys.webCashier });
      const id = sent.data!.createDeposit.deposit!.id;
      const deposit = await own.gateway.db.fork().findOneOrFail(Deposit, { id });
      const envelope = paymentEnvelope(deposit, 'approved');
      expect((await sendWebhook(own, envelope, { secrets: [accountSecrets(own)[0]!] })).status).toBe(200);
      ownClock.advance(31 * DAY);
      await expect
        .poll(async () => (await own.gateway.db.fork().findOneOrFail(WebhookDelivery, { eventId: envelope.id })).rawBody, { interval: 50 })
        .toBe('');
      // erased by the retention job, which ran on its own, and counted once its sweep was over
      // (the body is erased in a batch of its own before the sweep ends)
      await expect.poll(() => metric(own, /^gateway_retention_removed_total\{data="webhook_bodies"\} (\d+)/m), { interval: 50 }).toBeGreaterThanOrEqual(1);
      await expect.poll(() => metric(own, /^gateway_jobs_total\{kind="retention\.sweep",outcome="succeeded"\} (\d+)/m), { interval: 50 }).toBeGreaterThanOrEqual(1);
    } finally {
      await own.close();
    }
  });
});
