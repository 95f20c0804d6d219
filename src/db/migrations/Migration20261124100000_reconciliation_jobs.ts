// Reconciliation runs as jobs of the job queue, whose lease is the only one: the reconciler's own
// row leases and its named lease go.

import { Migration } from '@mikro-orm/migrations';

/**
 * - `deposit.reconcile_lease_until` and `refund.reconcile_lease_until` become
 *   `reconcile_checked_at`: when the row's last check ended, which orders the rotation of due rows
 *   (least recently checked first) and keeps nobody off a row. A lease held the end of the last
 *   check plus the re-check pause (or, for a row being checked, the claim's end), so the order of
 *   the values is kept; a lease still in the future is read as a check ending now.
 * - `payout.reconcile_lease_until` goes: payouts already had `reconcile_checked_at` for their rotation.
 * - `reconciler_lease` goes: the payout pass of an account is one job, whose lease keeps a second
 *   instance off it.
 *
 * Checks that were in flight under a row lease when the old release stopped are simply due again:
 * the first sweep enqueues them like any other.
 */
export class Migration20261124100000_reconciliation_jobs extends Migration {
  override up(): void {
    for (const table of ['deposit', 'refund']) {
      this.addSql(`alter table ${table} rename column reconcile_lease_until to reconcile_checked_at;`);
      this.addSql(`update ${table} set reconcile_checked_at = now() where reconcile_checked_at > now();`);
    }
    this.addSql('alter table payout drop column reconcile_lease_until;');
    this.addSql('drop table reconciler_lease;');
  }

  override down(): void {
    // A last check's end, read as a lease, is in the past: every row is free to claim.
    this.addSql('create table reconciler_lease (name varchar(64) primary key, lease_until timestamptz not null);');
    this.addSql('alter table payout add column reconcile_lease_until timestamptz null;');
    for (const table of ['refund', 'deposit']) this.addSql(`alter table ${table} rename column reconcile_checked_at to reconcile_lease_until;`);
  }
}
