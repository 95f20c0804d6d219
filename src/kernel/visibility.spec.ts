// The visibility policy's two forms agree: over every combination of roles, merchant accounts and
// records, the SQL filter (run on the real event log table) selects exactly what maySee accepts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { openDatabase, type Database } from '../db/database.js';
import { entities } from '../entities.js';
import { newId } from '../lib/ids.js';
import { createLogger } from '../lib/logger.js';
import { ROLES } from './roles.js';
import { PaymentEvent } from './events/payment-event.entity.js';
import { grantsOf, maySee, seesEvery, visibleEventsWhere, visibleWhere, type Viewer } from './visibility.js';
import { declareSubjectKinds, SUBJECT_TYPES } from './visibility.fixture.js';

declareSubjectKinds();

const CLIENTS = ['cli_one', 'cli_two'];
const ACCOUNTS = ['acc-a', 'acc-b', 'acc-c'];

/** Every subset of `items`. */
function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((subset) => [...subset, item])], [[]]);
}

/** Every client the policy can meet: each role set, each account restriction (none, empty, some), each id. */
const viewers: Viewer[] = subsets(ROLES).flatMap((roles) =>
  [null, [], ['acc-a'], ['acc-a', 'acc-b']].flatMap((merchantAccounts) => CLIENTS.map((id) => ({ id, roles, merchantAccounts }))),
);

/** Every kind of record: each subject type, owned by either client or by none, in each account, for everyone or for admins alone. */
const records = SUBJECT_TYPES.flatMap((subjectType) =>
  [...CLIENTS, null].flatMap((clientId) =>
    ACCOUNTS.flatMap((merchantAccount) => [false, true].map((adminOnly) => ({ subjectType, clientId, merchantAccount, adminOnly, subjectId: newId('dep') }))),
  ),
);

let testDb: TestDatabase;
let db: Database;
beforeAll(async () => {
  testDb = await createTestDatabase();
  db = await openDatabase({ databaseUrl: testDb.env.DATABASE_URL, dataDir: testDb.env.DATA_DIR!, logger: createLogger({ level: 'silent' }), entities });
  const em = db.fork();
  for (const record of records) em.create(PaymentEvent, { id: newId('evt'), type: `${record.subjectType}.created`, data: {}, ...record });
  await em.flush();
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const ids = (rows: Array<{ subjectId: string }>) => rows.map((row) => row.subjectId).sort();

describe('visibility policy', () => {
  it('the event-log filter selects exactly what maySee accepts, for every viewer', async () => {
    for (const viewer of viewers) {
      const selected = await db.fork().find(PaymentEvent, visibleEventsWhere(viewer));
      const accepted = records.filter((record) => maySee(viewer, record.subjectType, record));
      expect(ids(selected), JSON.stringify(viewer)).toEqual(ids(accepted));
    }
  });

  it('the per-subject filter selects exactly what maySee accepts, for every viewer and subject type', async () => {
    for (const viewer of viewers) {
      for (const subjectType of SUBJECT_TYPES) {
        // Subject rows (deposits, payouts...) are never admin-only: only events raised about them are.
        const selected = await db.fork().find(PaymentEvent, { $and: [{ subjectType, adminOnly: false }, visibleWhere(viewer, subjectType)] });
        const accepted = records.filter((record) => record.subjectType === subjectType && !record.adminOnly && maySee(viewer, subjectType, record));
        expect(ids(selected), `${subjectType} ${JSON.stringify(viewer)}`).toEqual(ids(accepted));
      }
    }
  });

  it('says a viewer sees every record of a type exactly when maySee accepts each one, whatever its facts', () => {
    for (const viewer of viewers) {
      for (const subjectType of SUBJECT_TYPES) {
        const all = records.filter((record) => record.subjectType === subjectType).every((record) => maySee(viewer, subjectType, record));
        expect(seesEvery(viewer, subjectType), `${subjectType} ${JSON.stringify(viewer)}`).toBe(all);
      }
    }
  });

  it('follows the product rules', () => {
    const record = (subjectType: (typeof SUBJECT_TYPES)[number], clientId: string | null, merchantAccount: string) => ({ subjectType, clientId, merchantAccount });
    const sees = (viewer: Viewer) => records.filter((r) => maySee(viewer, r.subjectType, r)).map((r) => `${r.subjectType}:${r.clientId}:${r.merchantAccount}`);
    const admin: Viewer = { id: 'cli_one', roles: ['ADMIN'], merchantAccounts: ['acc-a'] };
    expect(sees(admin)).toHaveLength(records.length);
    // A cashier: its own deposits and their refunds, in any account; never payouts or withdrawals.
    const cashier: Viewer = { id: 'cli_one', roles: ['CASHIER'], merchantAccounts: ['acc-a'] };
    expect(sees(cashier).sort()).toEqual(ACCOUNTS.flatMap((a) => [`deposit:cli_one:${a}`, `refund:cli_one:${a}`]).sort());
    // A refunds back office: deposits and refunds of its accounts, whoever owns them.
    const refunds: Viewer = { id: 'cli_two', roles: ['REFUNDS'], merchantAccounts: ['acc-a'] };
    expect(sees(refunds).sort()).toEqual(['deposit', 'refund'].flatMap((s) => [...CLIENTS, null].map((c) => `${s}:${c}:acc-a`)).sort());
    // A payouts back office: payouts of its accounts only.
    const payouts: Viewer = { id: 'cli_two', roles: ['PAYOUTS'], merchantAccounts: null };
    expect(sees(payouts).every((seen) => seen.startsWith('payout:'))).toBe(true);
    expect(sees(payouts)).toHaveLength(CLIENTS.length * ACCOUNTS.length + ACCOUNTS.length);
    // Several roles: the union.
    expect(sees({ id: 'cli_one', roles: ['CASHIER', 'PAYOUTS'], merchantAccounts: ['acc-b'] }).sort()).toEqual(
      [...sees({ id: 'cli_one', roles: ['CASHIER'], merchantAccounts: ['acc-b'] }), ...sees({ id: 'cli_one', roles: ['PAYOUTS'], merchantAccounts: ['acc-b'] })].sort(),
    );
    // Acting as a role counts only that role's grants: a cashier that also refunds elsewhere does not refund its own deposit there.
    const both: Viewer = { id: 'cli_one', roles: ['CASHIER', 'REFUNDS'], merchantAccounts: ['acc-a'] };
    expect(maySee(both, 'refund', record('refund', 'cli_one', 'acc-b'))).toBe(true);
    expect(maySee(both, 'refund', record('refund', 'cli_one', 'acc-b'), { through: ['REFUNDS'] })).toBe(false);
    expect(maySee(both, 'refund', record('refund', 'cli_two', 'acc-a'), { through: ['REFUNDS'] })).toBe(true);
    expect(grantsOf({ id: 'cli_one', roles: [] })).toEqual([]);
  });
});
