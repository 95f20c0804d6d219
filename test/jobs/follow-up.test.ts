// Follow-up work is durable: a deposit's details (fee, net) are fetched by a job committed with the
// webhook that changed its status, so they survive the instance stopping right after its 2xx, are
// retried with back-off when the provider cannot answer, and are fetched once even when two
// instances share the database. Real gateways, real databases, the deposit sandbox over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { createTestDatabase } from '../support/database.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';

const kinds = process.env.DATABASE_URL ? (['pglite', 'postgresql'] as const) : (['pglite'] as const);

interface JobRow {
  status: string;
  attempts: number;
  last_error: string | null;
}

/** The detail-fetch jobs of one deposit, oldest first, as an admin would look them up. */
async function fetchJobs(t: TestGateway, depositId: string): Promise<JobRow[]> {
  return t.gateway.db
    .fork()
    .execute<JobRow[]>("select status, attempts, last_error from job where kind = 'deposit.fetch_details' and payload->>'depositId' = ? order by created_at, id", [depositId]);
}

/**
 * The one detail-fetch job of a deposit as an admin sees it, with the wait it was given before its
 * next run (`run_at` set that far after the row's last change; what a failed attempt sets).
 */
async function fetchJobSchedule(t: TestGateway, depositId: string): Promise<{ status: string; attempts: number; waitMs: number } | undefined> {
  const [row] = await t.gateway.db
    .fork()
    .execute<Array<{ status: string; attempts: number; wait_ms: number }>>(
      "select status, attempts, round(extract(epoch from run_at - updated_at) * 1000)::int as wait_ms from job where kind = 'deposit.fetch_details' and payload->>'depositId' = ?",
      [depositId],
    );
  return row && { status: row.status, attempts: row.attempts, waitMs: row.wait_ms };
}

async function createCardDeposit(t: TestGateway): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

async function readDeposit(t: TestGateway, id: string) {
  const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!;
}

async function providerReference(t: TestGateway, id: string): Promise<string> {
  const rows = await t.gateway.db.fork().execute<Array<{ provider_reference: string }>>('select provider_reference from deposit where id = ?', [id]);
  return rows[0]!.provider_reference;
}

/** fee + net = amount, exactly (decimal strings with two places). */
function addsUp(deposit: { amount: { amount: string }; fee?: { amount: string } | null; net?: { amount: string } | null }): boolean {
  const cents = (value: string) => BigInt(value.replace('.', ''));
  return Boolean(deposit.fee && deposit.net) && cents(deposit.fee!.amount) + cents(deposit.net!.amount) === cents(deposit.amount.amount);
}

describe.each(kinds)('a deposit\'s details after its webhook, across a restart on %s', (kind) => {
  const apiKey = 'svc_test_jobs_restart';
  const secret = 'whsec_jobs_restart';
  let sandbox: DepositGatewaySandbox;
  beforeAll(async () => {
    // The provider outlives the gateway instances: one sandbox for both starts.
    sandbox = await startDepositGatewaySandbox({ accounts: [{ apiKey, webhookSecret: secret }], timeScale: 0.01 });
  });
  afterAll(() => sandbox?.close());

  it('are filled by the restarted gateway when the first stopped right after acknowledging the webhook', async () => {
    const database = await createTestDatabase(kind);
    const accounts = JSON.stringify([{ code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: sandbox.baseUrl, apiKey, webhookSecrets: [secret] }]);
    try {
      // given: an instance that runs no follow-up work before it stops (as if it died right after
      // the 2xx), and a provider whose next lookup fails
      const first = await startTestGateway({ database, env: { MERCHANT_ACCOUNTS: accounts, JOBS_ENABLED: 'false', PROVIDER_MAX_RETRIES: '0' } });
      let id: string;
      try {
        sandbox.controls.setAccount(apiKey, { webhookUrl: `${first.gateway.url}/webhooks/deposit-gateway/dg-test` });
        sandbox.controls.failNext({ method: 'GET', status: 503, count: 1 });

        // when: the provider approves the payment and its webhook is acknowledged
        id = await createCardDeposit(first);
        await expect.poll(async () => (await readDeposit(first, id)).status, { timeout: 10_000, interval: 20 }).toBe('SUCCEEDED');
        await sandbox.controls.idle();
        expect(sandbox.controls.deliveries().filter((delivery) => delivery.statusCode === 200).length).toBeGreaterThan(0);
      } finally {
        await first.close();
      }

      // then: a gateway started again on the same database fetches the details (after the
      // provider's failed lookup, a retry)
      const second = await startTestGateway({ database, env: { MERCHANT_ACCOUNTS: accounts, PROVIDER_MAX_RETRIES: '0', JOBS_BACKOFF_BASE_MS: '20', JOBS_POLL_INTERVAL_MS: '20' } });
      try {
        await expect.poll(async () => addsUp(await readDeposit(second, id)), { timeout: 15_000, interval: 50 }).toBe(true);
        expect(await readDeposit(second, id)).toMatchObject({ status: 'SUCCEEDED', fee: { currency: 'EUR' }, net: { currency: 'EUR' } });
        expect(await fetchJobs(second, id)).toEqual([{ status: 'succeeded', attempts: 2, last_error: expect.stringContaining('PROVIDER_UNAVAILABLE') }]);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('a provider lookup that fails', () => {
  let t: TestGateway;
  beforeAll(async () => {
    // A retry waits at least 90 ms, 180 ms, 360 ms, ... (the test reads each wait while the job
    // waits it out), and a waiting job is picked up within 20 ms of its time, not the default 1 s.
    t = await startTestGateway({
      env: { SANDBOX_AUTO_COMPLETE: 'false', PROVIDER_MAX_RETRIES: '0', JOBS_BACKOFF_BASE_MS: '100', JOBS_POLL_INTERVAL_MS: '20', JOBS_MAX_ATTEMPTS: '5', RECONCILER_ENABLED: 'false' },
    });
  });
  afterAll(() => t?.close());

  const controls = () => t.gateway.sandboxes.depositGateway!.controls;

  it('is retried with back-off until fee and net appear, and every attempt is recorded', async () => {
    // given: a pending card payment, and a provider whose next three lookups fail
    const id = await createCardDeposit(t);
    const reference = await providerReference(t, id);
    controls().failNext({ method: 'GET', status: 503, count: 3 });

    // when: the provider approves it and says so by webhook
    controls().complete(reference, 'approved');

    // then: the job waits after each failed attempt, then succeeds (each wait read while it runs)
    const waitAfterAttempt = new Map<number, number>();
    await expect
      .poll(
        async () => {
          const job = await fetchJobSchedule(t, id);
          if (job?.status === 'pending' && job.attempts > 0) waitAfterAttempt.set(job.attempts, job.waitMs);
          return job?.status;
        },
        { timeout: 15_000, interval: 5 },
      )
      .toBe('succeeded');
    await expect.poll(async () => addsUp(await readDeposit(t, id)), { timeout: 15_000, interval: 50 }).toBe(true);
    expect(await fetchJobs(t, id)).toEqual([{ status: 'succeeded', attempts: 4, last_error: expect.stringContaining('PROVIDER_UNAVAILABLE') }]);
    expect(controls().requestCount(`/payments/${reference}`, 'GET')).toBe(4);
    expect(await metric(t, /gateway_jobs_total\{kind="deposit.fetch_details",outcome="retried"\} (\d+)/)).toBeGreaterThanOrEqual(3);
    // Back-off: each retry waited longer than the one before.
    expect([...waitAfterAttempt.keys()]).toEqual([1, 2, 3]);
    const waits = [1, 2, 3].map((attempt) => waitAfterAttempt.get(attempt)!);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(waits[2]!).toBeGreaterThan(waits[1]!);
  });

  it('that never recovers leaves the job failed with its last error, logged and counted', async () => {
    const id = await createCardDeposit(t);
    const reference = await providerReference(t, id);
    controls().failNext({ method: 'GET', status: 503, count: 5 });

    controls().complete(reference, 'approved');

    await expect.poll(async () => (await fetchJobs(t, id)).map((job) => job.status), { timeout: 15_000, interval: 50 }).toEqual(['failed']);
    expect(await fetchJobs(t, id)).toEqual([{ status: 'failed', attempts: 5, last_error: expect.stringContaining('PROVIDER_UNAVAILABLE') }]);
    expect(await readDeposit(t, id)).toMatchObject({ status: 'SUCCEEDED', fee: null, net: null });
    // Reported for the operators as a job failed for good, once.
    expect(await metric(t, /gateway_jobs_total\{kind="deposit.fetch_details",outcome="failed"\} (\d+)/)).toBe(1);
    // and logged at error level, which is what pages an operator
    expect(t.logs.some((line) => line.includes('job failed for good') && line.includes('"level":50'))).toBe(true);
  });
});

// Two instances need one shared database server: PGlite lives inside one process, so this runs
// on PostgreSQL only (CI runs the suite on both).
describe.skipIf(!process.env.DATABASE_URL)('two instances on one database', () => {
  it('never run one job twice: each deposit\'s details are fetched once', async () => {
    // given: instance A with its sandbox, and instance B asking the same sandbox account (one
    // provider, two gateway instances), both running jobs, two at a time
    const env = { JOBS_CONCURRENCY: '2', JOBS_POLL_INTERVAL_MS: '50', RECONCILER_ENABLED: 'false' };
    const a = await startTestGateway({ env });
    const sandbox = a.gateway.sandboxes.depositGateway!;
    const dg = a.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!;
    const b = await startTestGateway({
      database: a.database,
      env: { ...env, MERCHANT_ACCOUNTS: JSON.stringify([{ code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: sandbox.baseUrl, apiKey: dg.apiKey, webhookSecrets: dg.webhookSecrets }]) },
    });
    try {
      // when: twenty payments are approved and their webhooks reach A
      const ids = await Promise.all(Array.from({ length: 20 }, () => createCardDeposit(a)));

      // then
      for (const id of ids) await expect.poll(async () => addsUp(await readDeposit(a, id)), { timeout: 15_000, interval: 50 }).toBe(true);
      await sandbox.controls.idle();
      for (const id of ids) {
        expect(await fetchJobs(a, id)).toEqual([{ status: 'succeeded', attempts: 1, last_error: null }]);
        expect(sandbox.controls.requestCount(`/payments/${await providerReference(a, id)}`, 'GET')).toBe(1);
      }
      const succeeded = async (t: TestGateway) => metric(t, /gateway_jobs_total\{kind="deposit.fetch_details",outcome="succeeded"\} (\d+)/);
      expect((await succeeded(a)) + (await succeeded(b))).toBe(ids.length);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
