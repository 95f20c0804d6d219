// The reconciliation-jobs migration drops the reconciler's own leases and keeps what they said
// about the rotation: a deposit's or refund's lease becomes when its last check ended (never in the
// future), in the same order, so the least recently checked rows still come first.

import { describe, expect, it } from 'vitest';
import { Migration20261124100000_reconciliation_jobs } from '../../src/db/migrations/Migration20261124100000_reconciliation_jobs.js';
import { newId } from '../../src/lib/ids.js';
import { databaseForFile } from '../support/database.js';

const file = databaseForFile();

/** Runs the migration's `down` or `up` SQL on the test database. */
async function run(direction: 'up' | 'down'): Promise<void> {
  const em = file.db.fork();
  const migration = new Migration20261124100000_reconciliation_jobs(em.getDriver(), em.config);
  migration[direction]();
  for (const query of migration.getQueries()) await em.execute(query);
}

async function columns(table: string): Promise<string[]> {
  const rows = await file.db.fork().execute<Array<{ column_name: string }>>("select column_name from information_schema.columns where table_name = ? and column_name like 'reconcile%'", [table]);
  return rows.map((row) => row.column_name).sort();
}

describe('Migration20261124100000_reconciliation_jobs', () => {
  it("turns the deposits' leases into when their last check ended, in the same order, and drops the other leases", async () => {
    // given: the schema before the migration, with deposits never checked, checked long ago, and
    // leased into the future (checked a moment ago, or being checked)
    await run('down');
    expect(await columns('deposit')).toEqual(['reconcile_lease_until']);
    const em = file.db.fork();
    const clientId = newId('cli');
    // The client as the current schema has it: only the deposits' table is as it was.
    await em.execute("insert into api_client (id, name, roles, created_at) values (?, 'migration-cashier', '{CASHIER}', now())", [clientId]);
    const leases = { never: null, longAgo: '2026-01-01T00:00:00.000Z', future: '2099-01-01T00:00:00.000Z' } as const;
    const ids: Record<string, string> = {};
    for (const [name, lease] of Object.entries(leases)) {
      ids[name] = newId('dep');
      await em.execute(
        `insert into deposit (id, client_id, merchant_account, provider, rail, livemode, status, amount, currency, request, reconcile_lease_until, created_at, updated_at)
         values (?, ?, 'dg-test', 'deposit-gateway', 'CARD', false, 'PENDING', '10.00', 'EUR', '{"details":{"rail":"CARD"},"customer":{}}', ?, now(), now())`,
        [ids[name], clientId, lease],
      );
    }

    // when
    await run('up');

    // then
    expect(await columns('deposit')).toEqual(['reconcile_checked_at']);
    expect(await columns('refund')).toEqual(['reconcile_checked_at']);
    expect(await columns('payout')).toEqual(['reconcile_checked_at']);
    const tables = await file.db.fork().execute<Array<{ name: string | null }>>("select to_regclass('reconciler_lease')::text as name");
    expect(tables[0]?.name).toBeNull();
    const rows = await file.db
      .fork()
      .execute<Array<{ id: string; checked: Date | string | null; past: boolean | null }>>('select id, reconcile_checked_at as checked, reconcile_checked_at <= now() as past from deposit where id in (?, ?, ?)', [ids.never, ids.longAgo, ids.future]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ids.never!)?.checked).toBeNull();
    expect(new Date(byId.get(ids.longAgo!)!.checked!).toISOString()).toBe(leases.longAgo);
    expect(byId.get(ids.future!)?.past).toBe(true);
  });
});
