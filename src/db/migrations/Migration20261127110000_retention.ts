// Retention (docs/operations.md "Retention"): webhook bodies erased after a window keep the time they were
// erased, and both retention jobs find what is due through an index instead of a scan.

import { Migration } from '@mikro-orm/migrations';

/**
 * - `webhook_delivery.body_erased_at`: when retention erased the body; null while it is kept.
 * - `webhook_delivery_body_kept_idx`: the deliveries whose bodies are still kept, oldest first,
 *   which is what the erasure reads; rows leave it once erased, so it stays small.
 * - `idempotency_key_created_idx`: keys by age, for the purge of expired ones.
 *
 * Verified rows received before this release have no `body_sha256`: erasure computes it from
 * the kept text as it erases them, so no pass over the whole table is needed here.
 */
export class Migration20261127110000_retention extends Migration {
  override up(): void {
    this.addSql('alter table webhook_delivery add column body_erased_at timestamptz null;');
    this.addSql("create index webhook_delivery_body_kept_idx on webhook_delivery (received_at, id) where body_erased_at is null and outcome <> 'rejected';");
    this.addSql('create index idempotency_key_created_idx on idempotency_key (created_at);');
  }

  override down(): void {
    this.addSql('drop index idempotency_key_created_idx;');
    this.addSql('drop index webhook_delivery_body_kept_idx;');
    this.addSql('alter table webhook_delivery drop column body_erased_at;');
  }
}
