import { Migration } from '@mikro-orm/migrations';

/**
 * The lists an admin reads with no filter, newest first, served by an index in their own order:
 * `deposits` (every deposit) and `payouts` (every payout of one mode). The existing indexes lead
 * with a client or a merchant account, which an admin's page does not name, so PostgreSQL read the
 * whole table and sorted it for every page: 46 ms a page at 200,000 deposits, growing with the
 * table. With these, a page reads its rows and stops.
 *
 * Built in the start's migration transaction, which holds writes to the table while it builds.
 * An operator whose table is large builds them beforehand without blocking writes, as the
 * upgrade note in docs/operations.md says (`create index concurrently`, same names and columns); `if not exists` then
 * finds them in place.
 */
export class Migration20261128120000_admin_list_indexes extends Migration {
  override up(): void {
    this.addSql('create index if not exists deposit_created_idx on deposit (created_at desc, id desc);');
    this.addSql('create index if not exists payout_mode_created_idx on payout (livemode, created_at desc, id desc);');
  }

  override down(): void {
    this.addSql('drop index payout_mode_created_idx;');
    this.addSql('drop index deposit_created_idx;');
  }
}
