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
        await expect.poll(async () => (await readDeposit(first, id)).status, { interval: 20 }).toBe('SUCCEEDED');
        await sandbox.controls.idle();
        expect(sandbox.controls.deliveries().filter((delivery) => delivery.statusCode === 200).length).toBeGreaterThan(0);
      } finally {
        await first.close();
      }

      // then: a gateway started again on the same database fetches the details (after the
      // provider's failed lookup, a retry)
      const second = await startTestGateway({ database, env: { MERCHANT_ACCOUNTS: accounts, PROVIDER_MAX_RETRIES: '0', JOBS_BACKOFF_BASE_MS: '20', JOBS_POLL_INTERVAL_MS: '20' } });
      try {
        await expect.poll(async () => addsUp(await readDeposit(second, id)), { interval: 50 }).toBe(true);
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
    // A retry waits at least 90 ms, 180 ms, 360 ms, ... (100 ms doubled, less at most a tenth), and
    // a waiting job is picked up within 20 ms of its time, not the default 1 s.
    t = await startTestGateway({
      env: { SANDBOX_AUTO_COMPLETE: 'false', PROVIDER_MAX_RETRIES: '0', JOBS_BACKOFF_BASE_MS: '100', JOBS_POLL_INTERVAL_MS: '20', JOBS_MAX_ATTEMPTS: '5', RECONCILER_ENABLED: 'false' },
    });
  });
  afterAll(() => t?.close());

  const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;

  it('is retried with back-off until fee and net appear, and every attempt is recorded', async () => {
    // given: a pending card payment, and a provider whose next three lookups fail
    const id = await createCardDeposit(t);
    const reference = await providerReference(t, id);
    controls().failNext({ method: 'GET', status: 503, count: 3 });

    // when: the provider approves it and says so by webhook
    controls().complete(reference, 'approved');

    // then: the job succeeds on its fourth attempt, and fee and net appear
    await expect.poll(async () => (await fetchJobs(t, id)).map((job) => job.status)).toEqual(['succeeded']);
    await expect.poll(async () => addsUp(await readDeposit(t, id))).toBe(true);
    expect(await fetchJobs(t, id)).toEqual([{ status: 'succeeded', attempts: 4, last_error: expect.stringContaining('PROVIDER_UNAVAILABLE') }]);
    expect(controls().requestCount(`/payments/${reference}`, 'GET')).toBe(4);
    expect(await metric(t, /gateway_jobs_total\{kind="deposit.fetch_details",outcome="retried"\} (\d+)/)).toBe(3);
    // Back-off, read off the provider's side: after the k-th failure the job waited at least its
    // k-th delay (100 ms doubled each time, less at most a tenth), so each retry waited longer than
    // the floor of the one before. A busy machine only makes the gaps longer, never shorter.
    const [first, ...retries] = controls().requestTimes(`/payments/${reference}`, 'GET');
    const gaps = retries.map((at, index) => at - (index === 0 ? first! : retries[index - 1]!));
    expect(gaps).toHaveLength(3);
    gaps.forEach((gap, index) => expect(gap, `wait after attempt ${index + 1}`).toBeGreaterThanOrEqual(0.9 * 100 * 2 ** index));
  });

  it('that never recovers leaves the job failed with its last error, logged and counted', async () => {
    const id = await createCardDeposit(t);
    const reference = await providerReference(t, id);
    controls().failNext({ method: 'GET', status: 503, count: 5 });

    controls().complete(reference, 'approved');

    await expect.poll(async () => (await fetchJobs(t, id)).map((job) => job.status), { interval: 50 }).toEqual(['failed']);
    expect(await fetchJobs(t, id)).toEqual([{ status: 'failed', attempts: 5, last_error: expect.stringContaining('PROVIDER_UNAVAILABLE') }]);
    expect(await readDeposit(t, id)).toMatchObject({ status: 'SUCCEEDED', fee: null, net: null });
    // Reported for the operators as a job failed for good, once.
    expect(await metric(t, /gateway_jobs_total\{kind="deposit.fetch_details",outcome="failed"\} (\d+)/)).toBe(1);
    // and logged at error level, which is what pages an operator
    const failedForGood = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'job failed for good: its attempts are exhausted; kept as failed');
    expect(failedForGood).toEqual([expect.objectContaining({ level: 50, kind: 'deposit.fetch_details', attempts: 5 })]);
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
    const sandbox = a.gateway.sandboxes.get('deposit-gateway')!;
    const dg = a.gateway.config.merchantAccounts.find((account) => account.code === 'dg-test')!;
    const b = await startTestGateway({
      database: a.database,
      env: { ...env, MERCHANT_ACCOUNTS: JSON.stringify([{ code: 'dg-test', provider: 'deposit-gateway', livemode: false, baseUrl: sandbox.baseUrl, apiKey: dg.apiKey, webhookSecrets: dg.webhookSecrets }]) },
    });
    try {
      // when: twenty payments are approved and their webhooks reach A
      const ids = await Promise.all(Array.from({ length: 20 }, () => createCardDeposit(a)));

      // then
      for (const id of ids) await expect.poll(async () => addsUp(await readDeposit(a, id)), { interval: 50 }).toBe(true);
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
