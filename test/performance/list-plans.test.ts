// The lists an admin reads with no filter, newest first, are served by an index in their own
// order: the database reads a page's rows and stops, where without one it reads the whole table
// and sorts it for every page (46 ms a page at 200,000 deposits). Checked on the plan of the very
// statement the gateway sends, not timed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutsQuery } from '../payouts/operations.js';
import { createTestDatabase } from '../support/database.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { statementsWithValues } from '../support/statements.js';
import { DepositsWithRefundsAndEventsQuery } from './operations.js';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** The statement that reads the page itself (the one from `table` ordered newest first), with its values. */
async function pageStatement(table: string, read: () => Promise<void>): Promise<{ sql: string; params: readonly unknown[] }> {
  const statements = await statementsWithValues(t, read);
  const page = statements.filter(({ sql }) => new RegExp(`\\bfrom "?${table}"?`, 'i').test(sql) && /order by .*created_at"? desc/i.test(sql));
  expect(page, statements.map(({ sql }) => sql).join('\n')).toHaveLength(1);
  return page[0]!;
}

/**
 * The plan's node types for `sql`, with sequential scans and sorts priced out of the planner's
 * choice: a Sort or a Seq Scan left in the plan means no index gives the rows in this order.
 */
async function planNodes({ sql, params }: { sql: string; params: readonly unknown[] }): Promise<string[]> {
  return t.gateway.db.fork().transactional(async (em) => {
    await em.execute('set local enable_seqscan = off');
    await em.execute('set local enable_sort = off');
    const [row] = await em.execute<Array<{ 'QUERY PLAN': unknown }>>(`explain (format json) ${sql}`, [...params]);
    const raw = row!['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
    const types: string[] = [];
    const walk = (node: PlanNode) => {
      types.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan[0]!.Plan);
    return types;
  });
}

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

/** Each list as an admin reads it with no filter, through the API. */
const LISTS = [
  {
    list: 'deposits',
    table: 'deposit',
    read: () => execute(t.gateway.graphqlUrl, DepositsWithRefundsAndEventsQuery, { first: 20 }, { key: t.keys.admin }),
  },
  {
    list: 'payouts of one mode',
    table: 'payout',
    read: () => execute(t.gateway.graphqlUrl, PayoutsQuery, { first: 20 }, { key: t.keys.admin }),
  },
];

describe('an admin\'s unfiltered lists, newest first', () => {
  it.each(LISTS)('$list: a page is read from an index in its order, with no sort and no scan of the table', async ({ table, read }) => {
    // given
    const statement = await pageStatement(table, async () => {
      const answer = await read();
      expect(answer.errors).toBeUndefined();
    });

    // when
    const nodes = await planNodes(statement);

    // then
    expect(nodes, nodes.join(' > ')).not.toContain('Sort');
    expect(nodes, nodes.join(' > ')).not.toContain('Seq Scan');
    expect(nodes.some((node) => node.startsWith('Index'))).toBe(true);
  });
});

describe('the migration that adds them', () => {
  it('finds indexes an operator built beforehand (docs/operations.md: create index concurrently) and starts', async () => {
    // given: the indexes in place, as an operator's concurrent build leaves them, and the migration not yet recorded
    const database = await createTestDatabase();
    try {
      const before = await startTestGateway({ database });
      await before.gateway.db.fork().execute(`delete from mikro_orm_migrations where name = '${ADMIN_LIST_INDEXES}'`);
      await before.close();

      // when
      const after = await startTestGateway({ database });
      try {
        // then: the migration ran, and the indexes are the ones it names
        expect(after.gateway.db.appliedMigrations).toEqual([ADMIN_LIST_INDEXES]);
        const indexes = await after.gateway.db.fork().execute<Array<{ indexname: string }>>(
          "select indexname from pg_indexes where indexname in ('deposit_created_idx', 'payout_mode_created_idx') order by indexname",
        );
        expect(indexes.map((row) => row.indexname)).toEqual(['deposit_created_idx', 'payout_mode_created_idx']);
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  });
});

const ADMIN_LIST_INDEXES = 'Migration20261128120000_admin_list_indexes';
