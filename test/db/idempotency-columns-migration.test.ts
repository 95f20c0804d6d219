// The idempotency-columns migration moves the keys deposits carried in columns of their own into
// the idempotency layer's table before it drops the columns: a key the table did not have (an
// upgrade from a release that wrote the columns alone) still resolves to its deposit, and its
// replay through the API resumes that deposit rather than making a second one; the columns and
// their unique constraint are gone.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migration20261124110000_idempotency_columns } from '../../src/db/migrations/Migration20261124110000_idempotency_columns.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { jobsSettled } from '../support/jobs.js';

let t: TestGateway;
beforeAll(async () => {
  // No background reconciliation: the deposits move only by their provider's webhooks.
  t = await startTestGateway({ env: { RECONCILER_ENABLED: 'false' } });
});
afterAll(() => t?.close());

/** Runs the migration's `down` or `up` SQL on the gateway's database. */
async function run(direction: 'up' | 'down'): Promise<void> {
  const em = t.gateway.db.fork();
  const migration = new Migration20261124110000_idempotency_columns(em.getDriver(), em.config);
  migration[direction]();
  for (const query of migration.getQueries()) await em.execute(query);
}

const sql = <T>(text: string, params: unknown[] = []) => t.gateway.db.fork().execute<T[]>(text, params);

async function createDeposit(variables: { input: typeof CARD_INPUT & { idempotencyKey: string } }) {
  const response = await execute(t.gateway.graphqlUrl, CreateDepositMutation, variables, { key: t.keys.webCashier });
  expect(response.errors).toBeUndefined();
  return response.data!.createDeposit;
}

async function statusOf(id: string): Promise<string | undefined> {
  return (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data?.deposit?.status;
}

describe('Migration20261124110000_idempotency_columns', () => {
  it('keeps a key found only in the old columns resolving to its deposit: a replay after the upgrade resumes it, never a second one', async () => {
    // given: two deposits made under idempotency keys, settled by the provider
    const onlyInColumns = { input: { ...CARD_INPUT, idempotencyKey: `pre-upgrade-${randomUUID()}` } };
    const subjectLost = { input: { ...CARD_INPUT, amount: '31.00', idempotencyKey: `pre-upgrade-${randomUUID()}` } };
    const first = await createDeposit(onlyInColumns);
    const second = await createDeposit(subjectLost);
    const [firstId, secondId] = [first.deposit!.id, second.deposit!.id];
    expect(first.deposit!.status).toBe('PENDING');
    await expect.poll(() => statusOf(firstId)).toBe('SUCCEEDED');
    await expect.poll(() => statusOf(secondId)).toBe('SUCCEEDED');
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    await jobsSettled(t);

    // ... the schema as the previous migration left it, the keys in the deposits' own columns ...
    await run('down');
    const columns = await sql<{ key: string | null; fingerprint: string | null }>('select idempotency_key as key, idempotency_fingerprint as fingerprint from deposit where id = ?', [firstId]);
    expect(columns).toEqual([{ key: onlyInColumns.input.idempotencyKey, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // ... and the layer's table as an older release left it: the first key missing altogether, the
    // second with no subject (its request's lease ran out before it recorded one)
    await sql('delete from idempotency_key where key = ?', [onlyInColumns.input.idempotencyKey]);
    await sql('update idempotency_key set subject_id = null, response = null, response_final = false where key = ?', [subjectLost.input.idempotencyKey]);
    const paymentsBefore = t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/payments', 'POST');

    // when
    await run('up');

    // then: both keys resolve to their deposits, and the old columns and their constraint are gone
    const keys = await sql<{ key: string; operation: string; subject_id: string; response: string | null }>(
      'select key, operation, subject_id, response from idempotency_key where key in (?, ?) order by key',
      [onlyInColumns.input.idempotencyKey, subjectLost.input.idempotencyKey],
    );
    expect(keys).toEqual(
      expect.arrayContaining([
        { key: onlyInColumns.input.idempotencyKey, operation: 'deposit', subject_id: firstId, response: null },
        { key: subjectLost.input.idempotencyKey, operation: 'deposit', subject_id: secondId, response: null },
      ]),
    );
    expect(await sql("select column_name from information_schema.columns where table_name in ('deposit', 'refund', 'payout') and column_name like 'idempotency%'")).toEqual([]);
    expect(await sql("select conname from pg_constraint where conname like '%idempotency%' and conrelid::regclass::text in ('deposit', 'refund', 'payout')")).toEqual([]);

    // when: the clients replay their requests through the API
    const replayed = await createDeposit(onlyInColumns);
    const replayedSecond = await createDeposit(subjectLost);

    // then: each answers its own deposit as it stands now (its first answer was never stored),
    // with no provider call; that answer is stored, and replayed as it is from then on
    expect(replayed).toMatchObject({ deposit: { id: firstId, status: 'SUCCEEDED' }, userErrors: [] });
    expect(replayedSecond).toMatchObject({ deposit: { id: secondId, status: 'SUCCEEDED' }, userErrors: [] });
    expect(t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount('/payments', 'POST')).toBe(paymentsBefore);
    expect(await createDeposit(onlyInColumns)).toEqual(replayed);
    expect(await sql('select id from deposit order by created_at')).toEqual([{ id: firstId }, { id: secondId }]);

    // ... and other input under such a key is refused as before, with nothing created
    const reused = await createDeposit({ input: { ...onlyInColumns.input, amount: '26.00' } });
    expect(reused).toMatchObject({ deposit: null, userErrors: [{ code: 'IDEMPOTENCY_KEY_REUSED' }] });
    expect(await sql('select id from deposit')).toHaveLength(2);
  });
});
