// Refunds the provider reports that the gateway never requested, and withdrawals, which the
// gateway only hears about: both become subjects of the payment event log. Deliveries that wait
// for their payment to settle are kept as `deferred`.

import { Migration } from '@mikro-orm/migrations';

const SUBJECTS = "('deposit', 'refund', 'payout', 'withdrawal')";
const OLD_SUBJECTS = "('deposit', 'refund', 'payout')";
const OUTCOMES = "('applied', 'duplicate', 'ignored', 'anomaly', 'unmatched', 'rejected', 'deferred')";
const OLD_OUTCOMES = "('applied', 'duplicate', 'ignored', 'anomaly', 'unmatched', 'rejected')";

export class Migration20261121160000_provider_refunds_and_withdrawals extends Migration {
  override up(): void {
    // A refund made outside the gateway (the provider's dashboard) has no requesting client.
    this.addSql("alter table refund add column origin varchar(16) not null default 'GATEWAY' check (origin in ('GATEWAY', 'PROVIDER'));");
    this.addSql('alter table refund alter column client_id drop not null;');
    this.addSql("alter table refund add constraint refund_client_by_origin check ((origin = 'GATEWAY') = (client_id is not null));");
    // At most one refund row per provider refund of a deposit.
    this.addSql('create unique index refund_deposit_provider_reference_unique on refund (deposit_id, provider_reference) where provider_reference is not null;');

    this.addSql(`
      create table withdrawal (
        id varchar(30) primary key,
        provider varchar(32) not null check (provider in ('deposit-gateway', 'qr-gateway')),
        merchant_account varchar(64) not null,
        livemode boolean not null,
        provider_reference varchar(255) not null,
        status varchar(16) not null check (status in ('PENDING', 'PROCESSED', 'SUCCEEDED', 'FAILED')),
        provider_status varchar(64) not null,
        amount numeric(20, 2) null check (amount >= 0),
        currency varchar(3) null check (currency ~ '^[A-Z]{3}$'),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint withdrawal_amount_with_currency check ((amount is null) = (currency is null)),
        constraint withdrawal_provider_reference_unique unique (provider, merchant_account, provider_reference)
      );
    `);
    this.addSql('create index withdrawal_created_idx on withdrawal (created_at desc, id desc);');

    // A withdrawal belongs to the merchant, not to a client: its events are for admins only.
    this.addSql('alter table payment_event alter column client_id drop not null;');
    this.addSql('alter table payment_event drop constraint payment_event_subject_type_check;');
    this.addSql(`alter table payment_event add constraint payment_event_subject_type_check check (subject_type in ${SUBJECTS});`);
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_subject_type_check;');
    this.addSql(`alter table webhook_delivery add constraint webhook_delivery_subject_type_check check (subject_type in ${SUBJECTS});`);
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_outcome_check;');
    this.addSql(`alter table webhook_delivery add constraint webhook_delivery_outcome_check check (outcome in ${OUTCOMES});`);
  }

  override down(): void {
    this.addSql("update webhook_delivery set outcome = 'unmatched' where outcome = 'deferred';");
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_outcome_check;');
    this.addSql(`alter table webhook_delivery add constraint webhook_delivery_outcome_check check (outcome in ${OLD_OUTCOMES});`);
    this.addSql("delete from webhook_delivery where subject_type = 'withdrawal';");
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_subject_type_check;');
    this.addSql(`alter table webhook_delivery add constraint webhook_delivery_subject_type_check check (subject_type in ${OLD_SUBJECTS});`);
    this.addSql("delete from payment_event where subject_type = 'withdrawal';");
    this.addSql('alter table payment_event drop constraint payment_event_subject_type_check;');
    this.addSql(`alter table payment_event add constraint payment_event_subject_type_check check (subject_type in ${OLD_SUBJECTS});`);
    this.addSql('alter table payment_event alter column client_id set not null;');
    this.addSql('drop table withdrawal;');
    this.addSql('drop index refund_deposit_provider_reference_unique;');
    this.addSql('alter table refund drop constraint refund_client_by_origin;');
    this.addSql("delete from refund where origin = 'PROVIDER';");
    this.addSql('alter table refund alter column client_id set not null;');
    this.addSql('alter table refund drop column origin;');
  }
}
