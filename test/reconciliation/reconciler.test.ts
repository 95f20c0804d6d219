// The reconciler recovers missed webhooks: a deposit whose webhooks the sandbox dropped reaches
// SUCCEEDED within the configured interval with one subscription message; it runs as jobs that the
// job table and metrics show; two instances on one PostgreSQL database never double-apply and keep
// one sweep scheduled; reconcileDeposit does the same on demand.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, metric, startTestGateway } from '../support/gateway.js';
import { wsClient } from '../support/ws.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery, DepositUpdatedSubscription } from '../deposits/operations.js';
import { collect, subscribed } from '../deposits/support.js';
import { jobsSettled } from '../support/jobs.js';
import { eventsOf } from '../webhooks/support.js';
import { ReconcileDepositMutation } from './operations.js';

const FAST = { RECONCILE_INTERVAL_MS: '200', RECONCILE_AFTER_MS: '0' };

type Started = Awaited<ReturnType<typeof startTestGateway>>;

async function createDeposit(t: Started, key = t.keys.webCashier): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

async function statusChanges(t: Started, id: string): Promise<string[]> {
  return (await eventsOf(t, id)).filter((event) => event.type === 'deposit.status_changed').map((event) => `${event.fromStatus}->${event.toStatus}`);
}

/**
 * Resolves once a whole pass of the instance's background reconciler has run since the call: a
 * pass in flight then (which may still be applying what it read) is waited for, then one more runs.
 */
async function passAfterNow(t: Started): Promise<void> {
  const worker = t.gateway.reconciler!;
  await worker.runOnce();
  await worker.runOnce();
}

describe('background reconciler', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestGateway({ env: FAST });
  });
  afterAll(() => t?.close());

  it('brings a deposit whose webhooks were dropped to SUCCEEDED within the interval, with one subscription message', async () => {
    // given: the provider approves the payment but both of its webhooks are lost
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    const updates = await subscribed(t, () => collect(ws, DepositUpdatedSubscription, {}));
    controls.webhooks({ dropNext: 2 });

    // when: only the background reconciler can tell the gateway
    const id = await createDeposit(t);
    const status = async () => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!.status;
    await expect.poll(status, { interval: 20 }).toBe('SUCCEEDED');
    // The message follows once the event is final (a write transaction elsewhere on the
    // PostgreSQL server can hold it back a while).
    await updates.until((update) => update.id === id && update.status === 'SUCCEEDED', 10_000);

    // then
    expect(controls.deliveries().filter((delivery) => delivery.dropped)).toHaveLength(2);
    // Whatever could still send a message about it is done: the reconciler's passes (one may
    // have been applying what it read), the follow-up jobs, the sandbox; their events are
    // published. A deposit created after that is announced on the same subscription after them.
    await passAfterNow(t);
    await controls.idle();
    await jobsSettled(t);
    const later = await createDeposit(t);
    await updates.until((update) => update.id === later, 10_000);
    await ws.dispose();
    const mine = updates.messages.filter((update) => update.id === id);
    expect(mine.filter((update) => update.status === 'SUCCEEDED')).toHaveLength(1);
    // The provider's record came with the status change: fee and net in the same message.
    expect(mine.find((update) => update.status === 'SUCCEEDED')!.fee).not.toBeNull();
    expect(await statusChanges(t, id)).toEqual(['PENDING->SUCCEEDED']);
    // Both webhooks were dropped, so the correction is the reconciler's, as it reports to operators.
    expect(await metric(t, /gateway_reconciler_corrections_total\{from="PENDING",to="SUCCEEDED"\} (\d+)/)).toBeGreaterThan(0);
  });

  it('counts its checks and corrections', async () => {
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toMatch(/gateway_reconciler_checks_total\{subject="deposit",result="applied"\} [1-9]/);
    expect(text).toMatch(/gateway_reconciler_corrections_total\{from="PENDING",to="SUCCEEDED"\} [1-9]/);
  });

  it('runs as jobs of the job queue: one sweep waits, and each check is a job admins can read and count', async () => {
    // given: a deposit the reconciler corrected (the first test's)
    const [checked] = await t.gateway.db
      .fork()
      .execute<Array<{ deposit_id: string }>>("select payload->>'depositId' as deposit_id from job where kind = 'reconcile.deposit' and status = 'succeeded' limit 1");

    // then: its check is a job row like any other, the sweep waits as one row, and both are counted
    expect(checked?.deposit_id).toMatch(/^dep_/);
    // (A running sweep has already enqueued the next one: one waits at most.)
    const sweeps = await t.gateway.db.fork().execute<Array<{ status: string }>>("select status from job where kind = 'reconcile.sweep' and status = 'pending'");
    expect(sweeps.length).toBeLessThanOrEqual(1);
    const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
    expect(text).toMatch(/gateway_jobs_total\{kind="reconcile.sweep",outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/gateway_jobs_total\{kind="reconcile.deposit",outcome="succeeded"\} [1-9]/);
  });

  it('leaves a deposit whose webhook arrived alone', async () => {
    const id = await createDeposit(t);
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await expect.poll(() => statusChanges(t, id)).toEqual(['PENDING->SUCCEEDED']);
    // A pass that read the provider while the deposit was PENDING has applied what it read by now.
    await passAfterNow(t);
    expect(await statusChanges(t, id)).toEqual(['PENDING->SUCCEEDED']);
  });
});

describe('reconcileDeposit on demand', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestGateway({ env: { RECONCILER_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  it('applies the provider\'s status once, and changes nothing the second time', async () => {
    // given: a deposit left PENDING by lost webhooks, and no background reconciler
    expect(t.gateway.reconciler).toBeUndefined();
    const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
    controls.webhooks({ dropNext: 2 });
    const id = await createDeposit(t);
    await controls.idle();
    const before = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
    expect(before.data!.deposit!.status).toBe('PENDING');

    // when
    const first = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id }, { key: t.keys.admin });
    const second = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id }, { key: t.keys.admin });

    // then
    expect(first.errors).toBeUndefined();
    expect(first.data!.reconcileDeposit).toMatchObject({ outcome: 'APPLIED', userErrors: [], deposit: { id, status: 'SUCCEEDED' } });
    expect(first.data!.reconcileDeposit.deposit!.fee).not.toBeNull();
    expect(second.data!.reconcileDeposit).toMatchObject({ outcome: 'UNCHANGED', userErrors: [] });
    expect(first.data!.reconcileDeposit.deposit!.events.filter((event) => event.type === 'deposit.status_changed')).toHaveLength(1);
    expect(await statusChanges(t, id)).toEqual(['PENDING->SUCCEEDED']);
  });

  it('an unknown deposit is a NOT_FOUND user error', async () => {
    const response = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: 'dep_00000000000000000000000000' }, { key: t.keys.admin });
    expect(response.errors).toBeUndefined();
    expect(response.data!.reconcileDeposit).toMatchObject({ outcome: 'NOT_FOUND', deposit: null, userErrors: [{ code: 'NOT_FOUND', field: ['id'] }] });
  });

  it('is for admins only', async () => {
    const id = await createDeposit(t);
    const response = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id }, { key: t.keys.webCashier });
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

// Two instances need one shared database server: PGlite lives inside one process, so this runs on
// PostgreSQL only (CI runs the suite on both).
describe.skipIf(!process.env.DATABASE_URL)('two reconcilers on one database', () => {
  it('never double-apply: every deposit gets exactly one status change', async () => {
    // given: instance A with its sandbox, and instance B asking the same sandbox account (one
    // provider, two gateway instances), both reconciling every 200 ms
    const a = await startTestGateway({ env: FAST });
    const sandbox = a.gateway.sandboxes.get('deposit-gateway')!;
    const dg = a.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!;
    const b = await startTestGateway({
      database: a.database,
      env: {
        ...FAST,
        MERCHANT_ACCOUNTS: JSON.stringify([{ code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: sandbox.baseUrl, apiKey: dg.apiKey, webhookSecrets: dg.webhookSecrets }]),
      },
    });
    try {
      sandbox.controls.webhooks({ dropNext: 2 * 12 });

      // when
      const ids = await Promise.all(Array.from({ length: 12 }, () => createDeposit(a)));

      // then
      for (const id of ids) {
        await expect.poll(async () => (await statusChanges(a, id)).length, { interval: 50 }).toBe(1);
      }
      // Every pass either instance had in flight, which may still be applying what it read, is over.
      await Promise.all([passAfterNow(a), passAfterNow(b)]);
      for (const id of ids) expect(await statusChanges(a, id)).toEqual(['PENDING->SUCCEEDED']);
      const corrections = async (t: Started) => {
        const text = await (await fetch(`${t.gateway.url}/metrics`)).text();
        return Number(/gateway_reconciler_corrections_total\{from="PENDING",to="SUCCEEDED"\} (\d+)/.exec(text)?.[1] ?? 0);
      };
      expect((await corrections(a)) + (await corrections(b))).toBe(ids.length);
      // Two instances keep one sweep scheduled, not two.
      const sweeps = await a.gateway.db.fork().execute<Array<{ status: string }>>("select status from job where kind = 'reconcile.sweep' and status = 'pending'");
      expect(sweeps.length).toBeLessThanOrEqual(1);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
