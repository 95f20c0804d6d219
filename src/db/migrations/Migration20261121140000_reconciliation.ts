// Reconciliation leases on deposits, and rejected webhook deliveries kept (without their body) for admins.

import { Migration } from '@mikro-orm/migrations';

/**
 * - `deposit.reconcile_lease_until`: a reconciler claims a deposit by moving it into the future, so
 *   instances sharing the database never check the same deposit at once; it also spaces re-checks.
 * - `reconciler_lease`: the same for work over a whole account (the payout list).
 * - `webhook_delivery`: outcome `rejected` (unverified deliveries, stored with no body), the body's
 *   SHA-256, and when a stored delivery was last replayed.
 */
export class Migration20261121140000_reconciliation extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column reconcile_lease_until timestamptz null;');
    // Partial: only deposits a reconciler may still pick up are indexed.
    this.addSql(`create index deposit_reconcile_idx on deposit (created_at) where status in ('PENDING', 'AUTHORIZED') and provider_reference is not null;`);
    // Named leases for reconciler work that covers a whole account (GET /payouts): one instance per interval.
    this.addSql('create table reconciler_lease (name varchar(64) primary key, lease_until timestamptz not null);');

    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_outcome_check;');
    this.addSql(
      `alter table webhook_delivery add constraint webhook_delivery_outcome_check check (outcome in ('applied', 'duplicate', 'ignored', 'anomaly', 'unmatched', 'rejected'));`,
    );
    this.addSql('alter table webhook_delivery add column body_sha256 varchar(64) null;');
    this.addSql('alter table webhook_delivery add column replayed_at timestamptz null;');
    // A rejected delivery keeps no body: unverified bytes are not trusted input.
    this.addSql(`alter table webhook_delivery add constraint webhook_delivery_rejected_without_body check (outcome <> 'rejected' or raw_body = '');`);
    this.addSql('create index webhook_delivery_received_idx on webhook_delivery (received_at desc, id desc);');
  }

  override down(): void {
    this.addSql('drop index webhook_delivery_received_idx;');
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_rejected_without_body;');
    this.addSql('alter table webhook_delivery drop column replayed_at;');
    this.addSql('alter table webhook_delivery drop column body_sha256;');
    this.addSql(`delete from webhook_delivery where outcome = 'rejected';`);
    this.addSql('alter table webhook_delivery drop constraint webhook_delivery_outcome_check;');
    this.addSql(
      `alter table webhook_delivery add constraint webhook_delivery_outcome_check check (outcome in ('applied', 'duplicate', 'ignored', 'anomaly', 'unmatched'));`,
    );
    this.addSql('drop table reconciler_lease;');
    this.addSql('drop index deposit_reconcile_idx;');
    this.addSql('alter table deposit drop column reconcile_lease_until;');
  }
}
