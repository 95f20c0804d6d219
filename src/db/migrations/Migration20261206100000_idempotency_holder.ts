import { Migration } from '@mikro-orm/migrations';

/**
 * Which running instance holds an idempotency key's lease (src/db/instance-lock.ts): a request that
 * finds the key held by an instance that is gone takes it over at once instead of waiting out the
 * lease. Keys leased before this column existed keep the lease alone, as before.
 */
export class Migration20261206100000_idempotency_holder extends Migration {
  override up(): void {
    this.addSql('alter table idempotency_key add column locked_by integer null;');
  }

  override down(): void {
    this.addSql('alter table idempotency_key drop column locked_by;');
  }
}
