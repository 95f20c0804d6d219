// Creates the refund table with the constraints the refund rules rely on.

import { Migration } from '@mikro-orm/migrations';

/** Refunds of deposits: one row per refund request, idempotent per requesting client. */
export class Migration20261121120000_refunds extends Migration {
  override up(): void {
    this.addSql(`
      create table refund (
        id varchar(30) primary key,
        deposit_id varchar(30) not null references deposit (id),
        client_id varchar(30) not null references api_client (id),
        amount numeric(20, 2) not null check (amount > 0),
        currency varchar(3) not null check (currency ~ '^[A-Z]{3}$'),
        reason varchar(500) null,
        status varchar(16) not null check (status in ('REQUESTED', 'APPROVED', 'REJECTED')),
        provider_reference varchar(255) null,
        provider_status varchar(64) null,
        idempotency_key varchar(255) null,
        idempotency_fingerprint varchar(64) null check (idempotency_fingerprint ~ '^[0-9a-f]{64}$'),
        submission_error varchar(64) null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint refund_idempotency_fingerprint_with_key
          check ((idempotency_key is null) = (idempotency_fingerprint is null)),
        constraint refund_client_idempotency_key_unique unique (client_id, idempotency_key)
      );
    `);
    this.addSql('create index refund_deposit_created_idx on refund (deposit_id, created_at);');
    this.addSql('create index refund_provider_reference_idx on refund (provider_reference);');
  }

  override down(): void {
    this.addSql('drop table refund;');
  }
}
