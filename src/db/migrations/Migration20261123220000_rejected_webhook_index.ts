// Keeping rejected webhooks under their per-account cap deletes the oldest beyond the newest N of
// one account on every rejection; during a flood of unsigned requests that query must not scan the
// account's verified deliveries. A partial index holds the rejected rows alone, in the order the
// cap reads them.

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123220000_rejected_webhook_index extends Migration {
  override up(): void {
    this.addSql("create index webhook_delivery_rejected_idx on webhook_delivery (merchant_account, received_at desc, id desc) where outcome = 'rejected';");
  }

  override down(): void {
    this.addSql('drop index webhook_delivery_rejected_idx;');
  }
}
