// Amount columns hold every amount Money can: ISO 4217 gives some currencies three or four decimals
// (KWD 1.234, CLF 1.2345), which a numeric(20, 2) column would round on insert without a word. An
// unconstrained numeric keeps each amount as it was written (`Money.toDecimal()`, the currency's own
// decimals), so a value never changes meaning on its way in or out. Dropping a numeric's precision
// and scale is binary-coercible in PostgreSQL: no table is rewritten, and no stored value changes.

import { Migration } from '@mikro-orm/migrations';

const COLUMNS: ReadonlyArray<[table: string, columns: readonly string[]]> = [
  ['deposit', ['amount', 'fee', 'net', 'refunded_amount']],
  ['refund', ['amount']],
  ['payout', ['amount']],
  ['withdrawal', ['amount']],
];

export class Migration20261209100000_amounts_in_iso_decimals extends Migration {
  override up(): void {
    for (const [table, columns] of COLUMNS) {
      this.addSql(`alter table ${table} ${columns.map((column) => `alter column ${column} type numeric`).join(', ')};`);
    }
  }

  override down(): void {
    for (const [table, columns] of COLUMNS) {
      // Back to two decimals only when no amount has more: the check fails the migration rather
      // than let the cast round a KWD or CLF amount.
      this.addSql(`alter table ${table} add constraint ${table}_amounts_two_decimals check (${columns.map((column) => `${column} = round(${column}, 2)`).join(' and ')});`);
      this.addSql(`alter table ${table} drop constraint ${table}_amounts_two_decimals;`);
      this.addSql(`alter table ${table} ${columns.map((column) => `alter column ${column} type numeric(20, 2)`).join(', ')};`);
    }
  }
}
