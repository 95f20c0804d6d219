// Creates the deposit, payment event log and webhook inbox tables with the constraints the domain relies on.

import { Migration } from '@mikro-orm/migrations';

/** Deposits, the ordered payment event log and the webhook inbox. */
export class Migration20261121100000_deposits extends Migration {
  override up(): void {
    this.addSql(`
      create table deposit (
        id varchar(30) primary key,
        client_id varchar(30) not null references api_client (id),
        merchant_account varchar(64) not null,
        provider varchar(32) not null check (provider in ('deposit-gateway', 'qr-gateway')),
        rail varchar(32) not null
          check (rail in ('HOSTED_CHECKOUT', 'CARD', 'OPEN_BANKING', 'LATAM', 'UPI', 'PIX', 'CRYPTO', 'THAI_QR')),
        livemode boolean not null,
        status varchar(16) not null
          check (status in ('PENDING', 'AUTHORIZED', 'SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED', 'REFUNDED')),
        provider_status varchar(64) null,
        status_reason varchar(255) null,
        amount numeric(20, 2) not null check (amount > 0),
        currency varchar(3) not null check (currency ~ '^[A-Z]{3}$'),
        fee numeric(20, 2) null,
        net numeric(20, 2) null,
        refunded_amount numeric(20, 2) not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
        refund_status varchar(16) null check (refund_status in ('REQUESTED', 'APPROVED', 'REJECTED')),
        disputed boolean not null default false,
        provider_reference varchar(255) null,
        redirect_url text null,
        merchant_reference varchar(128) null,
        decline_reason varchar(64) null,
        idempotency_key varchar(255) null,
        idempotency_fingerprint varchar(64) null check (idempotency_fingerprint ~ '^[0-9a-f]{64}$'),
        request jsonb not null,
        qr_payload text null,
        qr_expires_at timestamptz null,
        crypto jsonb null,
        approved_at timestamptz null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint deposit_idempotency_fingerprint_with_key
          check ((idempotency_key is null) = (idempotency_fingerprint is null)),
        constraint deposit_client_idempotency_key_unique unique (client_id, idempotency_key),
        constraint deposit_provider_reference_unique unique (provider, provider_reference)
      );
    `);
    this.addSql('create index deposit_client_created_idx on deposit (client_id, created_at desc, id desc);');
    this.addSql('create index deposit_status_created_idx on deposit (status, created_at);');
    this.addSql('create index deposit_client_merchant_reference_idx on deposit (client_id, merchant_reference);');

    this.addSql(`
      create table payment_event (
        position bigint generated always as identity primary key,
        id varchar(30) not null,
        subject_type varchar(16) not null check (subject_type in ('deposit', 'refund', 'payout')),
        subject_id varchar(30) not null,
        client_id varchar(30) not null,
        type varchar(64) not null,
        from_status varchar(16) null,
        to_status varchar(16) null,
        data jsonb not null,
        created_at timestamptz not null,
        constraint payment_event_id_unique unique (id)
      );
    `);
    this.addSql('create index payment_event_client_position_idx on payment_event (client_id, position);');
    this.addSql('create index payment_event_subject_idx on payment_event (subject_type, subject_id, position);');

    this.addSql(`
      create table webhook_delivery (
        id varchar(30) primary key,
        provider varchar(32) not null check (provider in ('deposit-gateway', 'qr-gateway')),
        merchant_account varchar(64) not null,
        event_id varchar(255) not null,
        event_name varchar(128) not null,
        outcome varchar(16) not null check (outcome in ('applied', 'duplicate', 'ignored', 'anomaly', 'unmatched')),
        reason text null,
        subject_type varchar(16) null check (subject_type in ('deposit', 'refund', 'payout')),
        subject_id varchar(30) null,
        raw_body text not null,
        received_at timestamptz not null,
        constraint webhook_delivery_event_unique unique (provider, merchant_account, event_id)
      );
    `);
    this.addSql('create index webhook_delivery_subject_idx on webhook_delivery (subject_type, subject_id);');
  }

  override down(): void {
    this.addSql('drop table webhook_delivery;');
    this.addSql('drop table payment_event;');
    this.addSql('drop table deposit;');
  }
}
