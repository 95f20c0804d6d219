// Providers come from the registry (src/providers/registry.ts), not a fixed list: a gateway that
// registers one more must be able to store its deposits. The closed `provider in (...)` checks give
// way to the registry's own rule for a name (lower-case letters, digits and single dashes); which
// names exist is the registry's to say.

import { Migration } from '@mikro-orm/migrations';

const TABLES = ['deposit', 'payout', 'withdrawal', 'webhook_delivery'] as const;
const NAME_RULE = "provider ~ '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'";
const BUILT_IN = "provider in ('deposit-gateway', 'qr-gateway')";

export class Migration20261127100000_open_provider_names extends Migration {
  override up(): void {
    for (const table of TABLES) {
      this.addSql(`alter table ${table} drop constraint ${table}_provider_check;`);
      this.addSql(`alter table ${table} add constraint ${table}_provider_name_check check (${NAME_RULE});`);
    }
  }

  override down(): void {
    for (const table of TABLES) {
      this.addSql(`alter table ${table} drop constraint ${table}_provider_name_check;`);
      this.addSql(`alter table ${table} add constraint ${table}_provider_check check (${BUILT_IN});`);
    }
  }
}
