import { Migration } from '@mikro-orm/migrations';

/**
 * Retention of payments' personal data (docs/operations.md "Retention"): a final deposit's payer details and a
 * final payout's beneficiary name and full numbers are erased once the payment has not changed for
 * PERSONAL_DATA_RETENTION_MS.
 *
 * - `deposit.personal_data_erased_at`, `payout.personal_data_erased_at`: when retention erased the
 *   payment's personal data; null while it is kept.
 * - `deposit_personal_data_kept_idx`, `payout_personal_data_kept_idx`: the final payments whose
 *   personal data is still kept, by last change, which is what the erasure reads; rows leave them
 *   once erased, so after the first sweeps they hold the window's payments alone.
 *
 * Built in the start's migration transaction, which holds writes to both tables while it builds.
 * On large tables an operator adds the columns (instant: nullable, no default) and builds the
 * indexes beforehand without blocking writes, as the upgrade note in docs/operations.md says; `if not exists`
 * then finds them in place.
 */
export class Migration20261207100000_personal_data_retention extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column if not exists personal_data_erased_at timestamptz null;');
    this.addSql('alter table payout add column if not exists personal_data_erased_at timestamptz null;');
    this.addSql(
      "create index if not exists deposit_personal_data_kept_idx on deposit (updated_at, id) where personal_data_erased_at is null and status not in ('PENDING', 'AUTHORIZED');",
    );
    this.addSql("create index if not exists payout_personal_data_kept_idx on payout (updated_at, id) where personal_data_erased_at is null and status <> 'PENDING';");
  }

  override down(): void {
    this.addSql('drop index payout_personal_data_kept_idx;');
    this.addSql('drop index deposit_personal_data_kept_idx;');
    this.addSql('alter table payout drop column personal_data_erased_at;');
    this.addSql('alter table deposit drop column personal_data_erased_at;');
  }
}
