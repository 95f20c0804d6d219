import { Migration } from '@mikro-orm/migrations';

/** Internal API clients and their hashed keys. */
export class Migration20261121000000_api_clients extends Migration {
  override up(): void {
    this.addSql(`
      create table api_client (
        id varchar(30) primary key,
        name varchar(100) not null,
        roles text[] not null check (cardinality(roles) > 0),
        key_prefix varchar(16) not null,
        key_hash varchar(64) not null,
        merchant_accounts text[] null,
        created_at timestamptz not null,
        last_used_at timestamptz null,
        revoked_at timestamptz null,
        constraint api_client_name_unique unique (name),
        constraint api_client_key_hash_unique unique (key_hash)
      );
    `);
  }

  override down(): void {
    this.addSql('drop table api_client;');
  }
}
