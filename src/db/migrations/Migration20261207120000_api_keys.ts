import { Migration } from '@mikro-orm/migrations';

/**
 * A client may hold several keys, each of which may expire: keys move from columns of `api_client`
 * into a table of their own. Every existing key is copied there, so it keeps working, and the old
 * columns are dropped, so that the table is the one place a key is kept. A copied key's id is the
 * client's own ULID behind `key_`: unique as the client ids are, and sorting by the time the key was
 * made, which was when its client was. Its `revoked_at` stays null: a revoked client refuses every
 * key of its own, whatever the key's state. A client's `last_used_at` becomes its key's.
 *
 * `down` keeps one key per client (its newest usable one, else its newest), the others are lost.
 */
export class Migration20261207120000_api_keys extends Migration {
  override up(): void {
    this.addSql(`
      create table api_key (
        id varchar(30) primary key,
        client_id varchar(30) not null references api_client (id),
        prefix varchar(16) not null,
        hash varchar(64) not null,
        created_at timestamptz not null,
        expires_at timestamptz null,
        last_used_at timestamptz null,
        revoked_at timestamptz null,
        constraint api_key_hash_unique unique (hash),
        constraint api_key_expires_after_creation check (expires_at is null or expires_at > created_at)
      );
    `);
    this.addSql('create index api_key_client_index on api_key (client_id, created_at, id);');
    this.addSql(`
      insert into api_key (id, client_id, prefix, hash, created_at, expires_at, last_used_at, revoked_at)
      select 'key_' || substr(id, 5), id, key_prefix, key_hash, created_at, null, last_used_at, null from api_client;
    `);
    this.addSql('alter table api_client drop column key_prefix, drop column key_hash, drop column last_used_at;');
  }

  override down(): void {
    this.addSql('alter table api_client add column key_prefix varchar(16) null, add column key_hash varchar(64) null, add column last_used_at timestamptz null;');
    this.addSql(`
      update api_client c set key_prefix = k.prefix, key_hash = k.hash, last_used_at = k.last_used
      from (
        select distinct on (client_id) client_id, prefix, hash, max(last_used_at) over (partition by client_id) as last_used
        from api_key
        order by client_id, (revoked_at is null and (expires_at is null or expires_at > now())) desc, created_at desc, id desc
      ) k
      where k.client_id = c.id;
    `);
    this.addSql('alter table api_client alter column key_prefix set not null, alter column key_hash set not null, add constraint api_client_key_hash_unique unique (key_hash);');
    this.addSql('drop table api_key;');
  }
}
