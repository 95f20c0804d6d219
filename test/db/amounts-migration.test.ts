// The amounts migration lets the amount columns hold every currency's ISO 4217 decimals (KWD 1.234,
// CLF 1.2345) without changing any stored amount: a row written as numeric(20, 2) reads back the
// same text after it, and nothing is rounded on the way back down.

import { describe, expect, it } from 'vitest';
import { Migration20261209100000_amounts_in_iso_decimals } from '../../src/db/migrations/Migration20261209100000_amounts_in_iso_decimals.js';
import { newId } from '../../src/lib/ids.js';
import { databaseForFile } from '../support/database.js';

const file = databaseForFile();

/** Runs the migration's `down` or `up` SQL on the test database. */
async function run(direction: 'up' | 'down'): Promise<void> {
  const em = file.db.fork();
  const migration = new Migration20261209100000_amounts_in_iso_decimals(em.getDriver(), em.config);
  migration[direction]();
  for (const query of migration.getQueries()) await em.execute(query);
}

const AMOUNT_COLUMNS = [
  'deposit.amount', 'deposit.fee', 'deposit.net', 'deposit.refunded_amount', 'payout.amount', 'refund.amount', 'withdrawal.amount',
];

/** `numeric(20, 2)` or `numeric` for each amount column. */
async function amountColumnTypes(): Promise<string[]> {
  const rows = await file.db.fork().execute<Array<{ name: string; precision: number | null; scale: number | null }>>(
    `select table_name || '.' || column_name as name, numeric_precision as precision, numeric_scale as scale from information_schema.columns
     where data_type = 'numeric' and table_name in ('deposit', 'refund', 'payout', 'withdrawal') and column_name in ('amount', 'fee', 'net', 'refunded_amount')
     order by 1`,
  );
  expect(rows.map((row) => row.name)).toEqual(AMOUNT_COLUMNS);
  return rows.map((row) => (row.scale === null ? 'numeric' : `numeric(${row.precision}, ${row.scale})`));
}

async function insertDeposit(amount: string, currency: string, clientId: string): Promise<string> {
  const id = newId('dep');
  await file.db.fork().execute(
    `insert into deposit (id, client_id, merchant_account, provider, rail, livemode, status, amount, fee, net, currency, request, created_at, updated_at)
     values (?, ?, 'dg-test', 'deposit-gateway', 'LATAM', false, 'SUCCEEDED', ?, ?, ?, ?, '{"details":{"rail":"LATAM"},"customer":{}}', now(), now())`,
    [id, clientId, amount, '0', amount, currency],
  );
  return id;
}

/** The stored amounts of these deposits, as the database writes them. */
async function storedAmounts(ids: string[]): Promise<string[]> {
  const rows = await file.db.fork().execute<Array<{ id: string; amount: string }>>(`select id, amount::text as amount from deposit where id in (${ids.map(() => '?').join(', ')})`, ids);
  const byId = new Map(rows.map((row) => [row.id, row.amount]));
  return ids.map((id) => byId.get(id)!);
}

describe('Migration20261209100000_amounts_in_iso_decimals', () => {
  it('keeps every stored amount as it was, and then stores three and four decimals exactly', async () => {
    // given: the columns as the previous migration left them, with amounts an older release wrote
    await run('down');
    expect(new Set(await amountColumnTypes())).toEqual(new Set(['numeric(20, 2)']));
    const clientId = newId('cli');
    await file.db.fork().execute("insert into api_client (id, name, roles, created_at) values (?, 'amounts-cashier', '{CASHIER}', now())", [clientId]);
    const before = [await insertDeposit('10.50', 'EUR', clientId), await insertDeposit('15000', 'CLP', clientId), await insertDeposit('50000', 'COP', clientId)];
    expect(await storedAmounts(before)).toEqual(['10.50', '15000.00', '50000.00']);

    // when
    await run('up');

    // then: every stored amount reads exactly as before ...
    expect(new Set(await amountColumnTypes())).toEqual(new Set(['numeric']));
    expect(await storedAmounts(before)).toEqual(['10.50', '15000.00', '50000.00']);
    // ... and an amount keeps the decimals it was written with, three and four included
    const written = [await insertDeposit('1.234', 'KWD', clientId), await insertDeposit('1.2345', 'CLF', clientId), await insertDeposit('15000', 'CLP', clientId)];
    expect(await storedAmounts(written)).toEqual(['1.234', '1.2345', '15000']);

    // ... and going back refuses to round them, until they are gone
    await expect(run('down')).rejects.toThrow(/deposit_amounts_two_decimals/);
    await file.db.fork().execute('delete from deposit where id in (?, ?)', [written[0], written[1]]);
    await run('down');
    expect(await storedAmounts(before)).toEqual(['10.50', '15000.00', '50000.00']);
    await run('up');
    expect(new Set(await amountColumnTypes())).toEqual(new Set(['numeric']));
  });
});
