import { Migration } from '@mikro-orm/migrations';

/**
 * Per-client limits (docs/clients.md "Client limits"): a client's own request rate, burst and subscription
 * maximum, null where it takes the gateway's default; and what each instance reports of the
 * requests it admitted and the subscriptions it holds, so that the instances on one database share
 * a client's limits (src/modules/clients/client-limits.ts). Reports are kept seconds, not history.
 */
export class Migration20261208120000_client_limits extends Migration {
  override up(): void {
    this.addSql(`
      alter table api_client
        add column requests_per_second int null check (requests_per_second > 0),
        add column request_burst int null check (request_burst > 0),
        add column max_subscriptions int null check (max_subscriptions >= 0);
    `);
    this.addSql(`
      create table client_usage (
        id bigserial primary key,
        client_id varchar(30) not null,
        instance varchar(100) not null,
        used int not null,
        subscriptions int not null,
        reported_at timestamptz not null
      );
    `);
    this.addSql('create index client_usage_reported_at_index on client_usage (reported_at);');
  }

  override down(): void {
    this.addSql('drop table client_usage;');
    this.addSql('alter table api_client drop column requests_per_second, drop column request_burst, drop column max_subscriptions;');
  }
}
