// The admin audit trail: one row per admin action, readable by admins through `adminActions`.

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123210000_admin_actions extends Migration {
  override up(): void {
    this.addSql(`
      create table admin_action (
        id varchar(30) primary key,
        action varchar(64) not null,
        client_id varchar(30) not null,
        client_name varchar(100) not null,
        request_id text not null,
        objects jsonb not null default '[]',
        outcome varchar(64) null,
        started_at timestamptz not null,
        finished_at timestamptz null
      );
    `);
    // Newest first, for everyone's actions and for one client's.
    this.addSql('create index admin_action_started_idx on admin_action (started_at desc, id desc);');
    this.addSql('create index admin_action_client_idx on admin_action (client_id, started_at desc, id desc);');
  }

  override down(): void {
    this.addSql('drop table admin_action;');
  }
}
