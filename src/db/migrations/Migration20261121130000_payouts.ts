// Creates the payout table with the constraints the payout service relies on.

import { Migration } from '@mikro-orm/migrations';

/** Payouts to players' bank accounts (deposit gateway, LATAM). */
export class Migration20261121130000_payouts extends Migration {
  override up(): void {
    this.addSql(`
      create table payout (
        id varchar(30) primary key,
        client_id varchar(30) not null references api_client (id),
        merchant_account varchar(64) not null,
        provider varchar(32) not null check (provider in ('deposit-gateway', 'qr-gateway')),
        livemode boolean not null,
        country varchar(16) not null,
        status varchar(16) not null check (status in ('PENDING', 'PAID', 'BOUNCED', 'REVERTED', 'FAILED')),
        provider_status varchar(64) null,
        status_reason varchar(255) null,
        amount numeric(20, 2) not null check (amount > 0),
        currency varchar(3) not null check (currency ~ '^[A-Z]{3}$'),
        beneficiary jsonb not null,
        beneficiary_account_number varchar(64) null,
        beneficiary_cci varchar(64) null,
        provider_reference varchar(255) null,
        merchant_reference varchar(128) null,
        idempotency_key varchar(255) null,
        idempotency_fingerprint varchar(64) null check (idempotency_fingerprint ~ '^[0-9a-f]{64}$'),
        submission_error varchar(64) null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint payout_idempotency_fingerprint_with_key
          check ((idempotency_key is null) = (idempotency_fingerprint is null)),
        constraint payout_client_idempotency_key_unique unique (client_id, idempotency_key),
        constraint payout_provider_reference_unique unique (provider, provider_reference)
      );
    `);
    this.addSql('create index payout_account_mode_created_idx on payout (merchant_account, livemode, created_at desc, id desc);');
    this.addSql('create index payout_status_created_idx on payout (status, created_at);');
  }

  override down(): void {
    this.addSql('drop table payout;');
  }
}
