// A deposit keeps the client's own key/value pairs (`metadata` on createDeposit), sent to the
// provider where it takes them and shown on the deposit. Nullable: older deposits have none.

import { Migration } from '@mikro-orm/migrations';

export class Migration20261127120000_deposit_metadata extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column metadata jsonb null;');
  }

  override down(): void {
    this.addSql('alter table deposit drop column metadata;');
  }
}
