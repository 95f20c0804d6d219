import { Migration } from '@mikro-orm/migrations';

/** Webhook URLs registered with the QR gateway. */
export class Migration20261121150000_qr_webhook_registrations extends Migration {
  override up(): void {
    this.addSql(`
      create table qr_webhook_registration (
        id varchar(30) primary key,
        merchant_account varchar(64) not null,
        provider_webhook_id varchar(128) not null,
        url text not null,
        events text[] not null check (cardinality(events) > 0),
        status varchar(32) not null,
        created_at timestamptz not null,
        constraint qr_webhook_registration_provider_id_unique unique (provider_webhook_id)
      );
    `);
    this.addSql('create index qr_webhook_registration_account_idx on qr_webhook_registration (merchant_account, created_at);');
  }

  override down(): void {
    this.addSql('drop table qr_webhook_registration;');
  }
}
